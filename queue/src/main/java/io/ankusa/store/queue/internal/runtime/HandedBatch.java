package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliveries handed to a handler at once, with what they share: the hooks, read with one {@code
 * multiGet} when the batch is made, and the delivery rows (attempts, last error), read with one
 * more the first time any delivery of the batch needs them. Whether answers are still taken, and
 * where they go, is the {@link Gate}'s call.
 */
public final class HandedBatch {
  /**
   * Where answers go: takes one (by running {@code record}, which sets it on the delivery and
   * throws if it was answered already) and passes it on, or refuses it with an exception,
   * atomically with respect to the closing of whatever it passes answers to.
   */
  @FunctionalInterface
  public interface Gate {
    void take(HandedDelivery delivery, Runnable record);
  }

  private final DeliveryQueue queue;
  private final Gate gate;
  private final List<HandedDelivery> deliveries = new ArrayList<>();
  private final List<byte[]> rowKeys = new ArrayList<>();

  /** Positions (in the rows given to {@link #read}) of the rows whose hook was not found. */
  private final List<Integer> orphans = new ArrayList<>();

  private List<DeliveryRow> states;

  private HandedBatch(DeliveryQueue queue, Gate gate) {
    this.queue = queue;
    this.gate = gate;
  }

  /**
   * One row to hand out: its hook and sink, and the inflight row a claim wrote for it (null when it
   * was handed out before its claim, to a synchronous handler).
   */
  public record Row(
      long seq, int sink, io.ankusa.store.queue.internal.record.InflightRow inflight) {}

  /**
   * The deliveries of {@code rows}, reading their hooks with one {@code multiGet}. A row whose hook
   * is gone (which a healthy store never holds) gets no delivery: its position is in {@link
   * #orphans()}.
   */
  public static HandedBatch read(DeliveryQueue queue, List<Row> rows, Gate gate) {
    HandedBatch batch = new HandedBatch(queue, gate);
    Map<Long, Integer> slotOf = new LinkedHashMap<>();
    List<byte[]> hookKeys = new ArrayList<>();
    for (Row r : rows) {
      slotOf.computeIfAbsent(
          r.seq(),
          seq -> {
            hookKeys.add(Keys.hook(seq));
            return hookKeys.size() - 1;
          });
    }
    List<byte[]> values = queue.store().multiGet(Format3.HOOKS, hookKeys);
    Map<Long, HookEnvelope> hooks = new HashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      int slot = slotOf.get(r.seq());
      byte[] v = values.get(slot);
      if (v == null) {
        batch.orphans.add(i);
        continue;
      }
      HookEnvelope hook =
          hooks.computeIfAbsent(r.seq(), seq -> HookEnvelope.decodeAt(hookKeys.get(slot), v));
      batch.deliveries.add(
          new HandedDelivery(batch, batch.deliveries.size(), i, hook, r.sink(), r.inflight()));
      batch.rowKeys.add(Keys.delivery(r.seq(), r.sink()));
    }
    return batch;
  }

  /** The deliveries, in the order of the rows they came from (orphans left out). */
  public List<HandedDelivery> deliveries() {
    return deliveries;
  }

  /** Positions in the rows given of those whose hook was gone. */
  public List<Integer> orphans() {
    return orphans;
  }

  /** The delivery row of delivery {@code index}, as read once for the whole batch. */
  synchronized DeliveryRow state(int index) {
    if (states == null) {
      List<byte[]> values = queue.store().multiGet(Format3.DELIVERIES, rowKeys);
      List<DeliveryRow> decoded = new ArrayList<>(values.size());
      for (int i = 0; i < values.size(); i++) {
        byte[] v = values.get(i);
        decoded.add(
            v == null
                ? DeliveryRow.first(0, deliveries.get(i).payloadSize())
                : DeliveryRow.decodeAt(rowKeys.get(i), v));
      }
      states = decoded;
    }
    return states.get(index);
  }

  void take(HandedDelivery d, Runnable record) {
    gate.take(d, record);
  }
}
