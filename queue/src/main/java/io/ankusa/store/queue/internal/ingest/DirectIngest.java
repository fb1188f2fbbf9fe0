package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.TenantAllocator;
import io.ankusa.store.queue.internal.tenant.TenantLimitException;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.List;

/**
 * Ingest without the writer: each call assigns seqs, resolves and allocates tenant ordinals and
 * writes one SYNC batch. For tests, fixtures, tools and the migration's checks — services ingest
 * through the group-committing writer. Like the writer it must be the only allocator of its queue:
 * use it from one thread and not beside a running writer.
 */
public final class DirectIngest {
  private final DeliveryQueue queue;
  private long lastSeq;

  public DirectIngest(DeliveryQueue queue) {
    this.queue = queue;
    this.lastSeq = queue.lastSeq();
  }

  /**
   * Stores {@code hooks} (their seq fields are ignored and assigned here) in one batch and returns
   * their seqs, in order.
   *
   * @throws TenantLimitException if a hook's tenant would exceed {@code tenants.max}; nothing is
   *     written and no ordinal is created
   * @throws io.ankusa.store.spi.StoreArgumentException if a tenant id is not valid
   */
  public List<Long> ingest(List<HookEnvelope> hooks) {
    List<TenantId> tenants = new ArrayList<>(hooks.size());
    hooks.forEach(h -> tenants.add(TenantId.of(h.tenantId())));
    TenantAllocator.Allocation allocation = queue.allocator().resolve(queue.store(), tenants);
    if (!allocation.refused().isEmpty()) {
      throw new TenantLimitException(
          allocation.refused().iterator().next().value(), queue.config().tenantsMax());
    }
    Transition t = new Transition();
    List<Long> seqs = new ArrayList<>(hooks.size());
    long seq = lastSeq;
    for (int i = 0; i < hooks.size(); i++) {
      HookEnvelope hook = hooks.get(i).withSeq(++seq);
      Deliveries.ingest(t, hook, allocation.ord(tenants.get(i)), queue.config().archiveEnabled());
      seqs.add(seq);
    }
    Batch batch = new Batch();
    allocation.appendTo(batch);
    batch.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(seq).encode());
    batch.addAll(t.toBatch(queue.counters()));
    queue.store().write(batch, Durability.SYNC);
    queue.dueRowsWritten(t);
    allocation.committed();
    lastSeq = seq;
    return seqs;
  }

  /** {@link #ingest(List)} of one hook. */
  public long ingest(HookEnvelope hook) {
    return ingest(List.of(hook)).get(0);
  }
}
