package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multiGet of any number of keys reads in bounded memory besides its answers. Apart from {@link
 * MultiGetTest} because it runs a child JVM for about a minute: mutation testing leaves it out.
 */
class MultiGetOfManyKeysTest {
  private static final int MANY_KEYS = 5_000_000;

  /** Every this many keys of the 5 M one is present; the rest are absent. */
  private static final int PRESENT_EVERY = 4_999;

  @TempDir Path dir;

  /**
   * Five million keys in one multiGet, in a child JVM whose direct memory is capped at 16 MiB and
   * heap at 384 MiB (reading them through one native call with a value slot per key would need a
   * buffer of about 2.6 GB, past {@code int} range): every answer is in its place, the present
   * keys' values and nulls for the rest.
   */
  @Test
  void fiveMillionKeysAnswerInOrderWithinBoundedDirectMemory() throws Exception {
    String output =
        ChildJvmRun.output(
            ManyKeys.class,
            List.of("-XX:MaxDirectMemorySize=16m", "-Xmx384m"),
            120,
            dir.toString());
    assertThat(output).contains("answered " + MANY_KEYS + " keys");
  }

  private static byte[] manyKey(int i) {
    return ByteBuffer.allocate(8).putInt(0x6b657973).putInt(i).array();
  }

  /**
   * The child of {@link #fiveMillionKeysAnswerInOrderWithinBoundedDirectMemory}: exits 0 when all
   * answers are right.
   */
  static final class ManyKeys {
    public static void main(String[] args) {
      try (Store store =
          StoreProvider.named("rocksdb")
              .open(Path.of(args[0]), StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
        Batch b = new Batch();
        for (int i = 0; i < MANY_KEYS; i += PRESENT_EVERY) {
          b.put("p", manyKey(i), manyKey(~i));
        }
        store.write(b, Durability.SYNC);
        List<byte[]> keys =
            new AbstractList<>() {
              @Override
              public byte[] get(int i) {
                return manyKey(i);
              }

              @Override
              public int size() {
                return MANY_KEYS;
              }
            };
        long t0 = System.nanoTime();
        List<byte[]> got = store.multiGet("p", keys);
        System.out.println("multiGet took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        if (got.size() != MANY_KEYS) {
          throw new AssertionError("multiGet of " + MANY_KEYS + " keys answered " + got.size());
        }
        for (int i = 0; i < MANY_KEYS; i++) {
          byte[] want = i % PRESENT_EVERY == 0 ? manyKey(~i) : null;
          if (!Arrays.equals(got.get(i), want)) {
            throw new AssertionError(
                "answer " + i + ": got " + Bytes.hex(got.get(i)) + ", want " + Bytes.hex(want));
          }
        }
        System.out.println("answered " + MANY_KEYS + " keys");
      }
    }
  }
}
