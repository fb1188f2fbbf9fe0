package io.ankusa.store.archive.chronicle;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

/**
 * How often the archive starts a new cycle file ({@code yyyyMMddF.cq4} or {@code
 * yyyyMMdd-HHF.cq4}): the unit in which old archive files can be moved away or deleted. Only the
 * two cycles known to work with Chronicle Queue 2026.4 are offered; its weekly cycle is broken (a
 * tailer reads nothing, see docs/archive.md, 'The Chronicle sink'), so it is deliberately absent.
 *
 * <p>The cycle is fixed when the archive directory is created: opening an existing archive with
 * another cycle keeps the stored one (Chronicle reads it from {@code metadata.cq4t}) and logs a
 * warning.
 */
public enum ArchiveRollCycle {
  /** One file per UTC day ({@link RollCycles#FAST_DAILY}). The default choice. */
  DAILY(RollCycles.FAST_DAILY),
  /** One file per UTC hour ({@link RollCycles#FAST_HOURLY}), for archives that grow fast. */
  HOURLY(RollCycles.FAST_HOURLY);

  private final RollCycles chronicleCycle;

  ArchiveRollCycle(RollCycles chronicleCycle) {
    this.chronicleCycle = chronicleCycle;
  }

  /** The Chronicle roll cycle this maps to. */
  RollCycle chronicleCycle() {
    return chronicleCycle;
  }
}
