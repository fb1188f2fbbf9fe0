package io.ankusa.store.layout;

/**
 * The value of {@code m:aggregate_shards}: {@code shards:8} (1 byte), how the node aggregate's
 * counters are laid out — 0 for one key per field ({@code 0:32 field:8}), {@value
 * Keys#AGGREGATE_SHARDS} for the sharded aggregate ({@code 0:32 field:8 shard:8}). Written when a
 * store is created; a store without it was created before the setting was recorded, with one key
 * per field. Comparing it with the queue's configuration is the queue's job, not this codec's.
 *
 * @param shards 0 or {@value Keys#AGGREGATE_SHARDS}
 */
public record AggregateShardsValue(int shards) {
  static final String SHAPE = "shards:8 (1 byte, 0 or " + Keys.AGGREGATE_SHARDS + ")";

  /** One key per field. */
  public static final AggregateShardsValue UNSHARDED = new AggregateShardsValue(0);

  /** {@value Keys#AGGREGATE_SHARDS} shard keys per field. */
  public static final AggregateShardsValue SHARDED =
      new AggregateShardsValue(Keys.AGGREGATE_SHARDS);

  /** REQUIRES: shards 0 or {@value Keys#AGGREGATE_SHARDS}. */
  public AggregateShardsValue {
    if (shards != 0 && shards != Keys.AGGREGATE_SHARDS) {
      throw new io.ankusa.store.spi.StoreArgumentException(
          "aggregate shards " + shards + " is neither 0 (unsharded) nor " + Keys.AGGREGATE_SHARDS);
    }
  }

  /** The value for a queue with ({@code true}) or without the sharded aggregate. */
  public static AggregateShardsValue of(boolean sharded) {
    return sharded ? SHARDED : UNSHARDED;
  }

  /** Whether the aggregate is sharded. */
  public boolean sharded() {
    return shards != 0;
  }

  /** The 1-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    return new byte[] {(byte) shards};
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static AggregateShardsValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value of {@code m:aggregate_shards}; {@code key} is named in errors and may be
   * null.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 1 byte, or neither 0 nor {@value
   *     Keys#AGGREGATE_SHARDS}
   */
  public static AggregateShardsValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.META, key, value, SHAPE, 1);
    return LayoutCorruption.decodedValue(
        KeyFamily.META,
        key,
        value,
        SHAPE,
        () -> new AggregateShardsValue(Byte.toUnsignedInt(value[0])));
  }
}
