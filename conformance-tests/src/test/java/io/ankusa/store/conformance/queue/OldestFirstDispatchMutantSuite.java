package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.dispatch.DispatchPolicy;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;

/**
 * The dispatch suite against the dispatcher as it was before tenants were dispatched fairly: oldest
 * second first across tenants, each tenant taking the whole remaining tick, so one tenant's old
 * backlog takes every tick. Must be rejected by {@code everyBackloggedTenantGetsItsWeightedShare}
 * ({@link DispatchMutantRejectionTest}). Not a surefire test by name: only the launcher runs it.
 */
class OldestFirstDispatchMutantSuite extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }

  @Override
  public Dispatcher dispatcher(DeliveryQueue queue, int rowLimit, long byteBudget) {
    return new Dispatcher(
        queue,
        () -> Long.MAX_VALUE,
        rowLimit,
        byteBudget,
        new DispatchPolicy(DispatchPolicy.ClaimOrder.OLDEST_FIRST, QUANTUM, ROW_COST));
  }
}
