package io.ankusa.store.lmdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One walk, with plain Java reads of {@code data.mdb}, over every B-tree LMDB reaches from the meta
 * page it will use: the free list, the main database (the list of named databases) and every named
 * database it lists. It checks each page the way LMDB relies on it without checking: that is what
 * {@link DataFileCheck} needs to tell, before the file is mapped, whether LMDB could read outside
 * the file or the map (SIGBUS, SIGSEGV) or fail one of its assertions (abort) on it.
 *
 * <p>Layout (LMDB 0.9, 64-bit little-endian): a page header of 16 bytes: page number (8), pad (2),
 * flags (2: {@code P_BRANCH} 0x01, {@code P_LEAF} 0x02, {@code P_OVERFLOW} 0x04), then lower and
 * upper bounds of the free space (2 each; an overflow page has its page count there, 4 bytes). A
 * branch or leaf page holds {@code (lower - 16) / 2} node offsets (2 bytes each) after the header
 * and the nodes themselves packed from {@code upper} to the end of the page, each an even number of
 * bytes: a node header of 8 bytes (data size or child page number in {@code lo}, {@code hi}, and on
 * a leaf the node flags, {@code F_BIGDATA} 0x01, {@code F_SUBDATA} 0x02, {@code F_DUPDATA} 0x04, or
 * on a branch the child page number's top 16 bits; then the key size), the key, and on a leaf the
 * data, or with {@code F_BIGDATA} the 8-byte number of the overflow pages holding it.
 *
 * <p>Checked, per tree: the record's depth (1 to 32, LMDB's cursor stack) and root; per page: it
 * lies inside the file, past the two meta pages and at most at the meta page's last page number,
 * and is reached only once (by any tree, overflow pages included); its header names it; its flags
 * are exactly those of a branch page above the record's depth and of a leaf page at it; lower and
 * upper lie in the page; it holds at least one node (a branch outside the free list two, as LMDB
 * asserts); every node offset is even and in the node area, every node lies inside the page, and
 * the nodes fill the node area exactly; keys are 1 to 511 bytes (8 in the free list), except the
 * first of a branch, which LMDB never reads, and ascend strictly within the bounds the parent's
 * keys set (unsigned bytes; the free list's 8-byte integers); node flags are those of the database
 * (no {@code F_DUPDATA} anywhere: no database here is {@code MDB_DUPSORT}, and LMDB would take such
 * a node for a sub-page and dereference a cursor it does not have; {@code F_SUBDATA} only in the
 * main database, with a 48-byte record); an overflow page carries {@code P_OVERFLOW}, its own
 * number and enough pages for its data. The free list's records are lists of page numbers (a count,
 * then that many numbers, in descending order, each a page the meta page counts); no page is listed
 * twice or both listed free and reached. A named database's record carries no flags (this backend
 * sets none).
 *
 * <p>Not checked: the bytes of keys against each other beyond their order, and of values at all
 * (the values' checksums do that when they are read, {@link ValueChecksums}); the counts of pages
 * and entries a record keeps (LMDB reads them only for statistics); pages no tree reaches (stale
 * copies, the pages of the older meta page).
 *
 * <p>Single use, single thread: {@link #walk()} once.
 */
final class PageWalk {
  static final int PAGE_HEADER = 16;
  static final int P_BRANCH = 0x01;
  static final int P_LEAF = 0x02;
  static final int P_OVERFLOW = 0x04;
  static final int F_BIGDATA = 0x01;
  static final int F_SUBDATA = 0x02;
  static final int NODE_HEADER = 8;

  /** LMDB's compiled-in largest key. */
  static final int MAX_KEY = 511;

  /** LMDB's cursor stack: no tree is deeper. */
  static final int MAX_DEPTH = 32;

  /** The free list's database flag. */
  static final int MDB_INTEGERKEY = 0x08;

  /**
   * Environment flags LMDB stores beside {@link #MDB_INTEGERKEY} in the free list's record:
   * FIXEDMAP, NOSUBDIR.
   */
  static final int ENV_FLAGS = 0x01 | 0x4000;

  /** The first page number that is not a meta page. */
  static final long FIRST_PAGE = 2;

  /** The kinds of tree, each with its own keys and values. */
  private enum Kind {
    FREE_LIST,
    MAIN,
    NAMED
  }

  /** A named database the main database lists. */
  private record Named(String name, DbRecord record) {}

  /** One tree, as messages name it. */
  private record Tree(Kind kind, String name) {
    @Override
    public String toString() {
      return switch (kind) {
        case FREE_LIST -> "LMDB's free list";
        case MAIN -> "LMDB's main database (the list of named databases)";
        case NAMED ->
            name.equals(LmdbEnvironment.META_DBI)
                ? "the store's metadata database '" + name + "'"
                : "family '" + name + "'";
      };
    }
  }

  /**
   * What a walk reached.
   *
   * @param pagesReached pages reached by any tree, overflow pages included
   * @param highestPage the highest page number reached (1 when no tree has a page): the file must
   *     hold at least this page plus one pages
   * @param branchPages branch pages reached
   * @param leafPages leaf pages reached
   * @param overflowPages overflow pages reached
   * @param entries leaf entries of every tree
   * @param freePages pages the free list lists
   * @param databases the named databases the main database lists, by name
   */
  record Reached(
      long pagesReached,
      long highestPage,
      long branchPages,
      long leafPages,
      long overflowPages,
      long entries,
      long freePages,
      Map<String, DbRecord> databases) {}

  private final FileChannel ch;
  private final DamagedDataFile damaged;
  private final MetaPages.Meta meta;
  private final int pageSize;

  /** Whole pages in the file. */
  private final long filePages;

  private final long[] reached;

  /**
   * One page buffer per level of a tree, so a page stays readable while its children are walked.
   */
  private final byte[][] pages = new byte[MAX_DEPTH + 1][];

  /** Per level, where each node's key starts and how long it is. */
  private final int[][] keyAts = new int[MAX_DEPTH + 1][];

  private final int[][] keyLengths = new int[MAX_DEPTH + 1][];

  /**
   * The named databases the main database lists, in its order (a list: two names may decode alike).
   */
  private final List<Named> named = new ArrayList<>();

  private long[] free = new long[64];
  private int freeCount;
  private long pagesReached;
  private long highestPage = 1;
  private long branchPages;
  private long leafPages;
  private long overflowPages;
  private long entries;

  PageWalk(FileChannel ch, DamagedDataFile damaged, MetaPages.Meta meta) {
    this.ch = ch;
    this.damaged = damaged;
    this.meta = meta;
    this.pageSize = meta.pageSize();
    this.filePages = damaged.size() / pageSize;
    if (filePages >= (long) Integer.MAX_VALUE << 6) {
      throw damaged.because("it holds " + filePages + " pages, more than this check can count");
    }
    this.reached = new long[(int) ((filePages + 63) >>> 6)];
  }

  /**
   * Walks every tree; returns what it reached.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException at the first thing LMDB never writes
   */
  Reached walk() throws IOException {
    DbRecord freeList = meta.freeList();
    if ((freeList.flags() & ~ENV_FLAGS) != MDB_INTEGERKEY) {
      throw damaged.because(
          "its newest meta page records flags 0x"
              + Integer.toHexString(freeList.flags())
              + " for LMDB's free list, where LMDB writes 0x"
              + Integer.toHexString(MDB_INTEGERKEY));
    }
    walkTree(new Tree(Kind.FREE_LIST, null), freeList);
    DbRecord main = meta.main();
    if (main.flags() != 0 || main.pad() != 0) {
      throw damaged.because(
          "its newest meta page records flags 0x"
              + Integer.toHexString(main.flags())
              + " (pad "
              + main.pad()
              + ") for LMDB's main database, which this backend never sets");
    }
    walkTree(new Tree(Kind.MAIN, null), main);
    Map<String, DbRecord> databases = new LinkedHashMap<>();
    for (Named database : named) {
      walkTree(new Tree(Kind.NAMED, database.name()), database.record());
      databases.putIfAbsent(database.name(), database.record());
    }
    checkFreePages();
    return new Reached(
        pagesReached,
        highestPage,
        branchPages,
        leafPages,
        overflowPages,
        entries,
        freeCount,
        Collections.unmodifiableMap(databases));
  }

  private void walkTree(Tree tree, DbRecord record) throws IOException {
    if (record.empty()) {
      if (record.depth() != 0) {
        throw damaged.because(tree + " has no root page but records a depth of " + record.depth());
      }
      return;
    }
    if (record.depth() < 1 || record.depth() > MAX_DEPTH) {
      throw damaged.because(
          tree + " records a depth of " + record.depth() + ", where LMDB reads 1 to " + MAX_DEPTH);
    }
    visit(tree, record.root(), 1, record.depth(), null, null);
  }

  /**
   * Checks the page {@code pgno} at {@code level} (1 the root) of a tree {@code depth} deep, whose
   * keys must lie in {@code [lo, hi)} (null: unbounded), then its children or its leaf entries.
   */
  private void visit(Tree tree, long pgno, int level, int depth, byte[] lo, byte[] hi)
      throws IOException {
    boolean leaf = level == depth;
    String role = leaf ? "a leaf page" : "a branch page";
    reach(tree, pgno, 1, role);
    byte[] page = pages[level] == null ? (pages[level] = new byte[pageSize]) : pages[level];
    read(pgno, page, 0, pageSize);
    if (u64(page, 0) != pgno) {
      throw bad(tree, pgno, role, "its header names page " + Long.toUnsignedString(u64(page, 0)));
    }
    int flags = u16(page, 10);
    if (flags != (leaf ? P_LEAF : P_BRANCH)) {
      throw bad(
          tree,
          pgno,
          role,
          "its flags are 0x"
              + Integer.toHexString(flags)
              + ", where LMDB writes 0x"
              + Integer.toHexString(leaf ? P_LEAF : P_BRANCH)
              + " at level "
              + level
              + " of a tree "
              + depth
              + " deep");
    }
    int lower = u16(page, 12);
    int upper = u16(page, 14);
    if (lower < PAGE_HEADER || (lower & 1) != 0 || upper < lower || upper > pageSize) {
      throw bad(
          tree,
          pgno,
          role,
          "its free space runs from byte "
              + lower
              + " to "
              + upper
              + ", impossible in a page of "
              + pageSize
              + " bytes");
    }
    int n = (lower - PAGE_HEADER) / 2;
    int least = leaf || tree.kind() == Kind.FREE_LIST ? 1 : 2;
    if (n < least) {
      throw bad(tree, pgno, role, "it holds " + n + " nodes, where LMDB keeps at least " + least);
    }
    int[] keyAt = keyAts[level] == null ? (keyAts[level] = new int[pageSize / 2]) : keyAts[level];
    int[] keyLength =
        keyLengths[level] == null ? (keyLengths[level] = new int[pageSize / 2]) : keyLengths[level];
    long used = 0;
    for (int i = 0; i < n; i++) {
      int at = u16(page, PAGE_HEADER + 2 * i);
      if (at < upper || at > pageSize - NODE_HEADER || (at & 1) != 0) {
        throw bad(
            tree,
            pgno,
            role,
            "node "
                + i
                + " starts at byte "
                + at
                + ", outside its node area ("
                + upper
                + " to "
                + pageSize
                + ") or at an odd byte");
      }
      int keySize = u16(page, at + 6);
      long size = NODE_HEADER + (long) keySize;
      if (leaf) {
        size += (u16(page, at + 4) & F_BIGDATA) != 0 ? 8 : dataSize(page, at);
      }
      if (at + size > pageSize) {
        throw bad(
            tree,
            pgno,
            role,
            "node " + i + " (" + size + " bytes from byte " + at + ") runs past the page's end");
      }
      used += (size + 1) & ~1L;
      keyAt[i] = at + NODE_HEADER;
      keyLength[i] = keySize;
      if (leaf || i > 0) {
        int shortest = tree.kind() == Kind.FREE_LIST ? Long.BYTES : 1;
        int longest = tree.kind() == Kind.FREE_LIST ? Long.BYTES : MAX_KEY;
        if (keySize < shortest || keySize > longest) {
          throw bad(
              tree,
              pgno,
              role,
              "node "
                  + i
                  + " has a key of "
                  + keySize
                  + " bytes, where LMDB writes "
                  + (shortest == longest ? "exactly " + longest : shortest + " to " + longest));
        }
      }
    }
    if (used != pageSize - upper) {
      throw bad(
          tree,
          pgno,
          role,
          "its nodes take " + used + " bytes, where its node area holds " + (pageSize - upper));
    }
    int firstKey = leaf ? 0 : 1;
    for (int i = firstKey; i < n; i++) {
      if (i > firstKey
          && compare(tree, page, keyAt[i - 1], keyLength[i - 1], page, keyAt[i], keyLength[i])
              >= 0) {
        throw bad(
            tree,
            pgno,
            role,
            "the key of node " + i + " does not sort after the key of node " + (i - 1));
      }
    }
    if (firstKey < n
        && lo != null
        && compare(tree, page, keyAt[firstKey], keyLength[firstKey], lo, 0, lo.length) < 0) {
      throw bad(
          tree, pgno, role, "its first key sorts before the key its parent page leads to it by");
    }
    if (firstKey < n
        && hi != null
        && compare(tree, page, keyAt[n - 1], keyLength[n - 1], hi, 0, hi.length) >= 0) {
      throw bad(
          tree, pgno, role, "its last key does not sort before the key of its parent's next node");
    }
    if (leaf) {
      leafPages++;
      for (int i = 0; i < n; i++) {
        entry(tree, pgno, page, keyAt[i] - NODE_HEADER, i);
      }
      return;
    }
    branchPages++;
    for (int i = 0; i < n; i++) {
      int at = keyAt[i] - NODE_HEADER;
      long child = u16(page, at) | (long) u16(page, at + 2) << 16 | (long) u16(page, at + 4) << 32;
      byte[] childLo = i == 0 ? lo : Arrays.copyOfRange(page, keyAt[i], keyAt[i] + keyLength[i]);
      byte[] childHi =
          i == n - 1 ? hi : Arrays.copyOfRange(page, keyAt[i + 1], keyAt[i + 1] + keyLength[i + 1]);
      visit(tree, child, level + 1, depth, childLo, childHi);
    }
  }

  /** One leaf entry, node {@code index} at byte {@code at} of the page {@code pgno}. */
  private void entry(Tree tree, long pgno, byte[] page, int at, int index) throws IOException {
    entries++;
    int flags = u16(page, at + 4);
    int keySize = u16(page, at + 6);
    long dataSize = dataSize(page, at);
    int dataAt = at + NODE_HEADER + keySize;
    boolean big = flags == F_BIGDATA;
    if (tree.kind() == Kind.MAIN && flags == F_SUBDATA) {
      if (dataSize != DbRecord.BYTES) {
        throw bad(
            tree,
            pgno,
            "a leaf page",
            "node "
                + index
                + " holds a database record of "
                + dataSize
                + " bytes, where LMDB writes "
                + DbRecord.BYTES);
      }
      String name = new String(page, at + NODE_HEADER, keySize, StandardCharsets.UTF_8);
      DbRecord record = DbRecord.read(page, dataAt);
      if (record.flags() != 0 || record.pad() != 0) {
        throw damaged.because(
            "LMDB's main database records flags 0x"
                + Integer.toHexString(record.flags())
                + " (pad "
                + record.pad()
                + ") for the database '"
                + name
                + "', which this backend never sets: the file is"
                + " damaged, or another program wrote it");
      }
      named.add(new Named(name, record));
      return;
    }
    if (flags != 0 && !big) {
      throw bad(
          tree,
          pgno,
          "a leaf page",
          "node "
              + index
              + " carries node flags 0x"
              + Integer.toHexString(flags)
              + ", which LMDB never writes in "
              + (tree.kind() == Kind.MAIN ? "it" : "a database without duplicates"));
    }
    if (big) {
      long first = u64(page, dataAt);
      overflow(tree, pgno, index, first, dataSize);
      if (tree.kind() == Kind.FREE_LIST) {
        if (dataSize > Integer.MAX_VALUE - PAGE_HEADER) {
          throw bad(
              tree,
              pgno,
              "a leaf page",
              "node "
                  + index
                  + " holds a list of free pages of "
                  + dataSize
                  + " bytes, which LMDB never writes");
        }
        byte[] list = new byte[(int) dataSize];
        read(first, list, PAGE_HEADER, list.length);
        freeList(tree, pgno, index, list, 0, dataSize);
      }
    } else if (tree.kind() == Kind.FREE_LIST) {
      freeList(tree, pgno, index, page, dataAt, dataSize);
    }
  }

  /**
   * The overflow pages from {@code first} holding {@code dataSize} bytes of node {@code index} of
   * the page {@code pgno}.
   */
  private void overflow(Tree tree, long pgno, int index, long first, long dataSize)
      throws IOException {
    String role = "the first overflow page of node " + index + " of leaf page " + pgno;
    reach(tree, first, 0, role);
    byte[] header = new byte[PAGE_HEADER];
    read(first, header, 0, PAGE_HEADER);
    int flags = u16(header, 10);
    long count = u16(header, 12) | (long) u16(header, 14) << 16;
    long needed = (PAGE_HEADER - 1 + dataSize) / pageSize + 1;
    if (u64(header, 0) != first || flags != P_OVERFLOW || count < needed) {
      throw bad(
          tree,
          first,
          role,
          "its header names page "
              + Long.toUnsignedString(u64(header, 0))
              + " with flags 0x"
              + Integer.toHexString(flags)
              + " and "
              + count
              + " pages, where LMDB writes page "
              + first
              + ", flags 0x"
              + Integer.toHexString(P_OVERFLOW)
              + " and at least the "
              + needed
              + " pages "
              + dataSize
              + " bytes take");
    }
    reach(tree, first, count, role);
    overflowPages += count;
  }

  /**
   * A free list record: a count, then that many page numbers in descending order (the rest of the
   * record, if any, is room LMDB reserved). REQUIRES: {@code size} bytes from {@code at} are in
   * {@code b}.
   */
  private void freeList(Tree tree, long pgno, int index, byte[] b, int at, long size) {
    long slots = size / Long.BYTES - 1;
    long count = size >= Long.BYTES ? u64(b, at) : -1;
    if (size % Long.BYTES != 0 || count < 0 || count > slots) {
      throw bad(
          tree,
          pgno,
          "a leaf page",
          "node "
              + index
              + " holds a list of "
              + count
              + " free pages in "
              + size
              + " bytes, which LMDB never writes");
    }
    long previous = 0;
    for (int i = 1; i <= count; i++) {
      long free = u64(b, at + i * Long.BYTES);
      if (Long.compareUnsigned(free, FIRST_PAGE) < 0
          || Long.compareUnsigned(free, meta.lastPage()) > 0
          || (i > 1 && Long.compareUnsigned(free, previous) >= 0)) {
        throw bad(
            tree,
            pgno,
            "a leaf page",
            "node "
                + index
                + " lists page "
                + Long.toUnsignedString(free)
                + " as free, out of descending order or outside pages "
                + FIRST_PAGE
                + " to "
                + meta.lastPage());
      }
      addFree(free);
      previous = free;
    }
  }

  private void addFree(long page) {
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, free.length * 2);
    }
    free[freeCount++] = page;
  }

  /** No page is listed free twice, nor listed free and reached by a tree. */
  private void checkFreePages() {
    Arrays.sort(free, 0, freeCount);
    for (int i = 0; i < freeCount; i++) {
      if (i > 0 && free[i] == free[i - 1]) {
        throw damaged.because("LMDB's free list lists page " + free[i] + " twice");
      }
      if (free[i] < filePages && isReached(free[i])) {
        throw damaged.because(
            "LMDB's free list lists page " + free[i] + " as free, and a database uses it");
      }
    }
  }

  /**
   * Marks {@code count} pages from {@code pgno} reached (none with {@code count} 0, which only
   * checks that the first lies inside the file).
   */
  private void reach(Tree tree, long pgno, long count, String role) {
    long last = meta.lastPage();
    if (pgno == 0 || pgno == 1) {
      throw bad(
          tree,
          pgno,
          role,
          "it is reached as a page of the tree, but pages 0 and 1 are the meta pages");
    }
    if (Long.compareUnsigned(pgno, last) > 0 || count > last - pgno + 1) {
      throw bad(
          tree,
          pgno,
          role,
          "it "
              + (count > 1 ? "and its " + (count - 1) + " following pages lie" : "lies")
              + " past page "
              + last
              + ", the last its meta page counts");
    }
    long end = pgno + Math.max(count, 1);
    if (end > filePages) {
      throw damaged.cutShort(
          "page "
              + pgno
              + (count > 1 ? " (and the " + (count - 1) + " after it)" : "")
              + ", "
              + role
              + " of "
              + tree
              + ", which its newest meta page (transaction "
              + Long.toUnsignedString(meta.txnId())
              + ") reaches, takes bytes "
              + pgno * pageSize
              + " to "
              + end * pageSize
              + ", past its end");
    }
    for (long p = pgno; p < pgno + count; p++) {
      if (isReached(p)) {
        throw bad(tree, pgno, role, "page " + p + " is reached a second time");
      }
      reached[(int) (p >>> 6)] |= 1L << p;
    }
    pagesReached += count;
    highestPage = Math.max(highestPage, pgno + count - 1);
  }

  private boolean isReached(long page) {
    return (reached[(int) (page >>> 6)] & (1L << page)) != 0;
  }

  private io.ankusa.store.spi.StoreCorruptionException bad(
      Tree tree, long pgno, String role, String what) {
    return damaged.because(
        "page " + Long.toUnsignedString(pgno) + ", " + role + " of " + tree + ": " + what);
  }

  /**
   * Reads {@code length} bytes of the page {@code pgno}, from byte {@code from} of it, into {@code
   * into}.
   */
  private void read(long pgno, byte[] into, int from, int length) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(into, 0, length);
    long at = pgno * pageSize + from;
    while (b.hasRemaining()) {
      if (ch.read(b, at + b.position()) < 0) {
        throw damaged.cutShort("page " + pgno + " ends past its end");
      }
    }
  }

  private static long dataSize(byte[] page, int at) {
    return u16(page, at) | (long) u16(page, at + 2) << 16;
  }

  /**
   * The little-endian 16-bit word at {@code at}: plain array reads, cheap before the JIT compiles
   * them.
   */
  static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  /** The little-endian 64-bit word at {@code at}. */
  static long u64(byte[] b, int at) {
    return (u16(b, at) | (long) u16(b, at + 2) << 16)
        | ((long) u16(b, at + 4) | (long) u16(b, at + 6) << 16) << 32;
  }

  /**
   * LMDB's key order: unsigned bytes, shorter first on a tie; the free list's keys as unsigned
   * integers.
   */
  private static int compare(
      Tree tree, byte[] a, int aAt, int aLength, byte[] b, int bAt, int bLength) {
    if (tree.kind() == Kind.FREE_LIST) {
      return Long.compareUnsigned(u64(a, aAt), u64(b, bAt));
    }
    return Arrays.compareUnsigned(a, aAt, aAt + aLength, b, bAt, bAt + bLength);
  }
}
