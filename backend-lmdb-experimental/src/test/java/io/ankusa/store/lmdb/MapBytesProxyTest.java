package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lmdbjava.BufferProxy;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * The backend's buffer proxy moves the same bytes as lmdbjava's {@code ByteArrayProxy}, whichever
 * way it copies ({@link NativeMemory}): what one writes the other reads back byte for byte, for
 * every length a key or value can have here (empty values, one byte, around a machine word, a page,
 * past a page, 16 MiB), through point reads and cursor steps; and a view reads its bytes, prefixes
 * and big-endian ints in place as a copy of them would.
 */
class MapBytesProxyTest {
  private static final int[] LENGTHS = {
    0, 1, 3, 4, 5, 7, 8, 9, 100, 511, 4095, 4096, 4097, 65_537, 16 << 20
  };

  @TempDir Path dir;

  /**
   * On the JVMs this project runs on (17 and 25) the intrinsic copy is found; if it were not, the
   * backend would still be right but copy through JNI, and that should not pass unnoticed.
   */
  @Test
  void theIntrinsicCopyIsFoundOnThisJvm() {
    assertThat(NativeMemory.Intrinsics.AVAILABLE).isTrue();
    assertThat(MapBytesProxy.PROXY.memory()).isEqualTo(NativeMemory.INTRINSIC);
  }

  @ParameterizedTest
  @EnumSource(NativeMemory.class)
  void writesWhatPlainByteArraysReadAndReadsWhatTheyWrite(NativeMemory memory) {
    MapBytesProxy proxy = new MapBytesProxy(memory);
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < LENGTHS.length; i++) {
      byte[] key = new byte[1 + Math.min(LENGTHS[i], 500)];
      random.nextBytes(key);
      key[0] = (byte) i; // keys in the order of LENGTHS
      byte[] value = new byte[LENGTHS[i]];
      random.nextBytes(value);
      keys.add(key);
      values.add(value);
    }

    // Written through the proxy; read back through it (point reads, a cursor walk) and through
    // ByteArrayProxy.
    Path written = dir.resolve("through-proxy");
    written.toFile().mkdirs();
    try (Env<MapBytes> env = open(proxy, written)) {
      Dbi<MapBytes> dbi = env.openDbi("rows", DbiFlags.MDB_CREATE);
      try (Txn<MapBytes> txn = env.txnWrite()) {
        for (int i = 0; i < keys.size(); i++) {
          dbi.put(txn, MapBytes.of(keys.get(i)), MapBytes.of(values.get(i)));
        }
        txn.commit();
      }
      try (Txn<MapBytes> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          MapBytes view = dbi.get(txn, MapBytes.of(keys.get(i)));
          assertThat(view.isView()).isTrue();
          assertViewReadsAs(view, values.get(i));
        }
        assertThat(dbi.get(txn, MapBytes.of(new byte[] {(byte) 0x7f}))).isNull();
        try (Cursor<MapBytes> cursor = dbi.openCursor(txn)) {
          assertThat(cursor.get(MapBytes.of(keys.get(3)), GetOp.MDB_SET_RANGE)).isTrue();
          for (int i = 3; i < keys.size(); i++) {
            assertThat(cursor.key().copy()).isEqualTo(keys.get(i));
            assertViewReadsAs(cursor.val(), values.get(i));
            assertThat(cursor.next()).isEqualTo(i + 1 < keys.size());
          }
        }
      }
    }
    try (Env<byte[]> env = open(ByteArrayProxy.PROXY_BA, written)) {
      Dbi<byte[]> dbi = env.openDbi("rows");
      try (Txn<byte[]> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          assertThat(dbi.get(txn, keys.get(i)))
              .as("length %d", LENGTHS[i])
              .isEqualTo(values.get(i));
        }
      }
    }

    // Sealed: the value followed by its trailer, big-endian, read back as one entry both ways.
    Path sealed = dir.resolve("sealed");
    sealed.toFile().mkdirs();
    try (Env<MapBytes> env = open(proxy, sealed)) {
      Dbi<MapBytes> dbi = env.openDbi("rows", DbiFlags.MDB_CREATE);
      try (Txn<MapBytes> txn = env.txnWrite()) {
        for (int i = 0; i < keys.size(); i++) {
          dbi.put(txn, MapBytes.of(keys.get(i)), MapBytes.sealed(values.get(i), TRAILER + i));
        }
        txn.commit();
      }
      try (Txn<MapBytes> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          assertViewReadsAs(
              dbi.get(txn, MapBytes.of(keys.get(i))), withTrailer(values.get(i), TRAILER + i));
        }
      }
    }
    try (Env<byte[]> env = open(ByteArrayProxy.PROXY_BA, sealed)) {
      Dbi<byte[]> dbi = env.openDbi("rows");
      try (Txn<byte[]> txn = env.txnRead()) {
        for (int i = 0; i < keys.size(); i++) {
          assertThat(dbi.get(txn, keys.get(i)))
              .as("sealed, length %d", LENGTHS[i])
              .isEqualTo(withTrailer(values.get(i), TRAILER + i));
        }
      }
    }

    // Written through ByteArrayProxy, read back through the proxy.
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
    try (Env<MapBytes> env = open(proxy, plain)) {
      Dbi<MapBytes> dbi = env.openDbi("rows");
      try (Txn<MapBytes> txn = env.txnRead();
          Cursor<MapBytes> cursor = dbi.openCursor(txn)) {
        int i = 0;
        for (boolean found = cursor.first(); found; found = cursor.next(), i++) {
          assertThat(cursor.key().copy()).isEqualTo(keys.get(i));
          assertViewReadsAs(cursor.val(), values.get(i));
        }
        assertThat(i).isEqualTo(keys.size());
      }
    }
  }

  /** Bytes going in read as their array does; a copy is fresh, never the array itself. */
  @Test
  void bytesGoingInReadAsTheirArray() {
    byte[] array = {1, 2, 3, 4, 5, 6};
    MapBytes in = MapBytes.of(array);
    assertThat(in.isView()).isFalse();
    assertThat(in.copy()).isEqualTo(array).isNotSameAs(array);
    assertThat(in.copy(2)).containsExactly(1, 2);
    assertThat(in.intAt(2)).isEqualTo(0x03040506);
    assertThatThrownBy(() -> in.intAt(3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> in.copy(7)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(in::address).isInstanceOf(IllegalStateException.class);
  }

  /**
   * Sealed bytes going in read as their array followed by the trailer; the array is not copied into
   * them.
   */
  @Test
  void sealedBytesGoingInReadAsTheirArrayAndTrailer() {
    byte[] array = {1, 2, 3, 4, 5, 6};
    MapBytes in = MapBytes.sealed(array, TRAILER);
    assertThat(in.isView()).isFalse();
    assertThat(in.isSealed()).isTrue();
    assertThat(in.array()).isSameAs(array);
    assertThat(in.size()).isEqualTo(10);
    assertThat(in.copy()).containsExactly(1, 2, 3, 4, 5, 6, 0x8a, 0x0b, 0x0c, 0x0d);
    assertThat(in.copy(8)).containsExactly(1, 2, 3, 4, 5, 6, 0x8a, 0x0b);
    assertThat(in.copy(6)).isEqualTo(array).isNotSameAs(array);
    assertThat(in.intAt(6)).isEqualTo(TRAILER);
    assertThat(in.intAt(4)).isEqualTo(0x05068a0b);
    assertThatThrownBy(() -> in.intAt(7)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> in.copy(11)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(MapBytes.sealed(new byte[0], TRAILER).copy())
        .containsExactly(0x8a, 0x0b, 0x0c, 0x0d);
    assertThat(MapBytes.of(array).isSealed()).isFalse();
    assertThatThrownBy(MapBytes.of(array)::trailer).isInstanceOf(IllegalStateException.class);
  }

  /**
   * The trailer's word puts the trailer's 4 bytes first in memory, big-endian, whatever the byte
   * order.
   */
  @Test
  void theTrailerWordHoldsTheTrailerBigEndianFirst() {
    ByteBuffer word = ByteBuffer.allocate(8).order(java.nio.ByteOrder.nativeOrder());
    word.putLong(0, MapBytesProxy.trailerWord(TRAILER));
    assertThat(word.array()).containsExactly(0x8a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 0);
  }

  private static final int TRAILER = 0x8a0b0c0d;

  private static byte[] withTrailer(byte[] value, int trailer) {
    return ByteBuffer.allocate(value.length + 4).put(value).putInt(trailer).array();
  }

  /** Every read and prefix copy and int of a view, against the bytes it should hold. */
  private static void assertViewReadsAs(MapBytes view, byte[] expected) {
    String what = "a view of " + expected.length + " bytes";
    assertThat(view.size()).as(what).isEqualTo(expected.length);
    byte[] copy = view.copy();
    assertThat(copy).as(what).isEqualTo(expected);
    assertThat(view.copy()).as("a second copy is fresh").isNotSameAs(copy);
    if (expected.length >= 1) {
      assertThat(view.copy(expected.length - 1))
          .as(what)
          .isEqualTo(java.util.Arrays.copyOf(expected, expected.length - 1));
    }
    ByteBuffer big = ByteBuffer.wrap(expected);
    for (int offset : new int[] {0, 1, 3, 4, 5, expected.length - 5, expected.length - 4}) {
      if (offset >= 0 && offset <= expected.length - 4) {
        assertThat(view.intAt(offset))
            .as("%s: int at %d", what, offset)
            .isEqualTo(big.getInt(offset));
      }
    }
    assertThatThrownBy(() -> view.intAt(expected.length - 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> view.copy(expected.length + 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  private static <T> Env<T> open(BufferProxy<T> proxy, Path dir) {
    return Env.create(proxy)
        .setMapSize(256L << 20)
        .setMaxDbs(4)
        .open(dir.toFile(), EnvFlags.MDB_NOTLS);
  }
}
