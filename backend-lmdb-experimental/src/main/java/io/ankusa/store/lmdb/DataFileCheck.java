package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of {@code data.mdb} at open, before LMDB maps it: LMDB trusts its file completely, so a
 * damaged file can make it read past the end of the file (SIGBUS, the process dies), follow a page
 * number out of its map (SIGSEGV), or fail one of its assertions (abort). This check reads the file
 * with plain Java I/O: the meta page LMDB will use ({@link MetaPages}), then every page of every
 * B-tree that meta page reaches ({@link PageWalk}), and refuses the file with {@link
 * io.ankusa.store.spi.StoreCorruptionException} at the first thing LMDB never writes.
 *
 * <h2>How long the file must be</h2>
 *
 * <p>A meta page's last page number is not the file's length. LMDB counts a page when a transaction
 * allocates it and writes it only if it is still dirty at the commit ({@code mdb_page_flush});
 * pages a transaction allocated and freed again (an overflow page freed by the transaction that
 * allocated it goes straight back to the free list) are counted and never written, so a cleanly
 * closed file can end before its last counted page. LMDB never shrinks the file, extends it only by
 * writing pages (the write-mapped mode this backend does not use sizes it to the whole map), and
 * writes every page a commit makes reachable before the meta page that reaches it. So what the file
 * must hold is every page reachable from the meta page LMDB will use, wholly; that is what the
 * check demands, and it accepts every file LMDB writes: after a clean close, after a crash of the
 * process at any point (a transaction writes only pages neither meta page reaches, and its own meta
 * page last), and after the map grew.
 *
 * <h2>What it cannot tell</h2>
 *
 * <ul>
 *   <li>Damage after the check: bytes changed or the file cut while the store is open (by another
 *       program, or a disk failing under it) is read by LMDB unchecked, and may still crash the
 *       process.
 *   <li>Bytes that are wrong but well-formed: a changed value, or a key changed without breaking
 *       the order, reads back as data unless the store keeps checksums ({@link ValueChecksums}, on
 *       by default), which catch it when it is read; counts LMDB keeps for statistics only; pages
 *       no tree reaches.
 *   <li>A power loss with {@code MDB_NOSYNC}: a meta page may then reach pages whose writes never
 *       reached the disk; the file is refused when what they hold is malformed, and may be read as
 *       stale data when it is well-formed.
 * </ul>
 *
 * <p>Cost: one read of every reachable page (overflow pages' headers only), proportional to the
 * data in the store; measured by {@code OpenCheckCost} (docs/storage.md gives the figure).
 *
 * <p>Stateless; the caller holds the store's directory claim, so no writer of this backend changes
 * the file during the check.
 */
final class DataFileCheck {
  private static final Logger LOG = LoggerFactory.getLogger(DataFileCheck.class);

  private DataFileCheck() {}

  /**
   * Checks {@code file}; returns what its trees reached, or null when it is not an LMDB data file
   * of this version, which LMDB itself refuses (see {@link MetaPages#newest}).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException when the file is damaged, naming the file,
   *     what is wrong with which page of which tree, and what to do
   * @throws StoreException when the file cannot be read
   */
  static PageWalk.Reached check(Path file) {
    long started = System.nanoTime();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      DamagedDataFile damaged = new DamagedDataFile(file, ch.size());
      MetaPages.Meta meta = MetaPages.newest(ch, damaged);
      if (meta == null) {
        return null;
      }
      PageWalk.Reached reached = new PageWalk(ch, damaged, meta).walk();
      LOG.debug(
          "checked {} pages of {} ({} entries, {} free pages) in {} ms",
          reached.pagesReached(),
          file,
          reached.entries(),
          reached.freePages(),
          (System.nanoTime() - started) / 1_000_000);
      return reached;
    } catch (IOException e) {
      throw new StoreException(
          "cannot read the LMDB data file "
              + file
              + " to check it: "
              + e.getMessage()
              + "; check the file's permissions",
          e);
    }
  }
}
