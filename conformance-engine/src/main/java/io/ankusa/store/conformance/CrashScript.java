package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The writes of the crash case ({@link CrashCases}) and the check of what a store holds after the
 * crash, the same whether the writer is a child process that is killed ({@link CrashChild}) or the
 * case itself before a simulated crash ({@link BackendFixture#crash}):
 *
 * <ol>
 *   <li>{@value #SYNC_BATCHES} {@code SYNC} batches of 4 puts and a merge, each acknowledged
 *       ({@code sync N}) when its write returned;
 *   <li>{@value #WAL_ROUNDS} rounds of {@value #WAL_BATCHES} {@code NO_SYNC} batches and a
 *       {@code syncWal()}, each round acknowledged ({@code wal N}) when the sync returned;
 *   <li>batches of {@value #BIG_BATCH_BYTES} bytes of values ({@code begin N} before the write,
 *       {@code wrote N} after), every even one followed by a {@code syncWal()} ({@code synced N}).
 * </ol>
 *
 * After the crash every acknowledged batch must be there, and every big batch either whole or absent
 * — never the part an engine committed when a buffer filled half-way through it.
 */
final class CrashScript {
  static final int SYNC_BATCHES = 20;
  static final int WAL_ROUNDS = 10;
  static final int WAL_BATCHES = 3;
  /** The values of one big batch: several MiB, more than an engine's write buffer typically holds. */
  static final int BIG_BATCH_BYTES = 4 << 20;

  private final int valueBytes;
  private final int bigBatchKeys;

  /** A script for a backend accepting values of up to {@code maxValueBytes}. */
  CrashScript(int maxValueBytes) {
    this.valueBytes = Math.min(16 * 1024, maxValueBytes);
    this.bigBatchKeys = BIG_BATCH_BYTES / valueBytes;
  }

  /** Where the writer says what it did: an event name and its number. */
  interface Log {
    void said(String event, int n);
  }

  /** Writes and acknowledges the {@code SYNC} batches and the {@code syncWal()} rounds. */
  void writeAcknowledged(Store store, Log log) {
    for (int i = 0; i < SYNC_BATCHES; i++) {
      store.write(syncBatch(i), Durability.SYNC);
      log.said("sync", i);
    }
    for (int r = 0; r < WAL_ROUNDS; r++) {
      for (int j = 0; j < WAL_BATCHES; j++) {
        store.write(walBatch(r, j), Durability.NO_SYNC);
      }
      store.syncWal();
      log.said("wal", r);
    }
  }

  /** Writes big batch {@code g} {@code NO_SYNC}, then syncs the log when {@code g} is even. */
  void writeBig(Store store, int g, Log log) {
    Batch batch = new Batch();
    for (int i = 0; i < bigBatchKeys; i++) {
      batch.put(EngineCase.PLAIN, key("big/%05d/%06d", g, i), bigValue(g, i));
    }
    log.said("begin", g);
    store.write(batch, Durability.NO_SYNC);
    log.said("wrote", g);
    if (g % 2 == 0) {
      store.syncWal();
      log.said("synced", g);
    }
  }

  /** What the writer said, in a form the check reads; lines are {@code event n}. Thread-safe. */
  static final class Record implements Log {
    private final Map<String, Set<Integer>> events = new HashMap<>();
    private String last = "nothing";

    @Override
    public synchronized void said(String event, int n) {
      events.computeIfAbsent(event, e -> new TreeSet<>()).add(n);
      last = event + " " + n;
    }

    /** Records one line a child printed; false if it is not an event. */
    boolean parse(String line) {
      String[] f = line.split(" ");
      if (f.length != 2 || !f[1].chars().allMatch(Character::isDigit) || f[1].isEmpty()) {
        return false;
      }
      said(f[0], Integer.parseInt(f[1]));
      return true;
    }

    synchronized Set<Integer> of(String event) {
      return Set.copyOf(events.getOrDefault(event, Set.of()));
    }

    /** The last event said: what the crash interrupted. */
    synchronized String last() {
      return last;
    }

    @Override
    public synchronized String toString() {
      return "acknowledged " + of("sync").size() + " SYNC batches and " + of("wal").size() + " syncWal rounds; big batches"
          + " begun " + of("begin") + ", written " + of("wrote") + ", synced " + of("synced") + "; last: " + last;
    }
  }

  /**
   * Checks {@code store}, reopened after the crash, against what the writer acknowledged; {@code when}
   * says how the crash happened. Returns how many big batches were found whole.
   */
  int check(Store store, Record record, String when) {
    for (int i : record.of("sync")) {
      assertBatch(store, syncBatch(i), "SYNC batch " + i + " (acknowledged)", when);
    }
    assertThat(store.counter(EngineCase.COUNTERS, key("sync", 0, 0)))
        .as("%s: the counter every SYNC batch added 1 to, with %d acknowledged", when, record.of("sync").size())
        .isGreaterThanOrEqualTo(record.of("sync").size());
    for (int r : record.of("wal")) {
      for (int j = 0; j < WAL_BATCHES; j++) {
        assertBatch(store, walBatch(r, j), "NO_SYNC batch " + j + " of round " + r + ", covered by a returned syncWal()", when);
      }
    }
    int whole = 0;
    for (int g : record.of("begin")) {
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < bigBatchKeys; i++) {
        keys.add(key("big/%05d/%06d", g, i));
      }
      List<byte[]> values = store.multiGet(EngineCase.PLAIN, keys);
      List<Integer> present = new ArrayList<>();
      for (int i = 0; i < bigBatchKeys; i++) {
        byte[] v = values.get(i);
        if (v != null) {
          assertThat(Arrays.equals(v, bigValue(g, i))).as("%s: value %d of big batch %d is the one written", when, i, g).isTrue();
          present.add(i);
        }
      }
      String what = String.format("%s: big batch %d (%d values, %d MiB; %s) must be wholly there or wholly absent;"
          + " %d of its values are there (first: %s, last: %s)", when, g, bigBatchKeys, BIG_BATCH_BYTES >> 20,
          record.of("synced").contains(g) ? "covered by a returned syncWal()" : "written NO_SYNC, not synced",
          present.size(), present.isEmpty() ? "-" : present.get(0), present.isEmpty() ? "-" : present.get(present.size() - 1));
      if (record.of("synced").contains(g)) {
        assertThat(present.size()).as(what).isEqualTo(bigBatchKeys);
      } else {
        assertThat(present.size()).as(what).isIn(0, bigBatchKeys);
      }
      if (present.size() == bigBatchKeys) {
        whole++;
      }
    }
    return whole;
  }

  private static void assertBatch(Store store, Batch batch, String what, String when) {
    batch.forEach(new OpHandler<RuntimeException>() {
      @Override
      public void put(Op.Put p) {
        assertThat(store.get(p.family(), p.key())).as("%s: a put of %s is there", when, what).isEqualTo(p.value());
      }

      @Override
      public void delete(Op.Delete d) {} // the script writes none

      @Override
      public void deleteRange(Op.DeleteRange r) {} // the script writes none

      @Override
      public void merge(Op.Merge m) {} // checked as a counter: merges of unacknowledged batches may be there too
    });
  }

  private static Batch syncBatch(int i) {
    Batch b = new Batch();
    for (int k = 0; k < 4; k++) {
      b.put(EngineCase.PLAIN, key("sync/%03d/%d", i, k), ("SYNC batch " + i + " put " + k).getBytes(StandardCharsets.UTF_8));
    }
    return b.merge(EngineCase.COUNTERS, key("sync", 0, 0), 1);
  }

  private static Batch walBatch(int round, int j) {
    Batch b = new Batch();
    for (int k = 0; k < 2; k++) {
      b.put(EngineCase.PLAIN, key("wal/%03d/%d/" + k, round, j),
          ("NO_SYNC batch " + j + " of round " + round + " put " + k).getBytes(StandardCharsets.UTF_8));
    }
    return b.merge(EngineCase.COUNTERS, key("wal", 0, 0), 1);
  }

  private static byte[] key(String format, int a, int b) {
    return String.format(format, a, b).getBytes(StandardCharsets.UTF_8);
  }

  private byte[] bigValue(int g, int i) {
    byte[] v = new byte[valueBytes];
    Arrays.fill(v, (byte) (g * 31 + i));
    ByteBuffer.wrap(v).putInt(0, g).putInt(4, i); // values are at least 32 bytes (Capabilities)
    return v;
  }
}
