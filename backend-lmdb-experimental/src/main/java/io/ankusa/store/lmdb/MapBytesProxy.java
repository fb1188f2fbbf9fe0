package io.ankusa.store.lmdb;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;
import jnr.ffi.Pointer;
import org.lmdbjava.BufferProxy;

/**
 * lmdbjava's buffer proxy for {@link MapBytes}: bytes going in are copied to fresh native memory
 * for the call, as lmdbjava's {@code ByteArrayProxy} does; bytes coming out are not copied at all,
 * the view is pointed at them (see {@link MapBytes} for how long that holds). Copies go through
 * {@link NativeMemory}, the JVM's intrinsic memory copy where there is one, not a JNI call per
 * array.
 *
 * <p>Why: a read used to get every key and value as a fresh array through {@code ByteArrayProxy}, a
 * JNI call each, and a checksummed value was then copied again without its checksum; in a scan
 * those copies were a large share of the time (docs/measurements/spi-overhead.md).
 *
 * <p>Stateless and thread-safe; the views it hands out are not.
 */
final class MapBytesProxy extends BufferProxy<MapBytes> {
  /** The proxy every environment of this backend uses. */
  static final MapBytesProxy PROXY = new MapBytesProxy(NativeMemory.best());

  /** Offsets in LMDB's {@code MDB_val}: the size, then the data pointer (64-bit). */
  private static final int SIZE_OFFSET = 0;

  private static final int DATA_OFFSET = 8;

  /** Bytes allocated past a sealed entry's end, so its trailer can go in as one long. */
  private static final int TRAILER_SLACK = Long.BYTES - Integer.BYTES;

  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private final NativeMemory memory;

  MapBytesProxy(NativeMemory memory) {
    this.memory = memory;
  }

  NativeMemory memory() {
    return memory;
  }

  @Override
  protected MapBytes allocate() {
    return MapBytes.view(memory);
  }

  @Override
  protected void deallocate(MapBytes buffer) {
    // heap arrays and views of the map: nothing to free
  }

  @Override
  protected byte[] getBytes(MapBytes buffer) {
    return buffer.copy();
  }

  @Override
  protected Comparator<MapBytes> getSignedComparator() {
    return (a, b) -> Arrays.compare(a.copy(), b.copy());
  }

  @Override
  protected Comparator<MapBytes> getUnsignedComparator() {
    return (a, b) -> Arrays.compareUnsigned(a.copy(), b.copy());
  }

  /**
   * Points the {@code MDB_val} at {@code ptr} to the bytes: an array going in is copied to fresh
   * native memory, followed by its trailer when sealed, kept alive by the pointer returned; a view
   * is passed as it is.
   */
  @Override
  protected Pointer in(MapBytes buffer, Pointer ptr) {
    long struct = ptr.address();
    if (buffer.isView()) {
      memory.putLong(struct + SIZE_OFFSET, buffer.size());
      memory.putLong(struct + DATA_OFFSET, buffer.address());
      return ptr;
    }
    byte[] array = buffer.array();
    int size = buffer.size();
    // A sealed trailer goes in as one 8-byte write after the array: 4 bytes of slack past the end.
    Pointer data =
        NativeMemory.MEMORY.allocateDirect(buffer.isSealed() ? size + TRAILER_SLACK : size);
    if (array.length > 0) {
      memory.copyIn(array, data.address());
    }
    if (buffer.isSealed()) {
      memory.putLong(data.address() + array.length, trailerWord(buffer.trailer()));
    }
    memory.putLong(struct + SIZE_OFFSET, size);
    memory.putLong(struct + DATA_OFFSET, data.address());
    return data;
  }

  /**
   * The long whose first 4 bytes in memory are {@code trailer}, big-endian, and whose last 4 are
   * zero.
   */
  static long trailerWord(int trailer) {
    return LITTLE_ENDIAN
        ? Integer.reverseBytes(trailer) & 0xffff_ffffL
        : ((long) trailer) << Integer.SIZE;
  }

  /** Used by lmdbjava only for {@code MDB_RESERVE} puts, which this backend does not make. */
  @Override
  protected Pointer in(MapBytes buffer, int size, Pointer ptr) {
    throw new UnsupportedOperationException("this backend makes no MDB_RESERVE puts");
  }

  /**
   * Points a view (the one passed, reused) at the bytes the {@code MDB_val} at {@code ptr} names.
   */
  @Override
  protected MapBytes out(MapBytes buffer, Pointer ptr) {
    long struct = ptr.address();
    long size = memory.getLong(struct + SIZE_OFFSET);
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "LMDB returned an entry of " + size + " bytes, more than any this backend writes");
    }
    MapBytes view = buffer != null && buffer.isView() ? buffer : MapBytes.view(memory);
    view.point(memory.getLong(struct + DATA_OFFSET), (int) size);
    return view;
  }
}
