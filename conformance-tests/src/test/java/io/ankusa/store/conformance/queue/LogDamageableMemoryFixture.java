package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.LogCut;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The memory backend's fixture made to offer {@code logDamageInjection}: every batch written is
 * also appended to a pretend write-ahead log kept per directory, and {@link #damageLog} marks the
 * log damaged half-way. The next open of a damaged store then throws {@link
 * StoreCorruptionException} — or, in the mutant {@link Recovery#SILENT_WAL_DROP}, "recovers" up to
 * the damage the way point-in-time recovery does: it quietly removes every key put by a batch at or
 * after the damage, the bug {@code midLogDamageIsReportedNeverSilentlyDropped} exists for.
 *
 * <p>The pretend log can also be cut short ({@link #logCuts}, {@link #copyWithLogCut}; its offsets
 * count records), and a family can be flushed alone ({@link #flushFamily}): the log remembers how
 * many of its records the family's pretend files hold. A copy whose cut falls before what a flushed
 * family holds is refused at open, as a store whose log lost what a family's files depend on must
 * be; any other cut opens with the records before it. The mutant {@link
 * Recovery#FAMILIES_RECOVER_APART} recovers each family on its own instead, as RocksDB did with a
 * closed log cut short: a flushed family keeps its part of the batches the cut took from the
 * others, the bug {@code cutLogNeverSplitsABatchAcrossFamilies} exists for.
 */
final class LogDamageableMemoryFixture extends WrappingFixture {
  /** How a reopen recovers from a damaged or cut log. */
  enum Recovery {
    /** Mid-log damage and a cut behind a flushed family are refused at open. */
    HONEST,
    /** Mid-log damage drops every later batch without a word. */
    SILENT_WAL_DROP,
    /** A cut log is recovered family by family: a flushed family keeps what its files hold. */
    FAMILIES_RECOVER_APART
  }

  /**
   * The pretend log of each directory: its batches in order, where it was damaged (or -1), what was
   * flushed.
   */
  private static final class Log {
    final List<Batch> batches = new ArrayList<>();
    int damagedAt = -1;

    /** Per family flushed alone: how many of the log's first records its files hold. */
    final Map<String, Integer> flushedRecords = new HashMap<>();

    List<FamilySpec> families = List.of();

    /** Why the next open refuses the store (a cut behind a flushed family), or null. */
    String refusal;
  }

  private static final Map<Path, Log> LOGS = new ConcurrentHashMap<>();
  private final Recovery recovery;

  LogDamageableMemoryFixture(boolean silent) {
    this(silent ? Recovery.SILENT_WAL_DROP : Recovery.HONEST);
  }

  LogDamageableMemoryFixture(Recovery recovery) {
    super(
        recovery == Recovery.HONEST ? "log-damageable memory" : "memory mutant " + recovery,
        UnaryOperator.identity());
    this.recovery = recovery;
  }

  @Override
  public boolean logDamageInjection() {
    return true;
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    Log log = LOGS.computeIfAbsent(key(dir), d -> new Log());
    Store store = super.open(dir, families);
    synchronized (log) {
      log.families = List.copyOf(families);
      if (log.refusal != null) {
        store.close();
        throw new StoreCorruptionException(log.refusal);
      }
      if (log.damagedAt >= 0) {
        if (recovery != Recovery.SILENT_WAL_DROP) {
          store.close();
          throw new StoreCorruptionException(
              "the write-ahead log of "
                  + dir
                  + " is damaged at record "
                  + log.damagedAt
                  + " of "
                  + log.batches.size()
                  + " (injected by the conformance self-test)");
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
      throw new IllegalStateException(
          "the pretend log of " + dir + " holds too few batches to damage its middle");
    }
    synchronized (log) {
      log.damagedAt = log.batches.size() / 2;
    }
  }

  /** The family's pretend files now hold every record of the log so far. */
  @Override
  public void flushFamily(Store store, String family) {
    Log log = LOGS.get(key(store.directory()));
    synchronized (log) {
      log.flushedRecords.put(family, log.batches.size());
    }
  }

  /** The start of every record and a point inside it; the offset counts records. */
  @Override
  public List<LogCut> logCuts(Path dir) {
    Log log = LOGS.get(key(dir));
    List<LogCut> cuts = new ArrayList<>();
    synchronized (log) {
      int n = log.batches.size();
      for (int i = 0; i < n; i++) {
        cuts.add(new LogCut("pretend log", i, "the start of record " + i, n - i));
        cuts.add(new LogCut("pretend log", i, "inside record " + i, n - i));
      }
    }
    return cuts;
  }

  /**
   * The copy's log holds the records before the cut. Honestly, a cut before what a flushed family
   * holds makes the copy refuse to open; otherwise the copy's store holds those records. With
   * {@link Recovery#FAMILIES_RECOVER_APART} each family keeps the records before the cut and what
   * its files hold.
   */
  @Override
  public void copyWithLogCut(Path dir, Path copy, LogCut cut) {
    Log log = LOGS.get(key(dir));
    Log copied = new Log();
    List<Batch> recovered = new ArrayList<>();
    synchronized (log) {
      int kept = (int) cut.offset();
      copied.families = log.families;
      copied.batches.addAll(log.batches.subList(0, kept));
      int ahead = log.flushedRecords.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      if (recovery != Recovery.FAMILIES_RECOVER_APART && ahead > kept) {
        copied.refusal =
            "the pretend log of "
                + copy
                + " was cut at record "
                + kept
                + ", behind the "
                + ahead
                + " records a flushed family holds (injected by the conformance self-test)";
      } else {
        for (int i = 0; i < log.batches.size(); i++) {
          Batch b = new Batch();
          for (Op op : log.batches.get(i).ops()) {
            if (i < kept || i < log.flushedRecords.getOrDefault(op.family(), 0)) {
              b.add(op);
            }
          }
          if (!b.isEmpty()) {
            recovered.add(b);
          }
        }
      }
    }
    LOGS.put(key(copy), copied);
    if (!recovered.isEmpty()) {
      try (Store store = super.open(copy, copied.families)) {
        recovered.forEach(b -> store.write(b, Durability.SYNC));
      }
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
