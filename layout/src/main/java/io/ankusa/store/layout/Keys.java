package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU16;
import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.putU64;

import io.ankusa.store.spi.StoreArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one place format-3 keys are built: a static builder per key, range builders for scans, and
 * each family's sentinels. Decoding is in the key records ({@link DueKey#decode}, …).
 *
 * <p><b>Encoding.</b> Integers are unsigned, big-endian, fixed width ({@link UnsignedBigEndian}),
 * so the unsigned byte order of keys is the numeric order of their fields, field by field from the
 * left (property {@code byteOrderIsNumericOrder}). Field ranges are checked first ({@link Fields});
 * a value out of range is {@link StoreArgumentException} naming the field and the range.
 *
 * <p><b>Ownership.</b> Every builder returns a fresh array, owned by the caller; arguments are not
 * retained.
 *
 * <p><b>Sentinels and safe folds.</b> Every key family has a lo and a hi sentinel key, written with
 * an empty value when the family is created ({@link #family(KeyFamily)}, {@link #sentinels()});
 * every real key sorts strictly between them (property {@code sentinelsBracketEveryRealKey}). A
 * reader that folds a family scans {@link FamilySentinels#foldRange()}, from {@code lo} to just
 * past {@code hi}, and requires to see both sentinels: the first entry must be {@code lo} and the
 * last {@code hi}. A scan that stops before {@code hi} stopped early, whatever the engine said, and
 * is reported as {@link io.ankusa.store.spi.StoreCorruptionException}. This is the second line of
 * defence behind the engine's own promise never to end a scan early on corruption. Range builders
 * ({@link #dueOf}, {@link #realKeysOf}, …) never include a sentinel.
 *
 * <p>Sentinels: a prefixed family has {@code lo = prefix} and {@code hi = prefix} followed by 0xFF
 * bytes no real key reaches: four after an {@code ord:32} ({@code 'D' FF FF FF FF}; the largest
 * real ordinal is 0xFFFFFFFE), eight after an {@code at:64}, {@code seq:64} or {@code bucket:64}
 * (those are non-negative longs, top byte at most 0x7F), one after a tenant id or a meta name
 * (UTF-8 and ASCII never contain 0xFF). Hooks and deliveries: {@code lo = 00}, {@code hi = FF×8}.
 * Counters: {@code lo = 00×5}, {@code hi = FF FF FF FF FF} (real fields are 1..6, real ords
 * 0..0xFFFFFFFE).
 *
 * <p><b>Only {@code Deliveries} builds {@code 'D' 'F' 'X' 'A'} keys.</b> {@link #due}, {@link
 * #inflight}, {@link #deadByTenant} and {@link #active} are separate methods so an ArchUnit rule
 * can restrict their callers to the queue's {@code Deliveries} op builders, which put each due row
 * with its active marker and its counter deltas in one batch.
 */
public final class Keys {
  private static final byte[] NEXT_ORD = "m:next_ord".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FORMAT_STAMP = "m:format".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] LAST_SEQ = "m:last_seq".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] AGGREGATE_SHARDS_KEY =
      "m:aggregate_shards".getBytes(StandardCharsets.US_ASCII);
  private static final String MIGRATING = "m:migrating:";
  private static final String TENANT_LIMITS = "m:tenant_limits:";

  private Keys() {}

  // ---------------------------------------------------------------- hooks, deliveries

  /** Hook envelope key {@code seq:64} in {@code hooks}. REQUIRES: {@code seq >= 0}. */
  public static byte[] hook(long seq) {
    Fields.requireNonNegative("seq", seq);
    byte[] k = new byte[8];
    putU64(k, 0, seq);
    return k;
  }

  /**
   * Delivery row key {@code seq:64 sink:16} in {@code deliveries}. REQUIRES: {@code seq >= 0}, sink
   * u16.
   */
  public static byte[] delivery(long seq, int sink) {
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[10];
    putU16(k, putU64(k, 0, seq), sink);
    return k;
  }

  // ---------------------------------------------------------------- tenants, meta

  /** {@code 't' ord:32} in {@code tenants}. REQUIRES: {@code 1 <= ord <= MAX_ORDINAL}. */
  public static byte[] tenantByOrd(long ord) {
    Fields.requireTenantOrd(ord);
    byte[] k = new byte[5];
    putU32(k, KeyFamily.TENANT_BY_ORD.putPrefix(k), ord);
    return k;
  }

  /** {@code 'n' tenant_id} in {@code tenants}. REQUIRES: non-null tenant. */
  public static byte[] ordByTenant(TenantId tenantId) {
    requireTenant(tenantId);
    byte[] k = new byte[1 + tenantId.byteLength()];
    tenantId.putTo(k, KeyFamily.ORD_BY_TENANT.putPrefix(k));
    return k;
  }

  /** {@code m:next_ord} in {@code default}; value {@link NextOrdinalValue}. */
  public static byte[] nextOrd() {
    return NEXT_ORD.clone();
  }

  /**
   * {@code m:last_seq} in {@code default}; value {@link LastSeqValue}: the highest seq ever
   * assigned, written with every commit that assigns seqs, so a seq is never reused even after the
   * newest hooks are reclaimed. (A meta key within format 3's {@code m:} range; not in the seed's
   * table.)
   */
  public static byte[] lastSeq() {
    return LAST_SEQ.clone();
  }

  /**
   * {@code m:aggregate_shards} in {@code default}; value {@link AggregateShardsValue}: how the node
   * aggregate's counters are laid out, fixed when the store is created.
   */
  public static byte[] aggregateShards() {
    return AGGREGATE_SHARDS_KEY.clone();
  }

  /** {@code m:format} in {@code default}; value {@link FormatStampValue}. */
  public static byte[] formatStamp() {
    return FORMAT_STAMP.clone();
  }

  /**
   * {@code m:migrating:<toFormat>} (decimal ASCII, e.g. {@code m:migrating:3}) in {@code default}:
   * its value is the cursor of a migration to {@code toFormat} in progress. REQUIRES: {@code
   * toFormat >= 1}.
   */
  public static byte[] migrating(int toFormat) {
    if (toFormat < 1) {
      throw new StoreArgumentException(
          "migration target format " + toFormat + " is out of range 1.." + Integer.MAX_VALUE);
    }
    return (MIGRATING + toFormat).getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * {@code m:tenant_limits:<ord>} (the ordinal in decimal ASCII, e.g. {@code m:tenant_limits:42})
   * in {@code default}; value {@link TenantLimitsValue}: the tenant's dispatch weight and limits. A
   * meta key within format 3's {@code m:} range: nothing scans that range, so a reader that does
   * not know the key never sees it (docs/storage.md, "Tenant limits"). REQUIRES: ord
   * 1..MAX_ORDINAL.
   */
  public static byte[] tenantLimits(long ord) {
    Fields.requireTenantOrd(ord);
    return (TENANT_LIMITS + ord).getBytes(StandardCharsets.US_ASCII);
  }

  // ---------------------------------------------------------------- index: deliveries' keys

  /**
   * Due key {@code 'D' ord:32 at:64 seq:64 sink:16} in {@code index}. Only the queue's {@code
   * Deliveries} calls this (ArchUnit). REQUIRES: ord 1..MAX_ORDINAL, at and seq non-negative, sink
   * u16.
   */
  public static byte[] due(long ord, long at, long seq, int sink) {
    return dueKey(ord, at, seq, sink);
  }

  /** {@link #due}, for the range builders here (the ArchUnit rule names {@code due} alone). */
  private static byte[] dueKey(long ord, long at, long seq, int sink) {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[23];
    int o = KeyFamily.DUE.putPrefix(k);
    putU16(k, putU64(k, putU64(k, putU32(k, o, ord), at), seq), sink);
    return k;
  }

  /**
   * Inflight key {@code 'F' ord:32 seq:64 sink:16} in {@code index}. Only {@code Deliveries} calls
   * this (ArchUnit). REQUIRES: ord 1..MAX_ORDINAL, seq non-negative, sink u16.
   */
  public static byte[] inflight(long ord, long seq, int sink) {
    return inflightKey(ord, seq, sink);
  }

  /**
   * {@link #inflight}, for the range builders here (the ArchUnit rule names {@code inflight}
   * alone).
   */
  private static byte[] inflightKey(long ord, long seq, int sink) {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[15];
    int o = KeyFamily.INFLIGHT.putPrefix(k);
    putU16(k, putU64(k, putU32(k, o, ord), seq), sink);
    return k;
  }

  /**
   * Dead key, time order, {@code 'x' at:64 seq:64 sink:16} in {@code index}. REQUIRES: at, seq
   * non-negative, sink u16.
   */
  public static byte[] dead(long at, long seq, int sink) {
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[19];
    int o = KeyFamily.DEAD.putPrefix(k);
    putU16(k, putU64(k, putU64(k, o, at), seq), sink);
    return k;
  }

  /**
   * Dead-by-tenant key {@code 'X' ord:32 at:64 seq:64 sink:16} in {@code index}. Only {@code
   * Deliveries} calls this (ArchUnit). REQUIRES: ord 1..MAX_ORDINAL, at and seq non-negative, sink
   * u16.
   */
  public static byte[] deadByTenant(long ord, long at, long seq, int sink) {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[23];
    int o = KeyFamily.DEAD_BY_TENANT.putPrefix(k);
    putU16(k, putU64(k, putU64(k, putU32(k, o, ord), at), seq), sink);
    return k;
  }

  /**
   * Active marker {@code 'A' bucket:64 ord:32} in {@code index}, bucket = {@link
   * ActiveKey#bucketOf(long) at / 1000}. Only {@code Deliveries} calls this (ArchUnit). REQUIRES:
   * bucket non-negative, ord 1..MAX_ORDINAL.
   */
  public static byte[] active(long bucket, long ord) {
    Fields.requireNonNegative("bucket", bucket);
    Fields.requireTenantOrd(ord);
    byte[] k = new byte[13];
    int o = KeyFamily.ACTIVE.putPrefix(k);
    putU32(k, putU64(k, o, bucket), ord);
    return k;
  }

  // ---------------------------------------------------------------- index: other keys

  /** Archive obligation {@code 'a' seq:64} in {@code index}. REQUIRES: seq non-negative. */
  public static byte[] archive(long seq) {
    return prefixedU64(KeyFamily.ARCHIVE, "seq", seq);
  }

  /** Cleared hook {@code 'c' seq:64} in {@code index}. REQUIRES: seq non-negative. */
  public static byte[] cleared(long seq) {
    return prefixedU64(KeyFamily.CLEARED, "seq", seq);
  }

  /**
   * Dedupe key {@code 'u' tenant_id 0x00 key} in {@code index}. {@code key} (the idempotency key)
   * is any bytes, copied. The whole key must fit the backend's {@code maxKeyBytes}: with a 255-byte
   * tenant that leaves {@code maxKeyBytes - 257} bytes for the idempotency key. REQUIRES: non-null
   * arguments.
   */
  public static byte[] dedupe(TenantId tenant, byte[] key) {
    requireTenant(tenant);
    requireIdempotencyKey(key);
    byte[] k = new byte[1 + tenant.byteLength() + 1 + key.length];
    int o = tenant.putTo(k, KeyFamily.DEDUPE.putPrefix(k));
    k[o++] = 0;
    System.arraycopy(key, 0, k, o, key.length);
    return k;
  }

  /**
   * Dedupe expiry key {@code 'e' at:64 tenant_id 0x00 key} in {@code index}. REQUIRES: at
   * non-negative, non-null tenant and key.
   */
  public static byte[] expiry(long at, TenantId tenant, byte[] key) {
    Fields.requireNonNegative("at", at);
    requireTenant(tenant);
    requireIdempotencyKey(key);
    byte[] k = new byte[1 + 8 + tenant.byteLength() + 1 + key.length];
    int o = tenant.putTo(k, putU64(k, KeyFamily.EXPIRY.putPrefix(k), at));
    k[o++] = 0;
    System.arraycopy(key, 0, k, o, key.length);
    return k;
  }

  // ---------------------------------------------------------------- counters, audit

  /**
   * Counter key {@code ord:32 field:8} in {@code counters}; its value is {@link
   * io.ankusa.store.spi.Int64Add}. REQUIRES: ord 0 (node aggregate) or 1..MAX_ORDINAL, non-null
   * field.
   */
  public static byte[] counter(long ord, CounterField field) {
    Fields.requireCounterOrd(ord);
    if (field == null) {
      throw new StoreArgumentException(
          "counter field is null; use one of " + Arrays.toString(CounterField.values()));
    }
    byte[] k = new byte[5];
    putU32(k, 0, ord);
    k[4] = (byte) field.code();
    return k;
  }

  /**
   * One shard of the node aggregate, {@code 0:32 field:8 shard:8} in {@code counters}: the sharding
   * the layout allows for when ord 0's counters are too hot to read under merge load. A reader sums
   * the 16 shards and the unsharded key. REQUIRES: {@code 0 <= shard <} {@link #AGGREGATE_SHARDS}.
   */
  public static byte[] aggregateShard(CounterField field, int shard) {
    if (shard < 0 || shard >= AGGREGATE_SHARDS) {
      throw new StoreArgumentException(
          "aggregate shard " + shard + " is outside 0.." + (AGGREGATE_SHARDS - 1));
    }
    byte[] k = new byte[6];
    System.arraycopy(counter(Fields.NODE_AGGREGATE_ORD, field), 0, k, 0, 5);
    k[5] = (byte) shard;
    return k;
  }

  /** How many shards the node aggregate has when sharded. */
  public static final int AGGREGATE_SHARDS = 16;

  /** Audit row key {@code 'a' seq:64 at:64} in {@code audit}. REQUIRES: seq and at non-negative. */
  public static byte[] audit(long seq, long at) {
    Fields.requireNonNegative("seq", seq);
    Fields.requireNonNegative("at", at);
    byte[] k = new byte[17];
    putU64(k, putU64(k, KeyFamily.AUDIT.putPrefix(k), seq), at);
    return k;
  }

  // ---------------------------------------------------------------- ranges

  /** Every delivery row of hook {@code seq}: {@code [seq, seq + 1)} in {@code deliveries}. */
  public static KeyRange deliveriesOf(long seq) {
    Fields.requireNonNegative("seq", seq);
    byte[] lo = new byte[8];
    byte[] hi = new byte[8];
    putU64(lo, 0, seq);
    putU64(hi, 0, seq + 1);
    return new KeyRange(Format3.DELIVERIES, lo, hi);
  }

  /**
   * Every {@code 'D'} key of tenant {@code ord}, in {@code at, seq, sink} order. REQUIRES: ord
   * 1..MAX_ORDINAL.
   */
  public static KeyRange dueOf(long ord) {
    return ordRange(KeyFamily.DUE, ord);
  }

  /**
   * The {@code 'D'} keys of tenant {@code ord} with {@code at <= atInclusive}: what is due at time
   * {@code atInclusive}. REQUIRES: ord 1..MAX_ORDINAL, atInclusive non-negative.
   */
  public static KeyRange dueOfUpTo(long ord, long atInclusive) {
    return dueOfBetween(ord, 0, atInclusive);
  }

  /**
   * The {@code 'D'} keys of tenant {@code ord} with {@code fromInclusive <= at <= toInclusive} (a
   * per-tenant cursor up to now). REQUIRES: ord 1..MAX_ORDINAL, {@code 0 <= fromInclusive}; an
   * empty range when {@code fromInclusive > toInclusive}.
   */
  public static KeyRange dueOfBetween(long ord, long fromInclusive, long toInclusive) {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("from at", fromInclusive);
    Fields.requireNonNegative("to at", toInclusive);
    byte[] lo = new byte[13];
    byte[] hi = new byte[13];
    putU64(lo, putU32(lo, KeyFamily.DUE.putPrefix(lo), ord), fromInclusive);
    if (fromInclusive > toInclusive) {
      return new KeyRange(Format3.INDEX, lo, lo.clone());
    }
    // toInclusive + 1 wraps to Long.MIN_VALUE at the top, whose bits are the unsigned successor
    // 2^63.
    putU64(hi, putU32(hi, KeyFamily.DUE.putPrefix(hi), ord), toInclusive + 1);
    return new KeyRange(Format3.INDEX, lo, hi);
  }

  /**
   * The {@code 'D'} keys of tenant {@code ord} from {@code (at, seq, sink)} included up to {@code
   * at <= toInclusive}: where a dispatcher's or a purge's cursor resumes, past the rows it already
   * moved (their tombstones are never walked again). REQUIRES: ord 1..MAX_ORDINAL, at and seq
   * non-negative, sink u16, toInclusive non-negative; an empty range when {@code at > toInclusive}.
   */
  public static KeyRange dueOfFrom(long ord, long at, long seq, int sink, long toInclusive) {
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    KeyRange upTo = dueOfBetween(ord, at, toInclusive);
    if (at > toInclusive) {
      return upTo;
    }
    return new KeyRange(Format3.INDEX, dueKey(ord, at, seq, sink), upTo.hi());
  }

  /**
   * The {@code 'F'} keys from {@code (ord, seq, sink)} included to the family's end: where boot's
   * recovery resumes, past the chunk it just recovered. REQUIRES: ord 1..MAX_ORDINAL, seq
   * non-negative, sink u16.
   */
  public static KeyRange inflightFrom(long ord, long seq, int sink) {
    return new KeyRange(
        Format3.INDEX, inflightKey(ord, seq, sink), realKeysOf(KeyFamily.INFLIGHT).hi());
  }

  /** Every {@code 'F'} key of tenant {@code ord}. REQUIRES: ord 1..MAX_ORDINAL. */
  public static KeyRange inflightOf(long ord) {
    return ordRange(KeyFamily.INFLIGHT, ord);
  }

  /** Every {@code 'X'} key of tenant {@code ord}, in time order. REQUIRES: ord 1..MAX_ORDINAL. */
  public static KeyRange deadByTenantOf(long ord) {
    return ordRange(KeyFamily.DEAD_BY_TENANT, ord);
  }

  /**
   * The {@code 'x'} keys with {@code at <= atInclusive}, oldest first. REQUIRES: atInclusive
   * non-negative.
   */
  public static KeyRange deadUpTo(long atInclusive) {
    return prefixedU64UpTo(KeyFamily.DEAD, "at", atInclusive);
  }

  /**
   * The {@code 'A'} markers with {@code bucket <= bucketInclusive}, oldest first: the active
   * tenants at {@code bucketInclusive}. REQUIRES: bucketInclusive non-negative.
   */
  public static KeyRange activeUpTo(long bucketInclusive) {
    return prefixedU64UpTo(KeyFamily.ACTIVE, "bucket", bucketInclusive);
  }

  /**
   * The {@code 'A'} markers with {@code fromBucket <= bucket <= bucketInclusive}: where a scan that
   * knows no marker lies before {@code fromBucket} starts. REQUIRES: both non-negative; an empty
   * range when {@code fromBucket > bucketInclusive}.
   */
  public static KeyRange activeBetween(long fromBucket, long bucketInclusive) {
    KeyRange upTo = prefixedU64UpTo(KeyFamily.ACTIVE, "bucket", bucketInclusive);
    Fields.requireNonNegative("fromBucket", fromBucket);
    byte[] lo = new byte[1 + 8];
    putU64(lo, KeyFamily.ACTIVE.putPrefix(lo), fromBucket);
    return Arrays.compareUnsigned(lo, upTo.hi()) >= 0
        ? new KeyRange(upTo.columnFamily(), upTo.hi(), upTo.hi())
        : new KeyRange(upTo.columnFamily(), lo, upTo.hi());
  }

  /**
   * The {@code 'a'} archive obligations with {@code seq <= seqInclusive}. REQUIRES: seqInclusive
   * non-negative.
   */
  public static KeyRange archiveUpTo(long seqInclusive) {
    return prefixedU64UpTo(KeyFamily.ARCHIVE, "seq", seqInclusive);
  }

  /**
   * The {@code 'e'} expiry keys with {@code at <= atInclusive}. REQUIRES: atInclusive non-negative.
   */
  public static KeyRange expiryUpTo(long atInclusive) {
    return prefixedU64UpTo(KeyFamily.EXPIRY, "at", atInclusive);
  }

  /**
   * Every dedupe key of {@code tenant}: {@code ['u' tenant 0x00, 'u' tenant 0x01)}; also what an
   * erase of the tenant deletes. REQUIRES: non-null tenant.
   */
  public static KeyRange dedupeOf(TenantId tenant) {
    requireTenant(tenant);
    byte[] lo = new byte[1 + tenant.byteLength() + 1];
    int o = tenant.putTo(lo, KeyFamily.DEDUPE.putPrefix(lo));
    lo[o] = 0;
    byte[] hi = lo.clone();
    hi[o] = 1;
    return new KeyRange(Format3.INDEX, lo, hi);
  }

  /**
   * The six counter keys of {@code ord}: {@code [ord 01, ord 07)}. REQUIRES: ord 0 or
   * 1..MAX_ORDINAL.
   */
  public static KeyRange countersOf(long ord) {
    Fields.requireCounterOrd(ord);
    byte[] lo = new byte[5];
    byte[] hi = new byte[5];
    putU32(lo, 0, ord);
    putU32(hi, 0, ord);
    lo[4] = (byte) CounterField.FIRST_CODE;
    hi[4] = (byte) (CounterField.LAST_CODE + 1);
    return new KeyRange(Format3.COUNTERS, lo, hi);
  }

  /** Every real key of {@code family} and neither sentinel: {@code [lo ++ 0x00, hi)}. */
  public static KeyRange realKeysOf(KeyFamily family) {
    return family(family).realKeys();
  }

  // ---------------------------------------------------------------- sentinels

  /**
   * The lo and hi sentinels of {@code family}, both inclusive keys: every real key of the family
   * sorts strictly between them (property {@code sentinelsBracketEveryRealKey}). Fresh arrays.
   */
  public static FamilySentinels family(KeyFamily family) {
    byte[] prefix = family.prefix();
    switch (family) {
      case HOOK:
      case DELIVERY:
        return new FamilySentinels(family, new byte[] {0}, ff(new byte[0], 8));
      case COUNTERS:
        return new FamilySentinels(family, new byte[5], ff(new byte[0], 5));
      case TENANT_BY_ORD:
      case DUE:
      case INFLIGHT:
      case DEAD_BY_TENANT:
        return new FamilySentinels(family, prefix, ff(prefix, 4));
      case ORD_BY_TENANT:
      case META:
      case DEDUPE:
        return new FamilySentinels(family, prefix, ff(prefix, 1));
      case DEAD:
      case ARCHIVE:
      case ACTIVE:
      case CLEARED:
      case EXPIRY:
      case AUDIT:
        return new FamilySentinels(family, prefix, ff(prefix, 8));
      default:
        throw new IllegalStateException("no sentinels defined for " + family);
    }
  }

  /** The sentinels of every key family, in {@link KeyFamily} order: what a new store writes. */
  public static List<FamilySentinels> sentinels() {
    List<FamilySentinels> all = new ArrayList<>();
    for (KeyFamily f : KeyFamily.values()) {
      all.add(family(f));
    }
    return all;
  }

  // ---------------------------------------------------------------- helpers

  private static byte[] ff(byte[] prefix, int count) {
    byte[] k = Arrays.copyOf(prefix, prefix.length + count);
    Arrays.fill(k, prefix.length, k.length, (byte) 0xFF);
    return k;
  }

  private static byte[] prefixedU64(KeyFamily family, String field, long value) {
    Fields.requireNonNegative(field, value);
    byte[] k = new byte[1 + 8];
    putU64(k, family.putPrefix(k), value);
    return k;
  }

  private static KeyRange prefixedU64UpTo(KeyFamily family, String field, long inclusive) {
    Fields.requireNonNegative(field, inclusive);
    byte[] lo = new byte[1 + 8];
    byte[] hi = new byte[1 + 8];
    putU64(lo, family.putPrefix(lo), 0);
    // inclusive + 1 wraps to Long.MIN_VALUE at the top, whose bits are the unsigned successor 2^63.
    putU64(hi, family.putPrefix(hi), inclusive + 1);
    return new KeyRange(family.columnFamily(), lo, hi);
  }

  private static KeyRange ordRange(KeyFamily family, long ord) {
    Fields.requireTenantOrd(ord);
    byte[] lo = new byte[5];
    byte[] hi = new byte[5];
    putU32(lo, family.putPrefix(lo), ord);
    putU32(hi, family.putPrefix(hi), ord + 1);
    return new KeyRange(family.columnFamily(), lo, hi);
  }

  private static void requireTenant(TenantId tenant) {
    if (tenant == null) {
      throw new StoreArgumentException(
          "tenant is null; use TenantId.of(null) for the default tenant");
    }
  }

  private static void requireIdempotencyKey(byte[] key) {
    if (key == null) {
      throw new StoreArgumentException("idempotency key is null");
    }
  }
}
