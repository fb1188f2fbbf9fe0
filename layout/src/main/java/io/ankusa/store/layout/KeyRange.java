package io.ankusa.store.layout;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.Arrays;

/**
 * A half-open key range {@code [lo, hi)} of one column family, as {@link
 * io.ankusa.store.spi.ReadView#scan} takes it. Built by {@link Keys}; pass {@link #columnFamily()},
 * {@link #lo()} and {@link #hi()} straight to a scan or a {@code deleteRange}.
 *
 * <p>Ownership: the record keeps the arrays it is given (the builders hand it fresh ones) and its
 * accessors return them without copying; callers must not modify them.
 *
 * @param columnFamily the family the range is in (a {@link Format3} name)
 * @param lo inclusive lower bound
 * @param hi exclusive upper bound; {@code lo <= hi}
 */
public record KeyRange(String columnFamily, byte[] lo, byte[] hi) {

  /** REQUIRES: non-null arguments and {@code lo <= hi} in unsigned byte order. */
  public KeyRange {
    if (columnFamily == null || lo == null || hi == null) {
      throw new StoreArgumentException("a key range needs a family, lo and hi; got a null");
    }
    if (Bytes.compare(lo, hi) > 0) {
      throw new StoreArgumentException(
          "key range ["
              + Bytes.hex(lo)
              + ", "
              + Bytes.hex(hi)
              + ") in family '"
              + columnFamily
              + "' has lo > hi");
    }
  }

  /** Whether {@code lo <= key < hi}. */
  public boolean contains(byte[] key) {
    return Bytes.compare(lo, key) <= 0 && Bytes.compare(key, hi) < 0;
  }

  /** Whether the range holds no key ({@code lo == hi}). */
  public boolean isEmpty() {
    return Arrays.equals(lo, hi);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r
        && r.columnFamily.equals(columnFamily)
        && Arrays.equals(r.lo, lo)
        && Arrays.equals(r.hi, hi);
  }

  @Override
  public int hashCode() {
    return (columnFamily.hashCode() * 31 + Arrays.hashCode(lo)) * 31 + Arrays.hashCode(hi);
  }

  @Override
  public String toString() {
    return columnFamily + "[" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")";
  }
}
