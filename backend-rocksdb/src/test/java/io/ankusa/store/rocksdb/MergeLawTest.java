package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The merge law on the RocksDB backend itself, across the places an operand can live: the memtable
 * (folded early by {@code max_successive_merges}), flushed SST files, a compaction's output and a
 * reopened store. Deltas are signed and wrap around (properties {@code
 * mergeIsSigned64BitAdditionWithWrapAround}, {@code mergeBytesIdenticalOnEveryBackend}, {@code
 * concurrentMergesLoseNoOperand}).
 *
 * <p>The engine layer's {@code modelBasedRandomBatches} now checks the merge law (and range
 * deletes) across flushes, compactions and reopens on every engine, with operands folded and not
 * folded ({@code RocksDbFixture}'s option sets). What stays here is what its short sequences over
 * twenty keys do not reach: chains of up to 200 operands on one key split across a flush, a
 * compaction and the memtable, and concurrent merges far past the folding threshold.
 */
class MergeLawTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.counters("counts", 0), FamilySpec.plain("rows"));
  private static final byte[] KEY = {0, 0, 0, 1, 3};
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();

  @Provide
  Arbitrary<List<Long>> deltas() {
    return Arbitraries.oneOf(
            Arbitraries.longs(),
            Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 1L, 0L),
            Arbitraries.longs().between(-5, 5))
        .list()
        .ofMinSize(1)
        .ofMaxSize(200);
  }

  /**
   * Operands split into three stages — merged then flushed, merged then compacted, merged and left
   * in the memtable — sum with wrap-around, read back as 8 little-endian bytes, before and after
   * reopen.
   */
  @Property
  void sumSurvivesFlushCompactionAndReopen(
      @ForAll("deltas") List<Long> deltas,
      @ForAll @IntRange(min = 0, max = 200) int cut1,
      @ForAll @IntRange(min = 0, max = 200) int cut2)
      throws Exception {
    Path dir = Files.createTempDirectory("merge-law-");
    try {
      int a = Math.min(cut1, deltas.size());
      int b = Math.max(a, Math.min(cut2, deltas.size()));
      long expected = 0;
      for (long d : deltas) {
        expected += d; // two's-complement wrap-around, the law of Int64Add
      }
      mergeAll(dir, deltas.subList(0, a));
      try (RawRocksDb raw = new RawRocksDb(dir, FAMILIES)) {
        raw.flush("counts");
      }
      mergeAll(dir, deltas.subList(a, b));
      try (RawRocksDb raw = new RawRocksDb(dir, FAMILIES)) {
        raw.compact("counts");
      }
      try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
        for (long d : deltas.subList(b, deltas.size())) {
          s.write(new Batch().merge("counts", KEY, d), Durability.NO_SYNC);
        }
        assertThat(s.counter("counts", KEY)).as("sum of %s", deltas).isEqualTo(expected);
        assertThat(s.get("counts", KEY)).as("stored bytes").isEqualTo(Int64Add.encode(expected));
        s.syncWal();
      }
      try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
        assertThat(s.counter("counts", KEY)).as("after reopen").isEqualTo(expected);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  private void mergeAll(Path dir, List<Long> deltas) {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      for (long d : deltas) {
        s.write(new Batch().merge("counts", KEY, d), Durability.NO_SYNC);
      }
      s.syncWal();
    }
  }

  /** Negative deltas and wrap-around at both ends, spelled out. */
  @Example
  void negativeDeltasAndWrapAround() throws Exception {
    Path dir = Files.createTempDirectory("merge-law-");
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      byte[] k = {1};
      s.write(new Batch().merge("counts", k, -5), Durability.SYNC);
      assertThat(s.counter("counts", k)).isEqualTo(-5);
      assertThat(s.get("counts", k))
          .containsExactly(0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
      s.write(
          new Batch().put("counts", k, Int64Add.encode(Long.MAX_VALUE)).merge("counts", k, 1),
          Durability.SYNC);
      assertThat(s.counter("counts", k)).as("MAX + 1 wraps to MIN").isEqualTo(Long.MIN_VALUE);
      s.write(new Batch().merge("counts", k, -1), Durability.SYNC);
      assertThat(s.counter("counts", k)).as("MIN - 1 wraps to MAX").isEqualTo(Long.MAX_VALUE);
      s.write(new Batch().delete("counts", k).merge("counts", k, 3), Durability.SYNC);
      assertThat(s.counter("counts", k))
          .as("a merge after a delete in one batch starts from 0")
          .isEqualTo(3);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  /**
   * Many threads merging into a few keys, far past {@code max_successive_merges} (64), with flushes
   * in between: no operand is lost when RocksDB folds operands in the memtable.
   */
  @Example
  void concurrentMergesPastMaxSuccessiveMergesLoseNothing() throws Exception {
    Path dir = Files.createTempDirectory("merge-law-");
    int threads = 4;
    int perThread = 5_000;
    try (Store s =
        provider.open(
            dir,
            StoreOptions.defaults().with(RocksDbSettings.MAX_SUCCESSIVE_MERGES, "64"),
            FAMILIES)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int id = t;
          futures.add(
              pool.submit(
                  () -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                      Batch b =
                          new Batch()
                              .merge("counts", new byte[] {0}, 1)
                              .merge("counts", new byte[] {(byte) (i % 3 + 1)}, id + 1);
                      if (i % 10 == 0) {
                        b.merge("counts", new byte[] {0}, -1).merge("counts", new byte[] {0}, 1);
                      }
                      s.write(b, Durability.NO_SYNC);
                    }
                    return null;
                  }));
        }
        go.countDown();
        for (Future<?> f : futures) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(s.counter("counts", new byte[] {0})).isEqualTo((long) threads * perThread);
      long sumOfIds = 0;
      for (int t = 0; t < threads; t++) {
        sumOfIds += t + 1;
      }
      long total = 0;
      for (int k = 1; k <= 3; k++) {
        total += s.counter("counts", new byte[] {(byte) k});
      }
      assertThat(total).isEqualTo(sumOfIds * perThread);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }
}
