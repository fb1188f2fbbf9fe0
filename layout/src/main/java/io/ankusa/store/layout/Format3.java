package io.ankusa.store.layout;

import io.ankusa.store.spi.FamilySpec;
import java.util.List;

/**
 * The column families of store format 3 (docs/storage.md) and the format number a format-3 store
 * carries in its format stamp ({@link Keys#formatStamp()}, {@link FormatStampValue}).
 *
 * <p>Open a format-3 store with exactly {@link #families()}: a backend refuses a directory that
 * holds families the caller did not list, which is how a format-2 release refuses a format-3 store
 * (its {@code tenants} and {@code counters} families are new).
 */
public final class Format3 {
  /** The layout format these keys and values belong to. */
  public static final int FORMAT = 3;

  /** Hook envelopes by {@code seq}. */
  public static final String HOOKS = "hooks";

  /** Delivery rows by {@code seq sink}. */
  public static final String DELIVERIES = "deliveries";

  /** {@code 't'} ordinal → tenant id and {@code 'n'} tenant id → ordinal. New in format 3. */
  public static final String TENANTS = "tenants";

  /** {@code m:} metadata: next ordinal, format stamp, migration cursor. */
  public static final String DEFAULT = "default";

  /**
   * The queue's index keys: due, inflight, dead, archive, active markers, cleared, dedupe, expiry.
   */
  public static final String INDEX = "index";

  /** Six {@code Int64Add} counters per tenant and ord 0. New in format 3. */
  public static final String COUNTERS = "counters";

  /** The audit trail. */
  public static final String AUDIT = "audit";

  /**
   * Write buffer of the counters family: 8 MiB. A counter read searches the memtables and then the
   * newest files; a smaller buffer flushes more often and leaves more files for a read to pass over
   * and for compaction to merge. A read merges no more operands for it: the engine folds a key's
   * operands once a few stack up (on rocksdb, {@code rocksdb.maxSuccessiveMerges}). With 1 MiB the
   * gauge tick under the gate's merge load read slower (docs/storage.md, 'Counters';
   * docs/measurements/gate.md).
   */
  public static final long COUNTERS_WRITE_BUFFER = 8L << 20;

  /** Write buffer of the index family: 16 MiB. */
  public static final long INDEX_WRITE_BUFFER = 16L << 20;

  private static final List<FamilySpec> FAMILIES =
      List.of(
          FamilySpec.plain(HOOKS),
          FamilySpec.plain(DELIVERIES),
          FamilySpec.plain(TENANTS),
          FamilySpec.plain(DEFAULT),
          new FamilySpec(INDEX, false, INDEX_WRITE_BUFFER, true),
          FamilySpec.counters(COUNTERS, COUNTERS_WRITE_BUFFER),
          FamilySpec.plain(AUDIT));

  private Format3() {}

  /**
   * The seven families of format 3, in a fixed order: hooks, deliveries, tenants, default, index,
   * counters (counters family, 1 MiB write buffer, uncompressed), audit. Immutable.
   */
  public static List<FamilySpec> families() {
    return FAMILIES;
  }
}
