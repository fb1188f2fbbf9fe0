package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.spi.Bytes;
import java.util.Arrays;

/**
 * A request's idempotency key as the writer looks it up: the dedupe row key {@code 'u' tenant 0
 * key} ({@link Keys#dedupe}), the key's own bytes (for the expiry key), and the row key's hash,
 * computed once on the caller's thread. Equal when the row keys are equal, which is when tenant and
 * key are (a tenant id holds no NUL), so the writer's maps of keys not yet acknowledged hash each
 * key once rather than at every lookup.
 *
 * <p>Ownership: the arrays are the record's, not copies; nothing changes them once built.
 *
 * @param rowKey {@code 'u' tenant 0 key}
 * @param idempotencyKey the key's UTF-8 bytes
 * @param hash {@code Arrays.hashCode(rowKey)}
 */
record DedupeRowKey(byte[] rowKey, byte[] idempotencyKey, int hash) {

  /** The dedupe row key of {@code tenant}'s {@code idempotencyKey} (UTF-8 bytes, not copied). */
  static DedupeRowKey of(TenantId tenant, byte[] idempotencyKey) {
    byte[] rowKey = Keys.dedupe(tenant, idempotencyKey);
    return new DedupeRowKey(rowKey, idempotencyKey, Arrays.hashCode(rowKey));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DedupeRowKey k && k.hash == hash && Arrays.equals(k.rowKey, rowKey);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "DedupeRowKey[" + Bytes.hex(rowKey) + "]";
  }
}
