package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.gate.GateCell;
import io.ankusa.store.bench.gate.QueuePopulation;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.DeliveryHandler;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.DispatchPolicy;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.runtime.AnswerCounts;
import io.ankusa.store.queue.internal.runtime.SyncSettler;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A claim → deliver cycle, two ways in one run. {@link #claimThenDeliver}, the direct path through
 * the queue's op builders: one {@link Dispatcher#tick} claiming up to {@value #ROWS_PER_TICK} due
 * rows (marker scan, per-tenant due scans, the claim batch, marker cleanup), then one {@code
 * NO_SYNC} batch of {@link Deliveries#delivered} for every row it claimed. {@link
 * #handlerDelivers}, the front door's path: the same tick with a synchronous {@link
 * DeliveryHandler} ({@link SyncSettler}), which reads the claimed rows' hooks with one {@code
 * multiGet}, hands the handler the deliveries, and writes its answers with their claims in the
 * tick's one batch. The queue holds {@value #REFILL_ROWS} due rows over 100 tenants, all active;
 * when fewer than a tick's worth are left, it is refilled outside the measured time. Target (read,
 * not asserted): the handler's path within 1.10× of the direct one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-XX:+IgnoreUnrecognizedVMOptions", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ClaimDeliverBench {
  /** Row limit of one tick. */
  public static final int ROWS_PER_TICK = 64;

  /** Rows added whenever the queue runs low. */
  public static final int REFILL_ROWS = 20_000;

  @Param({"memory", "rocksdb", "lmdb"})
  public String backend;

  private Path dir;
  private Store store;
  private DeliveryQueue queue;
  private Dispatcher dispatcher;
  private Dispatcher handing;
  private long due;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("ankusa-jmh-claim-");
    store = BenchStores.open(backend, dir.resolve("store"), Format3.families());
    queue = DeliveryQueue.open(store, QueueConfig.defaults());
    dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, ROWS_PER_TICK, 4L << 20);
    DeliveryHandler deliverAll = deliveries -> deliveries.forEach(Delivery::delivered);
    handing =
        new Dispatcher(
            queue,
            () -> Long.MAX_VALUE,
            ROWS_PER_TICK,
            4L << 20,
            DispatchPolicy.defaults(),
            new SyncSettler(queue, deliverAll, new AnswerCounts()));
    refill();
  }

  @Setup(Level.Invocation)
  public void refillWhenLow() {
    if (due < ROWS_PER_TICK) {
      refill();
    }
  }

  private void refill() {
    QueuePopulation.populate(
        queue, new GateCell("rows", REFILL_ROWS, 100, 100), System.currentTimeMillis());
    due += REFILL_ROWS;
  }

  @TearDown(Level.Trial)
  public void close() {
    store.close();
    FileTrees.deleteRecursively(dir);
  }

  /** One tick's claims, then their deliveries; returns the rows delivered. */
  @Benchmark
  public int claimThenDeliver() {
    Dispatcher.TickReport report = dispatcher.tick(System.currentTimeMillis());
    Transition t = new Transition();
    for (InflightRow row : report.claimed()) {
      Deliveries.delivered(t, row);
    }
    queue.write(t, Durability.NO_SYNC);
    due -= report.rowsClaimed();
    return report.rowsClaimed();
  }

  /**
   * One tick whose rows a synchronous handler is handed, with their hooks, and delivers; returns
   * the rows.
   */
  @Benchmark
  public int handlerDelivers() {
    Dispatcher.TickReport report = handing.tick(System.currentTimeMillis());
    due -= report.rowsClaimed();
    return report.rowsClaimed();
  }
}
