package io.ankusa.store.conformance.queue;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The memory store behind a size check at open that counts the space its batches allocated rather
 * than the space they wrote, as LMDB's last page number does (mutant {@code
 * FREED_SPACE_COUNTED_AT_REOPEN}): a value of at least {@value #OVERFLOW_BYTES} bytes takes whole
 * pages of {@value #PAGE} bytes of its own, as LMDB's overflow pages do; a batch counts every such
 * page it allocates, and writes those of the values still there when it ends, so a value the batch
 * deletes or overwrites again is counted and never written. An open compares what the store's
 * batches counted with what they wrote and refuses the store as truncated when the count is larger:
 * a healthy store, cleanly closed, refused after any batch that freed a large value it had written
 * itself. Small values, and large ones freed by a later batch, never show it.
 *
 * <p>The counts live per directory in this JVM, as the memory store's data does, and go with {@link
 * #discard}.
 */
final class FreedSpaceCountingFixture extends WrappingFixture {
  static final int PAGE = 4096;

  /** Values from this size take pages of their own. */
  static final int OVERFLOW_BYTES = PAGE / 2;

  /** Per directory: pages counted, pages written. */
  private static final Map<Path, long[]> PAGES = new ConcurrentHashMap<>();

  FreedSpaceCountingFixture() {
    super("memory mutant " + Mutant.FREED_SPACE_COUNTED_AT_REOPEN.name(), UnaryOperator.identity());
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    long[] pages = PAGES.computeIfAbsent(key(dir), d -> new long[2]);
    synchronized (pages) {
      if (pages[0] > pages[1]) {
        throw new StoreCorruptionException(
            "the store in "
                + dir
                + " is damaged: its batches counted "
                + pages[0]
                + " pages of "
                + PAGE
                + " bytes and it holds "
                + pages[1]
                + "; it was truncated. It was not opened: restore"
                + " the store from a backup");
      }
    }
    return new Counting(super.open(dir, families), pages);
  }

  @Override
  public void discard(Path dir) {
    PAGES.remove(key(dir));
    super.discard(dir);
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  /** Counts the pages each written batch allocated and wrote. */
  private static final class Counting extends ForwardingStore {
    private final long[] pages;

    Counting(Store delegate, long[] pages) {
      super(delegate);
      this.pages = pages;
    }

    @Override
    public void write(Batch batch, Durability durability) {
      delegate.write(batch, durability);
      Map<String, Long> held =
          new HashMap<>(); // family + key of a large value this batch put → its pages
      long[] counted = {0};
      batch.forEach(
          new OpHandler<RuntimeException>() {
            @Override
            public void put(Op.Put p) {
              String at = p.family() + "/" + Bytes.hex(p.key());
              if (p.value().length >= OVERFLOW_BYTES) {
                long n = (p.value().length + PAGE - 1) / PAGE;
                counted[0] += n;
                held.put(at, n);
              } else {
                held.remove(at);
              }
            }

            @Override
            public void delete(Op.Delete d) {
              held.remove(d.family() + "/" + Bytes.hex(d.key()));
            }

            @Override
            public void deleteRange(Op.DeleteRange r) {
              held.keySet()
                  .removeIf(
                      at -> {
                        int slash = at.indexOf('/');
                        byte[] key = Bytes.fromHex(at.substring(slash + 1));
                        return at.substring(0, slash).equals(r.family())
                            && Bytes.compare(key, r.lo()) >= 0
                            && Bytes.compare(key, r.hi()) < 0;
                      });
            }

            @Override
            public void merge(Op.Merge m) {
              held.remove(m.family() + "/" + Bytes.hex(m.key()));
            }
          });
      synchronized (pages) {
        pages[0] += counted[0];
        pages[1] += held.values().stream().mapToLong(Long::longValue).sum();
      }
    }
  }
}
