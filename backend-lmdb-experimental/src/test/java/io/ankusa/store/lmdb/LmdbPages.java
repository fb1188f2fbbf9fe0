package io.ankusa.store.lmdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Raw pages of a store's {@code data.mdb}, read and written with plain file I/O, for tests that
 * look at LMDB's structure or damage it: the store may be closed, or open (a write then reaches
 * LMDB's map at once, which is how a test damages what the check at open has already passed). Page
 * layout as {@link PageWalk} describes it.
 */
final class LmdbPages {
  private LmdbPages() {}

  static Path dataFile(Path dir) {
    return dir.resolve(LmdbEnvironment.DATA_FILE);
  }

  /** The meta page LMDB uses. */
  static MetaPages.Meta meta(Path dir) {
    try (FileChannel ch = FileChannel.open(dataFile(dir), StandardOpenOption.READ)) {
      return MetaPages.newest(ch, new DamagedDataFile(dataFile(dir), ch.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int pageSize(Path dir) {
    return meta(dir).pageSize();
  }

  /** The page {@code pgno}, little-endian. */
  static ByteBuffer read(Path dir, long pgno) {
    int size = pageSize(dir);
    ByteBuffer page = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel ch = FileChannel.open(dataFile(dir), StandardOpenOption.READ)) {
      while (page.hasRemaining()) {
        if (ch.read(page, pgno * size + page.position()) < 0) {
          throw new IllegalStateException(
              "page " + pgno + " lies past the end of " + dataFile(dir));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return page.clear();
  }

  /** Writes {@code page} over the page {@code pgno} and forces it to the file. */
  static void write(Path dir, long pgno, ByteBuffer page) {
    try (FileChannel ch = FileChannel.open(dataFile(dir), StandardOpenOption.WRITE)) {
      ByteBuffer b = page.duplicate().clear();
      while (b.hasRemaining()) {
        ch.write(b, pgno * b.capacity() + b.position());
      }
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The root page of the named database {@code name} (a family, or the metadata database). */
  static long root(Path dir, String name) {
    DbRecord record = DataFileCheck.check(dataFile(dir)).databases().get(name);
    if (record == null || record.empty()) {
      throw new IllegalStateException("no tree for '" + name + "' in " + dir);
    }
    return record.root();
  }

  static int flags(ByteBuffer page) {
    return page.getShort(10) & 0xffff;
  }

  static int nodes(ByteBuffer page) {
    return ((page.getShort(12) & 0xffff) - PageWalk.PAGE_HEADER) / 2;
  }

  /** Where node {@code i} starts. */
  static int node(ByteBuffer page, int i) {
    return page.getShort(PageWalk.PAGE_HEADER + 2 * i) & 0xffff;
  }

  /** The child page number of node {@code i} of a branch page. */
  static long child(ByteBuffer page, int i) {
    int at = node(page, i);
    return (page.getShort(at) & 0xffffL)
        | (page.getShort(at + 2) & 0xffffL) << 16
        | (page.getShort(at + 4) & 0xffffL) << 32;
  }

  /** The first leaf page of {@code name}: node 0 of every branch page down from its root. */
  static long firstLeaf(Path dir, String name) {
    long pgno = root(dir, name);
    while (flags(read(dir, pgno)) == PageWalk.P_BRANCH) {
      pgno = child(read(dir, pgno), 0);
    }
    return pgno;
  }
}
