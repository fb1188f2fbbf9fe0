package io.ankusa.store.bench.jmh;

import io.ankusa.store.conformance.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
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
 * Merge-heavy counter writes: one unsynced batch holding one int64-add merge into one of {@code
 * keys} distinct counters (1: every write hits one hot key, as the node aggregate does; 10³; 10⁵:
 * nothing coalesces). RocksDB merges natively (uint64add); LMDB reads, adds and puts in its write
 * transaction. Same engines and baselines as {@link EngineBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-XX:+IgnoreUnrecognizedVMOptions", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CounterMergeBench {
  @Param({"memory", "rocksdb", "lmdb", "raw-rocksdb", "raw-lmdb"})
  public String engine;

  @Param({"1", "1000", "100000"})
  public int keys;

  private Path dir;
  private EngineTarget target;
  private byte[][] counterKeys;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("ankusa-jmh-merge-");
    target = EngineTarget.open(engine, dir.resolve("store"));
    counterKeys = BenchKeys.keys(keys);
  }

  @TearDown(Level.Trial)
  public void close() {
    target.close();
    FileTrees.deleteRecursively(dir);
  }

  @Benchmark
  public void merge() {
    target.merge(counterKeys[ThreadLocalRandom.current().nextInt(keys)], 1);
  }
}
