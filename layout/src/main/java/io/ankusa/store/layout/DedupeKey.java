package io.ankusa.store.layout;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A decoded dedupe key {@code 'u' tenant_id 0x00 key} ({@link KeyFamily#DEDUPE}); its value is
 * {@link DedupeValue}. The tenant ends at the first 0x00 (tenant ids hold no NUL); the idempotency
 * key is every byte after it. Build keys with {@link Keys#dedupe(TenantId, byte[])}.
 *
 * <p>Ownership: the constructor copies {@code key}; {@link #key()} returns a fresh copy.
 *
 * @param tenant the tenant
 * @param key the idempotency key, any bytes
 */
public record DedupeKey(TenantId tenant, byte[] key) {

  /** REQUIRES: non-null arguments. */
  public DedupeKey {
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
   * Decodes a dedupe key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} does not start with {@code
   *     'u'}, has no 0x00 after the tenant, or the tenant is not a valid tenant id
   */
  public static DedupeKey decode(byte[] key) {
    LayoutCorruption.requireKeyPrefix(KeyFamily.DEDUPE, key, 3);
    int nul = indexOfNul(key, 1);
    if (nul < 0) {
      throw LayoutCorruption.key(KeyFamily.DEDUPE, key, "has no 0x00 after the tenant id");
    }
    return LayoutCorruption.decodedKey(
        KeyFamily.DEDUPE,
        key,
        () ->
            new DedupeKey(
                TenantId.fromUtf8(Arrays.copyOfRange(key, 1, nul)),
                Arrays.copyOfRange(key, nul + 1, key.length)));
  }

  static int indexOfNul(byte[] key, int from) {
    for (int i = from; i < key.length; i++) {
      if (key[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DedupeKey d && d.tenant.equals(tenant) && Arrays.equals(d.key, key);
  }

  @Override
  public int hashCode() {
    return tenant.hashCode() * 31 + Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "DedupeKey[tenant=" + tenant + ", key=" + Bytes.hex(key) + "]";
  }
}
