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

/**
 * The raw lmdbjava baseline: the same environment as the lmdb backend ({@code byte[]} proxy, {@code
 * MDB_NOSYNC | MDB_NOTLS}, a 4 GiB map, named DBIs), one read transaction per read and one write
 * transaction per write, called directly. A merge is LMDB's only way to add: read, add, put, in one
 * write transaction. A synced write is the commit plus {@code env.sync(true)}.
 */
public final class RawLmdbTarget implements EngineTarget {
  private final Env<byte[]> env;
  private final Dbi<byte[]> plain;
  private final Dbi<byte[]> counters;

  private RawLmdbTarget(Path dir) {
    dir.toFile().mkdirs();
    env = Env.create(ByteArrayProxy.PROXY_BA).setMapSize(4L << 30).setMaxDbs(4).setMaxReaders(512)
        .open(dir.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS);
    plain = env.openDbi(PLAIN.getBytes(StandardCharsets.UTF_8), DbiFlags.MDB_CREATE);
    counters = env.openDbi(COUNTERS.getBytes(StandardCharsets.UTF_8), DbiFlags.MDB_CREATE);
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
      plain.put(txn, key, value);
      txn.commit();
    }
  }

  @Override
  public void putAll(byte[][] keys, byte[][] values, boolean sync) {
    try (Txn<byte[]> txn = env.txnWrite()) {
      for (int i = 0; i < keys.length; i++) {
        plain.put(txn, keys[i], values[i]);
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
      counters.put(txn, key, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value + delta).array());
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
