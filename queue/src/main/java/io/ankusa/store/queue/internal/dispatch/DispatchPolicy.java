package io.ankusa.store.queue.internal.dispatch;

import io.ankusa.store.spi.StoreArgumentException;
import java.util.Objects;

/**
 * How a {@link Dispatcher} shares its ticks among tenants (docs/delivery.md, "Claim order").
 *
 * @param order deficit round-robin (the default), or oldest second first (the order before tenants
 *     were dispatched fairly; kept so benches can compare the two in one run)
 * @param quantumBytes what a tenant of weight 1 earns per round, in cost bytes; default 64 KiB
 * @param rowCostBytes what each row costs on top of its payload size, so a tenant of many small
 *     rows cannot take a round's worth of rows for free; default 256. With 0 the quantum counts
 *     payload bytes only; with a quantum of {@code n × rowCostBytes} and small payloads, about
 *     {@code n} rows
 */
public record DispatchPolicy(ClaimOrder order, long quantumBytes, long rowCostBytes) {
  /** The order in which a tick serves tenants. */
  public enum ClaimOrder {
    /**
     * Round-robin over the active tenants from where the last tick stopped, each up to its deficit.
     */
    DEFICIT_ROUND_ROBIN,
    /** Oldest second first across tenants, each tenant up to the tick's whole budget. */
    OLDEST_FIRST
  }

  /** Default quantum: 64 KiB. */
  public static final long DEFAULT_QUANTUM_BYTES = 64L << 10;

  /** Default row cost: 256 bytes, about what a claim writes besides the payload's size. */
  public static final long DEFAULT_ROW_COST_BYTES = 256;

  /** REQUIRES: an order, quantum at least 1, row cost at least 0. */
  public DispatchPolicy {
    Objects.requireNonNull(order, "order");
    if (quantumBytes < 1) {
      throw new StoreArgumentException(
          "dispatch quantum " + quantumBytes + " bytes must be at least 1");
    }
    if (rowCostBytes < 0) {
      throw new StoreArgumentException(
          "dispatch row cost " + rowCostBytes + " bytes must be at least 0");
    }
  }

  /** Deficit round-robin, 64 KiB quantum, 256 bytes per row. */
  public static DispatchPolicy defaults() {
    return new DispatchPolicy(
        ClaimOrder.DEFICIT_ROUND_ROBIN, DEFAULT_QUANTUM_BYTES, DEFAULT_ROW_COST_BYTES);
  }

  /** Oldest second first, the order that lets one tenant's old backlog take every tick. */
  public static DispatchPolicy oldestFirst() {
    return new DispatchPolicy(
        ClaimOrder.OLDEST_FIRST, DEFAULT_QUANTUM_BYTES, DEFAULT_ROW_COST_BYTES);
  }
}
