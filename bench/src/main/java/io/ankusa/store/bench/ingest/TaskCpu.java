package io.ankusa.store.bench.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time by thread of this process, native threads included (RocksDB's flush and compaction
 * threads, the JIT compiler's, the collector's), which {@link ThreadProbe} cannot see: read from
 * Linux's {@code /proc/self/task/<tid>/stat} (user + system clock ticks of 10 ms). Threads are
 * grouped by name with digits dropped ({@code ingest-producer-7} → {@code ingest-producer-}; the
 * kernel keeps the first 15 bytes of a name). Elsewhere than on Linux a reading is empty.
 */
public final class TaskCpu {
  /** The kernel's clock tick, in ms: {@code USER_HZ} is 100 on every Linux this runs on. */
  static final long MILLIS_PER_TICK = 10;

  private static final Path TASKS = Path.of("/proc/self/task");

  /** CPU ticks so far per thread id, with each thread's group name. */
  public record Reading(Map<Long, String> names, Map<Long, Long> ticks) {
    /**
     * CPU ms per thread group from {@code earlier} to this reading, largest first, groups with none
     * left out. A thread born in between counts from 0; one that ended in between is not counted.
     */
    public Map<String, Long> millisSince(Reading earlier) {
      Map<String, Long> byGroup = new HashMap<>();
      for (Map.Entry<Long, Long> e : ticks.entrySet()) {
        long before = earlier.ticks.getOrDefault(e.getKey(), 0L);
        long delta = e.getValue() - before;
        if (delta > 0) {
          byGroup.merge(names.get(e.getKey()), delta * MILLIS_PER_TICK, Long::sum);
        }
      }
      Map<String, Long> sorted = new LinkedHashMap<>();
      byGroup.entrySet().stream()
          .sorted(
              Map.Entry.<String, Long>comparingByValue()
                  .reversed()
                  .thenComparing(Map.Entry.comparingByKey()))
          .forEach(e -> sorted.put(e.getKey(), e.getValue()));
      return sorted;
    }
  }

  private TaskCpu() {}

  /** Every thread's ticks now; empty where {@code /proc/self/task} does not exist. */
  public static Reading read() {
    Map<Long, String> names = new HashMap<>();
    Map<Long, Long> ticks = new HashMap<>();
    if (!Files.isDirectory(TASKS)) {
      return new Reading(names, ticks);
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (NoSuchFileException ended) {
          continue; // the thread ended after the listing
        }
        long tid = Long.parseLong(task.getFileName().toString());
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        names.put(tid, group(stat.substring(open + 1, close)));
        ticks.put(tid, ticksOf(stat.substring(close + 2)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + TASKS, e);
    }
    return new Reading(names, ticks);
  }

  /** A thread's group: its name without digits. */
  static String group(String threadName) {
    return threadName.replaceAll("[0-9]+", "");
  }

  /**
   * utime + stime of a stat line from the field after the name's closing parenthesis: that is field
   * 3 (state), so utime and stime, fields 14 and 15, are the 12th and 13th from there.
   */
  static long ticksOf(String afterName) {
    List<String> fields = List.of(afterName.trim().split(" "));
    return Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12));
  }
}
