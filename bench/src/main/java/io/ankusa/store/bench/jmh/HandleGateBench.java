package io.ankusa.store.bench.jmh;

import io.ankusa.store.kit.HandleGate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What guarding an engine handle costs a read, apart from the engine: the shared side of a {@link
 * ReentrantReadWriteLock} (what the RocksDB and LMDB backends took before) against the backend
 * kit's {@link HandleGate}, around {@value #WORK_TOKENS} tokens of {@link Blackhole#consumeCPU}
 * that stand in for the read, on 1, 2 and 8 threads sharing one guard. {@code guard=none} is the
 * work alone, the baseline both are read against in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HandleGateBench {
  /** The stand-in for a read: a few tens of nanoseconds of work under the guard. */
  public static final int WORK_TOKENS = 32;

  @Param({"none", "read-write-lock", "handle-gate"})
  public String guard;

  private ReentrantReadWriteLock lock;
  private HandleGate gate;

  @Setup
  public void open() {
    lock = new ReentrantReadWriteLock();
    gate = new HandleGate();
  }

  @Benchmark
  public void oneThread() {
    guardedRead();
  }

  @Benchmark
  @Threads(2)
  public void twoThreads() {
    guardedRead();
  }

  @Benchmark
  @Threads(8)
  public void eightThreads() {
    guardedRead();
  }

  private void guardedRead() {
    switch (guard) {
      case "none" -> Blackhole.consumeCPU(WORK_TOKENS);
      case "read-write-lock" -> {
        lock.readLock().lock();
        try {
          Blackhole.consumeCPU(WORK_TOKENS);
        } finally {
          lock.readLock().unlock();
        }
      }
      case "handle-gate" -> {
        gate.enterShared();
        try {
          Blackhole.consumeCPU(WORK_TOKENS);
        } finally {
          gate.exitShared();
        }
      }
      default -> throw new IllegalArgumentException("unknown guard " + guard);
    }
  }
}
