package io.ankusa.store.queue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.DueKey;
import org.junit.jupiter.api.Test;

/**
 * The dispatch cursors' table on its own: which calls make an entry, and that a queue with more
 * tenants than {@link DueCursors#KEPT_DRAINED} keeps the cursors of the tenants its ticks scan. The
 * claims these cursors skip are covered on every backend by the dispatch conformance cases.
 */
class DueCursorsTest {
  private static final long SCANNED = 1;

  /**
   * Puts to many tenants that no tick scans make no entries, so the cursor of a tenant that drains
   * on every tick is kept: before, each put made an entry, a queue past {@link
   * DueCursors#KEPT_DRAINED} written tenants forgot every drained cursor, and each tick of such a
   * tenant walked its earlier claims' tombstones from its first key.
   */
  @Test
  void putsToTenantsNoTickScansDoNotEvictTheCursorsOfTenantsItDoes() {
    DueCursors cursors = new DueCursors();
    for (long ord = 100; ord < 100 + DueCursors.KEPT_DRAINED + 10; ord++) {
      cursors.lower(ord, 1_000);
    }
    assertThat(cursors.peek(100))
        .as("a tenant only written to has no cursor: its scan starts at its first key")
        .isNull();
    assertThat(cursors.start(SCANNED)).isNull();
    DueKey drainedAt = new DueKey(SCANNED, 5_000, 42, 0);
    cursors.evict(SCANNED, drainedAt);
    assertThat(cursors.peek(SCANNED))
        .as("the drained tenant keeps its cursor")
        .isEqualTo(drainedAt);
    assertThat(cursors.start(SCANNED)).as("and its next scan starts there").isEqualTo(drainedAt);
  }

  /**
   * A scan of a tenant that had no entry gets one, so a put landing behind it while it scans is
   * recorded and the cursor stops at that put, not where the scan stopped.
   */
  @Test
  void aPutDuringTheFirstScanOfATenantHoldsItsCursorBack() {
    DueCursors cursors = new DueCursors();
    assertThat(cursors.start(SCANNED)).isNull();
    cursors.lower(SCANNED, 2_000);
    cursors.advance(SCANNED, new DueKey(SCANNED, 9_000, 7, 0));
    assertThat(cursors.peek(SCANNED)).isEqualTo(new DueKey(SCANNED, 2_000, 0, 0));
  }

  /** A put behind a positioned cursor moves it back; one ahead of it leaves it. */
  @Test
  void aPutBehindTheCursorMovesItBackAndOneAheadDoesNot() {
    DueCursors cursors = new DueCursors();
    cursors.start(SCANNED);
    cursors.advance(SCANNED, new DueKey(SCANNED, 5_000, 3, 0));
    cursors.lower(SCANNED, 8_000);
    assertThat(cursors.peek(SCANNED)).isEqualTo(new DueKey(SCANNED, 5_000, 3, 0));
    cursors.lower(SCANNED, 4_000);
    assertThat(cursors.peek(SCANNED)).isEqualTo(new DueKey(SCANNED, 4_000, 0, 0));
  }
}
