package io.ankusa.store.conformance;

import io.ankusa.store.spi.FamilySpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@link CrashChild} on a closed store and SIGKILLs it at its {@link KillPoint}: as soon as it
 * says {@code halt} (right after its {@code SYNC} writes, or between two {@code syncWal()} calls);
 * once its group writers had {@value #KILL_AFTER_GROUP_BATCHES} batches acknowledged, or once it
 * has begun big batch {@value #KILL_AFTER_BEGIN}, after a random pause of up to {@value
 * #MAX_PAUSE_MILLIS} ms (drawn from the seed), so the kill usually lands inside a group commit, or
 * inside a {@code write} of several MiB or the sync after it. One child per kill: its JVM start is
 * the expensive part.
 */
final class CrashKill {
  static final int KILL_AFTER_BEGIN = 2;
  static final int KILL_AFTER_GROUP_BATCHES = 40;
  static final int MAX_PAUSE_MILLIS = 40;
  private static final long CHILD_SECONDS = 180;

  private CrashKill() {}

  /** What the child acknowledged before the kill, and what the kill interrupted. */
  static CrashScript.Record run(
      BackendFixture fixture, Path dir, List<FamilySpec> families, long seed, KillPoint point)
      throws InterruptedException {
    CrashScript.Record record = new CrashScript.Record();
    AtomicReference<String> failed = new AtomicReference<>();
    java.util.concurrent.atomic.AtomicBoolean killed =
        new java.util.concurrent.atomic.AtomicBoolean();
    Process child =
        StoreChildProcess.start(
            CrashChild.class,
            fixture,
            dir,
            families,
            Map.of(CrashChild.POINT_PROPERTY, point.name()));
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                  if (!record.parse(line)) {
                    failed.compareAndSet(null, line);
                  }
                }
              } catch (IOException e) {
                if (!killed.get()) {
                  throw new UncheckedIOException("cannot read the crash child's output", e);
                } // else the kill closed the pipe: every line printed before it was read
              }
            },
            "crash-child-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHILD_SECONDS);
      while (!reached(record, point) && child.isAlive() && failed.get() == null) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "the crash child of "
                  + fixture.name()
                  + " did not reach "
                  + point
                  + " within "
                  + CHILD_SECONDS
                  + " s; it said: "
                  + record);
        }
        Thread.sleep(2);
      }
      if (failed.get() != null || !child.isAlive()) {
        reader.join(TimeUnit.SECONDS.toMillis(10));
        throw new AssertionError(
            "the crash child of "
                + fixture.name()
                + " stopped before the kill: "
                + (failed.get() == null ? "it exited with " + child.exitValue() : failed.get())
                + "; it said: "
                + record);
      }
      if (point == KillPoint.INSIDE_GROUP_COMMIT || point == KillPoint.INSIDE_BIG_BATCH) {
        Thread.sleep(new Random(seed).nextInt(MAX_PAUSE_MILLIS + 1));
      }
    } finally {
      killed.set(true);
      child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close, no final sync
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "the crash child of " + fixture.name() + " did not exit within 60 s of SIGKILL");
      }
    }
    reader.join(TimeUnit.SECONDS.toMillis(30)); // the lines printed before the kill are all read
    return record;
  }

  /** Whether the child is where {@code point} kills it. */
  private static boolean reached(CrashScript.Record record, KillPoint point) {
    return switch (point) {
      case AFTER_SYNC_WRITE, BETWEEN_SYNC_WALS -> !record.of("halt").isEmpty();
      case INSIDE_GROUP_COMMIT -> record.of("grp").size() >= KILL_AFTER_GROUP_BATCHES;
      case INSIDE_BIG_BATCH -> record.of("begin").contains(KILL_AFTER_BEGIN);
    };
  }
}
