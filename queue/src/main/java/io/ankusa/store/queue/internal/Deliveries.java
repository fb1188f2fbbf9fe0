package io.ankusa.store.queue.internal;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Transition.Expected;
import io.ankusa.store.queue.internal.Transition.Kind;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The op builders: one per transition of a delivery, and the only code that builds {@code 'D' 'F'
 * 'X' 'A'} keys (an ArchUnit test says so). Each appends to a {@link Transition} the row puts and
 * deletes, the index keys, the active marker of every due row it creates, and the counter deltas —
 * so a row can never be written without its marker and its counts, and they all land in one batch.
 *
 * <p>The counters each transition moves (docs/storage.md, 'Counters'):
 *
 * <pre>
 * transition       pending  scheduled  inflight  dead  bytes   archive_pending
 * ingest            +n                                 +size·n  +1 (archive on)
 * revert ingest     -n                                 -size·n  -1 (rows still there)
 * claim (kind 0)    -1                   +1
 * claim (kind 1)             -1          +1
 * delivered                              -1             -size
 * retry                      +1          -1
 * dead-letter                            -1       +1
 * revive            +1                            -1
 * expand            +n                                 +size·n
 * recover inflight  +1                   -1
 * orphan drop                            -1             -size
 * purge due         -1 or    -1                         -size
 * purge dead                                      -1    -size
 * archive settle/drop                                            -1
 * </pre>
 *
 * <p>REQUIRES for every builder: the rows passed in are as read from the store (a claim's due row
 * was scanned, not guessed); the caller writes the resulting batch once, through {@link
 * DeliveryQueue#write}. Every builder records its transition as a {@link Transition} step with the
 * rows it consumes: the write re-reads them under the {@link TransitionGuard} and skips the step if
 * another transition moved them in between ({@link Transition#applied}), so rows read a while ago
 * are safe to pass. {@link #ingest} consumes nothing (it adds new keys) and {@link #revertIngest}
 * runs under every stripe: their steps expect no row.
 */
public final class Deliveries {
  private Deliveries() {}

  /**
   * Ingest of one hook (seq assigned) for tenant {@code ord}: the envelope, one delivery row and
   * one due row of kind 0 per sink at {@code hook.receivedAt()}, the marker, and with the archive
   * on an archive obligation.
   */
  public static void ingest(Transition t, HookEnvelope hook, long ord, boolean archive) {
    t.step(
        Kind.INGEST,
        ord,
        Transition.NO_HOOK,
        List.of(),
        tt -> ingestOps(tt, hook, hook.encode(), ord, archive));
  }

  /**
   * {@link #ingest(Transition, HookEnvelope, long, boolean)} of an envelope already encoded: {@code
   * encoded} is {@code hook.encode()}, made earlier (the ingest writer encodes on the caller's
   * thread and sets the seq with {@link HookEnvelope#setEncodedSeq} once it assigns one). The batch
   * takes {@code encoded}: do not change it until the batch is written.
   *
   * @throws StoreArgumentException if {@code encoded} does not carry {@code hook}'s seq (an
   *     encoding made for another seq, or none)
   */
  public static void ingest(
      Transition t, HookEnvelope hook, byte[] encoded, long ord, boolean archive) {
    long carried = HookEnvelope.encodedSeq(encoded);
    if (carried != hook.seq()) {
      throw new StoreArgumentException(
          "the encoding given for hook '"
              + hook.hookId()
              + "' carries seq "
              + carried
              + ", not its seq "
              + hook.seq()
              + "; set it with HookEnvelope.setEncodedSeq first");
    }
    t.step(
        Kind.INGEST,
        ord,
        Transition.NO_HOOK,
        List.of(),
        tt -> ingestOps(tt, hook, encoded, ord, archive));
  }

  private static void ingestOps(
      Transition t, HookEnvelope hook, byte[] encoded, long ord, boolean archive) {
    long size = hook.payload().length;
    t.ops().put(Format3.HOOKS, Keys.hook(hook.seq()), encoded);
    for (int sink : hook.sinks()) {
      newDue(
          t, ord, hook.receivedAt(), hook.seq(), sink, DeliveryRow.first(hook.receivedAt(), size));
    }
    t.deltas().add(ord, CounterField.PENDING, hook.sinks().size());
    t.deltas().add(ord, CounterField.BYTES, size * hook.sinks().size());
    if (archive) {
      t.ops().put(Format3.INDEX, Keys.archive(hook.seq()), new ArchiveValue(size, ord).encode());
      t.deltas().add(ord, CounterField.ARCHIVE_PENDING, 1);
    }
  }

  /**
   * The inverse of {@link #ingest}, for a fenced {@link
   * io.ankusa.store.queue.internal.ingest.QueueWriter} deleting a group that was never
   * acknowledged: the envelope, and for each sink the due row, its delivery row and their counts —
   * but only the due rows still there, read from {@code view} (a backend's recovery may have
   * dropped the whole group, and nothing else moves rows above the durable watermark; a row someone
   * did move is left alone and not counted twice). The archive obligation goes with its count if
   * present. Active markers stay: a marker without a due row is harmless and the dispatcher's
   * cleanup removes it.
   *
   * <p>REQUIRES: {@code hook} is the envelope as stored (seq assigned), {@code ord} the ordinal its
   * ingest used, and the batch is written before anything else changes these rows (the writer is
   * the only one touching rows above {@code durableSeq}).
   */
  public static void revertIngest(Transition t, ReadView view, HookEnvelope hook, long ord) {
    t.step(
        Kind.REVERT_INGEST,
        ord,
        Transition.NO_HOOK,
        List.of(),
        tt -> revertIngestOps(tt, view, hook, ord));
  }

  private static void revertIngestOps(Transition t, ReadView view, HookEnvelope hook, long ord) {
    long seq = hook.seq();
    t.ops().delete(Format3.HOOKS, Keys.hook(seq));
    List<byte[]> dueKeys = new ArrayList<>(hook.sinks().size());
    for (int sink : hook.sinks()) {
      dueKeys.add(Keys.due(ord, hook.receivedAt(), seq, sink));
    }
    List<byte[]> dueValues = view.multiGet(Format3.INDEX, dueKeys);
    for (int i = 0; i < dueKeys.size(); i++) {
      byte[] v = dueValues.get(i);
      if (v == null) {
        continue;
      }
      DueValue value = DueValue.decodeAt(dueKeys.get(i), v);
      t.ops().delete(Format3.INDEX, dueKeys.get(i));
      t.ops().delete(Format3.DELIVERIES, Keys.delivery(seq, hook.sinks().get(i)));
      t.deltas().add(ord, value.kind().counter(), -1);
      t.deltas().add(ord, CounterField.BYTES, -value.size());
    }
    byte[] archiveKey = Keys.archive(seq);
    byte[] archive = view.get(Format3.INDEX, archiveKey);
    if (archive != null) {
      t.ops().delete(Format3.INDEX, archiveKey);
      t.deltas()
          .add(ArchiveValue.decodeAt(archiveKey, archive).ord(), CounterField.ARCHIVE_PENDING, -1);
    }
  }

  /**
   * Expand: sinks {@code added} joined hook {@code hook} (whose envelope already lists them): a
   * delivery row and a due row of kind 0 at {@code at} for each.
   */
  public static void expand(
      Transition t, HookEnvelope hook, long ord, List<Integer> added, long at) {
    List<Integer> before = new ArrayList<>(hook.sinks());
    before.removeAll(added);
    List<Expected> expected = new ArrayList<>(1 + added.size());
    byte[] hookKey = Keys.hook(hook.seq());
    expected.add(
        Expected.matching(
            Format3.HOOKS,
            hookKey,
            v -> v != null && HookEnvelope.decodeAt(hookKey, v).sinks().equals(before),
            "hook with sinks " + before));
    for (int sink : added) {
      expected.add(
          Expected.absent(Format3.DELIVERIES, Keys.delivery(hook.seq(), sink), "no delivery row"));
    }
    t.step(Kind.EXPAND, ord, hook.seq(), expected, tt -> expandOps(tt, hook, ord, added, at));
  }

  private static void expandOps(
      Transition t, HookEnvelope hook, long ord, List<Integer> added, long at) {
    long size = hook.payload().length;
    t.ops().put(Format3.HOOKS, Keys.hook(hook.seq()), hook.encode());
    for (int sink : added) {
      newDue(t, ord, at, hook.seq(), sink, DeliveryRow.first(at, size));
    }
    t.deltas().add(ord, CounterField.PENDING, added.size());
    t.deltas().add(ord, CounterField.BYTES, size * added.size());
  }

  /** Claim: a due row becomes inflight; returns the inflight row the claim writes. */
  public static InflightRow claim(Transition t, DueRow due) {
    var k = due.key();
    byte[] dueKey = Keys.due(k.ord(), k.at(), k.seq(), k.sink());
    InflightRow inflight =
        new InflightRow(
            new InflightKey(k.ord(), k.seq(), k.sink()), new InflightValue(due.value().size()));
    t.step(
        new Transition.Step(
            Kind.CLAIM,
            k.ord(),
            Transition.NO_HOOK,
            () -> dueAsRead(dueKey, due),
            inflight,
            tt -> claimOps(tt, due, dueKey, inflight)));
    return inflight;
  }

  private static void claimOps(Transition t, DueRow due, byte[] dueKey, InflightRow inflight) {
    var k = due.key();
    t.ops().delete(Format3.INDEX, dueKey);
    t.ops()
        .put(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()), inflight.value().encode());
    t.deltas().add(k.ord(), due.value().kind().counter(), -1);
    t.deltas().add(k.ord(), CounterField.INFLIGHT, 1);
  }

  /**
   * Claimed and delivered in one batch (a synchronous handler's answer, given while the dispatcher
   * held the tenant's stripe): the due row and its delivery row go, no inflight row is ever
   * written; the hook is marked cleared for reclaim. The counters move as a claim and a delivered
   * would, in one step.
   */
  public static void claimDelivered(Transition t, DueRow due) {
    var k = due.key();
    byte[] dueKey = Keys.due(k.ord(), k.at(), k.seq(), k.sink());
    t.step(
        Kind.CLAIM_DELIVERED,
        k.ord(),
        Transition.NO_HOOK,
        dueAsRead(dueKey, due),
        tt -> {
          tt.ops().delete(Format3.INDEX, dueKey);
          tt.ops().delete(Format3.DELIVERIES, Keys.delivery(k.seq(), k.sink()));
          tt.putCleared(k.seq());
          tt.deltas().add(k.ord(), due.value().kind().counter(), -1);
          tt.deltas().add(k.ord(), CounterField.BYTES, -due.value().size());
        });
  }

  /**
   * Claimed and retried in one batch: the due row is due again at {@code at} as kind 1, one attempt
   * more ({@code state} is its delivery row as read), without an inflight row in between.
   */
  public static void claimRetry(
      Transition t, DueRow due, DeliveryRow state, long at, String error) {
    var k = due.key();
    byte[] dueKey = Keys.due(k.ord(), k.at(), k.seq(), k.sink());
    t.step(
        Kind.CLAIM_RETRY,
        k.ord(),
        Transition.NO_HOOK,
        dueAsRead(dueKey, due),
        tt -> {
          tt.ops().delete(Format3.INDEX, dueKey);
          putDue(
              tt, k.ord(), at, k.seq(), k.sink(), new DueValue(due.value().size(), DueKind.RETRY));
          tt.ops()
              .put(
                  Format3.DELIVERIES,
                  Keys.delivery(k.seq(), k.sink()),
                  new DeliveryRow(state.attempts() + 1, at, error, state.size()).encode());
          tt.deltas().add(k.ord(), due.value().kind().counter(), -1);
          tt.deltas().add(k.ord(), CounterField.SCHEDULED, 1);
        });
  }

  /**
   * Claimed and dead-lettered in one batch: the due row is given up at {@code at} ({@code 'x'} with
   * the ord, and {@code 'X'}), one attempt more, without an inflight row in between.
   */
  public static void claimDeadLetter(
      Transition t,
      DueRow due,
      DeliveryRow state,
      long at,
      String sourceId,
      String hookId,
      String error) {
    var k = due.key();
    byte[] dueKey = Keys.due(k.ord(), k.at(), k.seq(), k.sink());
    t.step(
        Kind.CLAIM_DEAD_LETTER,
        k.ord(),
        Transition.NO_HOOK,
        dueAsRead(dueKey, due),
        tt -> {
          tt.ops().delete(Format3.INDEX, dueKey);
          tt.ops()
              .put(
                  Format3.INDEX,
                  Keys.dead(at, k.seq(), k.sink()),
                  DeadValue.of(k.ord(), sourceId, hookId).encode());
          tt.ops()
              .put(
                  Format3.INDEX,
                  Keys.deadByTenant(k.ord(), at, k.seq(), k.sink()),
                  EmptyValue.encode());
          tt.ops()
              .put(
                  Format3.DELIVERIES,
                  Keys.delivery(k.seq(), k.sink()),
                  new DeliveryRow(state.attempts() + 1, 0, error, state.size()).encode());
          tt.deltas().add(k.ord(), due.value().kind().counter(), -1);
          tt.deltas().add(k.ord(), CounterField.DEAD, 1);
        });
  }

  /**
   * Delivered: the inflight row and its delivery row go; the hook is marked cleared for reclaim.
   */
  public static void delivered(Transition t, InflightRow row) {
    guardedInflight(t, Kind.DELIVERED, row, tt -> deliveredOps(tt, row));
  }

  private static void deliveredOps(Transition t, InflightRow row) {
    var k = row.key();
    t.ops().delete(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()));
    t.ops().delete(Format3.DELIVERIES, Keys.delivery(k.seq(), k.sink()));
    t.putCleared(k.seq());
    t.deltas().add(k.ord(), CounterField.INFLIGHT, -1);
    t.deltas().add(k.ord(), CounterField.BYTES, -row.size());
  }

  /** Retry: the inflight row is due again at {@code at} as kind 1, one attempt more. */
  public static void retry(
      Transition t, InflightRow row, DeliveryRow state, long at, String error) {
    guardedInflight(t, Kind.RETRY, row, tt -> retryOps(tt, row, state, at, error));
  }

  private static void retryOps(
      Transition t, InflightRow row, DeliveryRow state, long at, String error) {
    var k = row.key();
    t.ops().delete(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()));
    putDue(t, k.ord(), at, k.seq(), k.sink(), new DueValue(row.size(), DueKind.RETRY));
    t.ops()
        .put(
            Format3.DELIVERIES,
            Keys.delivery(k.seq(), k.sink()),
            new DeliveryRow(state.attempts() + 1, at, error, state.size()).encode());
    t.deltas().add(k.ord(), CounterField.INFLIGHT, -1);
    t.deltas().add(k.ord(), CounterField.SCHEDULED, 1);
  }

  /**
   * Dead-letter: the inflight row is given up at {@code at}: {@code 'x'} with the ord, and {@code
   * 'X'}.
   */
  public static void deadLetter(
      Transition t,
      InflightRow row,
      DeliveryRow state,
      long at,
      String sourceId,
      String hookId,
      String error) {
    guardedInflight(
        t, Kind.DEAD_LETTER, row, tt -> deadLetterOps(tt, row, state, at, sourceId, hookId, error));
  }

  private static void deadLetterOps(
      Transition t,
      InflightRow row,
      DeliveryRow state,
      long at,
      String sourceId,
      String hookId,
      String error) {
    var k = row.key();
    t.ops().delete(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()));
    t.ops()
        .put(
            Format3.INDEX,
            Keys.dead(at, k.seq(), k.sink()),
            DeadValue.of(k.ord(), sourceId, hookId).encode());
    t.ops()
        .put(Format3.INDEX, Keys.deadByTenant(k.ord(), at, k.seq(), k.sink()), EmptyValue.encode());
    t.ops()
        .put(
            Format3.DELIVERIES,
            Keys.delivery(k.seq(), k.sink()),
            new DeliveryRow(state.attempts() + 1, 0, error, state.size()).encode());
    t.deltas().add(k.ord(), CounterField.INFLIGHT, -1);
    t.deltas().add(k.ord(), CounterField.DEAD, 1);
  }

  /** Revive (replay): a dead row is due again at {@code now} as kind 0. */
  public static void revive(Transition t, DeadRow dead, DeliveryRow state, long now) {
    var k = dead.key();
    byte[] deadKey = Keys.dead(k.at(), k.seq(), k.sink());
    t.step(
        Kind.REVIVE,
        dead.ord(),
        Transition.NO_HOOK,
        List.of(Expected.equalTo(Format3.INDEX, deadKey, dead.value().encode(), "dead row")),
        tt -> reviveOps(tt, dead, state, now));
  }

  private static void reviveOps(Transition t, DeadRow dead, DeliveryRow state, long now) {
    var k = dead.key();
    long ord = dead.ord();
    t.ops().delete(Format3.INDEX, Keys.dead(k.at(), k.seq(), k.sink()));
    t.ops().delete(Format3.INDEX, Keys.deadByTenant(ord, k.at(), k.seq(), k.sink()));
    newDue(
        t,
        ord,
        now,
        k.seq(),
        k.sink(),
        new DeliveryRow(state.attempts(), now, state.lastError(), state.size()));
    t.deltas().add(ord, CounterField.DEAD, -1);
    t.deltas().add(ord, CounterField.PENDING, 1);
  }

  /**
   * Recover inflight (boot): a row claimed by a dispatcher that died is due again at {@code now},
   * kind 0.
   */
  public static void recoverInflight(Transition t, InflightRow row, long now) {
    guardedInflight(t, Kind.RECOVER_INFLIGHT, row, tt -> recoverInflightOps(tt, row, now));
  }

  private static void recoverInflightOps(Transition t, InflightRow row, long now) {
    var k = row.key();
    t.ops().delete(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()));
    putDue(t, k.ord(), now, k.seq(), k.sink(), new DueValue(row.size(), DueKind.FIRST_ATTEMPT));
    t.deltas().add(k.ord(), CounterField.INFLIGHT, -1);
    t.deltas().add(k.ord(), CounterField.PENDING, 1);
  }

  /** Orphan drop: an inflight row whose hook is gone is removed with its delivery row. */
  public static void orphanDrop(Transition t, InflightRow row) {
    guardedInflight(t, Kind.ORPHAN_DROP, row, tt -> orphanDropOps(tt, row));
  }

  private static void orphanDropOps(Transition t, InflightRow row) {
    var k = row.key();
    t.ops().delete(Format3.INDEX, Keys.inflight(k.ord(), k.seq(), k.sink()));
    t.ops().delete(Format3.DELIVERIES, Keys.delivery(k.seq(), k.sink()));
    t.deltas().add(k.ord(), CounterField.INFLIGHT, -1);
    t.deltas().add(k.ord(), CounterField.BYTES, -row.size());
  }

  /**
   * Purge of a due row (pending or scheduled): gone with its delivery row; the hook is marked
   * cleared.
   */
  public static void purgeDue(Transition t, DueRow due) {
    var k = due.key();
    byte[] dueKey = Keys.due(k.ord(), k.at(), k.seq(), k.sink());
    t.step(
        Kind.PURGE_DUE,
        k.ord(),
        Transition.NO_HOOK,
        dueAsRead(dueKey, due),
        tt -> purgeDueOps(tt, due, dueKey));
  }

  private static void purgeDueOps(Transition t, DueRow due, byte[] dueKey) {
    var k = due.key();
    t.ops().delete(Format3.INDEX, dueKey);
    t.ops().delete(Format3.DELIVERIES, Keys.delivery(k.seq(), k.sink()));
    t.putCleared(k.seq());
    t.deltas().add(k.ord(), due.value().kind().counter(), -1);
    t.deltas().add(k.ord(), CounterField.BYTES, -due.value().size());
  }

  /**
   * Purge of a dead row found through {@code 'X'}: both dead keys and the delivery row go; {@code
   * size} is the delivery row's.
   */
  public static void purgeDead(Transition t, DeadByTenantKey dead, long size) {
    byte[] byTenant = Keys.deadByTenant(dead.ord(), dead.at(), dead.seq(), dead.sink());
    t.step(
        Kind.PURGE_DEAD,
        dead.ord(),
        Transition.NO_HOOK,
        List.of(Expected.present(Format3.INDEX, byTenant, "dead-by-tenant row")),
        tt -> purgeDeadOps(tt, dead, byTenant, size));
  }

  private static void purgeDeadOps(Transition t, DeadByTenantKey dead, byte[] byTenant, long size) {
    t.ops().delete(Format3.INDEX, byTenant);
    t.ops().delete(Format3.INDEX, Keys.dead(dead.at(), dead.seq(), dead.sink()));
    t.ops().delete(Format3.DELIVERIES, Keys.delivery(dead.seq(), dead.sink()));
    t.putCleared(dead.seq());
    t.deltas().add(dead.ord(), CounterField.DEAD, -1);
    t.deltas().add(dead.ord(), CounterField.BYTES, -size);
  }

  /**
   * Archive settle (the hook reached the archive) or drop (its hook is gone): the obligation goes.
   */
  public static void archiveSettle(Transition t, long seq, ArchiveValue obligation) {
    settleObligation(t, Kind.ARCHIVE_SETTLE, seq, obligation);
  }

  /** Archive drop: same ops as a settle; a separate name so callers say which happened. */
  public static void archiveDrop(Transition t, long seq, ArchiveValue obligation) {
    settleObligation(t, Kind.ARCHIVE_DROP, seq, obligation);
  }

  private static void settleObligation(Transition t, Kind kind, long seq, ArchiveValue obligation) {
    byte[] key = Keys.archive(seq);
    t.step(
        kind,
        obligation.ord(),
        Transition.NO_HOOK,
        List.of(Expected.equalTo(Format3.INDEX, key, obligation.encode(), "archive obligation")),
        tt -> {
          tt.ops().delete(Format3.INDEX, key);
          tt.putCleared(
              seq); // the obligation was maybe the last thing the hook owed: reclaim looks again
          tt.deltas().add(obligation.ord(), CounterField.ARCHIVE_PENDING, -1);
        });
  }

  /** The due row as read: the key with the value (size and kind) it had. */
  private static List<Expected> dueAsRead(byte[] dueKey, DueRow due) {
    return List.of(Expected.equalTo(Format3.INDEX, dueKey, due.value().encode(), "due row"));
  }

  /** A step that consumes inflight row {@code row}, expected as read. */
  private static void guardedInflight(
      Transition t, Kind kind, InflightRow row, Consumer<Transition> ops) {
    t.step(
        new Transition.Step(
            kind, row.ord(), Transition.NO_HOOK, () -> inflightAsRead(row), row, ops));
  }

  private static List<Expected> inflightAsRead(InflightRow row) {
    var k = row.key();
    return List.of(
        Expected.equalTo(
            Format3.INDEX,
            Keys.inflight(k.ord(), k.seq(), k.sink()),
            row.value().encode(),
            "inflight row"));
  }

  /** The active marker {@code 'A' bucket ord} for a due row at {@code at}, once per batch. */
  static void marker(Transition t, long ord, long at) {
    ActiveKey marker = new ActiveKey(ActiveKey.bucketOf(at), ord);
    if (t.firstMarker(marker, at)) {
      t.ops().put(Format3.INDEX, Keys.active(marker.bucket(), ord), EmptyValue.encode());
    }
  }

  /** The key of {@code marker}, for reads of the active index. */
  public static byte[] markerKey(ActiveKey marker) {
    return Keys.active(marker.bucket(), marker.ord());
  }

  /**
   * Deletes markers; only {@link io.ankusa.store.queue.internal.index.ActiveIndex#cleanup} calls
   * this.
   */
  public static void deleteMarker(Batch batch, ActiveKey marker) {
    batch.delete(Format3.INDEX, Keys.active(marker.bucket(), marker.ord()));
  }

  /**
   * Puts a marker back outside a transition; only {@link
   * io.ankusa.store.queue.internal.index.ActiveIndex#cleanup} calls this.
   */
  public static void putMarker(Batch batch, ActiveKey marker) {
    batch.put(Format3.INDEX, Keys.active(marker.bucket(), marker.ord()), EmptyValue.encode());
  }

  private static void newDue(Transition t, long ord, long at, long seq, int sink, DeliveryRow row) {
    t.ops().put(Format3.DELIVERIES, Keys.delivery(seq, sink), row.encode());
    putDue(t, ord, at, seq, sink, new DueValue(row.size(), DueKind.FIRST_ATTEMPT));
  }

  /** The due row and its marker: there is no way to write one without the other. */
  private static void putDue(Transition t, long ord, long at, long seq, int sink, DueValue value) {
    t.ops().put(Format3.INDEX, Keys.due(ord, at, seq, sink), value.encode());
    marker(t, ord, at);
  }
}
