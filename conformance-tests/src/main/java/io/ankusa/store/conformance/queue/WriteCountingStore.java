package io.ankusa.store.conformance.queue;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that counts the writes reaching it: every write, and those that put an inflight row (a
 * dispatcher's claims). How a case checks that a round's claims are one batch, or that a call with
 * nothing to do writes nothing. Thread-safe; the store it wraps is not owned.
 */
final class WriteCountingStore extends ForwardingStore {
  /** Writes that put an inflight row. */
  final AtomicInteger claimWrites = new AtomicInteger();

  /** Every write. */
  final AtomicInteger anyWrites = new AtomicInteger();

  WriteCountingStore(Store delegate) {
    super(delegate);
  }

  /** Whether {@code batch} puts an inflight row: a dispatcher's claim write. */
  static boolean writesClaims(Batch batch) {
    return batch.ops().stream()
        .anyMatch(
            op ->
                op instanceof Op.Put p
                    && op.family().equals(Format3.INDEX)
                    && p.key().length > 0
                    && p.key()[0] == 'F');
  }

  @Override
  public void write(Batch batch, Durability durability) {
    anyWrites.incrementAndGet();
    if (writesClaims(batch)) {
      claimWrites.incrementAndGet();
    }
    delegate.write(batch, durability);
  }
}
