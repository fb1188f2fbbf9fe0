package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend's own promises beyond the engine suite: options, locking, close, isolation. */
class RocksDbStoreTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 1 << 20));

  @TempDir Path dir;
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();

  @Test
  void foundByNameThroughServiceLoader() {
    assertThat(StoreProvider.named("rocksdb")).isInstanceOf(RocksDbStoreProvider.class);
    assertThat(StoreProvider.available()).contains("rocksdb");
  }

  /**
   * A scan reads keys and values through scratch arrays it grows, and values above 64 KiB without
   * one: every length around those edges comes back whole, in a fresh array per entry.
   */
  @Test
  void scansReturnEveryLengthWholeAroundTheScratchEdges() {
    int[] keyLengths = {1, 63, 64, 65, 300, 8192};
    int[] valueLengths = {0, 255, 256, 257, 65_535, 65_536, 65_537, 1 << 20, 3};
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      TreeMap<String, byte[]> expected = new TreeMap<>();
      Batch batch = new Batch();
      for (int i = 0; i < keyLengths.length * valueLengths.length; i++) {
        byte[] key = new byte[keyLengths[i % keyLengths.length]];
        Arrays.fill(key, (byte) 0x20);
        key[0] = (byte) i; // distinct, and sorted by i
        byte[] value = new byte[valueLengths[i % valueLengths.length]];
        Arrays.fill(value, (byte) i);
        batch.put("rows", key, value);
        expected.put(HexFormat.of().formatHex(key), value);
      }
      s.write(batch, Durability.NO_SYNC);
      for (Direction direction : Direction.values()) {
        List<String> keysSeen = new ArrayList<>();
        try (Scan scan = s.scan("rows", new byte[0], null, direction)) {
          byte[] previousValue = null;
          while (scan.hasNext()) {
            Entry e = scan.next();
            String hex = HexFormat.of().formatHex(e.key());
            assertThat(e.value())
                .as(
                    "value of the %d-byte key %s…, %s",
                    e.key().length, hex.substring(0, 2), direction)
                .isEqualTo(expected.get(hex));
            assertThat(e.value()).as("a fresh array per entry").isNotSameAs(previousValue);
            previousValue = e.value();
            keysSeen.add(hex);
          }
        }
        List<String> order = new java.util.ArrayList<>(expected.keySet());
        if (direction == Direction.REVERSE) {
          Collections.reverse(order);
        }
        assertThat(keysSeen).as("keys of a %s scan", direction).isEqualTo(order);
      }
    }
  }

  /** Each numeric option is accepted at both ends of its range and refused one past either end. */
  @Test
  void numericOptionsAreAcceptedAtTheirBoundsAndRefusedPastThem() {
    String option = "rocksdb.blockSizeBytes";
    for (long accepted : new long[] {512, 64L << 20}) {
      RocksDbSettings settings =
          RocksDbSettings.from(StoreOptions.defaults().with(option, Long.toString(accepted)));
      assertThat(settings.blockSizeBytes()).isEqualTo(accepted);
    }
    for (long refused : new long[] {511, (64L << 20) + 1}) {
      assertThatThrownBy(
              () ->
                  RocksDbSettings.from(
                      StoreOptions.defaults().with(option, Long.toString(refused))))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessage(
              "option " + option + "=" + refused + " is out of range; use 512.." + (64L << 20));
    }
  }

  /**
   * A family named {@code default} — the name RocksDB gives its own first column family, and the
   * layout's name for its metadata family — is the caller's family like any other: written, read,
   * and kept across a reopen, with no second {@code default} family opened beside it.
   */
  @Test
  void aFamilyNamedDefaultIsRocksDbsOwnDefaultFamily() {
    List<FamilySpec> withDefault = List.of(FamilySpec.plain("default"), FamilySpec.plain("rows"));
    try (Store s = provider.open(dir, StoreOptions.defaults(), withDefault)) {
      s.write(
          new Batch()
              .put("default", new byte[] {1}, new byte[] {7})
              .put("rows", new byte[] {1}, new byte[] {8}),
          Durability.SYNC);
    }
    try (Store s =
        provider.open(dir, StoreOptions.defaults().createIfMissing(false), withDefault)) {
      assertThat(s.get("default", new byte[] {1})).isEqualTo(new byte[] {7});
      assertThat(s.get("rows", new byte[] {1})).isEqualTo(new byte[] {8});
    }
  }

  /**
   * A directory whose store marker names RocksDB but whose RocksDB files are gone (deleted by hand,
   * say) holds no store to open: an open without createIfMissing, or a read-only one, says so and
   * which of the two it was, and creates nothing.
   */
  @Test
  void aMarkedDirectoryWithoutItsRocksDbFilesSaysWhyNoStoreWasCreated() throws Exception {
    provider.open(dir, StoreOptions.defaults(), FAMILIES).close();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        if (!p.getFileName().toString().equals(StoreMarker.FILE)) {
          FileTrees.deleteRecursively(p);
        }
      }
    }
    assertThatThrownBy(() -> provider.open(dir, StoreOptions.defaults().readOnly(true), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("no RocksDB store in " + dir + " to open read-only");
    assertThatThrownBy(
            () -> provider.open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("no RocksDB store in " + dir + " and createIfMissing is false");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("files after the refused opens: no RocksDB file")
          .allMatch(name -> name.startsWith("ankusa-store."));
    }
  }

  /** What a log line or a debugger shows of a store: the engine, its directory and its families. */
  @Test
  void toStringNamesTheEngineDirectoryAndFamilies() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      assertThat(s.toString()).isEqualTo("RocksDbStore[" + dir + ", [rows, counts]]");
    }
  }

  @Test
  void unknownRocksDbOptionsAreRefusedNamingTheKnownOnes() {
    assertThatThrownBy(
            () ->
                provider.open(
                    dir, StoreOptions.defaults().with("rocksdb.maxBackgroundJob", "2"), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("rocksdb.maxBackgroundJob")
        .hasMessageContaining("rocksdb.maxBackgroundJobs")
        .hasMessageContaining("rocksdb.bytesPerSync")
        .hasMessageContaining("rocksdb.maxSuccessiveMerges");
    assertThatThrownBy(
            () ->
                provider.open(
                    dir, StoreOptions.defaults().with("rocksdb.maxBackgroundJobs", "0"), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("out of range");
    assertThatThrownBy(
            () ->
                provider.open(
                    dir, StoreOptions.defaults().with("rocksdb.bytesPerSync", "lots"), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("not a whole number");
    StoreOptions tuned =
        StoreOptions.defaults()
            .with("rocksdb.maxBackgroundJobs", "4")
            .with("rocksdb.bytesPerSync", "0")
            .with("rocksdb.maxSuccessiveMerges", "0")
            .with("rocksdb.blockSizeBytes", "16384")
            .with("lmdb.mapSizeMaxBytes", "not ours, ignored");
    try (Store s = provider.open(dir, tuned, FAMILIES)) {
      s.write(new Batch().merge("counts", new byte[] {1}, 2), Durability.SYNC);
      assertThat(s.counter("counts", new byte[] {1})).isEqualTo(2);
    }
  }

  /**
   * A counter merged thousands of times between flushes keeps a short operand chain, so a read of
   * it (the gauge tick's aggregate) merges a few operands, not thousands — also when the key's base
   * value sits in an SST block that is not cached, where RocksDB's lenient fold gives up for good.
   * Counted with RocksDB's perf context (operands the merge operator saw in one point read), never
   * timed.
   */
  @Test
  void aHotCounterReadMergesAFewOperandsEvenWhenItsBaseIsNotCached() throws Exception {
    byte[] key = {7};
    int merges = 2_000;
    long folded = operandsAfterMerges(StoreOptions.defaults(), key, merges);
    assertThat(folded).isBetween(1L, RocksDbSettings.DEFAULTS.maxSuccessiveMerges() + 1);
    long unfolded =
        operandsAfterMerges(
            StoreOptions.defaults().with("rocksdb.maxSuccessiveMerges", "0"), key, merges);
    assertThat(unfolded).isGreaterThanOrEqualTo(merges);
  }

  /**
   * A batch too long to encode in one array ({@link RocksDbStore#maxEncodedBytes}, lowered here to
   * 0) is filled into a native batch op by op, with the same outcome as the encoded path: the same
   * batches, written once each way into two stores, leave the same keys, values and counters — a
   * delete after a put of the same key, a merge after a put, a range delete of earlier puts, an
   * empty range delete.
   */
  @Test
  void aBatchTooLongToEncodeIsFilledOpByOpWithTheSameOutcome(@TempDir Path other) {
    List<Batch> batches =
        List.of(
            new Batch()
                .put("rows", new byte[] {1}, new byte[] {1})
                .put("rows", new byte[] {2}, new byte[] {2})
                .merge("counts", new byte[] {1}, 5),
            new Batch()
                .delete("rows", new byte[] {1})
                .put("rows", new byte[] {3}, new byte[] {3})
                .put("counts", new byte[] {2}, Int64Add.encode(40))
                .merge("counts", new byte[] {2}, 2),
            new Batch()
                .deleteRange("rows", new byte[] {3}, new byte[] {4})
                .deleteRange("rows", new byte[] {9}, new byte[] {9})
                .put("rows", new byte[] {5}, new byte[] {5})
                .merge("counts", new byte[] {1}, -1));
    long kept = RocksDbStore.maxEncodedBytes;
    try (Store encoded = provider.open(dir, StoreOptions.defaults(), FAMILIES);
        Store filled = provider.open(other, StoreOptions.defaults(), FAMILIES)) {
      for (Batch b : batches) {
        encoded.write(b, Durability.SYNC);
        RocksDbStore.maxEncodedBytes = 0;
        try {
          filled.write(b, Durability.SYNC);
        } finally {
          RocksDbStore.maxEncodedBytes = kept;
        }
      }
      for (Store s : List.of(encoded, filled)) {
        assertThat(keysAndValues(s, "rows")).as("rows").containsExactly("02=02", "05=05");
        assertThat(s.counter("counts", new byte[] {1})).isEqualTo(4);
        assertThat(s.counter("counts", new byte[] {2})).isEqualTo(42);
      }
    } finally {
      RocksDbStore.maxEncodedBytes = kept;
    }
  }

  private static List<String> keysAndValues(Store s, String family) {
    List<String> out = new ArrayList<>();
    try (Scan scan = s.scan(family, new byte[0], null, Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        out.add(Bytes.hex(e.key()) + "=" + Bytes.hex(e.value()));
      }
    }
    return out;
  }

  /**
   * A counter read skips, through Bloom filters, the memtable that lacks its key and the SST file
   * whose key range covers it without holding it ({@code rocksdb.countersBloomBitsPerKey}); with
   * the setting at 0 nothing is skipped. Counted with RocksDB's perf context, never timed.
   */
  @Test
  void aCounterReadSkipsTheMemtableAndFilesThatDoNotHoldItsKey() throws Exception {
    assertFiltersSkipOnlyWhenOn(
        this::bloomMissesOfTwoCounterReads,
        StoreOptions.defaults(),
        RocksDbSettings.COUNTERS_BLOOM_BITS_PER_KEY,
        "65");
  }

  /**
   * The same for a plain family ({@code rocksdb.bloomBitsPerKey}): a point read of a key that is
   * not there — the writer's look-up of a new idempotency key — skips the memtable and the SST file
   * whose key range covers it; with the setting at 0 nothing is skipped, and the counters' setting
   * does not turn the plain family's filters off.
   */
  @Test
  void aPointReadOfAnAbsentKeySkipsTheMemtableAndFilesThatDoNotHoldIt() throws Exception {
    assertFiltersSkipOnlyWhenOn(
        this::bloomMissesOfTwoPlainReads,
        StoreOptions.defaults().with(RocksDbSettings.COUNTERS_BLOOM_BITS_PER_KEY, "0"),
        RocksDbSettings.BLOOM_BITS_PER_KEY,
        "-1");
  }

  /**
   * Filter misses of two reads in a fresh store opened with the given options (the two helpers
   * below).
   */
  @FunctionalInterface
  private interface BloomMisses {
    long[] of(StoreOptions options) throws Exception;
  }

  /**
   * With {@code on}, reading one key of a flushed file and one absent key skips at least two
   * memtables and one SST file through the filters; with {@code setting} at 0 nothing is skipped;
   * {@code outOfRange} for {@code setting} is refused at open, naming it and the range.
   */
  private void assertFiltersSkipOnlyWhenOn(
      BloomMisses misses, StoreOptions on, String setting, String outOfRange) throws Exception {
    long[] filtered = misses.of(on);
    assertThat(filtered[0]).as("memtable misses, filters on").isGreaterThanOrEqualTo(2);
    assertThat(filtered[1]).as("SST file misses, filters on").isGreaterThanOrEqualTo(1);
    assertThat(misses.of(on.with(setting, "0")))
        .as("misses with the filters off")
        .containsExactly(0, 0);
    assertThatThrownBy(
            () -> provider.open(dir, StoreOptions.defaults().with(setting, outOfRange), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining(setting + "=" + outOfRange + " is out of range; use 0..64");
  }

  /** {@link #bloomMissesOfTwoReads} of the plain family: keys 1 and 9 put, then key 5. */
  private long[] bloomMissesOfTwoPlainReads(StoreOptions options) throws Exception {
    return bloomMissesOfTwoReads(
        options,
        "rows",
        new Batch()
            .put("rows", new byte[] {1}, new byte[] {11})
            .put("rows", new byte[] {9}, new byte[] {19}),
        new Batch().put("rows", new byte[] {5}, new byte[] {15}),
        s -> {
          assertThat(s.get("rows", new byte[] {1})).containsExactly(11);
          assertThat(s.get("rows", new byte[] {4})).isNull();
        });
  }

  /**
   * {@link #bloomMissesOfTwoReads} of the counters family: counters 1 and 9 merged, then counter 5.
   */
  private long[] bloomMissesOfTwoCounterReads(StoreOptions options) throws Exception {
    return bloomMissesOfTwoReads(
        options,
        "counts",
        new Batch().merge("counts", new byte[] {1}, 1).merge("counts", new byte[] {9}, 9),
        new Batch().merge("counts", new byte[] {5}, 5),
        s -> {
          assertThat(s.counter("counts", new byte[] {1})).isEqualTo(1);
          assertThat(s.counter("counts", new byte[] {5})).isEqualTo(5);
        });
  }

  /**
   * In a fresh directory: {@code flushed} (keys 1 and 9 of {@code family}) flushed into one SST
   * file by the next open's recovery, then {@code inMemtable} (key 5) written into the memtable;
   * returns the memtable and SST Bloom filter misses of reading key 1 (in the file, not in the
   * memtable) and key 4 (in neither, inside the file's key range), after {@code readBack} has
   * checked what the store answers.
   */
  private long[] bloomMissesOfTwoReads(
      StoreOptions options,
      String family,
      Batch flushed,
      Batch inMemtable,
      java.util.function.Consumer<Store> readBack)
      throws Exception {
    Path store = java.nio.file.Files.createTempDirectory(dir, "bloom");
    try (Store s = provider.open(store, options, FAMILIES)) {
      s.write(flushed, Durability.SYNC);
    }
    try (Store s = provider.open(store, options, FAMILIES)) {
      s.write(inMemtable, Durability.NO_SYNC);
      RocksDbStore rs = (RocksDbStore) s;
      RocksDbEngine e = rs.enter();
      long[] misses;
      try {
        e.db.setPerfLevel(org.rocksdb.PerfLevel.ENABLE_COUNT);
        e.db.getPerfContext().reset();
        assertThat(e.db.get(e.handle(family), new byte[] {1})).isNotNull();
        assertThat(e.db.get(e.handle(family), new byte[] {4})).isNull();
        misses =
            new long[] {
              e.db.getPerfContext().getBloomMemtableMissCount(),
              e.db.getPerfContext().getBloomSstMissCount()
            };
        e.db.setPerfLevel(org.rocksdb.PerfLevel.DISABLE);
      } finally {
        rs.exit();
      }
      readBack.accept(s);
      return misses;
    }
  }

  /**
   * In a fresh directory: one merge made durable and flushed into an SST file by the next open's
   * recovery (its block not cached), then {@code merges} one-merge batches; returns how many
   * operands one read of the key merged.
   */
  private long operandsAfterMerges(StoreOptions options, byte[] key, int merges) throws Exception {
    Path store = java.nio.file.Files.createTempDirectory(dir, "fold");
    try (Store s = provider.open(store, options, FAMILIES)) {
      s.write(new Batch().merge("counts", key, 1), Durability.SYNC);
    }
    try (Store s = provider.open(store, options, FAMILIES)) {
      for (int i = 0; i < merges; i++) {
        s.write(new Batch().merge("counts", key, 1), Durability.NO_SYNC);
      }
      RocksDbStore rs = (RocksDbStore) s;
      RocksDbEngine e = rs.enter();
      long operands;
      try {
        e.db.setPerfLevel(org.rocksdb.PerfLevel.ENABLE_COUNT);
        e.db.getPerfContext().reset();
        e.db.get(e.handle("counts"), key);
        operands = e.db.getPerfContext().getInternalMergePointLookupCount();
        e.db.setPerfLevel(org.rocksdb.PerfLevel.DISABLE);
      } finally {
        rs.exit();
      }
      assertThat(s.counter("counts", key)).isEqualTo(merges + 1);
      return operands;
    }
  }

  @Test
  void aSecondOpenOfTheSameDirectoryIsRefusedClearly() {
    try (Store first = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      assertThatThrownBy(() -> provider.open(dir, StoreOptions.defaults(), FAMILIES))
          .isInstanceOf(StoreException.class)
          .isNotInstanceOf(StoreFormatException.class)
          .hasMessageContaining("already open in this JVM")
          .hasMessageContaining(dir.toString());
      first.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
    }
    provider.open(dir, StoreOptions.defaults(), FAMILIES).close();
  }

  @Test
  void everyCallAfterCloseThrowsAndCloseIsIdempotent() {
    Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES);
    s.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
    Scan scan = s.scan("rows", new byte[0], null, Direction.FORWARD);
    Snapshot snap = s.snapshot();
    Scan snapScan = snap.scan("rows", new byte[0], null, Direction.FORWARD);
    s.close();
    s.close();
    List<Consumer<Store>> calls =
        List.of(
            st -> st.get("rows", new byte[] {1}),
            st -> st.multiGet("rows", List.of(new byte[] {1})),
            st -> st.scan("rows", new byte[0], null, Direction.FORWARD),
            st -> st.counter("counts", new byte[] {1}),
            st ->
                st.write(new Batch().put("rows", new byte[] {2}, new byte[] {2}), Durability.SYNC),
            st ->
                st.write(new Batch().put("nope", new byte[] {2}, new byte[] {2}), Durability.SYNC),
            Store::syncWal,
            Store::snapshot,
            st -> st.reportWriteFailure(new RuntimeException("x")));
    for (Consumer<Store> call : calls) {
      assertThatThrownBy(() -> call.accept(s))
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("closed");
    }
    assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(() -> snap.get("rows", new byte[] {1}))
        .isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(() -> snap.scan("rows", new byte[0], null, Direction.FORWARD))
        .isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(snapScan::hasNext).isInstanceOf(StoreClosedException.class);
    scan.close();
    snapScan.close();
    snap.close();
    assertThat(s.families()).isEqualTo(FAMILIES);
    assertThat(s.directory()).isEqualTo(dir.toAbsolutePath().normalize());
  }

  @Test
  void closingASnapshotClosesItsScansAndItsReads() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      s.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.NO_SYNC);
      Snapshot snap = s.snapshot();
      Scan scan = snap.scan("rows", new byte[0], null, Direction.FORWARD);
      snap.close();
      snap.close();
      assertThatThrownBy(scan::hasNext)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("snapshot");
      assertThatThrownBy(() -> snap.multiGet("rows", List.of(new byte[] {1})))
          .isInstanceOf(StoreClosedException.class);
      assertThat(s.get("rows", new byte[] {1})).containsExactly(1);
    }
  }

  @Test
  void scansAndSnapshotsSeeOneStateWhileWritesGoOn() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      Batch b = new Batch();
      for (int i = 0; i < 100; i++) {
        b.put("rows", new byte[] {(byte) i}, new byte[] {(byte) i});
      }
      s.write(b, Durability.NO_SYNC);
      try (Snapshot snap = s.snapshot();
          Scan live = s.scan("rows", new byte[0], null, Direction.FORWARD);
          Scan reverse = s.scan("rows", new byte[] {10}, new byte[] {90}, Direction.REVERSE)) {
        s.write(
            new Batch()
                .deleteRange("rows", new byte[] {0}, new byte[] {50})
                .put("rows", new byte[] {(byte) 200}, new byte[] {1}),
            Durability.NO_SYNC);
        assertThat(drain(live)).hasSize(100);
        List<Entry> rev = drain(reverse);
        assertThat(rev).hasSize(80);
        assertThat(rev.get(0).key()).containsExactly(89);
        assertThat(rev.get(79).key()).containsExactly(10);
        assertThat(snap.get("rows", new byte[] {3})).containsExactly(3);
        assertThat(snap.get("rows", new byte[] {(byte) 200})).isNull();
        assertThat(
                snap.multiGet(
                    "rows", List.of(new byte[] {3}, new byte[] {(byte) 200}, new byte[] {3})))
            .satisfiesExactly(
                v -> assertThat(v).containsExactly(3),
                v -> assertThat(v).isNull(),
                v -> assertThat(v).containsExactly(3));
        try (Scan snapScan = snap.scan("rows", new byte[0], null, Direction.REVERSE)) {
          assertThat(drain(snapScan)).hasSize(100);
        }
      }
      assertThat(s.get("rows", new byte[] {3})).isNull();
      assertThat(s.multiGet("rows", List.of(new byte[] {3}, new byte[] {60})))
          .satisfiesExactly(v -> assertThat(v).isNull(), v -> assertThat(v).containsExactly(60));
    }
  }

  @Test
  void returnedArraysAreTheCallersAndBatchArraysAreNotKept() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      byte[] key = {5};
      byte[] value = {1, 2, 3};
      s.write(new Batch().put("rows", key, value), Durability.NO_SYNC);
      value[0] = 9;
      key[0] = 6;
      byte[] read = s.get("rows", new byte[] {5});
      assertThat(read).containsExactly(1, 2, 3);
      read[1] = 7;
      assertThat(s.get("rows", new byte[] {5})).containsExactly(1, 2, 3);
    }
  }

  private static List<Entry> drain(Scan scan) {
    List<Entry> out = new ArrayList<>();
    while (scan.hasNext()) {
      out.add(scan.next());
    }
    assertThat(scan.hasNext()).isFalse();
    assertThatThrownBy(scan::next).isInstanceOf(java.util.NoSuchElementException.class);
    return out;
  }
}
