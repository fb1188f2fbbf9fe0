package io.ankusa.store.layout;

import io.ankusa.store.spi.StoreArgumentException;

/**
 * The ranges of the integer fields of the format-3 layout, and the checks every builder applies
 * before it encodes a field. A value outside its range is refused with {@link
 * StoreArgumentException} naming the field and the range; nothing is ever truncated or wrapped.
 *
 * <table>
 *   <caption>Field widths and Java ranges</caption>
 *   <tr><th>field</th><th>width</th><th>Java type</th><th>range</th></tr>
 *   <tr><td>sink</td><td>u16</td><td>int</td><td>0..65535</td></tr>
 *   <tr><td>ord</td><td>u32</td><td>long</td><td>1..{@link #MAX_ORDINAL} for a tenant's rows; 0
 *       ({@link #NODE_AGGREGATE_ORD}) only in counter keys</td></tr>
 *   <tr><td>size, next</td><td>u32</td><td>long</td><td>0..4294967295 (next: 1..4294967295)</td></tr>
 *   <tr><td>at, seq, bucket</td><td>u64</td><td>long</td><td>0..{@link Long#MAX_VALUE}</td></tr>
 * </table>
 *
 * <p>Why 0xFFFFFFFF is not an ordinal: the hi sentinel of every ord-led family is the prefix
 * followed by {@code FF FF FF FF}; every real key must sort strictly below it (property {@code
 * sentinelsBracketEveryRealKey}).
 */
public final class Fields {
  /** The largest real tenant ordinal: 4 294 967 294. */
  public static final long MAX_ORDINAL = 0xFFFF_FFFEL;

  /** Ordinal 0: the node aggregate of the counters, never a tenant. */
  public static final long NODE_AGGREGATE_ORD = 0;

  /** The largest unsigned 32-bit value. */
  public static final long MAX_U32 = 0xFFFF_FFFFL;

  /** The largest sink number. */
  public static final int MAX_SINK = 0xFFFF;

  private Fields() {}

  /**
   * REQUIRES: {@code 1 <= ord <= MAX_ORDINAL}: the ordinal of a real tenant. Returns {@code ord}.
   */
  public static long requireTenantOrd(long ord) {
    if (ord < 1 || ord > MAX_ORDINAL) {
      throw new StoreArgumentException(
          "ord "
              + ord
              + " is out of range: a tenant's ordinal is 1.."
              + MAX_ORDINAL
              + (ord == 0 ? " (ord 0 is the node aggregate, which owns no rows)" : ""));
    }
    return ord;
  }

  /**
   * REQUIRES: {@code 0 <= ord <= MAX_ORDINAL}: a tenant's ordinal or the node aggregate (counter
   * keys only). Returns {@code ord}.
   */
  public static long requireCounterOrd(long ord) {
    if (ord < 0 || ord > MAX_ORDINAL) {
      throw new StoreArgumentException(
          "counter ord "
              + ord
              + " is out of range: 0 (the node aggregate) or a tenant's ordinal 1.."
              + MAX_ORDINAL);
    }
    return ord;
  }

  /** REQUIRES: {@code 0 <= sink <= 65535}. Returns {@code sink}. */
  public static int requireSink(int sink) {
    if (sink < 0 || sink > MAX_SINK) {
      throw new StoreArgumentException(
          "sink " + sink + " is out of range 0.." + MAX_SINK + " (u16)");
    }
    return sink;
  }

  /** REQUIRES: {@code 0 <= value <= 4294967295}. Returns {@code value}. */
  public static long requireU32(String field, long value) {
    if (value < 0 || value > MAX_U32) {
      throw new StoreArgumentException(
          field + " " + value + " is out of range 0.." + MAX_U32 + " (u32)");
    }
    return value;
  }

  /**
   * REQUIRES: {@code value >= 0} ({@code at}, {@code seq}, {@code bucket}). Returns {@code value}.
   */
  public static long requireNonNegative(String field, long value) {
    if (value < 0) {
      throw new StoreArgumentException(
          field + " " + value + " is out of range 0.." + Long.MAX_VALUE + " (u64, non-negative)");
    }
    return value;
  }
}
