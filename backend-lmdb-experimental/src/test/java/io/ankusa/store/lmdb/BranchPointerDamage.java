package io.ankusa.store.lmdb;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Damages one family of an LMDB store in a way LMDB's own bounds check sees: in the family's root
 * page (a branch page), the child pointer of the middle node is overwritten with a page number far
 * past the end of the file, so reaching that subtree fails with {@code MDB_PAGE_NOTFOUND}.
 *
 * <p>Done to a closed store, the check at open refuses the file ({@link DataFileCheck}). Done to an
 * open store (the write reaches LMDB's map at once), it is damage the check at open could not see,
 * and it checks the part of the contract a binding can get wrong — an error LMDB raises mid-scan
 * must surface as {@code StoreCorruptionException}, never as a clean end of the range.
 */
final class BranchPointerDamage {
  private BranchPointerDamage() {}

  /**
   * Damages the root of {@code family} in {@code dir}; returns the damaged page's number. REQUIRES:
   * {@code family} holds enough data for its root to be a branch page (a few hundred KiB), and no
   * write to the store runs meanwhile.
   *
   * @throws IllegalStateException if the family's root is not a branch page
   */
  static long damage(Path dir, String family) {
    long root = LmdbPages.root(dir, family);
    ByteBuffer page = LmdbPages.read(dir, root);
    if (LmdbPages.flags(page) != PageWalk.P_BRANCH) {
      throw new IllegalStateException(
          "the root page "
              + root
              + " of family '"
              + family
              + "' is not a branch page"
              + " (flags "
              + Integer.toHexString(LmdbPages.flags(page))
              + "): write more data before damaging it");
    }
    int node = LmdbPages.node(page, LmdbPages.nodes(page) / 2);
    page.putShort(
        node + 4, (short) 0x7fff); // the child page number's top word: far past the last page
    LmdbPages.write(dir, root, page);
    return root;
  }
}
