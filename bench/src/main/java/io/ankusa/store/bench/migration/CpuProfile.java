package io.ankusa.store.bench.migration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of one migration run, reduced to where the migration thread's samples fall: Java
 * execution samples and native-method samples every millisecond, each stack attributed to the first
 * frame, from the leaf up, that a {@link Part} claims. The JFR file is kept next to the results for
 * JDK Mission Control.
 *
 * <p>Usage: {@link #start}, run the migration on the calling thread, {@link #stop}. One thread.
 */
final class CpuProfile implements AutoCloseable {
  /** Where a sample is attributed, in the order a stack is matched against (leaf first). */
  enum Part {
    ENVELOPE_DECODING("envelope decoding (HookEnvelope.decode)"),
    STORE_WRITE("store write (the step's SYNC batch)"),
    STORE_READ("store reads (multiGet, scans, gets)"),
    ROW_DECODING("old-row reading and decoding (keys, sizes, dead values, delivery rows)"),
    COUNTER_OPS("counter deltas and merges"),
    TENANT_RESOLUTION("tenant ordinal resolution"),
    OP_BUILDING("op building (keys, values, Batch)"),
    RUNNER("runner (Migrate)"),
    OTHER("other (JIT, GC, logging)");

    final String label;

    Part(String label) {
      this.label = label;
    }
  }

  private final Recording recording = new Recording();
  private final Path file;
  private long threadId;

  private CpuProfile(Path file) {
    this.file = file;
  }

  /** Starts recording, to {@code file} when stopped; samples of the calling thread count. */
  static CpuProfile start(Path file) {
    CpuProfile p = new CpuProfile(file);
    p.threadId = Thread.currentThread().getId();
    p.recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
    p.recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(1));
    p.recording.setToDisk(true);
    p.recording.start();
    return p;
  }

  /**
   * What a recording found.
   *
   * @param samples per part, every part present (maybe 0)
   * @param hotFrames the {@value #HOT_FRAMES} leaf methods ({@code Type.method}) with the most
   *     samples, most first
   */
  record Samples(Map<Part, Long> samples, Map<String, Long> hotFrames) {}

  static final int HOT_FRAMES = 12;

  /** Stops, writes the JFR file and returns where the migration thread's samples fell. */
  Samples stop() {
    recording.stop();
    Map<String, Long> leaves = new HashMap<>();
    Map<Part, Long> samples = new EnumMap<>(Part.class);
    for (Part p : Part.values()) {
      samples.put(p, 0L);
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      recording.dump(file);
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        String type = e.getEventType().getName();
        if (!type.equals("jdk.ExecutionSample") && !type.equals("jdk.NativeMethodSample")) {
          continue;
        }
        var thread = e.getThread("sampledThread");
        if (thread == null || thread.getJavaThreadId() != threadId) {
          continue;
        }
        samples.merge(classify(e.getStackTrace()), 1L, Long::sum);
        leaves.merge(leaf(e.getStackTrace()), 1L, Long::sum);
      }
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot write or read the JFR recording " + file, ex);
    }
    Map<String, Long> hot = new LinkedHashMap<>();
    leaves.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(HOT_FRAMES)
        .forEach(e -> hot.put(e.getKey(), e.getValue()));
    return new Samples(samples, hot);
  }

  private static String leaf(RecordedStackTrace stack) {
    if (stack == null
        || stack.getFrames().isEmpty()
        || stack.getFrames().get(0).getMethod() == null) {
      return "(no stack)";
    }
    var m = stack.getFrames().get(0).getMethod();
    String type = m.getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + m.getName();
  }

  /** The file the recording was written to. */
  Path file() {
    return file;
  }

  static Part classify(RecordedStackTrace stack) {
    if (stack == null) {
      return Part.OTHER;
    }
    List<RecordedFrame> frames = stack.getFrames();
    for (RecordedFrame f : frames) {
      if (f.getMethod() == null) {
        continue;
      }
      String type = f.getMethod().getType().getName();
      String method = f.getMethod().getName();
      Part p = partOf(type, method);
      if (p != null) {
        return p;
      }
    }
    return Part.OTHER;
  }

  private static Part partOf(String type, String method) {
    String simple = type.substring(type.lastIndexOf('.') + 1);
    if (simple.equals("HookEnvelope") && method.equals("decode")) {
      return Part.ENVELOPE_DECODING;
    }
    if (simple.equals("TimedStore") && method.equals("write")) {
      return Part.STORE_WRITE;
    }
    if (simple.equals("TimedStore") || simple.equals("TimedStore$TimedScan")) {
      return Part.STORE_READ;
    }
    if (type.startsWith("io.ankusa.store.queue.internal.migration.")
        && (method.startsWith("decode")
            || simple.equals("FormatTwo$DeadValueV2")
            || (simple.equals("TenantKeys") && method.equals("read")))) {
      return Part.ROW_DECODING;
    }
    if (simple.equals("DeliveryRow") && method.equals("decode")) {
      return Part.ROW_DECODING;
    }
    if (simple.equals("Counters") || simple.equals("CounterDeltas")) {
      return Part.COUNTER_OPS;
    }
    if (simple.startsWith("TenantAllocator")) {
      return Part.TENANT_RESOLUTION;
    }
    if (simple.equals("TenantKeys") || simple.startsWith("TenantKeys$")) {
      return Part.OP_BUILDING;
    }
    if (simple.equals("Migrate")) {
      return Part.RUNNER;
    }
    return null;
  }

  @Override
  public void close() {
    recording.close();
  }
}
