package io.ankusa.store.lmdb;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import jnr.ffi.provider.MemoryManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies between native memory (LMDB's memory map, lmdbjava's {@code MDB_val} structs) and Java
 * arrays, two ways that move the same bytes: {@link #INTRINSIC}, the JVM's intrinsic memory copy (a
 * plain {@code memcpy}, no native call), and {@link #JNI}, a JNI call per copy through jnr-ffi as
 * lmdbjava's own {@code ByteArrayProxy} does. {@link #best()} is the first this JVM offers.
 *
 * <p>Why two: the intrinsic copy is reached through {@code sun.misc.Unsafe}, found reflectively and
 * called through constant method handles (the access lmdbjava's native layer already uses; no JVM
 * flag is needed). A JVM without it, or one that refuses it, is met once, when this class loads,
 * and copies through JNI here; lmdbjava itself needs it all the same (docs/deployment.md).
 *
 * <p>REQUIRES of every method: the native range is readable (writable, for the methods that write)
 * for the bytes named; nothing here can check that, and a bad address ends the process. Stateless
 * and thread-safe.
 */
enum NativeMemory {
  /** The JVM's intrinsic copy; {@link Intrinsics#AVAILABLE} says whether this JVM has it. */
  INTRINSIC {
    @Override
    void copyOut(long address, byte[] into, int length) {
      Intrinsics.copyOut(address, into, length);
    }

    @Override
    void copyIn(byte[] from, long address) {
      Intrinsics.copyIn(from, address);
    }

    @Override
    long getLong(long address) {
      return Intrinsics.getLong(address);
    }

    @Override
    void putLong(long address, long value) {
      Intrinsics.putLong(address, value);
    }
  },
  /** One JNI call per copy, through jnr-ffi. */
  JNI {
    @Override
    void copyOut(long address, byte[] into, int length) {
      MEMORY.newPointer(address, length).get(0, into, 0, length);
    }

    @Override
    void copyIn(byte[] from, long address) {
      MEMORY.newPointer(address, from.length).put(0, from, 0, from.length);
    }

    @Override
    long getLong(long address) {
      return MEMORY.newPointer(address, Long.BYTES).getLong(0);
    }

    @Override
    void putLong(long address, long value) {
      MEMORY.newPointer(address, Long.BYTES).putLong(0, value);
    }
  };

  private static final Logger LOG = LoggerFactory.getLogger(NativeMemory.class);
  static final MemoryManager MEMORY = jnr.ffi.Runtime.getSystemRuntime().getMemoryManager();

  /** Copies the {@code length} bytes at {@code address} into {@code into[0..length)}. */
  abstract void copyOut(long address, byte[] into, int length);

  /** Copies all of {@code from} to {@code address}. */
  abstract void copyIn(byte[] from, long address);

  /** The native-order 64-bit value at {@code address}. */
  abstract long getLong(long address);

  /** Writes {@code value} in native order at {@code address}. */
  abstract void putLong(long address, long value);

  /** {@link #INTRINSIC} when this JVM offers it, else {@link #JNI}. */
  static NativeMemory best() {
    return Intrinsics.AVAILABLE ? INTRINSIC : JNI;
  }

  /**
   * The method handles behind {@link #INTRINSIC}. Static finals, so the JIT treats them as
   * constants and compiles each call to the intrinsic itself.
   */
  static final class Intrinsics {
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
        base =
            (int)
                lookup
                    .findVirtual(
                        unsafeClass,
                        "arrayBaseOffset",
                        MethodType.methodType(int.class, Class.class))
                    .invoke(unsafe, byte[].class);
        getLong =
            lookup
                .findVirtual(unsafeClass, "getLong", MethodType.methodType(long.class, long.class))
                .bindTo(unsafe);
        putLong =
            lookup
                .findVirtual(
                    unsafeClass,
                    "putLong",
                    MethodType.methodType(void.class, long.class, long.class))
                .bindTo(unsafe);
        copyMemory =
            lookup
                .findVirtual(
                    unsafeClass,
                    "copyMemory",
                    MethodType.methodType(
                        void.class, Object.class, long.class, Object.class, long.class, long.class))
                .bindTo(unsafe);
        tryOut(copyMemory, getLong, putLong, base);
      } catch (Throwable e) { // any failure here only means the JNI copy
        LOG.debug(
            "no intrinsic memory copy on this JVM ({}); LMDB entries are copied through JNI",
            e.toString());
        copyMemory = null;
      }
      AVAILABLE = copyMemory != null;
      COPY_MEMORY = copyMemory;
      GET_LONG = getLong;
      PUT_LONG = putLong;
      BYTE_ARRAY_BASE = base;
    }

    private Intrinsics() {}

    /**
     * One round trip through native memory with the handles found, so a JVM that has the methods
     * but refuses them (as {@code --sun-misc-unsafe-memory-access=deny} makes it) is met here, not
     * on a read. Throws when a call is refused or moves the wrong bytes.
     */
    private static void tryOut(
        MethodHandle copyMemory, MethodHandle getLong, MethodHandle putLong, long base)
        throws Throwable {
      jnr.ffi.Pointer scratch = MEMORY.allocateDirect(16);
      long at = scratch.address();
      putLong.invokeExact(at, 0x0102030405060708L);
      byte[] out = new byte[8];
      copyMemory.invokeExact((Object) null, at, (Object) out, base, 8L);
      copyMemory.invokeExact((Object) out, base, (Object) null, at + 8, 8L);
      if ((long) getLong.invokeExact(at + 8) != 0x0102030405060708L
          || scratch.getLong(8) != 0x0102030405060708L) {
        throw new IllegalStateException("the intrinsic copy moved the wrong bytes");
      }
    }

    static void copyOut(long address, byte[] into, int length) {
      try {
        COPY_MEMORY.invokeExact(
            (Object) null, address, (Object) into, BYTE_ARRAY_BASE, (long) length);
      } catch (Throwable e) {
        throw rethrown(e);
      }
    }

    static void copyIn(byte[] from, long address) {
      try {
        COPY_MEMORY.invokeExact(
            (Object) from, BYTE_ARRAY_BASE, (Object) null, address, (long) from.length);
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
