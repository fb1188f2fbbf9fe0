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
 * The writes of the crash case ({@link CrashCases}) and of the power-cut case, and the check of
 * what a store holds after the crash, the same whether the writer is a child process that is killed
 * ({@link CrashChild}) or the case itself before a simulated crash ({@link BackendFixture#crash}).
 * The writer goes as far as its {@link KillPoint} and is stopped there:
 *
 * <ol>
 *   <li>{@value #SYNC_BATCHES} {@code SYNC} batches of 4 puts and a merge, each acknowledged
 *       ({@code sync N}) when its write returned ({@link KillPoint#AFTER_SYNC_WRITE} stops here,
 *       with no {@code syncWal()} after them);
 *   <li>{@value #WAL_ROUNDS} rounds of {@value #WAL_BATCHES} {@code NO_SYNC} batches and a {@code
 *       syncWal()}, each round acknowledged ({@code wal N}) when the sync returned; then ({@link
 *       KillPoint#BETWEEN_SYNC_WALS}) one more round begun ({@code walbegin N}) and not synced;
 *   <li>({@link KillPoint#INSIDE_GROUP_COMMIT}) {@value #GROUP_THREADS} threads writing {@code
 *       SYNC} batches of two puts at once, each acknowledged ({@code grp T*1000000+I}) when its
 *       write returned;
 *   <li>({@link KillPoint#INSIDE_BIG_BATCH}) batches of {@value #BIG_BATCH_BYTES} bytes of values
 *       ({@code begin N} before the write, {@code wrote N} after), every even one followed by a
 *       {@code syncWal()} ({@code synced N}).
 * </ol>
 *
 * After the crash every acknowledged batch must be there, and every other batch either whole or
 * absent — never the part an engine committed when a buffer filled half-way through it.
 */
final class CrashScript {
  static final int SYNC_BATCHES = 20;
  static final int WAL_ROUNDS = 10;
  static final int WAL_BATCHES = 3;

  /**
   * The values of one big batch: several MiB, more than an engine's write buffer typically holds.
   */
  static final int BIG_BATCH_BYTES = 4 << 20;

  /** The threads writing {@code SYNC} batches at once at {@link KillPoint#INSIDE_GROUP_COMMIT}. */
  static final int GROUP_THREADS = 4;

  /**
   * What a group batch's acknowledgement number counts per thread: {@code grp T*GROUP_STRIDE+I}.
   */
  private static final int GROUP_STRIDE = 1_000_000;

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
    writeSyncBatches(store, log);
    for (int r = 0; r < WAL_ROUNDS; r++) {
      writeWalRound(store, log, r);
      store.syncWal();
      log.said("wal", r);
    }
  }

  /** Writes and acknowledges the {@code SYNC} batches, and nothing after them. */
  void writeSyncBatches(Store store, Log log) {
    for (int i = 0; i < SYNC_BATCHES; i++) {
      store.write(syncBatch(i), Durability.SYNC);
      log.said("sync", i);
    }
  }

  /**
   * Writes round {@code r} of {@code NO_SYNC} batches ({@code walbegin r} first), without a sync.
   */
  void writeWalRound(Store store, Log log, int r) {
    log.said("walbegin", r);
    for (int j = 0; j < WAL_BATCHES; j++) {
      store.write(walBatch(r, j), Durability.NO_SYNC);
    }
  }

  /**
   * The writes before {@code point}: all of them for {@link KillPoint#AFTER_SYNC_WRITE} and {@link
   * KillPoint#BETWEEN_SYNC_WALS} (which then end with a round that is not synced); the acknowledged
   * batches before a group commit or a big batch.
   */
  void writeUpTo(Store store, Log log, KillPoint point) {
    switch (point) {
      case AFTER_SYNC_WRITE -> writeSyncBatches(store, log);
      case BETWEEN_SYNC_WALS -> {
        writeAcknowledged(store, log);
        writeWalRound(store, log, WAL_ROUNDS);
      }
      case INSIDE_GROUP_COMMIT, INSIDE_BIG_BATCH -> writeAcknowledged(store, log);
    }
  }

  /**
   * {@value #GROUP_THREADS} threads write {@code SYNC} batches at once, {@code perThread} each (or
   * until the process is killed, for {@link Integer#MAX_VALUE}); returns when they are done. A
   * thread that fails makes this throw its failure.
   */
  void writeGroups(Store store, Log log, int perThread) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < GROUP_THREADS; t++) {
      int thread = t;
      Thread writer =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < perThread; i++) {
                    store.write(groupBatch(thread, i), Durability.SYNC);
                    log.said("grp", thread * GROUP_STRIDE + i);
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "crash-script-group-" + t);
      threads.add(writer);
      writer.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a group writer failed: " + failures.get(0), failures.get(0));
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

    /**
     * How many batches the writer was told are durable: SYNC batches, synced rounds' batches, group
     * batches.
     */
    synchronized int acknowledgedBatches() {
      return of("sync").size()
          + of("wal").size() * WAL_BATCHES
          + of("grp").size()
          + of("synced").size();
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
      return "acknowledged "
          + of("sync").size()
          + " SYNC batches, "
          + of("wal").size()
          + " syncWal rounds (begun "
          + of("walbegin").size()
          + ") and "
          + of("grp").size()
          + " group-committed SYNC batches; big batches"
          + " begun "
          + of("begin")
          + ", written "
          + of("wrote")
          + ", synced "
          + of("synced")
          + "; last: "
          + last;
    }
  }

  /**
   * Checks {@code store}, reopened after the crash, against what the writer acknowledged; {@code
   * when} says how the crash happened. Returns how many big batches were found whole.
   */
  int check(Store store, Record record, String when) {
    for (int i : record.of("sync")) {
      assertBatch(store, syncBatch(i), "SYNC batch " + i + " (acknowledged)", when);
    }
    assertThat(store.counter(EngineCase.COUNTERS, key("sync", 0, 0)))
        .as(
            "%s: the counter every SYNC batch added 1 to, with %d acknowledged",
            when, record.of("sync").size())
        .isGreaterThanOrEqualTo(record.of("sync").size());
    for (int r : record.of("wal")) {
      for (int j = 0; j < WAL_BATCHES; j++) {
        assertBatch(
            store,
            walBatch(r, j),
            "NO_SYNC batch " + j + " of round " + r + ", covered by a returned syncWal()",
            when);
      }
    }
    for (int r : record.of("walbegin")) {
      if (!record.of("wal").contains(r)) {
        for (int j = 0; j < WAL_BATCHES; j++) {
          assertWholeOrAbsent(
              store,
              walBatch(r, j),
              "NO_SYNC batch " + j + " of round " + r + ", not synced",
              when);
        }
      }
    }
    Map<Integer, Set<Integer>> grouped = new HashMap<>();
    for (int n : record.of("grp")) {
      grouped.computeIfAbsent(n / GROUP_STRIDE, t -> new TreeSet<>()).add(n % GROUP_STRIDE);
    }
    for (Map.Entry<Integer, Set<Integer>> e : grouped.entrySet()) {
      int thread = e.getKey();
      int last = e.getValue().stream().mapToInt(Integer::intValue).max().orElse(-1);
      for (int i = 0; i <= last + 2; i++) {
        if (e.getValue().contains(i)) {
          assertBatch(
              store,
              groupBatch(thread, i),
              "SYNC batch " + i + " of group writer " + thread + " (acknowledged)",
              when);
        } else {
          assertWholeOrAbsent(
              store,
              groupBatch(thread, i),
              "SYNC batch " + i + " of group writer " + thread + " (in flight, not acknowledged)",
              when);
        }
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
          assertThat(Arrays.equals(v, bigValue(g, i)))
              .as("%s: value %d of big batch %d is the one written", when, i, g)
              .isTrue();
          present.add(i);
        }
      }
      String what =
          String.format(
              "%s: big batch %d (%d values, %d MiB; %s) must be wholly there or wholly absent;"
                  + " %d of its values are there (first: %s, last: %s)",
              when,
              g,
              bigBatchKeys,
              BIG_BATCH_BYTES >> 20,
              record.of("synced").contains(g)
                  ? "covered by a returned syncWal()"
                  : "written NO_SYNC, not synced",
              present.size(),
              present.isEmpty() ? "-" : present.get(0),
              present.isEmpty() ? "-" : present.get(present.size() - 1));
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
    batch.forEach(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            assertThat(store.get(p.family(), p.key()))
                .as("%s: a put of %s is there", when, what)
                .isEqualTo(p.value());
          }

          @Override
          public void delete(Op.Delete d) {} // the script writes none

          @Override
          public void deleteRange(Op.DeleteRange r) {} // the script writes none

          @Override
          public void merge(
              Op.Merge
                  m) {} // checked as a counter: merges of unacknowledged batches may be there too
        });
  }

  /** A batch not acknowledged: all of its puts there with their values, or none of them. */
  private static void assertWholeOrAbsent(Store store, Batch batch, String what, String when) {
    List<String> present = new ArrayList<>();
    int[] puts = {0};
    batch.forEach(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            puts[0]++;
            byte[] v = store.get(p.family(), p.key());
            if (v != null) {
              assertThat(v)
                  .as("%s: a put of %s holds the value written", when, what)
                  .isEqualTo(p.value());
              present.add(new String(p.key(), StandardCharsets.UTF_8));
            }
          }

          @Override
          public void delete(Op.Delete d) {}

          @Override
          public void deleteRange(Op.DeleteRange r) {}

          @Override
          public void merge(Op.Merge m) {}
        });
    assertThat(present.size())
        .as(
            "%s: %s must be wholly there or wholly absent; of its %d puts these are there: %s",
            when, what, puts[0], present)
        .isIn(0, puts[0]);
  }

  private static Batch groupBatch(int thread, int i) {
    Batch b = new Batch();
    for (int k = 0; k < 2; k++) {
      b.put(
          EngineCase.PLAIN,
          key("grp/%02d/%06d/" + k, thread, i),
          ("SYNC batch " + i + " of group writer " + thread + " put " + k)
              .getBytes(StandardCharsets.UTF_8));
    }
    return b;
  }

  private static Batch syncBatch(int i) {
    Batch b = new Batch();
    for (int k = 0; k < 4; k++) {
      b.put(
          EngineCase.PLAIN,
          key("sync/%03d/%d", i, k),
          ("SYNC batch " + i + " put " + k).getBytes(StandardCharsets.UTF_8));
    }
    return b.merge(EngineCase.COUNTERS, key("sync", 0, 0), 1);
  }

  private static Batch walBatch(int round, int j) {
    Batch b = new Batch();
    for (int k = 0; k < 2; k++) {
      b.put(
          EngineCase.PLAIN,
          key("wal/%03d/%d/" + k, round, j),
          ("NO_SYNC batch " + j + " of round " + round + " put " + k)
              .getBytes(StandardCharsets.UTF_8));
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
