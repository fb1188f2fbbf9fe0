package io.ankusa.store.bench.jmh;

import io.ankusa.store.conformance.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point get, unsynced put, a 100-key scan (as a {@code Scan} and as a visit), and a read-mostly mix
 * run by 2 and by 8 threads sharing the one store ({@value #RMW_PERCENT} % read-modify-write puts,
 * the rest gets) over {@value #KEYS} loaded keys, through the SPI ({@code memory}, {@code rocksdb},
 * {@code lmdb}) and through the raw baselines ({@code raw-rocksdb}, {@code raw-lmdb}) in the same
 * run. Average time per operation; {@link SpiOverheadReport} divides each SPI backend's time by its
 * raw baseline's.
 *
 * <p>Each fork runs on a fixed heap touched at start ({@code -Xms2g -Xmx2g -XX:+AlwaysPreTouch}, as
 * {@code jvmArgs}, so a {@code -jvmArgsAppend} on the command line keeps it). A fresh JVM grows its
 * heap for its first tens of seconds, and meanwhile lays new objects on pages never touched before;
 * on the machines we measure on each such page costs far more than the bytes written to it, so a
 * fork would charge whichever target allocates more for the JVM's warm-up instead of for its code.
 * What each target allocates per operation is measured apart ({@code -prof gc}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"},
    jvmArgsAppend = {"-XX:+IgnoreUnrecognizedVMOptions", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EngineBench {
  /** Keys loaded before measuring. */
  public static final int KEYS = 100_000;

  /** Keys per scan. */
  public static final int SCAN = 100;

  /** Share of the mixed operations that read a value and put it back changed; the rest are gets. */
  public static final int RMW_PERCENT = 5;

  @Param({"memory", "rocksdb", "lmdb", "raw-rocksdb", "raw-lmdb"})
  public String engine;

  private Path dir;
  private EngineTarget target;
  private byte[][] keys;
  private byte[] value;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("ankusa-jmh-engine-");
    target = EngineTarget.open(engine, dir.resolve("store"));
    keys = BenchKeys.keys(KEYS);
    value = BenchKeys.value(-1);
    BenchKeys.load(target, keys);
  }

  @TearDown(Level.Trial)
  public void close() {
    target.close();
    FileTrees.deleteRecursively(dir);
  }

  @Benchmark
  public byte[] pointGet() {
    return target.get(keys[ThreadLocalRandom.current().nextInt(KEYS)]);
  }

  @Benchmark
  public void putNoSync() {
    target.put(keys[ThreadLocalRandom.current().nextInt(KEYS)], value);
  }

  @Benchmark
  public long scan100() {
    int from = ThreadLocalRandom.current().nextInt(KEYS - SCAN);
    return target.scan(keys[from], keys[from + SCAN], SCAN);
  }

  /**
   * {@link #scan100} through the visitor read path ({@code ReadView.visit}); raw targets scan as in
   * scan100.
   */
  @Benchmark
  public long visit100() {
    int from = ThreadLocalRandom.current().nextInt(KEYS - SCAN);
    return target.visit(keys[from], keys[from + SCAN], SCAN);
  }

  /** The read-mostly mix, two threads sharing the store: contention the SPI adds shows here. */
  @Benchmark
  @Threads(2)
  public byte[] mixedReadMostly2Threads() {
    return mixedReadMostly();
  }

  /** The read-mostly mix, eight threads sharing the store. */
  @Benchmark
  @Threads(8)
  public byte[] mixedReadMostly8Threads() {
    return mixedReadMostly();
  }

  /**
   * A get of a random key; {@value #RMW_PERCENT} % of the time followed by a put of the value with
   * its first byte changed.
   */
  private byte[] mixedReadMostly() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] key = keys[random.nextInt(KEYS)];
    byte[] read = target.get(key);
    if (random.nextInt(100) < RMW_PERCENT) {
      // The value's own bytes (a raw target may return more, see RawLmdbTarget), first one changed.
      byte[] changed = Arrays.copyOf(read, BenchKeys.VALUE_BYTES);
      changed[0]++;
      target.put(key, changed);
    }
    return read;
  }
}
