package io.ankusa.store.layout;

import java.nio.charset.StandardCharsets;

/**
 * The logical key families of format 3: each lives in one column family ({@link Format3}) and,
 * except hooks, deliveries and counters, starts with its own prefix. Each has a lo and a hi
 * sentinel ({@link Keys#family(KeyFamily)}).
 */
public enum KeyFamily {
  /** Hook envelope: {@code seq:64}. */
  HOOK(Format3.HOOKS, "", "seq:64 (8 bytes)"),
  /** Delivery row: {@code seq:64 sink:16}. */
  DELIVERY(Format3.DELIVERIES, "", "seq:64 sink:16 (10 bytes)"),
  /** Tenant by ordinal: {@code 't' ord:32}; value tenant id bytes, empty for an erased tenant. */
  TENANT_BY_ORD(Format3.TENANTS, "t", "'t' ord:32 (5 bytes)"),
  /** Ordinal by tenant: {@code 'n' tenant_id}; value {@code ord:32}. */
  ORD_BY_TENANT(Format3.TENANTS, "n", "'n' tenant_id (2..256 bytes)"),
  /** Metadata: {@code m:next_ord}, {@code m:format}, {@code m:migrating:<format>}. */
  META(Format3.DEFAULT, "m:", "'m:' name (ASCII)"),
  /** Due delivery: {@code 'D' ord:32 at:64 seq:64 sink:16}; value {@code size:32 kind:8}. */
  DUE(Format3.INDEX, "D", "'D' ord:32 at:64 seq:64 sink:16 (23 bytes)"),
  /** Inflight delivery: {@code 'F' ord:32 seq:64 sink:16}; value {@code size:32}. */
  INFLIGHT(Format3.INDEX, "F", "'F' ord:32 seq:64 sink:16 (15 bytes)"),
  /** Dead delivery, time order: {@code 'x' at:64 seq:64 sink:16}; value ord, source id, hook id. */
  DEAD(Format3.INDEX, "x", "'x' at:64 seq:64 sink:16 (19 bytes)"),
  /** Dead delivery by tenant: {@code 'X' ord:32 at:64 seq:64 sink:16}; value empty. */
  DEAD_BY_TENANT(Format3.INDEX, "X", "'X' ord:32 at:64 seq:64 sink:16 (23 bytes)"),
  /** Archive obligation: {@code 'a' seq:64}; value {@code size:32 ord:32}. */
  ARCHIVE(Format3.INDEX, "a", "'a' seq:64 (9 bytes)"),
  /** Active-tenant marker: {@code 'A' bucket:64 ord:32}, bucket = at / 1000; value empty. */
  ACTIVE(Format3.INDEX, "A", "'A' bucket:64 ord:32 (13 bytes)"),
  /** Cleared hook: {@code 'c' seq:64}; value empty. */
  CLEARED(Format3.INDEX, "c", "'c' seq:64 (9 bytes)"),
  /** Dedupe: {@code 'u' tenant 0x00 key}; value {@code seq:64}. */
  DEDUPE(Format3.INDEX, "u", "'u' tenant_id 0x00 key"),
  /** Dedupe expiry: {@code 'e' at:64 tenant 0x00 key}; value empty. */
  EXPIRY(Format3.INDEX, "e", "'e' at:64 tenant_id 0x00 key"),
  /** Counter: {@code ord:32 field:8}; value {@code Int64Add} (8 bytes little-endian, merged). */
  COUNTERS(Format3.COUNTERS, "", "ord:32 field:8 (5 bytes)"),
  /** Audit row: {@code 'a' seq:64 at:64}. */
  AUDIT(Format3.AUDIT, "a", "'a' seq:64 at:64 (17 bytes)");

  private final String columnFamily;
  private final byte[] prefix;
  private final String shape;

  KeyFamily(String columnFamily, String prefix, String shape) {
    this.columnFamily = columnFamily;
    this.prefix = prefix.getBytes(StandardCharsets.US_ASCII);
    this.shape = shape;
  }

  /** The column family ({@link Format3} constant) the keys live in. */
  public String columnFamily() {
    return columnFamily;
  }

  /**
   * The prefix bytes (one byte, two for {@link #META}, none for hooks, deliveries, counters); a
   * fresh copy.
   */
  public byte[] prefix() {
    return prefix.clone();
  }

  /** Whether keys of this family start with a prefix. */
  public boolean hasPrefix() {
    return prefix.length > 0;
  }

  /**
   * Whether {@code key} starts with this family's prefix (always true for an unprefixed family).
   */
  boolean startsWithPrefix(byte[] key) {
    if (key.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (key[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** Copies the prefix to {@code out[0..)}; returns the offset after it. */
  int putPrefix(byte[] out) {
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    return prefix.length;
  }

  /**
   * The key shape, as error messages print it, e.g. {@code 'D' ord:32 at:64 seq:64 sink:16 (23
   * bytes)}.
   */
  public String shape() {
    return shape;
  }
}
