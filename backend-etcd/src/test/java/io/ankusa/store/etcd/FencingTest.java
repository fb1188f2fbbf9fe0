package io.ankusa.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.ChildClasspath;
import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.spi.Store;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owner per store across processes. A child JVM owns the store and runs the queue on it ({@link
 * FencingChild}); the test SIGSTOPs it past its lease's TTL; a standby in this JVM opens the same
 * store from a directory of its own, waits for the lapsed lease, takes over and recovers the queue
 * as a restart does, and ingests; then the child is SIGCONTed. Its next write must be refused (the
 * fencing compare): it answers no hook CREATED after it woke, and the store holds every hook either
 * owner acknowledged and verifies clean (counters equal a fold).
 *
 * <p>The same run against the mutant without the fencing compare must fail those checks: two owners
 * write, and the store no longer verifies ({@link #theMutantWithoutTheFencingCompareIsRejected}).
 */
class FencingTest {
  private static final Logger LOG = LoggerFactory.getLogger(FencingTest.class);

  @TempDir Path dir;

  /** What one run of the scenario found. */
  record Outcome(
      long ownerAcked,
      long staleCreated,
      long staleRefused,
      long standbyAcked,
      long lostHooks,
      List<QueueVerifier.Breach> breaches,
      long takeoverMs) {
    boolean fenced() {
      return staleCreated == 0 && staleRefused > 0 && lostHooks == 0 && breaches.isEmpty();
    }
  }

  @Test
  void aStandbyTakesOverFromAnOwnerPausedPastItsLeaseWhoseNextWriteIsRefused() throws Exception {
    Outcome o = run(false);
    LOG.info(
        "FENCING real fence: owner acknowledged {} before the takeover; standby took over {} ms after the pause"
            + " and acknowledged {}; the woken owner had {} answers refused and {} hooks CREATED past the takeover; lost {};"
            + " breaches {}",
        o.ownerAcked(),
        o.takeoverMs(),
        o.standbyAcked(),
        o.staleRefused(),
        o.staleCreated(),
        o.lostHooks(),
        o.breaches());
    assertThat(o.staleCreated())
        .as("hooks the woken stale owner got CREATED past the takeover")
        .isZero();
    assertThat(o.staleRefused())
        .as("answers of the woken stale owner refused (UNAVAILABLE)")
        .isPositive();
    assertThat(o.lostHooks()).as("acknowledged hooks missing").isZero();
    assertThat(o.breaches()).as("the store verifies clean: counters equal a fold").isEmpty();
  }

  @Test
  void theMutantWithoutTheFencingCompareIsRejected() throws Exception {
    Outcome o = run(true);
    LOG.info(
        "FENCING mutant without the compare: the woken owner got {} hooks CREATED; breaches {}",
        o.staleCreated(),
        o.breaches());
    assertThat(o.fenced())
        .as("the scenario's checks reject the store without the fencing compare: %s", o)
        .isFalse();
  }

  private Outcome run(boolean mutant) throws Exception {
    LocalEtcdCluster cluster = TestCluster.disruptable();
    Path ownerDir = Files.createDirectories(dir.resolve("owner"));
    List<String> command =
        new ArrayList<>(
            List.of(
                ChildJvmLauncher.java(),
                "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp",
                ChildClasspath.get(),
                FencingChild.class.getName(),
                ownerDir.toString(),
                mutant ? "mutant" : "real"));
    TestCluster.options(cluster).properties().forEach((k, v) -> command.add(k + "=" + v));
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
    List<String> lines = new CopyOnWriteArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                  lines.add(line);
                }
              } catch (java.io.IOException e) {
                // the child died
              }
            },
            "fencing-child-reader");
    reader.setDaemon(true);
    reader.start();
    List<Long> acked = new ArrayList<>();
    try {
      awaitLines(lines, 0, l -> l.startsWith("CREATED"), 50, 60_000, child);
      signal(child, "STOP");
      long pausedAt = System.nanoTime();
      int pausedLines = lines.size();
      for (String l : lines) {
        if (l.startsWith("CREATED ")) {
          acked.add(Long.parseLong(l.substring(8)));
        }
      }
      EtcdTarget target = EtcdTarget.read(ownerDir).orElseThrow();
      Path standbyDir = dir.resolve("standby");
      long standbyAcked = 0;
      long takeoverMs;
      List<Long> standbySeqs = new ArrayList<>();
      try (Store standby =
          new EtcdStoreProvider()
              .open(
                  standbyDir,
                  TestCluster.options(cluster).with(EtcdSettings.PREFIX, target.prefix()),
                  Format3.families())) {
        takeoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
        java.util.Set<Long> delivered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        QueueRuntime runtime =
            QueueRuntime.start(
                standby,
                io.ankusa.store.queue.config.QueueConfig.defaults(),
                QueueLoad.deliverAll(delivered::add));
        long takenAt =
            runtime.queue().lastSeq(); // every seq the old owner wrote before the takeover
        try {
          for (int i = 0; i < 30; i++) {
            IngestResult r =
                runtime
                    .writer()
                    .ingest(
                        new IngestRequest(
                            "tenant-" + (i % 3),
                            "fencing",
                            "standby-" + i,
                            null,
                            System.currentTimeMillis(),
                            List.of(1),
                            new byte[100]))
                    .get(60, TimeUnit.SECONDS);
            assertThat(r.outcome())
                .as("the standby's ingest")
                .isEqualTo(IngestResult.Outcome.CREATED);
            standbySeqs.add(r.seq());
          }
          signal(child, "CONT");
          // the woken owner's answers: refused (real fence) or, for the mutant, created over the
          // standby's
          awaitLines(lines, pausedLines, l -> true, 10, 60_000, child);
          Thread.sleep(1_000);
          for (int i = 30; i < 40; i++) { // the standby goes on while the stale owner tries
            IngestResult r =
                runtime
                    .writer()
                    .ingest(
                        new IngestRequest(
                            "tenant-" + (i % 3),
                            "fencing",
                            "standby-" + i,
                            null,
                            System.currentTimeMillis(),
                            List.of(1),
                            new byte[100]))
                    .get(60, TimeUnit.SECONDS);
            if (r.outcome() == IngestResult.Outcome.CREATED) {
              standbySeqs.add(r.seq());
            }
          }
        } finally {
          child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
          runtime.close();
        }
        standbyAcked = standbySeqs.size();
        List<String> copy = List.copyOf(lines);
        List<String> after = copy.subList(pausedLines, copy.size());
        // a CREATED printed after the pause for a seq at or below the takeover's was written before
        // it (its answer
        // was on its way when the owner was stopped); above it, the stale owner wrote after the
        // takeover
        long staleCreated = 0;
        for (String l : after) {
          if (l.startsWith("CREATED ")) {
            long seq = Long.parseLong(l.substring(8));
            if (seq > takenAt) {
              staleCreated++;
            } else {
              acked.add(seq);
            }
          }
        }
        long staleRefused =
            after.stream()
                .filter(l -> l.startsWith("UNAVAILABLE") || l.startsWith("FAILED"))
                .count();
        long lost = 0;
        List<Long> all = new ArrayList<>(acked);
        if (staleCreated > 0) {
          all.clear(); // two owners numbered the same seqs: which hook a seq holds says nothing
          // any more
        }
        all.addAll(standbySeqs);
        for (String l : copy) {
          if (l.startsWith("DELIVERED ")) {
            delivered.add(Long.parseLong(l.substring(10)));
          }
        }
        for (long seq : all) {
          if (!delivered.contains(seq) && standby.get(Format3.HOOKS, Keys.hook(seq)) == null) {
            lost++;
          }
        }
        return new Outcome(
            acked.size(),
            staleCreated,
            staleRefused,
            standbyAcked,
            lost,
            QueueVerifier.verify(standby),
            takeoverMs);
      }
    } finally {
      child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Waits for {@code n} lines from index {@code from} on that match. */
  private static void awaitLines(
      List<String> lines,
      int from,
      java.util.function.Predicate<String> match,
      int n,
      long timeoutMs,
      Process child)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      List<String> now = List.copyOf(lines);
      if (now.subList(Math.min(from, now.size()), now.size()).stream().filter(match).count() >= n) {
        return;
      }
      if (!child.isAlive()) {
        throw new AssertionError("the owning child died: " + lines);
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "the owning child printed fewer than "
            + n
            + " matching lines in "
            + timeoutMs
            + " ms: "
            + lines);
  }

  private static void signal(Process p, String signal) throws Exception {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
        .as("kill -%s %d", signal, p.pid())
        .isTrue();
  }
}
