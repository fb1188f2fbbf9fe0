package io.ankusa.store.queue.internal;

import io.ankusa.store.queue.internal.record.InflightRow;
import java.util.HashSet;
import java.util.Set;

/**
 * The inflight rows a {@link TransitionGuard}'s dispatchers claimed that no transition through the
 * same guard has consumed since: a settle of such a row (delivered, retry, dead-letter) holds
 * without reading the row again, which saves the guard one read per settled row on the claim →
 * settle path.
 *
 * <p>Why that is sound: a claim is recorded only after its batch was written, under the tenant's
 * stripe; every guarded step that consumes an inflight row (the settles, recovery, orphan drop)
 * runs under the same stripe and takes the row out of the set before its batch is written, so a
 * step that is dropped, or a write that fails with an unknown outcome, leaves nothing known behind.
 * So a row still recorded is in the store with the value the claim gave it. What the guard as a
 * whole does not cover (another process, writes past {@link DeliveryQueue#write}) this does not
 * cover either.
 *
 * <p>One set per tenant stripe, each touched only by a thread that holds that stripe, so it needs
 * no lock of its own. Each holds at most {@value #PER_STRIPE} rows; a claim past that is not
 * recorded and its settle reads the row, as it would without this class. Nothing is persisted:
 * after a restart every settle reads.
 */
final class KnownClaims {
  /**
   * Most rows recorded per stripe: bounds the memory at about {@code STRIPES × PER_STRIPE} rows.
   */
  static final int PER_STRIPE = 1024;

  private final Set<InflightRow>[] byStripe;

  @SuppressWarnings("unchecked")
  KnownClaims(int stripes) {
    byStripe = new Set[stripes];
    for (int i = 0; i < stripes; i++) {
      byStripe[i] = new HashSet<>();
    }
  }

  /** Records a row a claim just wrote. REQUIRES: the caller holds stripe {@code stripe}. */
  void claimed(int stripe, InflightRow row) {
    Set<InflightRow> rows = byStripe[stripe];
    if (rows.size() < PER_STRIPE) {
      rows.add(row);
    }
  }

  /**
   * Whether {@code row} is recorded: in the store as claimed. REQUIRES: the caller holds {@code
   * stripe}.
   */
  boolean holds(int stripe, InflightRow row) {
    return byStripe[stripe].contains(row);
  }

  /**
   * Forgets {@code row} and says whether it was recorded: the step about to consume it may trust
   * it. REQUIRES: the caller holds {@code stripe}.
   */
  boolean take(int stripe, InflightRow row) {
    return byStripe[stripe].remove(row);
  }
}
