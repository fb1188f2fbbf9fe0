package io.ankusa.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durability across a kill -9 of the whole cluster: a writer thread writes batches (a row and a
 * counter merge each) — every third {@code SYNC}, every third {@code NO_SYNC} followed by {@code
 * syncWal()}, every third {@code NO_SYNC} alone — while every member is SIGKILLed at once,
 * mid-stream, then restarted from its data directory. The members run with etcd's own fsync of
 * their log. After each crash: every batch acknowledged (for etcd even a {@code NO_SYNC} one: it is
 * on a quorum's disks when it returns, so the check counts every returned write) is there, and
 * nothing is half-applied (the counter equals the number of rows, and the rows are exactly {@code 0
 * .. counter-1}). The seed ({@code ankusa.seed}) sets the crash moments; {@code
 * ankusa.etcd.crash.cycles} the number of crashes.
 */
class ClusterCrashDurabilityTest {
  static final java.util.List<FamilySpec> FAMILIES =
      java.util.List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));
  private static final byte[] TOTAL = {0};

  @TempDir Path dir;

  private static final Logger LOG = LoggerFactory.getLogger(ClusterCrashDurabilityTest.class);

  @Test
  void everyReturnedWriteSurvivesAKillOfEveryMember() throws Exception {
    LocalEtcdCluster cluster = TestCluster.disruptable();
    int cycles = Integer.getInteger("ankusa.etcd.crash.cycles", 2);
    long seed = Long.getLong("ankusa.seed", System.nanoTime());
    Random random = new Random(seed);

    Path store = Files.createDirectories(dir.resolve("store"));
    long checked = 0;
    try {
      for (int cycle = 1; cycle <= cycles; cycle++) {
        String what = "crash " + cycle + " of " + cycles + " (-Dankusa.seed=" + seed + ")";
        AtomicLong durableUpTo = new AtomicLong(-1);
        AtomicReference<Throwable> stopped = new AtomicReference<>();
        Store s = new EtcdStoreProvider().open(store, TestCluster.options(cluster), FAMILIES);
        java.util.concurrent.atomic.AtomicBoolean stop =
            new java.util.concurrent.atomic.AtomicBoolean();
        Thread writer = new Thread(() -> write(s, durableUpTo, stopped, stop), "crash-test-writer");
        writer.start();
        Thread.sleep(300 + random.nextInt(700));
        cluster.killAll();
        cluster.restartAll();
        Thread.sleep(
            500); // a write in flight at the kill is sent again to the restarted cluster, or fails
        stop.set(true);
        writer.join(60_000);
        assertThat(writer.isAlive()).as("%s: the writer stopped after the crash", what).isFalse();
        if (stopped.get() != null) {
          assertThat(stopped.get())
              .as("%s: the writer stopped on a StoreException", what)
              .isInstanceOf(StoreException.class);
        }
        closeQuietly(s);
        long acked = durableUpTo.get() + 1;
        assertThat(acked).as("%s: batches were acknowledged before it", what).isPositive();
        try (Store reopened =
            new EtcdStoreProvider().open(store, TestCluster.options(cluster), FAMILIES)) {
          long total = reopened.counter("counts", TOTAL);
          assertThat(total)
              .as("%s: the counter covers every acknowledged batch", what)
              .isGreaterThanOrEqualTo(acked);
          long rows = 0;
          try (Scan scan = reopened.scan("rows", new byte[0], null, Direction.FORWARD)) {
            while (scan.hasNext()) {
              Entry e = scan.next();
              assertThat(ByteBuffer.wrap(e.key()).getInt())
                  .as("%s: rows are 0 .. counter-1, in order", what)
                  .isEqualTo((int) rows);
              rows++;
            }
          }
          assertThat(rows)
              .as("%s: rows and counter moved together (nothing half-applied)", what)
              .isEqualTo(total);
          LOG.info(
              "{}: {} batches acknowledged as durable before the crash, {} found after it, none half-applied",
              what,
              acked,
              total);
          checked = acked;
        }
      }
      assertThat(checked).isPositive();
    } finally {
      cluster.restartAll();
    }
  }

  /**
   * Writes until a write fails or {@code stop}; {@code durableUpTo} is the last batch acknowledged
   * as durable.
   */
  private static void write(
      Store s,
      AtomicLong durableUpTo,
      AtomicReference<Throwable> stopped,
      java.util.concurrent.atomic.AtomicBoolean stop) {
    try {
      int i = (int) s.counter("counts", TOTAL);
      while (!stop.get()) {
        Batch b = new Batch().put("rows", key(i), new byte[100]).merge("counts", TOTAL, 1);
        switch (i % 3) {
          case 0 -> {
            s.write(b, Durability.SYNC);
            durableUpTo.set(i);
          }
          case 1 -> {
            s.write(b, Durability.NO_SYNC);
            s.syncWal();
            durableUpTo.set(i);
          }
          default -> {
            s.write(b, Durability.NO_SYNC); // on etcd durable at once: on a quorum's fsynced logs
            durableUpTo.set(i);
          }
        }
        i++;
      }
    } catch (Throwable t) {
      stopped.set(t);
    }
  }

  private static void closeQuietly(Store s) {
    try {
      s.close();
    } catch (RuntimeException e) {
      // its connections died with the server
    }
  }

  static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }
}
