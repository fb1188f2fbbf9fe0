package io.ankusa.store.lmdb;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Comparator;
import jnr.ffi.Pointer;
import jnr.ffi.provider.MemoryManager;
import org.lmdbjava.BufferProxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * lmdbjava's buffer proxy for {@code byte[]} keys and values, as {@code ByteArrayProxy.PROXY_BA}
 * (same arrays in, fresh arrays out), but copying between the map and the heap with the JVM's
 * intrinsic memory copy instead of a JNI call per array.
 *
 * <p>Why: every entry a read meets is copied out twice (key and value), and {@code PROXY_BA} does each
 * copy through a JNI call with bounds checks around it; in a 100-entry scan those calls were about a
 * third of the time. The intrinsic copy is a plain {@code memcpy} from the mapped page.
 *
 * <p>How: through {@code sun.misc.Unsafe}, found reflectively and called through method handles, the
 * same access lmdbjava's own native layer (jffi) already uses; no JVM flag is needed. When it cannot be
 * found, this proxy copies as {@code PROXY_BA} does (logged once at debug level); the bytes are the
 * same either way.
 *
 * <p>Ownership: an array passed in is copied to native memory that lives as long as the returned
 * pointer (lmdbjava keeps it for the call); an array returned is fresh and the caller's. Stateless and
 * thread-safe.
 */
final class ArrayCopyProxy extends BufferProxy<byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(ArrayCopyProxy.class);

  /** The proxy every environment of this backend uses. */
  static final ArrayCopyProxy PROXY = new ArrayCopyProxy(IntrinsicCopy.AVAILABLE);

  /** Offsets in LMDB's {@code MDB_val}: the size, then the data pointer (64-bit). */
  private static final int SIZE_OFFSET = 0;
  private static final int DATA_OFFSET = 8;

  private static final MemoryManager MEMORY = jnr.ffi.Runtime.getSystemRuntime().getMemoryManager();

  /** Whether this proxy copies with the intrinsic copy (false: as PROXY_BA does, through JNI). */
  private final boolean intrinsic;

  /** A proxy copying with the intrinsic copy when {@code intrinsic} and this JVM offers it. */
  ArrayCopyProxy(boolean intrinsic) {
    this.intrinsic = intrinsic && IntrinsicCopy.AVAILABLE;
  }

  /** Whether this proxy copies with the intrinsic copy (false: as PROXY_BA does, through JNI). */
  boolean intrinsic() {
    return intrinsic;
  }

  @Override
  protected byte[] allocate() {
    return new byte[0];
  }

  @Override
  protected void deallocate(byte[] buffer) {
    // heap arrays: nothing to free
  }

  @Override
  protected byte[] getBytes(byte[] buffer) {
    return Arrays.copyOf(buffer, buffer.length);
  }

  @Override
  protected Comparator<byte[]> getSignedComparator() {
    return Arrays::compare;
  }

  @Override
  protected Comparator<byte[]> getUnsignedComparator() {
    return Arrays::compareUnsigned;
  }

  /** Copies {@code buffer} to fresh native memory and points the {@code MDB_val} at {@code ptr} to it. */
  @Override
  protected Pointer in(byte[] buffer, Pointer ptr) {
    Pointer data = MEMORY.allocateDirect(buffer.length);
    if (!intrinsic) {
      data.put(0, buffer, 0, buffer.length);
      ptr.putLong(SIZE_OFFSET, buffer.length);
      ptr.putAddress(DATA_OFFSET, data.address());
    } else {
      IntrinsicCopy.toNative(buffer, data.address());
      IntrinsicCopy.putLong(ptr.address() + SIZE_OFFSET, buffer.length);
      IntrinsicCopy.putLong(ptr.address() + DATA_OFFSET, data.address());
    }
    return data;
  }

  /** Used by lmdbjava only for {@code MDB_RESERVE} puts, which this backend does not make. */
  @Override
  protected Pointer in(byte[] buffer, int size, Pointer ptr) {
    return null;
  }

  /** A fresh copy of the bytes the {@code MDB_val} at {@code ptr} points to. */
  @Override
  protected byte[] out(byte[] buffer, Pointer ptr) {
    if (!intrinsic) {
      long address = ptr.getAddress(DATA_OFFSET);
      int size = checkedSize(ptr.getLong(SIZE_OFFSET));
      byte[] bytes = new byte[size];
      MEMORY.newPointer(address, size).get(0, bytes, 0, size);
      return bytes;
    }
    long struct = ptr.address();
    int size = checkedSize(IntrinsicCopy.getLong(struct + SIZE_OFFSET));
    byte[] bytes = new byte[size];
    IntrinsicCopy.fromNative(IntrinsicCopy.getLong(struct + DATA_OFFSET), bytes);
    return bytes;
  }

  /** An entry larger than a Java array can hold is no entry this backend wrote. */
  private static int checkedSize(long size) {
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("LMDB returned an entry of " + size + " bytes, more than any this backend writes");
    }
    return (int) size;
  }

  /**
   * The JVM's intrinsic copies between native memory and {@code byte[]}, through method handles on
   * {@code sun.misc.Unsafe}. The handles are static finals, so the JIT treats them as constants and
   * compiles each call to the intrinsic itself.
   */
  static final class IntrinsicCopy {
    private static final MethodHandle COPY_MEMORY;
    private static final MethodHandle GET_LONG;
    private static final MethodHandle PUT_LONG;
    private static final long BYTE_ARRAY_BASE;
    /** Whether this JVM offers the intrinsic copy. */
    static final boolean AVAILABLE;

    static {
      MethodHandle copyMemory = null;
      MethodHandle getLong = null;
      MethodHandle putLong = null;
      long base = 0;
      try {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field field = unsafeClass.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Object unsafe = field.get(null);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        base = (int) lookup.findVirtual(unsafeClass, "arrayBaseOffset", MethodType.methodType(int.class, Class.class))
            .invoke(unsafe, byte[].class);
        copyMemory = lookup.findVirtual(unsafeClass, "copyMemory", MethodType.methodType(void.class, Object.class,
            long.class, Object.class, long.class, long.class)).bindTo(unsafe);
        getLong = lookup.findVirtual(unsafeClass, "getLong", MethodType.methodType(long.class, long.class))
            .bindTo(unsafe);
        putLong = lookup.findVirtual(unsafeClass, "putLong", MethodType.methodType(void.class, long.class, long.class))
            .bindTo(unsafe);
      } catch (Throwable e) { // any failure here only means the JNI copy
        LOG.debug("no intrinsic memory copy on this JVM ({}); LMDB entries are copied through JNI", e.toString());
        copyMemory = null;
      }
      AVAILABLE = copyMemory != null;
      COPY_MEMORY = copyMemory;
      GET_LONG = getLong;
      PUT_LONG = putLong;
      BYTE_ARRAY_BASE = base;
    }

    private IntrinsicCopy() {}

    static void fromNative(long address, byte[] into) {
      try {
        COPY_MEMORY.invokeExact((Object) null, address, (Object) into, BYTE_ARRAY_BASE, (long) into.length);
      } catch (Throwable e) {
        throw rethrown(e);
      }
    }

    static void toNative(byte[] from, long address) {
      try {
        COPY_MEMORY.invokeExact((Object) from, BYTE_ARRAY_BASE, (Object) null, address, (long) from.length);
      } catch (Throwable e) {
        throw rethrown(e);
      }
    }

    static long getLong(long address) {
      try {
        return (long) GET_LONG.invokeExact(address);
      } catch (Throwable e) {
        throw rethrown(e);
      }
    }

    static void putLong(long address, long value) {
      try {
        PUT_LONG.invokeExact(address, value);
      } catch (Throwable e) {
        throw rethrown(e);
      }
    }

    private static RuntimeException rethrown(Throwable e) {
      if (e instanceof RuntimeException r) {
        return r;
      }
      if (e instanceof Error err) {
        throw err;
      }
      return new IllegalStateException(e);
    }
  }
}
