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
 * The memory backend's scan cost as the family grows: the same 100-key scan through the SPI over a
 * family of 10³ and of 10⁶ keys. A scan that reads lazily from its start key costs about the same
 * at both sizes; one that copied the range up front would cost a thousand times more at 10⁶. The
 * target is the score at {@code keys=1000000} within 2× of the score at {@code keys=1000}, in one
 * run: {@code java -jar benchmarks.jar MemoryScanScaleBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MemoryScanScaleBench {
  @Param({"1000", "1000000"})
  public int keys;

  private Path dir;
  private EngineTarget target;
  private byte[][] keyArray;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("ankusa-jmh-memory-scale-");
    target = EngineTarget.open("memory", dir.resolve("store"));
    keyArray = BenchKeys.keys(keys);
    BenchKeys.load(target, keyArray);
  }

  @TearDown(Level.Trial)
  public void close() {
    target.close();
    FileTrees.deleteRecursively(dir);
  }

  /** 100 keys from a random start, to the end of the family: the scan's upper bound is open. */
  @Benchmark
  public long scan100() {
    int from = ThreadLocalRandom.current().nextInt(keys - EngineBench.SCAN);
    return target.scan(keyArray[from], null, EngineBench.SCAN);
  }
}
