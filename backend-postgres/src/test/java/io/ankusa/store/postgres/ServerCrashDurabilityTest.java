package io.ankusa.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.postgres.embedded.EmbeddedServer;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durability across a crash of the server: a writer thread writes batches (a row and a counter
 * merge each) — every third {@code SYNC}, every third {@code NO_SYNC} followed by {@code
 * syncWal()}, every third {@code NO_SYNC} alone — while the embedded server is shut down the way
 * {@code pg_ctl stop -m immediate} does it (no checkpoint, no flush), mid-stream, then started
 * again. After each crash: every batch acknowledged as durable (a returned {@code SYNC} write, or
 * any batch before a returned {@code syncWal}) is there, and nothing is half-applied (the counter
 * equals the number of rows, and the rows are exactly {@code 0 .. counter-1}). The seed ({@code
 * ankusa.seed}) sets the crash moments; {@code ankusa.postgres.crash.cycles} the number of crashes.
 */
class ServerCrashDurabilityTest {
  static final java.util.List<FamilySpec> FAMILIES =
      java.util.List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));
  private static final byte[] TOTAL = {0};

  @TempDir Path dir;

  private static final Logger LOG = LoggerFactory.getLogger(ServerCrashDurabilityTest.class);

  @Test
  void acknowledgedBatchesSurviveAnImmediateShutdownOfTheServer() throws Exception {
    EmbeddedServer server = TestServer.embedded();
    Assumptions.assumeTrue(
        server != null,
        "the tests run against an external server ("
            + TestServer.URL
            + "), which they must not crash; the crash needs the embedded one");
    int cycles = Integer.getInteger("ankusa.postgres.crash.cycles", 3);
    long seed = Long.getLong("ankusa.seed", System.nanoTime());
    Random random = new Random(seed);
    BackendFixture fixture = new PostgresFixture();
    Path store = Files.createDirectories(dir.resolve("store"));
    long checked = 0;
    try {
      for (int cycle = 1; cycle <= cycles; cycle++) {
        String what = "crash " + cycle + " of " + cycles + " (-Dankusa.seed=" + seed + ")";
        AtomicLong durableUpTo = new AtomicLong(-1);
        AtomicReference<Throwable> stopped = new AtomicReference<>();
        Store s = fixture.open(store, FAMILIES);
        Thread writer = new Thread(() -> write(s, durableUpTo, stopped), "crash-test-writer");
        writer.start();
        Thread.sleep(150 + random.nextInt(450));
        server.crashAndRestart();
        writer.join(60_000);
        assertThat(writer.isAlive()).as("%s: the writer stopped after the crash", what).isFalse();
        assertThat(stopped.get())
            .as("%s: the writer stopped on a StoreException", what)
            .isInstanceOf(StoreException.class);
        closeQuietly(s);
        long acked = durableUpTo.get() + 1;
        assertThat(acked).as("%s: batches were acknowledged before it", what).isPositive();
        try (Store reopened = fixture.open(store, FAMILIES)) {
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
      fixture.discard(store);
    }
  }

  /** Writes until a write fails; {@code durableUpTo} is the last batch acknowledged as durable. */
  private static void write(Store s, AtomicLong durableUpTo, AtomicReference<Throwable> stopped) {
    try {
      int i = (int) s.counter("counts", TOTAL);
      while (true) {
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
          default ->
              s.write(b, Durability.NO_SYNC); // durable only once a later SYNC or syncWal returns
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
