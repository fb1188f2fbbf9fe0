package io.ankusa.store.bench.jmh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.KeyRange;
import org.lmdbjava.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The raw lmdbjava baseline: the same environment as the lmdb backend ({@code byte[]} proxy, {@code
 * MDB_NOSYNC | MDB_NOTLS}, a 4 GiB map, named DBIs), one read transaction per read and one write
 * transaction per write, called directly. A merge is LMDB's only way to add: read, add, put, in one
 * write transaction. A synced write is the commit plus {@code env.sync(true)}.
 *
 * <p>{@code -Dbench.raw.lmdb.valuePadBytes=N} stores every plain value it is given with N zero
 * bytes more, as the backend stores a 4-byte checksum after every value ({@code lmdb.checksums}),
 * so the raw target's data file holds as many bytes per entry as the backend's; reads return the
 * values as stored, padded (the benches use only their lengths, or their first {@code VALUE_BYTES}
 * bytes). Default 0. It separates what the checksum bytes cost in the data file from what the SPI's
 * code costs.
 */
public final class RawLmdbTarget implements EngineTarget {
  private static final Logger LOG = LoggerFactory.getLogger(RawLmdbTarget.class);

  /** The system property giving the padding; see the class comment. */
  public static final String VALUE_PAD_PROPERTY = "bench.raw.lmdb.valuePadBytes";

  private final int valuePad;
  private final Env<byte[]> env;
  private final Dbi<byte[]> plain;
  private final Dbi<byte[]> counters;

  private RawLmdbTarget(Path dir) {
    dir.toFile().mkdirs();
    env =
        Env.create(ByteArrayProxy.PROXY_BA)
            .setMapSize(4L << 30)
            .setMaxDbs(4)
            .setMaxReaders(512)
            .open(dir.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS);
    plain = env.openDbi(PLAIN.getBytes(StandardCharsets.UTF_8), DbiFlags.MDB_CREATE);
    counters = env.openDbi(COUNTERS.getBytes(StandardCharsets.UTF_8), DbiFlags.MDB_CREATE);
    valuePad = Integer.getInteger(VALUE_PAD_PROPERTY, 0);
    if (valuePad < 0) {
      throw new IllegalArgumentException(
          VALUE_PAD_PROPERTY + "=" + valuePad + ": give 0 or more bytes");
    }
    if (valuePad > 0) {
      LOG.info(
          "raw-lmdb stores every plain value with {} bytes more ({})",
          valuePad,
          VALUE_PAD_PROPERTY);
    }
  }

  /** {@code value} as stored: with {@link #valuePad} zero bytes more. */
  private byte[] stored(byte[] value) {
    return valuePad == 0 ? value : Arrays.copyOf(value, value.length + valuePad);
  }

  static RawLmdbTarget open(Path dir) {
    return new RawLmdbTarget(dir);
  }

  @Override
  public byte[] get(byte[] key) {
    try (Txn<byte[]> txn = env.txnRead()) {
      return plain.get(txn, key);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try (Txn<byte[]> txn = env.txnWrite()) {
      plain.put(txn, key, stored(value));
      txn.commit();
    }
  }

  @Override
  public void putAll(byte[][] keys, byte[][] values, boolean sync) {
    try (Txn<byte[]> txn = env.txnWrite()) {
      for (int i = 0; i < keys.length; i++) {
        plain.put(txn, keys[i], stored(values[i]));
      }
      txn.commit();
    }
    if (sync) {
      env.sync(true);
    }
  }

  @Override
  public long scan(byte[] lo, byte[] hi, int n) {
    long sum = 0;
    // From lo with LMDB's own (unsigned, memcmp) order; the upper bound is checked here, unsigned,
    // because lmdbjava's byte[] range comparator compares signed bytes.
    try (Txn<byte[]> txn = env.txnRead();
        CursorIterable<byte[]> it = plain.iterate(txn, KeyRange.atLeast(lo))) {
      int i = 0;
      for (CursorIterable.KeyVal<byte[]> kv : it) {
        if (i++ >= n || Arrays.compareUnsigned(kv.key(), hi) >= 0) {
          break;
        }
        sum += kv.val().length;
      }
    }
    return sum;
  }

  @Override
  public void merge(byte[] key, long delta) {
    try (Txn<byte[]> txn = env.txnWrite()) {
      byte[] old = counters.get(txn, key);
      long value = old == null ? 0 : ByteBuffer.wrap(old).order(ByteOrder.LITTLE_ENDIAN).getLong();
      counters.put(
          txn,
          key,
          ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value + delta).array());
      txn.commit();
    }
  }

  @Override
  public long counter(byte[] key) {
    try (Txn<byte[]> txn = env.txnRead()) {
      byte[] v = counters.get(txn, key);
      return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
  }

  @Override
  public void close() {
    env.close();
  }
}
