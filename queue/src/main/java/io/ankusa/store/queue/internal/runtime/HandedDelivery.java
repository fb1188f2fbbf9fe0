package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.Objects;

/**
 * A {@link Delivery} as the runtime hands it out: one row of a {@link HandedBatch}, the hook it
 * belongs to, and the answer it got. The answer is taken once, under this object's lock; the batch
 * decides whether answers are still taken and what becomes of them.
 */
public final class HandedDelivery implements Delivery {
  /** What a delivery was answered. */
  public enum Outcome {
    DELIVERED,
    RETRY,
    DEAD_LETTER
  }

  private final HandedBatch batch;
  private final int index;
  private final int row;
  private final HookEnvelope hook;
  private final int sink;
  private final io.ankusa.store.queue.internal.record.InflightRow inflight;
  private Outcome outcome;
  private long retryAt;
  private String reason;

  HandedDelivery(
      HandedBatch batch,
      int index,
      int row,
      HookEnvelope hook,
      int sink,
      io.ankusa.store.queue.internal.record.InflightRow inflight) {
    this.inflight = inflight;
    this.batch = batch;
    this.index = index;
    this.row = row;
    this.hook = hook;
    this.sink = sink;
  }

  /** Its position in its batch. */
  int index() {
    return index;
  }

  /** The inflight row its claim wrote, or null when it was handed out before its claim. */
  io.ankusa.store.queue.internal.record.InflightRow inflight() {
    return inflight;
  }

  /** The position of its row among the rows the batch was read for. */
  int row() {
    return row;
  }

  HookEnvelope hook() {
    return hook;
  }

  /** Its delivery row, as read for the whole batch. */
  io.ankusa.store.queue.internal.record.DeliveryRow batchState() {
    return batch.state(index);
  }

  synchronized Outcome outcome() {
    return outcome;
  }

  synchronized long retryAt() {
    return retryAt;
  }

  synchronized String reason() {
    return reason;
  }

  @Override
  public String tenantId() {
    return hook.tenantId() == null ? io.ankusa.store.layout.TenantId.DEFAULT_NAME : hook.tenantId();
  }

  @Override
  public String sourceId() {
    return hook.sourceId();
  }

  @Override
  public String hookId() {
    return hook.hookId();
  }

  @Override
  public String idempotencyKey() {
    return hook.idempotencyKey();
  }

  @Override
  public long seq() {
    return hook.seq();
  }

  @Override
  public int sink() {
    return sink;
  }

  @Override
  public long attempt() {
    return batch.state(index).attempts() + 1;
  }

  @Override
  public long receivedAt() {
    return hook.receivedAt();
  }

  @Override
  public byte[] payload() {
    return hook.payload().clone();
  }

  @Override
  public int payloadSize() {
    return hook.payload().length;
  }

  @Override
  public void delivered() {
    answer(Outcome.DELIVERED, 0, null);
  }

  @Override
  public void retry(long atEpochMs, String reason) {
    Objects.requireNonNull(reason, "reason");
    if (atEpochMs < 0) {
      throw new StoreArgumentException(
          "a retry of " + this + " at " + atEpochMs + " ms: the time must be non-negative");
    }
    answer(Outcome.RETRY, atEpochMs, reason);
  }

  @Override
  public void deadLetter(String reason) {
    Objects.requireNonNull(reason, "reason");
    answer(Outcome.DEAD_LETTER, 0, reason);
  }

  private void answer(Outcome o, long at, String why) {
    batch.take(
        this,
        () -> {
          synchronized (this) {
            if (outcome != null) {
              throw new StoreArgumentException(
                  this
                      + " was answered "
                      + outcome.name().toLowerCase(java.util.Locale.ROOT)
                      + " already; each delivery takes one answer");
            }
            outcome = o;
            retryAt = at;
            reason = why;
          }
        });
  }

  @Override
  public String toString() {
    return "the delivery of hook seq "
        + hook.seq()
        + " ("
        + hook.sourceId()
        + "/"
        + hook.hookId()
        + ") to sink "
        + sink;
  }
}
