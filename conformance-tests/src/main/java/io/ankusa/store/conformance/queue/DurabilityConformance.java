package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.ConformanceSuite;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.conformance.LogCut;
import io.ankusa.store.conformance.PowerCutCase;
import io.ankusa.store.conformance.Seeds;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import org.opentest4j.TestAbortedException;

/**
 * Layer 3 of the conformance suite: durability across a process kill (docs/design.md). A child JVM
 * ({@link DurabilityChild}) ingests through the group-committing writer from several threads and
 * records every acknowledged hook; the parent SIGKILLs it at a random moment, reopens the store,
 * runs {@link InflightRecovery#recoverInflight}, and checks:
 *
 * <ul>
 *   <li>every acknowledged hook is present — its envelope under its seq, its tenant's ordinal, and
 *       a due row under that ordinal for each of its sinks;
 *   <li>counters equal a fold, per tenant and for the aggregate;
 *   <li>the whole layout verifies clean (no due row without a marker, every index row has its row).
 * </ul>
 *
 * Cycles accumulate on one store. {@value #DEFAULT_CYCLES} cycles by default; the system property
 * {@code ankusa.durability.cycles} (or {@code -Pheavy}, which sets it to 200) runs more. A failure
 * names the cycle and the random seed ({@code -Dankusa.seed=N} replays it, see {@link Seeds}).
 *
 * <p>The ack file is appended without fsync: a process kill does not lose what the process wrote to
 * the OS. Power loss is the other case's: {@link #acknowledgedBatchesSurvivePowerCuts}.
 */
public abstract class DurabilityConformance extends ConformanceSuite {
  static final int DEFAULT_CYCLES = 20;
  private static final int CHILD_THREADS = 4;

  @Example
  void acknowledgedHooksSurviveSigkill() throws Exception {
    BackendFixture fixture = fixture();
    if (!fixture.capabilities().durableAfterProcessKill()) {
      throw new TestAbortedException(
          fixture.name()
              + " does not claim durableAfterProcessKill: its stores do not"
              + " outlive the process, so there is nothing to check after a kill");
    }
    int cycles = Integer.getInteger("ankusa.durability.cycles", DEFAULT_CYCLES);
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Path dir = Files.createTempDirectory("ankusa-durability-" + fixture.name() + "-");
    Path acks = Files.createTempFile("ankusa-durability-acks-", ".txt");
    long checked = 0;
    try {
      for (int cycle = 1; cycle <= cycles; cycle++) {
        String what = "cycle " + cycle + " of " + cycles + ", " + Seeds.replay(seed);
        runAndKill(fixture, dir, acks, cycle, 300 + random.nextInt(1_200), what);
        checked = check(fixture, dir, acks, what);
      }
      assertThat(checked)
          .as(
              "acknowledged hooks checked over %d cycles: the child must have made progress",
              cycles)
          .isGreaterThan(0);
    } finally {
      fixture.discard(dir);
      FileTrees.deleteRecursively(dir);
      Files.deleteIfExists(acks);
    }
  }

  private static void runAndKill(
      BackendFixture fixture, Path dir, Path acks, int cycle, int killAfterMillis, String what)
      throws Exception {
    Process child =
        ChildJvm.start(
            DurabilityChild.class,
            fixture,
            List.of(
                dir.toString(),
                acks.toString(),
                Integer.toString(cycle),
                Integer.toString(CHILD_THREADS)));
    try {
      // Let the child open the store and ingest for a while before the kill.
      long before = Files.size(acks);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (Files.size(acks) == before && child.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(child.isAlive())
          .as("%s: the child is running (it died on its own?)", what)
          .isTrue();
      Thread.sleep(killAfterMillis);
    } finally {
      child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close, no final sync
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("%s: child exited", what).isTrue();
    }
  }

  /**
   * Reopens, recovers, and checks every acknowledged hook and the layout; returns hooks checked.
   */
  private static long check(BackendFixture fixture, Path dir, Path acks, String what)
      throws IOException {
    List<String> lines = Files.readAllLines(acks, StandardCharsets.UTF_8);
    try (Store store = fixture.open(dir, Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      InflightRecovery.recoverInflight(queue, System.currentTimeMillis());
      Map<Long, Set<Long>> dueSeqsByOrd = new HashMap<>();
      CounterFold.foldFamily(
          store,
          KeyFamily.DUE,
          e -> {
            DueKey k = DueKey.decode(e.key());
            dueSeqsByOrd.computeIfAbsent(k.ord(), o -> new HashSet<>()).add(k.seq());
          });
      List<AckedHook> acked = new ArrayList<>(lines.size());
      for (String line : lines) {
        String[] f = line.split(" ");
        if (f.length != 4) {
          continue; // the kill cut the last line short
        }
        acked.add(
            new AckedHook(
                Long.parseLong(f[0]),
                TenantId.of("-".equals(f[1]) ? null : f[1]),
                f[2],
                Integer.parseInt(f[3])));
      }
      // Point reads of every acknowledged hook's rows, a multiGet per family: the rows read are
      // those
      // a get per key would read. The checks build a message only when they fail: tens of thousands
      // of
      // hooks accumulate over the cycles, and a per-hook assertion chain cost more than the reads.
      List<byte[]> envelopes =
          store.multiGet(Format3.HOOKS, acked.stream().map(h -> Keys.hook(h.seq())).toList());
      Map<TenantId, OptionalLong> ordOf = new HashMap<>();
      List<AckedDelivery> acknowledgedDeliveries = new ArrayList<>();
      for (int i = 0; i < acked.size(); i++) {
        AckedHook h = acked.get(i);
        byte[] envelope = envelopes.get(i);
        check(
            envelope != null,
            "%s: acknowledged hook %s (seq %d) is present",
            what,
            h.hookId(),
            h.seq());
        HookEnvelope hook = HookEnvelope.decode(envelope);
        check(
            hook.hookId().equals(h.hookId()),
            "%s: seq %d holds hook %s, not %s",
            what,
            h.seq(),
            h.hookId(),
            hook.hookId());
        check(
            hook.sinks().size() == h.sinks(),
            "%s: hook %s has %d sinks, %d acknowledged",
            what,
            h.hookId(),
            hook.sinks().size(),
            h.sinks());
        OptionalLong ord = ordOf.computeIfAbsent(h.tenant(), t -> Tenants.ord(store, t));
        check(
            ord.isPresent(),
            "%s: tenant %s of hook %s has an ordinal",
            what,
            h.tenant().value(),
            h.hookId());
        check(
            dueSeqsByOrd.getOrDefault(ord.getAsLong(), Set.of()).contains(h.seq()),
            "%s: hook %s (seq %d) has due rows under its tenant's ordinal %d",
            what,
            h.hookId(),
            h.seq(),
            ord.getAsLong());
        for (int sink : hook.sinks()) {
          acknowledgedDeliveries.add(new AckedDelivery(h, sink));
        }
      }
      List<byte[]> deliveries =
          store.multiGet(
              Format3.DELIVERIES,
              acknowledgedDeliveries.stream()
                  .map(d -> Keys.delivery(d.hook().seq(), d.sink()))
                  .toList());
      for (int i = 0; i < deliveries.size(); i++) {
        AckedDelivery d = acknowledgedDeliveries.get(i);
        check(
            deliveries.get(i) != null,
            "%s: hook %s has its delivery row for sink %d",
            what,
            d.hook().hookId(),
            d.sink());
      }
      long checked = acked.size();
      Map<Long, TenantCounts> stored = Counters.readAll(store);
      Map<Long, TenantCounts> folded = CounterFold.fold(store);
      Set<Long> ords = new TreeSet<>(stored.keySet());
      ords.addAll(folded.keySet());
      for (long o : ords) {
        assertThat(stored.getOrDefault(o, TenantCounts.ZERO))
            .as("%s: counters of ord %d equal a fold", what, o)
            .isEqualTo(folded.getOrDefault(o, TenantCounts.ZERO));
      }
      assertThat(QueueVerifier.verify(store)).as("%s: the layout verifies clean", what).isEmpty();
      return checked;
    }
  }

  /** Fails with the message {@code format} makes of {@code args} when {@code holds} is false. */
  private static void check(boolean holds, String format, Object... args) {
    if (!holds) {
      throw new AssertionError(String.format(format, args));
    }
  }

  /** A line of the ack file: a hook the child was told is stored. */
  private record AckedHook(long seq, TenantId tenant, String hookId, int sinks) {}

  /** One sink's delivery row of an acknowledged hook. */
  private record AckedDelivery(AckedHook hook, int sink) {}

  // ================================================================ power cuts

  /**
   * Every batch acknowledged after a {@code SYNC} write or a returned {@code syncWal()} survives a
   * power cut, and no batch is half there: the store lives on a file system that loses every write
   * not synced when the power goes ({@link PowerCutCase}: a child writes up to a {@link
   * io.ankusa.store.conformance.KillPoint}, is killed, the power is cut, the store reopened and
   * checked).
   */
  @Example
  void acknowledgedBatchesSurvivePowerCuts(net.jqwik.api.Reporter reporter)
      throws InterruptedException {
    reporter.publishValue(
        fixture().name(), "acknowledgedBatchesSurvivePowerCuts: " + PowerCutCase.run(fixture()));
  }

  // ================================================================ write-ahead log damage

  /** Batches the log-damage case writes; few and small, so they stay in the log. */
  static final int LOGGED_BATCHES = 150;

  private static final String LOGGED = "logged";

  /**
   * Why a log-damage case is unverified for {@code fixture}: its fixture offers no log damage. Says
   * nothing of the engine (whether it keeps a log is the backend's business), only what was not
   * done.
   */
  static String noLogDamage(BackendFixture fixture, String notDone) {
    return "the fixture of "
        + fixture.name()
        + " offers no log damage (BackendFixture.logDamageInjection() is"
        + " false), so the suite "
        + notDone;
  }

  /**
   * Damage in the middle of the write-ahead log is reported, never recovered as a silently shorter
   * history: after {@value #LOGGED_BATCHES} acknowledged {@code SYNC} batches (one key each) and a
   * close, the fixture damages the log half-way ({@link BackendFixture#damageLog}); then either the
   * reopen throws {@link StoreCorruptionException}, or every read of an acknowledged key returns
   * its value or throws it. A reopen that quietly stops replaying at the damage — and drops every
   * later acknowledged batch — fails, naming how many were lost.
   */
  @Example
  void midLogDamageIsReportedNeverSilentlyDropped() throws IOException {
    BackendFixture fixture = fixture();
    if (!fixture.logDamageInjection()) {
      throw new TestAbortedException(noLogDamage(fixture, "damaged no log in its middle"));
    }
    List<FamilySpec> families = List.of(FamilySpec.plain(LOGGED));
    Path dir =
        Files.createTempDirectory(
            "ankusa-log-damage-" + fixture.name().replaceAll("[^A-Za-z0-9]", "-") + "-");
    try {
      try (Store store = fixture.open(dir, families)) {
        for (int i = 0; i < LOGGED_BATCHES; i++) {
          store.write(new Batch().put(LOGGED, loggedKey(i), loggedValue(i)), Durability.SYNC);
        }
      }
      fixture.damageLog(dir);
      Store reopened;
      try {
        reopened = fixture.open(dir, families);
      } catch (StoreCorruptionException e) {
        return; // reported at open: the best answer
      }
      try (Store store = reopened) {
        List<Integer> lost = new ArrayList<>();
        int reported = 0;
        for (int i = 0; i < LOGGED_BATCHES; i++) {
          try {
            byte[] v = store.get(LOGGED, loggedKey(i));
            if (!Arrays.equals(v, loggedValue(i))) {
              lost.add(i);
            }
          } catch (StoreCorruptionException e) {
            reported++;
          }
        }
        assertThat(lost)
            .as(
                "%s opened after mid-log damage without an error and lost %d of %d acknowledged SYNC"
                    + " batches without a word (first lost: batch %s)",
                fixture.name(), lost.size(), LOGGED_BATCHES, lost.isEmpty() ? "-" : lost.get(0))
            .isEmpty();
        assertThat(reported)
            .as(
                "the log damage done by %s's fixture was never met: the fixture did not damage"
                    + " what the reopen replays",
                fixture.name())
            .isPositive();
      }
    } finally {
      fixture.discard(dir);
      FileTrees.deleteRecursively(dir);
    }
  }

  // ================================================================ a log cut short behind a
  // flushed family

  /** Batches the log-cut case writes, each to every one of its families. */
  static final int CUT_BATCHES = 60;

  /** After how many batches the log-cut case flushes its first family alone, and its second. */
  static final int FIRST_FLUSH = 36;

  static final int SECOND_FLUSH = 48;

  /**
   * The last batches of the log-cut case, written NO_SYNC: a cut among them is a crash's torn tail.
   */
  static final int UNSYNCED = 3;

  private static final String CUT_ROWS = "cut-rows";
  private static final String CUT_INDEX = "cut-index";
  private static final String CUT_COUNTS = "cut-counts";
  private static final byte[] CUT_TOTAL = "total".getBytes(StandardCharsets.UTF_8);

  /**
   * A write-ahead log cut short never opens as a store holding part of a batch. {@value
   * #CUT_BATCHES} batches each put a row, put an index entry and merge two counters, in three
   * families; the fixture flushes the rows family alone after {@value #FIRST_FLUSH} batches and the
   * index family alone after {@value #SECOND_FLUSH} ({@link BackendFixture#flushFamily}), so their
   * files run ahead of the log; the last {@value #UNSYNCED} batches are NO_SYNC. Then, for every
   * place the fixture can cut the closed store's log ({@link BackendFixture#logCuts}: the start of
   * every record and a point inside every record, in every log file), a copy of the store with its
   * log cut there is opened. Each open must either refuse with {@link StoreCorruptionException} or
   * give a store in which the batches present are the first ones and each of them is whole — its
   * row, its index entry and its counter all there, the total counting exactly them — and every
   * other batch wholly absent. A cut within the unsynced last batches is what a crash mid-append
   * leaves: that one must open, with every synced batch. A backend that recovers each family from
   * the log on its own fails here: a family whose files are ahead of the cut keeps its part of
   * batches the others lost.
   */
  @Example
  void cutLogNeverSplitsABatchAcrossFamilies() throws IOException {
    BackendFixture fixture = fixture();
    if (!fixture.logDamageInjection()) {
      throw new TestAbortedException(noLogDamage(fixture, "cut no log short"));
    }
    List<FamilySpec> families =
        List.of(
            FamilySpec.plain(CUT_ROWS),
            FamilySpec.plain(CUT_INDEX),
            FamilySpec.counters(CUT_COUNTS, 0));
    String name = fixture.name().replaceAll("[^A-Za-z0-9]", "-");
    Path dir = Files.createTempDirectory("ankusa-log-cut-" + name + "-");
    Path copies = Files.createTempDirectory("ankusa-log-cut-copies-" + name + "-");
    try {
      try (Store store = fixture.open(dir, families)) {
        for (int i = 0; i < CUT_BATCHES; i++) {
          Batch b =
              new Batch()
                  .put(CUT_ROWS, cutKey(i), cutValue(i))
                  .put(CUT_INDEX, cutKey(i), new byte[] {(byte) i})
                  .merge(CUT_COUNTS, cutKey(i), 1)
                  .merge(CUT_COUNTS, CUT_TOTAL, 1);
          store.write(b, i < CUT_BATCHES - UNSYNCED ? Durability.SYNC : Durability.NO_SYNC);
          if (i + 1 == FIRST_FLUSH) {
            fixture.flushFamily(store, CUT_ROWS);
          } else if (i + 1 == SECOND_FLUSH) {
            fixture.flushFamily(store, CUT_INDEX);
          }
        }
      }
      List<LogCut> cuts;
      try {
        cuts = fixture.logCuts(dir);
      } catch (UnsupportedOperationException e) {
        throw new TestAbortedException(e.getMessage());
      }
      List<String> failures = new ArrayList<>();
      int failed = 0;
      int refused = 0;
      int opened = 0;
      int tornTails = 0;
      for (int c = 0; c < cuts.size(); c++) {
        LogCut cut = cuts.get(c);
        boolean tornTail = cut.recordsFromEnd() <= UNSYNCED;
        tornTails += tornTail ? 1 : 0;
        Path copy = copies.resolve("cut-" + c);
        try {
          fixture.copyWithLogCut(dir, copy, cut);
          Store reopened;
          try {
            reopened = fixture.open(copy, families);
          } catch (StoreCorruptionException e) {
            refused++;
            if (tornTail && failed++ < 5) {
              failures.add(
                  "a cut at "
                      + cut.where()
                      + " lies within the last "
                      + UNSYNCED
                      + " batches, written"
                      + " NO_SYNC, as a crash mid-append leaves them, but the open refused it: "
                      + e.getMessage());
            }
            continue;
          }
          opened++;
          try (Store store = reopened) {
            String split = splitBatches(store, tornTail);
            if (split != null && failed++ < 5) {
              failures.add(
                  "after a cut at "
                      + cut.where()
                      + " ("
                      + cut.recordsFromEnd()
                      + " records from the log's"
                      + " end) the store opened "
                      + split);
            }
          }
        } finally {
          fixture.discard(copy);
          FileTrees.deleteRecursively(copy);
        }
      }
      assertThat(failures)
          .as(
              "%s: of %d cuts of the log, %d refused at open and %d opened; these went wrong"
                  + " (the first 5 of %d)",
              fixture.name(), cuts.size(), refused, opened, failed)
          .isEqualTo(List.of());
      assertThat(tornTails)
          .as(
              "%s's fixture offered a cut within the last %d records of the log, a crash's torn"
                  + " tail",
              fixture.name(), UNSYNCED)
          .isPositive();
      assertThat(cuts.size())
          .as(
              "%s's fixture offered a cut at and inside every record of the %d batches written"
                  + " after the last flush",
              fixture.name(), CUT_BATCHES - SECOND_FLUSH)
          .isGreaterThanOrEqualTo(2 * (CUT_BATCHES - SECOND_FLUSH));
    } finally {
      fixture.discard(dir);
      FileTrees.deleteRecursively(dir);
      FileTrees.deleteRecursively(copies);
    }
  }

  /**
   * What is wrong with the batches of the log-cut case in {@code store}, or null when the batches
   * present are the first ones, each whole, and the rest wholly absent; with {@code tornTail},
   * every synced batch must be present too.
   */
  private static String splitBatches(Store store, boolean tornTail) {
    List<byte[]> keys = new ArrayList<>(CUT_BATCHES);
    for (int i = 0; i < CUT_BATCHES; i++) {
      keys.add(cutKey(i));
    }
    List<byte[]> rows = store.multiGet(CUT_ROWS, keys);
    List<byte[]> index = store.multiGet(CUT_INDEX, keys);
    int present = 0;
    for (int i = 0; i < CUT_BATCHES; i++) {
      boolean row = rows.get(i) != null;
      boolean entry = index.get(i) != null;
      long counted = store.counter(CUT_COUNTS, cutKey(i));
      if (row && !Arrays.equals(rows.get(i), cutValue(i))) {
        return "with batch " + i + "'s row holding other bytes";
      }
      if (row != entry || counted != (row ? 1 : 0)) {
        return "with batch "
            + i
            + " split across families: row "
            + (row ? "present" : "absent")
            + ", index entry "
            + (entry ? "present" : "absent")
            + ", its counter "
            + counted;
      }
      if (row && present != i) {
        return "with batch "
            + i
            + " present after batch "
            + present
            + " was lost: not the first batches";
      }
      present += row ? 1 : 0;
    }
    long total = store.counter(CUT_COUNTS, CUT_TOTAL);
    if (total != present) {
      return "with the first " + present + " batches whole but a total counter of " + total;
    }
    if (tornTail && present < CUT_BATCHES - UNSYNCED) {
      return "with "
          + present
          + " batches: a cut within the unsynced last "
          + UNSYNCED
          + " lost synced ones";
    }
    return null;
  }

  private static byte[] cutKey(int i) {
    return String.format("batch-%04d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] cutValue(int i) {
    return String.format("row of batch %04d of the log-cut case", i)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] loggedKey(int i) {
    return String.format("batch-%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] loggedValue(int i) {
    return String.format("acknowledged SYNC batch %06d of the log-damage case", i)
        .getBytes(StandardCharsets.UTF_8);
  }
}
