package io.ankusa.store.conformance;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The memory backend made to claim {@code logDamageInjection}: every batch written is also appended
 * to a pretend write-ahead log kept per directory, and {@link #damageLog} marks the log damaged
 * half-way. The next open of a damaged store then throws {@link StoreCorruptionException} — or, in
 * the mutant ({@code silent}), "recovers" up to the damage the way point-in-time recovery does: it
 * quietly removes every key put by a batch at or after the damage, the bug {@code
 * midLogDamageIsReportedNeverSilentlyDropped} exists for.
 */
final class LogDamageableMemoryFixture extends WrappingFixture {
  /** The pretend log of each directory: its batches in order, and where it was damaged (or -1). */
  private static final class Log {
    final List<Batch> batches = new ArrayList<>();
    int damagedAt = -1;
  }

  private static final Map<Path, Log> LOGS = new ConcurrentHashMap<>();
  private final boolean silent;

  LogDamageableMemoryFixture(boolean silent) {
    super(silent ? "memory mutant SILENT_WAL_DROP" : "log-damageable memory", UnaryOperator.identity());
    this.silent = silent;
  }

  @Override
  public Capabilities capabilities() {
    Capabilities c = super.capabilities();
    return new Capabilities(c.concurrentWriters(), c.snapshots(), c.durableAfterProcessKill(), c.detectsDamage(),
        c.filesInDirectory(), c.maxKeyBytes(), c.maxValueBytes(), true);
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    Log log = LOGS.computeIfAbsent(key(dir), d -> new Log());
    Store store = super.open(dir, families);
    synchronized (log) {
      if (log.damagedAt >= 0) {
        if (!silent) {
          store.close();
          throw new StoreCorruptionException("the write-ahead log of " + dir + " is damaged at record "
              + log.damagedAt + " of " + log.batches.size() + " (injected by the conformance self-test)");
        }
        Batch undo = new Batch();
        for (Batch b : log.batches.subList(log.damagedAt, log.batches.size())) {
          for (Op op : b.ops()) {
            if (op instanceof Op.Put p) {
              undo.delete(p.family(), p.key());
            }
          }
        }
        if (!undo.isEmpty()) {
          store.write(undo, Durability.SYNC);
        }
        log.batches.subList(log.damagedAt, log.batches.size()).clear();
        log.damagedAt = -1;
      }
    }
    return new ForwardingStore(store) {
      @Override
      public void write(Batch batch, Durability durability) {
        delegate.write(batch, durability);
        synchronized (log) {
          log.batches.add(batch);
        }
      }
    };
  }

  @Override
  public void damageLog(Path dir) {
    Log log = LOGS.get(key(dir));
    if (log == null || log.batches.size() < 2) {
      throw new IllegalStateException("the pretend log of " + dir + " holds too few batches to damage its middle");
    }
    synchronized (log) {
      log.damagedAt = log.batches.size() / 2;
    }
  }

  @Override
  public void discard(Path dir) {
    LOGS.remove(key(dir));
    super.discard(dir);
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }
}
