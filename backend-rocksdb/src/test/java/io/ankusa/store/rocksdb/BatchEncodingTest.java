package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Op;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * {@link BatchEncoding}: the bytes it makes are the bytes RocksJava's own {@link WriteBatch} holds
 * after the same ops are added to it one by one, in the same order, as the backend does with a
 * batch too long to encode ({@link RocksDbStore#filled}). Families with ids 0 (the default family,
 * whose records carry no id), 1, 2 and 130 (a two-byte varint), and keys and values whose lengths
 * sit on each side of the one-, two- and three-byte varint boundaries.
 */
class BatchEncodingTest {
  /** Families this test's database has beyond the default one: ids 1 .. 130. */
  private static final int EXTRA_FAMILIES = 130;

  private static final List<String> FAMILIES = List.of("default", "f1", "f2", "f130");

  private static Path dir;
  private static RocksDB db;
  private static final Map<String, ColumnFamilyHandle> HANDLES = new HashMap<>();

  @BeforeContainer
  static void open() throws Exception {
    RocksDB.loadLibrary();
    dir = Files.createTempDirectory("batch-encoding-");
    try (Options options = new Options().setCreateIfMissing(true)) {
      db = RocksDB.open(options, dir.toString());
    }
    HANDLES.put("default", db.getDefaultColumnFamily());
    for (int i = 1; i <= EXTRA_FAMILIES; i++) {
      byte[] name = ("f" + i).getBytes(StandardCharsets.UTF_8);
      HANDLES.put("f" + i, db.createColumnFamily(new ColumnFamilyDescriptor(name)));
    }
    assertThat(HANDLES.get("f130").getID()).as("a family id past one varint byte").isEqualTo(130);
  }

  @AfterContainer
  static void close() {
    HANDLES.forEach(
        (name, h) -> {
          if (!name.equals("default")) {
            h.close();
          }
        });
    HANDLES.clear();
    db.close();
    FileTrees.deleteRecursively(dir);
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<String> family = Arbitraries.of(FAMILIES);
    Arbitrary<Integer> length =
        Arbitraries.frequencyOf(
            Tuple.of(20, Arbitraries.integers().between(0, 3)),
            Tuple.of(4, Arbitraries.of(126, 127, 128, 129)),
            Tuple.of(1, Arbitraries.of(16_383, 16_384)));
    Arbitrary<byte[]> bytes =
        length.flatMap(n -> Arbitraries.bytes().array(byte[].class).ofSize(n));
    Arbitrary<Op> put = Combinators.combine(family, bytes, bytes).as(Op.Put::new);
    Arbitrary<Op> delete = Combinators.combine(family, bytes).as(Op.Delete::new);
    Arbitrary<Op> merge = Combinators.combine(family, bytes, Arbitraries.longs()).as(Op.Merge::new);
    // Short bounds: about half of these ranges are empty (lo not below hi), which the encoding
    // leaves out.
    Arbitrary<byte[]> bound =
        Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(2);
    Arbitrary<Op> deleteRange = Combinators.combine(family, bound, bound).as(Op.DeleteRange::new);
    return Arbitraries.frequencyOf(
            Tuple.of(4, put), Tuple.of(1, delete), Tuple.of(2, merge), Tuple.of(1, deleteRange))
        .list()
        .ofMaxSize(60);
  }

  /**
   * The encoding of the ops, in the ops' own order and in a shuffled one, is the native batch's
   * bytes.
   */
  @Property(tries = 300)
  void theEncodingIsTheNativeBatchFilledOpByOp(@ForAll("ops") List<Op> ops, @ForAll long seed)
      throws Exception {
    assertSameBytes(ops, null);
    List<Integer> shuffled = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      shuffled.add(i);
    }
    Collections.shuffle(shuffled, new Random(seed));
    assertSameBytes(ops, shuffled.stream().mapToInt(Integer::intValue).toArray());
  }

  /** Null past the limit, and not at it: a batch of exactly {@code maxBytes} bytes is encoded. */
  @Example
  void nullOnlyPastTheLimit() throws Exception {
    List<Op> ops =
        List.of(
            new Op.Put("f1", new byte[] {1}, new byte[300]), new Op.Merge("f2", new byte[] {2}, 7));
    int size = nativeBytes(ops, null).length;
    assertThat(BatchEncoding.encode(ops, null, BatchEncodingTest::id, size)).hasSize(size);
    assertThat(BatchEncoding.encode(ops, null, BatchEncodingTest::id, size - 1)).isNull();
  }

  /**
   * A batch of empty range deletes only is the bare header with a count of 0, as the native batch
   * is.
   */
  @Example
  void onlyEmptyRangeDeletesEncodeAsAnEmptyBatch() throws Exception {
    List<Op> ops =
        List.of(
            new Op.DeleteRange("f1", new byte[] {2}, new byte[] {1}),
            new Op.DeleteRange("default", new byte[] {1}, new byte[] {1}));
    assertThat(BatchEncoding.encode(ops, null, BatchEncodingTest::id, BatchEncoding.MAX_BYTES))
        .isEqualTo(nativeBytes(ops, null))
        .hasSize(BatchEncoding.HEADER);
  }

  private static void assertSameBytes(List<Op> ops, int[] order) throws RocksDBException {
    byte[] expected = nativeBytes(ops, order);
    byte[] actual =
        BatchEncoding.encode(ops, order, BatchEncodingTest::id, BatchEncoding.MAX_BYTES);
    assertThat(actual)
        .as(
            "%d ops, %s order: encoded %s, native %s",
            ops.size(), order == null ? "their own" : "a shuffled", head(actual), head(expected))
        .isEqualTo(expected);
  }

  /** The bytes of a native batch the ops were added to one by one ({@link RocksDbStore#filled}). */
  private static byte[] nativeBytes(List<Op> ops, int[] order) throws RocksDBException {
    try (WriteBatch wb = RocksDbStore.filled(HANDLES::get, ops, order)) {
      return wb.data();
    }
  }

  private static int id(String family) {
    return HANDLES.get(family).getID();
  }

  private static String head(byte[] bytes) {
    if (bytes == null) {
      return "null";
    }
    byte[] head = bytes.length <= 48 ? bytes : java.util.Arrays.copyOf(bytes, 48);
    return Bytes.hex(head) + (bytes.length > 48 ? "… (" + bytes.length + " bytes)" : "");
  }
}
