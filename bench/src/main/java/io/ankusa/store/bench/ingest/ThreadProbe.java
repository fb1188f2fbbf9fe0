package io.ankusa.store.bench.ingest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Where a target's time goes during a round, without a profiler: the CPU time the JVM charges to a
 * set of threads (chosen by name) between {@link #start} and {@link #stop}, and — sampled by a
 * daemon thread every 0.5 ms — the share of samples in which any of them was {@code RUNNABLE} (on a
 * CPU, in a native call such as RocksDB's write or fsync, or waiting for a CPU) rather than parked.
 * A pipeline stage whose busy share is near 1 is the bottleneck; CPU time well below its busy time
 * means it waited in native code (the disk) or for a CPU.
 */
final class ThreadProbe {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  /**
   * What the probe saw.
   *
   * @param cpuMillis CPU time of the threads in the window, summed
   * @param busyShare share of samples in which a probed thread was RUNNABLE (one thread: its busy
   *     share)
   * @param threads how many threads matched
   */
  record Reading(double cpuMillis, double busyShare, int threads) {}

  private final List<Thread> threads = new ArrayList<>();
  private final long[] cpuAtStart;
  private volatile boolean sampling = true;
  private long samples;
  private long busy;
  private final Thread sampler;

  private ThreadProbe(List<Thread> threads) {
    this.threads.addAll(threads);
    this.cpuAtStart = new long[threads.size()];
    this.sampler = new Thread(this::sample, "ingest-thread-probe");
    this.sampler.setDaemon(true);
  }

  /** Starts probing the live threads whose name {@code names} accepts. */
  static ThreadProbe start(Predicate<String> names) {
    List<Thread> found = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (names.test(t.getName())) {
        found.add(t);
      }
    }
    ThreadProbe p = new ThreadProbe(found);
    for (int i = 0; i < found.size(); i++) {
      p.cpuAtStart[i] = Math.max(0, MX.getThreadCpuTime(found.get(i).getId()));
    }
    p.sampler.start();
    return p;
  }

  private void sample() {
    while (sampling) {
      boolean any = false;
      for (Thread t : threads) {
        if (t.getState() == Thread.State.RUNNABLE) {
          any = true;
          break;
        }
      }
      synchronized (this) {
        samples++;
        if (any) {
          busy++;
        }
      }
      LockSupport.parkNanos(500_000);
    }
  }

  /** Stops the sampler and reads the CPU times. */
  Reading stop() throws InterruptedException {
    sampling = false;
    sampler.join();
    long cpu = 0;
    for (int i = 0; i < threads.size(); i++) {
      long now = MX.getThreadCpuTime(threads.get(i).getId());
      if (now > 0) {
        cpu += now - cpuAtStart[i];
      }
    }
    synchronized (this) {
      return new Reading(cpu / 1e6, samples == 0 ? 0 : (double) busy / samples, threads.size());
    }
  }
}
