package io.ankusa.store.layout;

/**
 * The value of keys that carry none: {@code 'X'} dead-by-tenant, {@code 'A'} active markers, {@code
 * 'c'} cleared hooks, {@code 'e'} expiry keys, and every sentinel.
 */
public final class EmptyValue {
  private EmptyValue() {}

  /** A fresh empty array. */
  public static byte[] encode() {
    return new byte[0];
  }

  /**
   * Checks the value stored at {@code key} of {@code family} is empty.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if it is not
   */
  public static void requireEmpty(KeyFamily family, byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(family, key, value, "an empty value", 0);
  }
}
