package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u64;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A decoded dedupe expiry key {@code 'e' at:64 tenant_id 0x00 key} ({@link KeyFamily#EXPIRY}): the
 * dedupe key {@code 'u' tenant 0x00 key} expires at {@code at}. Build keys with {@link
 * Keys#expiry(long, TenantId, byte[])}.
 *
 * <p>Ownership: the constructor copies {@code key}; {@link #key()} returns a fresh copy.
 *
 * @param at expiry time, epoch milliseconds, non-negative
 * @param tenant the tenant
 * @param key the idempotency key
 */
public record ExpiryKey(long at, TenantId tenant, byte[] key) {

  /** REQUIRES: at non-negative, non-null tenant and key. */
  public ExpiryKey {
    Fields.requireNonNegative("at", at);
    Objects.requireNonNull(tenant, "tenant");
    if (key == null) {
      throw new StoreArgumentException("idempotency key is null");
    }
    key = key.clone();
  }

  /** The idempotency key: a fresh copy. */
  @Override
  public byte[] key() {
    return key.clone();
  }

  /**
   * Decodes an expiry key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} does not start with {@code
   *     'e' at:64}, has no 0x00 after the tenant, or a field is invalid
   */
  public static ExpiryKey decode(byte[] key) {
    LayoutCorruption.requireKeyPrefix(KeyFamily.EXPIRY, key, 11);
    int nul = DedupeKey.indexOfNul(key, 9);
    if (nul < 0) {
      throw LayoutCorruption.key(KeyFamily.EXPIRY, key, "has no 0x00 after the tenant id");
    }
    return LayoutCorruption.decodedKey(
        KeyFamily.EXPIRY,
        key,
        () ->
            new ExpiryKey(
                u64(key, 1),
                TenantId.fromUtf8(Arrays.copyOfRange(key, 9, nul)),
                Arrays.copyOfRange(key, nul + 1, key.length)));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExpiryKey e
        && e.at == at
        && e.tenant.equals(tenant)
        && Arrays.equals(e.key, key);
  }

  @Override
  public int hashCode() {
    return (Long.hashCode(at) * 31 + tenant.hashCode()) * 31 + Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "ExpiryKey[at=" + at + ", tenant=" + tenant + ", key=" + Bytes.hex(key) + "]";
  }
}
