package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * The backend's buffer proxy moves the same bytes as lmdbjava's {@code PROXY_BA}, whichever way it
 * copies: what one proxy writes the other reads back byte for byte, for every length a key or value
 * can have here (empty values, one byte, around a machine word, a page, past a page, 16 MiB), through
 * point reads and cursor steps.
 */
class ArrayCopyProxyTest {
  private static final int[] LENGTHS = {0, 1, 7, 8, 9, 100, 511, 4095, 4096, 4097, 65_537, 16 << 20};

  @TempDir Path dir;

  /**
   * On the JVMs this project runs on (17 and 25) the intrinsic copy is found; if it were not, the
   * backend would still be right but as slow as PROXY_BA, and that should not pass unnoticed.
   */
  @Test
  void theIntrinsicCopyIsFoundOnThisJvm() {
    assertThat(ArrayCopyProxy.IntrinsicCopy.AVAILABLE).isTrue();
    assertThat(ArrayCopyProxy.PROXY.intrinsic()).isTrue();
    assertThat(new ArrayCopyProxy(false).intrinsic()).isFalse();
  }

  @ParameterizedTest(name = "intrinsic={0}")
  @ValueSource(booleans = {true, false})
  void writesWhatPlainByteArraysReadAndReadsWhatTheyWrite(boolean intrinsic) {
    ArrayCopyProxy proxy = new ArrayCopyProxy(intrinsic);
    Random random = new Random(7);
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < LENGTHS.length; i++) {
      byte[] key = new byte[1 + Math.min(LENGTHS[i], 500)];
      random.nextBytes(key);
      key[0] = (byte) i; // keys in the order of LENGTHS
      byte[] value = new byte[LENGTHS[i]];
      random.nextBytes(value);
      keys.add(key);
      values.add(value);
    }

    // Written through the proxy, read back through it (point reads, then a cursor walk) and through PROXY_BA.
    Path written = dir.resolve("through-proxy");
    written.toFile().mkdirs();
    try (Env<byte[]> env = open(proxy, written)) {
      Dbi<byte[]> dbi = env.openDbi("rows", DbiFlags.MDB_CREATE);
      try (Txn<byte[]> txn = env.txnWrite()) {
        for (int i = 0; i < keys.size(); i++) {
          dbi.put(txn, keys.get(i), values.get(i));
        }
        txn.commit();
      }
      try (Txn<byte[]> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          assertThat(dbi.get(txn, keys.get(i))).as("length %d", LENGTHS[i]).isEqualTo(values.get(i));
        }
        assertThat(dbi.get(txn, new byte[] {(byte) 0x7f})).isNull();
        try (Cursor<byte[]> cursor = dbi.openCursor(txn)) {
          assertThat(cursor.get(keys.get(3), GetOp.MDB_SET_RANGE)).isTrue();
          for (int i = 3; i < keys.size(); i++) {
            assertThat(cursor.key()).isEqualTo(keys.get(i));
            assertThat(cursor.val()).as("length %d", LENGTHS[i]).isEqualTo(values.get(i));
            assertThat(cursor.next()).isEqualTo(i + 1 < keys.size());
          }
        }
      }
    }
    try (Env<byte[]> env = open(ByteArrayProxy.PROXY_BA, written)) {
      Dbi<byte[]> dbi = env.openDbi("rows");
      try (Txn<byte[]> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          assertThat(dbi.get(txn, keys.get(i))).as("length %d", LENGTHS[i]).isEqualTo(values.get(i));
        }
      }
    }

    // Written through PROXY_BA, read back through the proxy.
    Path plain = dir.resolve("through-plain");
    plain.toFile().mkdirs();
    try (Env<byte[]> env = open(ByteArrayProxy.PROXY_BA, plain)) {
      Dbi<byte[]> dbi = env.openDbi("rows", DbiFlags.MDB_CREATE);
      try (Txn<byte[]> txn = env.txnWrite()) {
        for (int i = 0; i < keys.size(); i++) {
          dbi.put(txn, keys.get(i), values.get(i));
        }
        txn.commit();
      }
    }
    try (Env<byte[]> env = open(proxy, plain)) {
      Dbi<byte[]> dbi = env.openDbi("rows");
      try (Txn<byte[]> txn = env.txnRead(); Cursor<byte[]> cursor = dbi.openCursor(txn)) {
        int i = 0;
        for (boolean found = cursor.first(); found; found = cursor.next(), i++) {
          assertThat(cursor.key()).isEqualTo(keys.get(i));
          assertThat(cursor.val()).as("length %d", LENGTHS[i]).isEqualTo(values.get(i));
        }
        assertThat(i).isEqualTo(keys.size());
      }
    }
  }

  /** Arrays read out are fresh: two reads of one entry are equal but not the same array. */
  @Test
  void everyArrayReadOutIsFresh() {
    try (Env<byte[]> env = open(ArrayCopyProxy.PROXY, dir)) {
      Dbi<byte[]> dbi = env.openDbi("rows", DbiFlags.MDB_CREATE);
      byte[] value = {1, 2, 3};
      dbi.put(new byte[] {9}, value);
      try (Txn<byte[]> txn = env.txnRead()) {
        byte[] first = dbi.get(txn, new byte[] {9});
        byte[] second = dbi.get(txn, new byte[] {9});
        assertThat(first).isEqualTo(value).isNotSameAs(value).isNotSameAs(second);
        Arrays.fill(first, (byte) 0);
        assertThat(dbi.get(txn, new byte[] {9})).isEqualTo(value);
      }
    }
  }

  private static Env<byte[]> open(org.lmdbjava.BufferProxy<byte[]> proxy, Path dir) {
    return Env.create(proxy).setMapSize(256L << 20).setMaxDbs(4).open(dir.toFile(), EnvFlags.MDB_NOTLS);
  }
}
