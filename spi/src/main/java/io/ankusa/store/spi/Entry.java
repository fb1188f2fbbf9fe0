package io.ankusa.store.spi;

/**
 * One key and its value, as a {@link Scan} returns it. Both arrays are fresh copies owned by the
 * caller; a backend never reuses or changes them after returning the entry.
 */
public record Entry(byte[] key, byte[] value) {
  @Override
  public String toString() {
    return Bytes.hex(key) + "=" + Bytes.hex(value);
  }
}
