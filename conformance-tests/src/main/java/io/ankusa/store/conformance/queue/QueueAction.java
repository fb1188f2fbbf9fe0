package io.ankusa.store.conformance.queue;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * One step of the layout layer's generated sequences ({@code
 * countersEqualAFoldAfterAnySequenceOfTransitions}, {@code noDueRowWithoutAMarker}): a transition
 * of the queue, applied to a {@link QueueDriver}.
 *
 * <p>An action never names a row by key: it picks "the k-th inflight row (mod how many there are)"
 * and the like from what the store holds when it runs, and does nothing when there is nothing to
 * pick, so every generated (and every shrunk) sequence is valid. Transitions the queue runs itself
 * (ingest, dispatch tick, inflight recovery, purge, reclaim) go through the queue's classes; the
 * others call the {@link Deliveries} op builders with rows read from the store, as the pipeline and
 * replayer do. {@link #apply} returns what it did, for failure messages.
 */
public sealed interface QueueAction {

  /** Applies the action; returns a short account of what it did. */
  String apply(QueueDriver d);

  /**
   * Ingest of {@code hooks} hooks of tenant {@code tenant} ({@link QueueDriver#TENANTS} index; 0 is
   * none, i.e. {@code "default"}), each for sinks {@code 1..sinks}, received at now + {@code
   * delayMs} (negative: in the past), payload {@code payloadBytes}, in one batch.
   */
  record Ingest(int tenant, int hooks, int sinks, long delayMs, int payloadBytes)
      implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      List<HookEnvelope> batch = new ArrayList<>();
      for (int i = 0; i < hooks; i++) {
        batch.add(
            d.newHook(
                QueueDriver.TENANTS.get(tenant),
                Math.max(0, d.now() + delayMs),
                sinks,
                payloadBytes));
      }
      return "seqs " + d.ingest().ingest(batch);
    }
  }

  /**
   * The clock moves {@code advanceMs}, then one dispatch tick claims up to {@code rowLimit} rows.
   */
  record Tick(long advanceMs, int rowLimit) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      d.advance(advanceMs);
      Dispatcher.TickReport r =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, rowLimit, Long.MAX_VALUE).tick(d.now());
      return "tick at "
          + d.now()
          + ": "
          + r.tenantsVisited()
          + " tenants visited, "
          + r.rowsClaimed()
          + " rows claimed, "
          + r.markersDeleted()
          + " markers deleted";
    }
  }

  /** The {@code pick}-th inflight row is delivered. */
  record Deliver(int pick) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      InflightRow row = QueueDriver.pick(d.inflightRows(), pick);
      if (row == null) {
        return "no inflight row";
      }
      Transition t = new Transition();
      Deliveries.delivered(t, row);
      d.write(t);
      return "delivered " + row.key();
    }
  }

  /** The {@code pick}-th inflight row is due again at now + {@code backoffMs}, as a retry. */
  record Retry(int pick, long backoffMs) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      InflightRow row = QueueDriver.pick(d.inflightRows(), pick);
      if (row == null) {
        return "no inflight row";
      }
      DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
      Transition t = new Transition();
      Deliveries.retry(t, row, state, d.now() + backoffMs, "503 from sink");
      d.write(t);
      return "retry of " + row.key() + " at " + (d.now() + backoffMs);
    }
  }

  /** The {@code pick}-th inflight row is given up (dead-lettered) now. */
  record DeadLetter(int pick) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      InflightRow row = QueueDriver.pick(d.inflightRows(), pick);
      if (row == null) {
        return "no inflight row";
      }
      DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
      HookEnvelope hook = d.hook(row.key().seq());
      Transition t = new Transition();
      Deliveries.deadLetter(t, row, state, d.now(), hook.sourceId(), hook.hookId(), "410 gone");
      d.write(t);
      return "dead-lettered " + row.key();
    }
  }

  /** The {@code pick}-th dead row (time order) is revived: due now, first attempt. */
  record Revive(int pick) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      DeadRow dead = QueueDriver.pick(d.deadRows(), pick);
      if (dead == null) {
        return "no dead row";
      }
      DeliveryRow state = d.deliveryRow(dead.key().seq(), dead.key().sink());
      Transition t = new Transition();
      Deliveries.revive(t, dead, state, d.now());
      d.write(t);
      return "revived " + dead.key() + " of ord " + dead.ord();
    }
  }

  /** Boot-time recovery: every inflight row is due again now (or dropped when its hook is gone). */
  record RecoverInflight() implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      InflightRecovery.Result r = InflightRecovery.recoverInflight(d.queue(), d.now());
      return r.toString();
    }
  }

  /**
   * The {@code pick}-th stored hook gains one sink (its largest plus one), due now; at most 6
   * sinks.
   */
  record Expand(int pick) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      HookEnvelope hook = QueueDriver.pick(d.hooks(), pick);
      if (hook == null) {
        return "no hook";
      }
      if (hook.sinks().size() >= 6) {
        return "hook " + hook.seq() + " already has 6 sinks";
      }
      int sink = hook.sinks().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
      List<Integer> sinks = new ArrayList<>(hook.sinks());
      sinks.add(sink);
      HookEnvelope expanded =
          new HookEnvelope(
              hook.seq(),
              hook.tenantId(),
              hook.sourceId(),
              hook.hookId(),
              hook.idempotencyKey(),
              hook.receivedAt(),
              sinks,
              hook.payload());
      OptionalLong ord = Tenants.ord(d.store(), TenantId.of(hook.tenantId()));
      if (ord.isEmpty()) {
        throw new AssertionError(
            "hook "
                + hook.seq()
                + " of tenant "
                + TenantId.of(hook.tenantId()).value()
                + " is stored but its tenant has no ordinal");
      }
      Transition t = new Transition();
      Deliveries.expand(t, expanded, ord.getAsLong(), List.of(sink), d.now());
      d.write(t);
      return "hook " + hook.seq() + " expanded with sink " + sink;
    }
  }

  /** Purge of tenant {@code tenant}'s due rows and/or dead rows (at least one of the two). */
  record PurgeTenant(int tenant, boolean due, boolean dead) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      EnumSet<Purge.Kind> kinds = EnumSet.noneOf(Purge.Kind.class);
      if (due) {
        kinds.add(Purge.Kind.DUE);
      }
      if (dead || !due) {
        kinds.add(Purge.Kind.DEAD);
      }
      TenantId id = TenantId.of(QueueDriver.TENANTS.get(tenant));
      return "purged "
          + Purge.purgeTenant(d.queue(), id, kinds)
          + " rows of "
          + id.value()
          + " "
          + kinds;
    }
  }

  /** The {@code pick}-th archive obligation is settled (or dropped). */
  record SettleArchive(int pick, boolean drop) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      QueueDriver.Obligation o = QueueDriver.pick(d.archiveObligations(), pick);
      if (o == null) {
        return "no archive obligation";
      }
      Transition t = new Transition();
      if (drop) {
        Deliveries.archiveDrop(t, o.seq(), o.value());
      } else {
        Deliveries.archiveSettle(t, o.seq(), o.value());
      }
      d.write(t);
      return (drop ? "dropped" : "settled") + " the archive obligation of seq " + o.seq();
    }
  }

  /**
   * The archiver runs with the durable watermark {@code lag} seqs below the newest seq: up to
   * {@code chunks} single chunks, or with {@code drain} one {@code drain()} (which reads the next
   * chunk on a second thread while the sink syncs). With {@code failSync} the sink refuses its
   * first sync (nothing of that chunk may be settled); with {@code restart} a new archiver takes
   * over first (as after a process kill, whose unsynced appends the sink forgets). Fails at once if
   * the archive got a hook above the watermark.
   */
  record Archive(int lag, int chunks, boolean drain, boolean failSync, boolean restart)
      implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      if (restart) {
        d.archive().crash();
        d.restartArchiver();
      }
      long watermark = Math.max(0, d.queue().lastSeq() - lag);
      d.archiveWatermark(watermark);
      int before = d.archive().appended().size();
      d.archive().failSyncs(failSync ? 1 : 0);
      StringBuilder did =
          new StringBuilder(
              "archive up to seq " + watermark + (restart ? " after a restart" : "") + ":");
      for (int c = 0; c < (drain ? 1 : chunks); c++) {
        Archiver.ChunkReport r;
        try {
          r = drain ? d.archiver().drain() : d.archiver().archiveChunk();
        } catch (ArchiveSinkException e) {
          did.append(" sync refused;");
          continue;
        }
        did.append(drain ? " drained: settled " : " settled ")
            .append(r.settled())
            .append(", dropped ")
            .append(r.dropped())
            .append(';');
        if (r.obligations() == 0) {
          break;
        }
      }
      d.archive().failSyncs(0);
      for (long seq : d.archive().appended().subList(before, d.archive().appended().size())) {
        if (seq > watermark) {
          throw new AssertionError(
              "the archive got hook " + seq + " above durableSeq " + watermark + " (" + did + ")");
        }
      }
      return did.toString();
    }
  }

  /** Reclaim visits up to {@code limit} cleared hooks and deletes those nothing owes. */
  record ReclaimHooks(int limit) implements QueueAction {
    @Override
    public String apply(QueueDriver d) {
      return "reclaimed " + Reclaim.run(d.queue(), limit) + " hooks";
    }
  }
}
