package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check of {@code data.mdb} at open ({@link DataFileCheck}): every file LMDB writes is accepted
 * — a cleanly closed store whose batches freed what they wrote (shorter than its meta page's last
 * page number), random workloads with large values, overwrites, range deletes, reopens and a
 * growing map, and every cut that leaves each reachable page whole — and what LMDB never writes is
 * refused naming the page and the tree: the damage that crashed LMDB (a leaf node flagged as
 * duplicate data, a child pointer to a meta page), zeroed runs, bad headers, overflow pages, free
 * list records, meta pages.
 */
class DataFileCheckTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("r"), FamilySpec.counters("c", 0), FamilySpec.plain("default"));
  private static final StoreOptions REOPEN = StoreOptions.defaults().createIfMissing(false);

  @TempDir Path root;

  /** The store; damaged and cut copies go beside it, under {@link #root}. */
  private Path dir;

  @BeforeEach
  void storeDirectory() {
    dir = root.resolve("store");
  }

  private static byte[] hex(String hex) {
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  private static byte[] random(int size, long seed) {
    byte[] v = new byte[size];
    new Random(seed).nextBytes(v);
    return v;
  }

  private Store open(StoreOptions options) {
    return new LmdbStoreProvider().open(dir, options, FAMILIES);
  }

  /**
   * How many bytes the meta page LMDB uses counts: what the old size check wanted the file to hold.
   */
  private long counted() {
    MetaPages.Meta meta = LmdbPages.meta(dir);
    return (meta.lastPage() + 1) * meta.pageSize();
  }

  // ---------------------------------------------------------------- files LMDB writes are accepted

  @Test
  void aCleanlyClosedStoreWhoseBatchFreedWhatItWroteOpensWhole() {
    for (Durability durability : Durability.values()) {
      Path store = root.resolve(durability.name());
      try (Store s = new LmdbStoreProvider().open(store, StoreOptions.defaults(), FAMILIES)) {
        s.write(new Batch().put("r", hex("007ffe"), new byte[0]), durability);
        s.write(new Batch().put("c", hex("0180ff"), hex("0000000000000080")), durability);
        s.write(
            new Batch()
                .put("r", hex("fe61617f"), random(209, 1))
                .merge("c", hex("fe61617f"), -1)
                .put("default", hex("fe61617f"), random(40_001, 2))
                .delete("default", hex("fe61617f")),
            durability);
      }
      MetaPages.Meta meta = LmdbPages.meta(store);
      assertThat(size(store))
          .as(
              "%s: the file is shorter than its meta page counts (the overflow pages of the"
                  + " value freed by its own batch were never written)",
              durability)
          .isLessThan((meta.lastPage() + 1) * meta.pageSize());
      try (Store s = new LmdbStoreProvider().open(store, REOPEN, FAMILIES)) {
        assertThat(s.get("r", hex("007ffe"))).isEmpty();
        assertThat(s.get("r", hex("fe61617f"))).isEqualTo(random(209, 1));
        assertThat(s.counter("c", hex("0180ff"))).isEqualTo(Long.MIN_VALUE);
        assertThat(s.counter("c", hex("fe61617f"))).isEqualTo(-1);
        assertThat(s.get("default", hex("fe61617f"))).isNull();
      }
    }
  }

  /**
   * Seeded random batches — values of 0 B to 70 KiB, overwrites, deletes and range deletes, a
   * quarter of them freeing a large value they wrote themselves, SYNC and NO_SYNC — on a store
   * whose map starts at the smallest size and grows, closed and reopened every few batches: every
   * reopen is accepted, every key reads back, and every page up to the last one counted is either
   * reached by a tree or listed free, exactly once (LMDB's own invariant, so the check's idea of
   * what is reachable is LMDB's).
   */
  @Test
  void randomWorkloadsReopenEveryTimeAndAccountForEveryPage() {
    Random random = new Random(20261207);
    StoreOptions small =
        StoreOptions.defaults()
            .with(LmdbSettings.MAP_SIZE, Long.toString(LmdbSettings.MIN_MAP_SIZE));
    TreeMap<String, byte[]> model = new TreeMap<>();
    int shorterThanCounted = 0;
    Store store = open(small);
    try {
      for (int batch = 0; batch < 240; batch++) {
        Batch b = new Batch();
        int ops = 1 + random.nextInt(12);
        for (int op = 0; op < ops; op++) {
          String key = "k" + random.nextInt(60);
          int kind = random.nextInt(10);
          if (kind < 6) {
            int size =
                switch (random.nextInt(4)) {
                  case 0 -> random.nextInt(64);
                  case 1 -> 100 + random.nextInt(3_000);
                  default -> 3_000 + random.nextInt(70_000);
                };
            byte[] v = random(size, random.nextLong());
            b.put("default", key.getBytes(), v);
            model.put(key, v);
          } else if (kind < 9) {
            b.delete("default", key.getBytes());
            model.remove(key);
          } else {
            String hi = "k" + random.nextInt(60);
            String lo = key.compareTo(hi) <= 0 ? key : hi;
            String top = key.compareTo(hi) <= 0 ? hi : key;
            b.deleteRange("default", lo.getBytes(), top.getBytes());
            model.subMap(lo, true, top, false).clear();
          }
        }
        if (random.nextInt(4) == 0) { // a large value the batch frees itself
          byte[] transientKey = ("t" + batch).getBytes();
          b.put("default", transientKey, random(5_000 + random.nextInt(60_000), batch));
          if (random.nextBoolean()) {
            b.delete("default", transientKey);
          } else {
            b.deleteRange("default", "t".getBytes(), "u".getBytes());
          }
          model.subMap("t", true, "u", false).clear();
        }
        store.write(b, random.nextBoolean() ? Durability.SYNC : Durability.NO_SYNC);
        if (random.nextInt(6) == 0) {
          store.close();
          PageWalk.Reached reached = DataFileCheck.check(LmdbPages.dataFile(dir));
          MetaPages.Meta meta = LmdbPages.meta(dir);
          assertThat(reached.pagesReached() + reached.freePages() + 2)
              .as(
                  "after batch %d: pages reached, free and"
                      + " meta, against the last page counted",
                  batch)
              .isEqualTo(meta.lastPage() + 1);
          shorterThanCounted += size(dir) < counted() ? 1 : 0;
          store = open(StoreOptions.defaults().createIfMissing(false));
          for (Map.Entry<String, byte[]> e : model.entrySet()) {
            assertThat(store.get("default", e.getKey().getBytes()))
                .as("key %s after batch %d", e.getKey(), batch)
                .isEqualTo(e.getValue());
          }
          try (Scan scan = store.scan("default", new byte[0], null, Direction.FORWARD)) {
            int n = 0;
            while (scan.hasNext()) {
              scan.next();
              n++;
            }
            assertThat(n).isEqualTo(model.size());
          }
        }
      }
    } finally {
      store.close();
    }
    assertThat(shorterThanCounted)
        .as(
            "reopens of a file shorter than its meta page counts (the case the old"
                + " size check refused)")
        .isPositive();
  }

  /**
   * A batch that frees more pages than one free list record fits in a page (LMDB then stores the
   * record on overflow pages), and stores many records (a free list with branch pages): accepted,
   * and every page still accounted for.
   */
  @Test
  void aFreeListOnOverflowPagesAndBranchPagesIsReadWhole() {
    try (Store s = open(StoreOptions.defaults())) {
      for (int from = 0; from < 20_000; from += 5_000) {
        Batch b = new Batch();
        for (int i = from; i < from + 5_000; i++) {
          b.put("r", ByteBuffer.allocate(4).putInt(i).array(), random(100, i));
        }
        s.write(b, Durability.NO_SYNC);
      }
      try (Snapshot pinned =
          s.snapshot()) { // no page freed from here on is reused: records pile up
        s.write(new Batch().deleteRange("r", new byte[] {0}, new byte[] {1}), Durability.NO_SYNC);
        for (int i = 0; i < 300; i++) { // a record per transaction
          s.write(
              new Batch().put("r", ByteBuffer.allocate(4).putInt(i).array(), random(100, i)),
              Durability.NO_SYNC);
        }
        assertThat(pinned.get("r", ByteBuffer.allocate(4).putInt(19_999).array()))
            .isEqualTo(random(100, 19_999));
      }
      s.syncWal();
    }
    PageWalk.Reached reached = DataFileCheck.check(LmdbPages.dataFile(dir));
    MetaPages.Meta meta = LmdbPages.meta(dir);
    assertThat(meta.freeList().overflowPages()).as("overflow pages of the free list").isPositive();
    assertThat(meta.freeList().depth()).as("depth of the free list").isGreaterThan(1);
    assertThat(reached.pagesReached() + reached.freePages() + 2).isEqualTo(meta.lastPage() + 1);
    try (Store s = open(REOPEN)) {
      assertThat(s.get("r", ByteBuffer.allocate(4).putInt(299).array()))
          .isEqualTo(random(100, 299));
      assertThat(s.get("r", ByteBuffer.allocate(4).putInt(300).array())).isNull();
    }
  }

  /**
   * Cut at every page boundary from the third page on: refused exactly when a page a tree reaches
   * no longer lies wholly in the file; a file that still holds every reachable page opens and reads
   * every entry right (what it lost were free pages, which LMDB writes afresh before it reads them;
   * a wrongly accepted cut would end this JVM with SIGBUS here).
   */
  @Test
  void aCutIsRefusedExactlyWhenItTakesAReachablePage() throws IOException {
    try (Store s = open(StoreOptions.defaults())) {
      Batch b = new Batch();
      for (int i = 0; i < 300; i++) {
        b.put("r", ("key-" + i).getBytes(), random(60, i));
      }
      s.write(b.put("default", hex("01"), random(9_000, 1)), Durability.SYNC);
      s.write(new Batch().put("default", hex("02"), random(40_000, 2)), Durability.SYNC);
      s.write(new Batch().delete("default", hex("02")).merge("c", hex("01"), 3), Durability.SYNC);
      for (int i = 0; i < 4; i++) { // reuse freed pages, so the file's last pages end up free
        s.write(new Batch().merge("c", hex("01"), 1), Durability.SYNC);
      }
    }
    long size = size(dir);
    int pageSize = LmdbPages.pageSize(dir);
    long highest = DataFileCheck.check(LmdbPages.dataFile(dir)).highestPage();
    Path copy = dir.resolveSibling(dir.getFileName() + "-cut");
    long refused = 0;
    long accepted = 0;
    for (long cut = 2L * pageSize; cut < size; cut += pageSize) {
      Files.createDirectories(copy);
      Files.copy(
          LmdbPages.dataFile(dir), LmdbPages.dataFile(copy), StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel ch = FileChannel.open(LmdbPages.dataFile(copy), StandardOpenOption.WRITE)) {
        ch.truncate(cut);
      }
      boolean holdsEveryReachablePage = highest < cut / pageSize;
      try (Store s = new LmdbStoreProvider().open(copy, REOPEN, FAMILIES)) {
        assertThat(holdsEveryReachablePage)
            .as("a cut at %d of %d bytes was accepted", cut, size)
            .isTrue();
        try (Scan scan = s.scan("r", new byte[0], null, Direction.FORWARD)) {
          int n = 0;
          while (scan.hasNext()) {
            scan.next();
            n++;
          }
          assertThat(n).isEqualTo(300);
        }
        assertThat(s.get("r", "key-7".getBytes())).isEqualTo(random(60, 7));
        assertThat(s.get("default", hex("01"))).isEqualTo(random(9_000, 1));
        assertThat(s.get("default", hex("02"))).isNull();
        assertThat(s.counter("c", hex("01"))).isEqualTo(7);
        accepted++;
      } catch (StoreCorruptionException e) {
        assertThat(holdsEveryReachablePage)
            .as("a cut at %d of %d bytes was refused: %s", cut, size, e.getMessage())
            .isFalse();
        assertThat(e.getMessage())
            .contains("it is " + cut + " bytes long")
            .contains("past its end");
        refused++;
      }
      FileTrees.deleteRecursively(copy);
    }
    assertThat(refused).as("cuts refused").isPositive();
    assertThat(accepted).as("cuts accepted: they took only free pages").isPositive();
    assertThat(accepted + refused).isEqualTo(size / pageSize - 2);
  }

  // ---------------------------------------------------------------- what LMDB never writes is
  // refused

  /**
   * A store of some depth: 2 000 rows, a value on overflow pages, overwrites that fill the free
   * list.
   */
  private void writeDeepStore() {
    try (Store s = open(StoreOptions.defaults())) {
      Batch b = new Batch();
      for (int i = 0; i < 2000; i++) {
        b.put(
            "r", ByteBuffer.allocate(8).putInt(0x6b65793a).putInt(i * 7919).array(), random(48, i));
      }
      s.write(b.put("default", hex("0b"), random(10_000, 3)), Durability.SYNC);
      s.write(
          new Batch()
              .put(
                  "r",
                  ByteBuffer.allocate(8).putInt(0x6b65793a).putInt(7919).array(),
                  random(48, -1))
              .merge("c", hex("01"), 5),
          Durability.SYNC);
    }
  }

  /**
   * Damages a copy of the store with {@code damage} and expects the open to refuse it saying {@code
   * says}.
   */
  private void refused(String what, Consumer<Path> damage, String... says) {
    Path copy = dir.resolveSibling(dir.getFileName() + "-" + what.replaceAll("[^a-z0-9]+", "-"));
    try {
      Files.createDirectories(copy);
      try (Stream<Path> files =
          Files.list(dir)) { // the data file and the store marker, not the locks
        for (Path f : files.filter(f -> !f.getFileName().toString().contains("lock")).toList()) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
      damage.accept(copy);
      assertThatThrownBy(() -> new LmdbStoreProvider().open(copy, REOPEN, FAMILIES))
          .as(what)
          .isInstanceOf(StoreCorruptionException.class)
          .hasMessageContaining(LmdbPages.dataFile(copy).toString())
          .hasMessageContaining("restore the store from a backup")
          .satisfies(e -> assertThat(e.getMessage()).as(what).contains(says));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      FileTrees.deleteRecursively(copy);
    }
  }

  /** Changes the page {@code pgno} of the store in {@code store} with {@code change}. */
  private static void change(Path store, long pgno, Consumer<ByteBuffer> change) {
    ByteBuffer page = LmdbPages.read(store, pgno);
    change.accept(page);
    LmdbPages.write(store, pgno, page);
  }

  @Test
  void theDamageThatCrashedLmdbIsRefused() {
    writeDeepStore();
    long leaf = LmdbPages.firstLeaf(dir, "r");
    refused(
        "a leaf node flagged as duplicate data (SIGSEGV in mdb_xcursor_init1)",
        d -> change(d, leaf, p -> p.putShort(LmdbPages.node(p, 3) + 4, (short) 0x04)),
        "page " + leaf + ", a leaf page of family 'r'",
        "node 3 carries node flags 0x4");
    long root = LmdbPages.root(dir, "r");
    refused(
        "a child pointer to a meta page (the assertion IS_LEAF in mdb_cursor_next)",
        d ->
            change(
                d,
                root,
                p -> {
                  int at = LmdbPages.node(p, 1);
                  p.putShort(at, (short) 1).putShort(at + 2, (short) 0).putShort(at + 4, (short) 0);
                }),
        "page 1, a leaf page of family 'r'",
        "meta pages");
    refused(
        "a child pointer to a page another node reaches",
        d ->
            change(
                d,
                root,
                p -> {
                  long first = LmdbPages.child(p, 0);
                  int at = LmdbPages.node(p, 1);
                  p.putShort(at, (short) first)
                      .putShort(at + 2, (short) (first >>> 16))
                      .putShort(at + 4, (short) 0);
                }),
        "reached a second time");
  }

  @Test
  void zeroedRunsAndBadHeadersAreRefused() {
    writeDeepStore();
    long leaf = LmdbPages.firstLeaf(dir, "r");
    long root = LmdbPages.root(dir, "r");
    for (long page : new long[] {leaf, root}) {
      int upper = LmdbPages.read(dir, page).getShort(14) & 0xffff;
      for (int from : new int[] {0, 16, upper, 4096 - 256}) {
        refused(
            "256 zeroed bytes from byte " + from + " of page " + page,
            d -> change(d, page, p -> p.put(from, new byte[256])),
            "family 'r'");
      }
    }
    refused(
        "a header naming another page",
        d -> change(d, leaf, p -> p.putLong(0, leaf + 1)),
        "its header names page");
    refused(
        "a leaf page flagged as a branch",
        d -> change(d, leaf, p -> p.putShort(10, (short) PageWalk.P_BRANCH)),
        "its flags are 0x1");
    refused(
        "a dirty flag left on a page",
        d -> change(d, leaf, p -> p.putShort(10, (short) (PageWalk.P_LEAF | 0x10))),
        "its flags are 0x12");
    refused(
        "free space past the page's end",
        d -> change(d, leaf, p -> p.putShort(14, (short) 4097)),
        "free space runs");
    refused(
        "a node offset in the free space",
        d ->
            change(
                d,
                leaf,
                p -> p.putShort(PageWalk.PAGE_HEADER + 2, (short) ((p.getShort(12) & 0xffff) + 2))),
        "node 1 starts at byte");
    refused(
        "a node's data size grown",
        d -> change(d, leaf, p -> p.putShort(LmdbPages.node(p, 5), (short) 49)),
        "nodes take");
    refused(
        "two keys swapped",
        d ->
            change(
                d,
                leaf,
                p -> {
                  short first = p.getShort(PageWalk.PAGE_HEADER);
                  p.putShort(PageWalk.PAGE_HEADER, p.getShort(PageWalk.PAGE_HEADER + 2))
                      .putShort(PageWalk.PAGE_HEADER + 2, first);
                }),
        "does not sort after");
  }

  @Test
  void damagedOverflowPagesFreeListsAndRecordsAreRefused() {
    writeDeepStore();
    long leaf = LmdbPages.firstLeaf(dir, "default");
    ByteBuffer page = LmdbPages.read(dir, leaf);
    int node = LmdbPages.node(page, 0);
    long overflow = page.getLong(node + 8 + (page.getShort(node + 6) & 0xffff));
    refused(
        "an overflow page too short for its value",
        d -> change(d, overflow, p -> p.putInt(12, 2)),
        "first overflow page",
        "at least the 3 pages");
    refused(
        "an overflow page flagged as a leaf",
        d -> change(d, overflow, p -> p.putShort(10, (short) PageWalk.P_LEAF)),
        "flags 0x2");
    refused(
        "a database record flagged MDB_DUPSORT",
        d -> {
          long main = LmdbPages.meta(d).main().root();
          change(
              d,
              main,
              p -> {
                for (int i = 0; i < LmdbPages.nodes(p); i++) {
                  int at = LmdbPages.node(p, i);
                  if (new String(p.array(), at + 8, p.getShort(at + 6) & 0xffff).equals("r")) {
                    p.putShort(at + 8 + 1 + 4, (short) 0x04);
                  }
                }
              });
        },
        "flags 0x4",
        "database 'r'");
    long freeRoot = LmdbPages.meta(dir).freeList().root();
    assertThat(freeRoot)
        .as("the overwrite left pages in the free list")
        .isNotEqualTo(DbRecord.NO_ROOT);
    // A free list record: key (8 bytes, the transaction), then the count and the page numbers.
    refused(
        "a free page also in use",
        d ->
            change(
                d,
                freeRoot,
                p -> {
                  int at = LmdbPages.node(p, 0) + 8 + 8;
                  p.putLong(at, 1).putLong(at + 8, leaf);
                }),
        "as free, and a database uses it");
    refused(
        "a free list out of order",
        d ->
            change(
                d,
                freeRoot,
                p -> {
                  for (int i = 0; i < LmdbPages.nodes(p); i++) {
                    int at = LmdbPages.node(p, i) + 8 + 8;
                    if (p.getLong(at) >= 2) {
                      long a = p.getLong(at + 8);
                      p.putLong(at + 8, p.getLong(at + 16)).putLong(at + 16, a);
                      return;
                    }
                  }
                  throw new IllegalStateException("no free list record lists two pages");
                }),
        "out of descending order");
  }

  @Test
  void damagedMetaPagesAreRefused() {
    writeDeepStore();
    MetaPages.Meta meta = LmdbPages.meta(dir);
    int newest = meta.index();
    refused(
        "a page size no LMDB writes",
        d -> change(d, 0, p -> p.putInt(MetaPages.FREE_LIST_AT, 3000)),
        "page size of 3000");
    refused(
        "meta pages of different page sizes",
        d -> change(d, 1, p -> p.putInt(MetaPages.FREE_LIST_AT, 8192)),
        "different page sizes");
    refused(
        "the newer meta page's transaction of the other parity",
        d -> change(d, 1 - newest, p -> p.putLong(MetaPages.TXN_ID_AT, meta.txnId() + 2)),
        "which LMDB writes to page");
    refused(
        "a last page number past the map",
        d -> change(d, newest, p -> p.putLong(MetaPages.LAST_PAGE_AT, Long.MAX_VALUE)),
        "impossible last page number");
    refused(
        "a meta page without its flag",
        d -> change(d, 1, p -> p.putShort(MetaPages.FLAGS_AT, (short) 0)),
        "meta page 1 lacks");
    refused(
        "the first meta page without LMDB's magic",
        d -> change(d, 0, p -> p.putInt(MetaPages.MAGIC_AT, 0x0ec0ffee)),
        "meta page 0 lacks");
    refused(
        "a file cut inside its second meta page",
        d -> {
          try (FileChannel ch = FileChannel.open(LmdbPages.dataFile(d), StandardOpenOption.WRITE)) {
            ch.truncate(4096 + 100);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        "second meta page",
        "cut short");
  }

  /**
   * The check itself never fails otherwise than by refusing: 400 seeded copies of a store, each
   * with 1 to 8 bytes flipped or a run of up to 256 bytes zeroed anywhere (meta pages included),
   * are each accepted or refused with StoreCorruptionException — never an index out of bounds, an
   * overflow or a loop. (Whether LMDB then reads the accepted ones right is the damage table's
   * question, asked in child JVMs.)
   */
  @Test
  void randomDamageIsAcceptedOrRefusedNeverAnythingElse() throws IOException {
    writeDeepStore();
    byte[] pristine = Files.readAllBytes(LmdbPages.dataFile(dir));
    Path copy = dir.resolveSibling(dir.getFileName() + "-fuzz");
    Files.createDirectories(copy);
    Random random = new Random(7);
    int refused = 0;
    for (int trial = 0; trial < 400; trial++) {
      byte[] damaged = pristine.clone();
      if (random.nextBoolean()) {
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
          damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
        }
      } else {
        int from = random.nextInt(damaged.length);
        Arrays.fill(
            damaged, from, Math.min(damaged.length, from + 1 + random.nextInt(256)), (byte) 0);
      }
      Files.write(LmdbPages.dataFile(copy), damaged);
      try {
        DataFileCheck.check(LmdbPages.dataFile(copy));
      } catch (StoreCorruptionException e) {
        refused++;
      }
    }
    FileTrees.deleteRecursively(copy);
    assertThat(refused).as("copies refused").isBetween(1, 399);
  }

  @Test
  void aFileThatIsNotLmdbIsLeftToLmdbToRefuse() throws IOException {
    Files.createDirectories(dir);
    Files.write(
        LmdbPages.dataFile(dir),
        "not an LMDB file, and long enough to hold a meta page's fields if it"
            .repeat(4)
            .getBytes());
    assertThat(DataFileCheck.check(LmdbPages.dataFile(dir))).isNull();
    ByteBuffer otherVersion = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
    otherVersion
        .putShort(MetaPages.FLAGS_AT, (short) MetaPages.P_META)
        .putInt(MetaPages.MAGIC_AT, MetaPages.MAGIC)
        .putInt(MetaPages.VERSION_AT, 2)
        .putInt(MetaPages.FREE_LIST_AT, 4096);
    Files.write(LmdbPages.dataFile(dir), otherVersion.array());
    assertThat(DataFileCheck.check(LmdbPages.dataFile(dir)))
        .as("another LMDB data version")
        .isNull();
  }

  private static long size(Path store) {
    try {
      return Files.size(LmdbPages.dataFile(store));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
