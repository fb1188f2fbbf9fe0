package io.ankusa.store.layout;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Int64Add;
import java.util.Arrays;

/**
 * The two sentinel keys of a key family, both inclusive: every real key of the family sorts
 * strictly between {@link #lo()} and {@link #hi()} (property {@code sentinelsBracketEveryRealKey}).
 * They are written, with an empty value, when the family is created, and never deleted.
 *
 * <p>How to fold a family safely: scan {@link #foldRange()} (from {@code lo} to just past {@code
 * hi}) and require that the first entry is {@code lo} and the last is {@code hi}. A scan that ends
 * without {@code hi} ended early (corruption or a broken engine read as a clean end): treat it as
 * {@link io.ankusa.store.spi.StoreCorruptionException}, never as "no more rows". Skip the two
 * sentinels when decoding ({@link #isSentinel(byte[])}).
 *
 * <p>Ownership: accessors return the record's arrays, not copies; do not modify them.
 *
 * @param family the key family
 * @param lo the lo sentinel key
 * @param hi the hi sentinel key
 */
public record FamilySentinels(KeyFamily family, byte[] lo, byte[] hi) {

  /**
   * The value both sentinels are written with: a zero {@link Int64Add} in the counters family,
   * whose values are all 8-byte counters, and the empty value elsewhere. A fresh array.
   */
  public byte[] value() {
    return family == KeyFamily.COUNTERS ? Int64Add.encode(0) : EmptyValue.encode();
  }

  /** Whether {@code key} is the lo sentinel. */
  public boolean isLo(byte[] key) {
    return Arrays.equals(key, lo);
  }

  /** Whether {@code key} is the hi sentinel. */
  public boolean isHi(byte[] key) {
    return Arrays.equals(key, hi);
  }

  /** Whether {@code key} is one of the two sentinels. */
  public boolean isSentinel(byte[] key) {
    return isLo(key) || isHi(key);
  }

  /** Whether {@code key} sorts strictly between the sentinels, where every real key must. */
  public boolean bracketsStrictly(byte[] key) {
    return Bytes.compare(lo, key) < 0 && Bytes.compare(key, hi) < 0;
  }

  /**
   * {@code [lo, hi ++ 0x00)}: both sentinels and every real key in between; {@code hi ++ 0x00} is
   * the smallest key after {@code hi}. Fresh arrays.
   */
  public KeyRange foldRange() {
    return new KeyRange(family.columnFamily(), lo.clone(), Arrays.copyOf(hi, hi.length + 1));
  }

  /** {@code [lo ++ 0x00, hi)}: every real key and neither sentinel. Fresh arrays. */
  public KeyRange realKeys() {
    return new KeyRange(family.columnFamily(), Arrays.copyOf(lo, lo.length + 1), hi.clone());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FamilySentinels s
        && s.family == family
        && Arrays.equals(s.lo, lo)
        && Arrays.equals(s.hi, hi);
  }

  @Override
  public int hashCode() {
    return (family.hashCode() * 31 + Arrays.hashCode(lo)) * 31 + Arrays.hashCode(hi);
  }

  @Override
  public String toString() {
    return family
        + "["
        + Bytes.hex(lo)
        + ", "
        + Bytes.hex(hi)
        + "] in '"
        + family.columnFamily()
        + "'";
  }
}
