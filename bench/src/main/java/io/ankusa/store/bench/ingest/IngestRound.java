package io.ankusa.store.bench.ingest;

import io.ankusa.store.queue.IngestRequest;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One measured round of the ingest bench against one {@link IngestTarget}: {@code producers}
 * threads, each keeping up to {@code window} requests outstanding (a semaphore released by the
 * ack), send hooks of {@code payloadBytes} random bytes for one sink (sink 1) of a tenant drawn
 * uniformly from {@code tenants} ({@code "tenant-1"} …), each with a unique idempotency key. After
 * a settle period the round counts the acks (stored hooks) completed in a window of {@code seconds}
 * and the ack latency (submit to future completion) of every ack completed in it, then stops the
 * producers and waits for every outstanding answer.
 *
 * @param producers producer threads
 * @param window most outstanding requests per producer
 * @param tenants distinct tenants the hooks are spread over
 * @param payloadBytes payload size of every hook
 * @param settleMillis ingest before the measured window starts (queues fill, JIT settles)
 * @param measureMillis the measured window
 */
record IngestRound(
    int producers,
    int window,
    int tenants,
    int payloadBytes,
    long settleMillis,
    long measureMillis) {

  /**
   * What one round measured.
   *
   * @param hooksPerSecond stored hooks acknowledged per second in the window
   * @param p50Micros ack latency median, µs
   * @param p99Micros ack latency 99th percentile, µs
   * @param groups groups written in the window
   * @param syncs syncs returned in the window
   * @param failures answers other than a stored hook in the whole round (should be 0)
   * @param writer the writer thread in the window
   * @param syncer the syncer thread in the window
   * @param producers the producer threads in the window
   * @param cpuMillisByThread CPU ms in the window per thread group of the process, native threads
   *     included ({@link TaskCpu}), largest first; empty off Linux
   */
  record Result(
      double hooksPerSecond,
      long p50Micros,
      long p99Micros,
      long groups,
      long syncs,
      long failures,
      ThreadProbe.Reading writer,
      ThreadProbe.Reading syncer,
      ThreadProbe.Reading producers,
      double windowSeconds,
      double processCpuMillis,
      Map<String, Long> cpuMillisByThread) {
    /**
     * CPU µs per stored hook of the whole process in the window: every thread, also the compiler's,
     * the collector's and RocksDB's own; -1 where the JVM does not report process CPU. On a machine
     * whose cores are all busy, this, not the writer thread's, is what throughput answers to.
     */
    double processCpuMicrosPerHook() {
      double hooks = hooksPerSecond * windowSeconds;
      return processCpuMillis < 0 ? -1 : hooks == 0 ? 0 : processCpuMillis * 1000 / hooks;
    }

    /** CPU µs per stored hook charged to {@code r}'s threads. */
    double cpuMicrosPerHook(ThreadProbe.Reading r) {
      double hooks = hooksPerSecond * windowSeconds;
      return hooks == 0 ? 0 : r.cpuMillis() * 1000 / hooks;
    }

    /** CPU µs per stored hook of each thread group ({@link #cpuMillisByThread}), largest first. */
    Map<String, Double> cpuMicrosPerHookByThread() {
      double hooks = hooksPerSecond * windowSeconds;
      Map<String, Double> perHook = new LinkedHashMap<>();
      cpuMillisByThread.forEach(
          (group, ms) -> perHook.put(group, hooks == 0 ? 0 : ms * 1000 / hooks));
      return perHook;
    }

    /** Syncs per group in the window; 0 with no group. */
    double syncsPerGroup() {
      return groups == 0 ? 0 : (double) syncs / groups;
    }

    /** Hooks per group in the window. */
    double hooksPerGroup(double windowSeconds) {
      return groups == 0 ? 0 : hooksPerSecond * windowSeconds / groups;
    }
  }

  /**
   * Runs the round against {@code target}. {@code runTag} makes the idempotency keys unique across
   * rounds on the same store.
   */
  Result run(IngestTarget target, String runTag) throws InterruptedException {
    Recorder latency = new Recorder(3);
    LongAdder acked = new LongAdder();
    LongAdder failures = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    List<Semaphore> windows = new ArrayList<>();
    AtomicBoolean producing = new AtomicBoolean(true);
    for (int p = 0; p < producers; p++) {
      Semaphore w = new Semaphore(window);
      windows.add(w);
      int id = p;
      Thread t =
          new Thread(
              () -> produce(target, runTag, id, w, producing, latency, acked, failures),
              "ingest-producer-" + p);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    Thread.sleep(settleMillis);
    latency.getIntervalHistogram(); // drop the settle period
    long a0 = acked.sum();
    long g0 = target.groups();
    long s0 = target.syncs();
    ThreadProbe writerProbe = ThreadProbe.start(target.writerThread()::equals);
    ThreadProbe syncerProbe = ThreadProbe.start(target.syncerThread()::equals);
    ThreadProbe producerProbe = ThreadProbe.start(n -> n.startsWith("ingest-producer-"));
    long cpu0 = processCpuNanos();
    TaskCpu.Reading tasks0 = TaskCpu.read();
    long t0 = System.nanoTime();
    Thread.sleep(measureMillis);
    long cpu1 = processCpuNanos();
    TaskCpu.Reading tasks1 = TaskCpu.read();
    long a1 = acked.sum();
    long g1 = target.groups();
    long s1 = target.syncs();
    long t1 = System.nanoTime();
    Histogram h = latency.getIntervalHistogram();
    ThreadProbe.Reading writerReading = writerProbe.stop();
    ThreadProbe.Reading syncerReading = syncerProbe.stop();
    ThreadProbe.Reading producerReading = producerProbe.stop();
    producing.set(false);
    for (Thread t : threads) {
      t.join();
    }
    for (Semaphore w : windows) {
      if (!w.tryAcquire(window, 60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            target.name() + ": answers still missing 60 s after the round ended");
      }
    }
    double secs = (t1 - t0) / 1e9;
    return new Result(
        (a1 - a0) / secs,
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(99),
        g1 - g0,
        s1 - s0,
        failures.sum(),
        writerReading,
        syncerReading,
        producerReading,
        secs,
        cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / 1e6,
        tasks1.millisSince(tasks0));
  }

  /** CPU time of this process so far, in ns; -1 where the JVM does not report it. */
  static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  private void produce(
      IngestTarget target,
      String runTag,
      int id,
      Semaphore window,
      AtomicBoolean producing,
      Recorder latency,
      LongAdder acked,
      LongAdder failures) {
    SplittableRandom random = new SplittableRandom(runTag.hashCode() * 31L + id);
    byte[][] payloads = new byte[16][payloadBytes];
    for (byte[] payload : payloads) {
      random.nextBytes(payload);
    }
    List<Integer> sinks = List.of(1);
    String prefix = runTag + "-p" + id + "-";
    long n = 0;
    while (producing.get()) {
      try {
        if (!window.tryAcquire(10, TimeUnit.MILLISECONDS)) {
          continue;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      String key = prefix + n;
      String tenant = "tenant-" + (1 + random.nextInt(tenants));
      IngestRequest request =
          new IngestRequest(
              tenant,
              "bench",
              key,
              key,
              System.currentTimeMillis(),
              sinks,
              payloads[(int) (n & 15)]);
      n++;
      long sent = System.nanoTime();
      CompletableFuture<?> f = target.submit(request);
      f.whenComplete(
          (answer, error) -> {
            if (error == null && IngestTarget.stored(answer)) {
              latency.recordValue(Math.max(0, (System.nanoTime() - sent) / 1_000));
              acked.increment();
            } else {
              failures.increment();
            }
            window.release();
          });
    }
  }
}
