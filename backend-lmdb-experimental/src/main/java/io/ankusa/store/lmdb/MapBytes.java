package io.ankusa.store.lmdb;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The bytes of one key or value crossing between this backend and LMDB, the element type of every
 * lmdbjava environment, database, transaction and cursor here ({@link MapBytesProxy}). One of two
 * kinds:
 *
 * <ul>
 *   <li><b>going in</b> ({@link #of}, {@link #sealed}): wraps the caller's array, which lmdbjava
 *       copies to native memory for the one call; the array is not kept. A sealed one is followed
 *       by a 4-byte big-endian trailer (a value's checksum), written after the array in that same
 *       copy: sealing a value copies nothing on the heap.
 *   <li><b>coming out</b> (a view): where the bytes a read found lie in LMDB's memory map, nothing
 *       copied. lmdbjava sets it on every read and overwrites it on the next read of the same
 *       transaction or cursor. REQUIRES: copy out what you keep ({@link #copy}), before the next
 *       read on that transaction or cursor and before the transaction ends; after that the view
 *       points at pages LMDB may reuse or unmap.
 * </ul>
 *
 * <p>Why views: a read can copy exactly what it needs, once. A value stored with a checksum ({@link
 * ValueChecksums}) comes out as one copy of the value and a read of the checksum in place, where a
 * {@code byte[]} proxy copies value and checksum out and the value again without it.
 *
 * <p>Not thread-safe; a view belongs to the transaction or cursor that set it.
 */
final class MapBytes {
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  /** The bytes going in; null for a view. */
  private final byte[] array;

  /** Going in: whether {@link #trailer} follows the array. */
  private final boolean sealed;

  /** Going in and sealed: the 4 bytes after the array, big-endian. */
  private final int trailer;

  /** How a view copies out of the map; null for bytes going in. */
  private final NativeMemory memory;

  private long address;
  private int size;

  private MapBytes(byte[] array, boolean sealed, int trailer, NativeMemory memory) {
    this.array = array;
    this.sealed = sealed;
    this.trailer = trailer;
    this.memory = memory;
  }

  /** Bytes going in: {@code array}, read during the call it is passed to and not kept. */
  static MapBytes of(byte[] array) {
    return new MapBytes(Objects.requireNonNull(array, "array"), false, 0, null);
  }

  /**
   * Bytes going in: {@code array} followed by {@code trailer} as 4 big-endian bytes; the array is
   * read during the call it is passed to and not kept.
   */
  static MapBytes sealed(byte[] array, int trailer) {
    return new MapBytes(Objects.requireNonNull(array, "array"), true, trailer, null);
  }

  /** An empty view, for lmdbjava to point at what a read finds; copies out with {@code memory}. */
  static MapBytes view(NativeMemory memory) {
    return new MapBytes(null, false, 0, Objects.requireNonNull(memory, "memory"));
  }

  boolean isView() {
    return array == null;
  }

  /** Whether 4 trailer bytes follow the array going in ({@link #sealed}). */
  boolean isSealed() {
    return sealed;
  }

  /** The trailer of bytes going in, sealed. REQUIRES: {@link #isSealed}. */
  int trailer() {
    if (!sealed) {
      throw new IllegalStateException("these bytes have no trailer");
    }
    return trailer;
  }

  /** The array going in, without the trailer of sealed bytes. REQUIRES: not a view. */
  byte[] array() {
    if (array == null) {
      throw new IllegalStateException("a view of the map has no array; copy() it");
    }
    return array;
  }

  /** Points this view at {@code size} bytes at {@code address} in the map. REQUIRES: a view. */
  void point(long address, int size) {
    if (array != null) {
      throw new IllegalStateException("bytes going in cannot be pointed elsewhere");
    }
    this.address = address;
    this.size = size;
  }

  /** Where a view's bytes are. REQUIRES: a view. */
  long address() {
    if (array != null) {
      throw new IllegalStateException("bytes going in have no address until lmdbjava copies them");
    }
    return address;
  }

  /** How many bytes: a view's, or the array's plus 4 when sealed. */
  int size() {
    return array == null ? size : sealed ? array.length + Integer.BYTES : array.length;
  }

  /** A fresh copy of all the bytes. */
  byte[] copy() {
    return copy(size());
  }

  /** A fresh copy of the first {@code length} bytes. */
  byte[] copy(int length) {
    if (length < 0 || length > size()) {
      throw new IndexOutOfBoundsException("copy of " + length + " bytes from " + size());
    }
    if (array != null) {
      byte[] out = Arrays.copyOf(array, length);
      for (int i = array.length; i < length; i++) { // the trailer's bytes, when sealed
        out[i] = (byte) (trailer >>> (Byte.SIZE * (Integer.BYTES - 1 - (i - array.length))));
      }
      return out;
    }
    byte[] out = new byte[length];
    if (length > 0) {
      memory.copyOut(address, out, length);
    }
    return out;
  }

  /** The 4 bytes at {@code offset} as a big-endian int, read in place. */
  int intAt(int offset) {
    if (offset < 0 || offset > size() - Integer.BYTES) {
      throw new IndexOutOfBoundsException("int at " + offset + " of " + size() + " bytes");
    }
    byte[] b;
    int at;
    if (array != null) {
      b = sealed ? copy() : array;
      at = offset;
    } else if (offset >= Integer.BYTES) {
      // One 8-byte read ending where the int ends, inside the entry's bytes: no copy.
      long word = memory.getLong(address + offset - Integer.BYTES);
      return (int) (LITTLE_ENDIAN ? Long.reverseBytes(word) : word);
    } else {
      b = copy(offset + Integer.BYTES);
      at = offset;
    }
    return ((b[at] & 0xff) << 24)
        | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
