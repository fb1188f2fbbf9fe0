package io.ankusa.store.etcd;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * A scan read in pages at one revision: the first page is read when the scan opens (at the view's
 * revision, or for the live store at the latest, which then stays the scan's revision), the next
 * ones as the caller walks, each a range request with a limit, so a range is never held in memory
 * whole. The revision is held against compaction until the scan ends or closes.
 *
 * <p>Pages start at {@value #FIRST_PAGE} entries and then hold about {@value #PAGE_BYTES} bytes. A
 * reverse scan asks etcd for its keys in descending order, which the server sorts per page: it
 * costs more than a forward one over a large range.
 *
 * <p>A page that fails after the first one throws {@link StoreCorruptionException}: the range was
 * not read to its end, and {@link #hasNext()} never reports that as the end (property {@code
 * scanNeverEndsEarlyOnCorruption}). Used by one thread at a time; {@link #closeFrom} may come from
 * another (the store's close).
 */
final class EtcdScan implements Scan, OpenResources.Resource {
  static final int FIRST_PAGE = 128;
  static final long PAGE_BYTES = 4L << 20;
  static final int MAX_PAGE = 2048;

  private final EtcdView view;
  private final String family;
  private final boolean reverse;
  private final int strip;
  private final String what;
  private final ArrayDeque<Entry> page = new ArrayDeque<>();
  private byte[] from;
  private byte[] to;
  private long revision;
  private boolean held;
  private boolean more;
  private int limit = FIRST_PAGE;
  private volatile String closedBecause;

  EtcdScan(EtcdView view, String family, byte[] lo, byte[] hi, Direction direction) {
    this.view = view;
    this.family = family;
    this.reverse = direction == Direction.REVERSE;
    byte[] start = view.keys.familyStart(family);
    this.strip = start.length;
    this.from = EtcdKeys.concat(start, lo);
    this.to = hi == null ? view.keys.familyEnd(family) : EtcdKeys.concat(start, hi);
    this.what = "scan of family '" + family + "' from " + Bytes.hex(lo) + " on " + view.label();
    this.revision = view.fixedRevision();
    if (Bytes.compare(from, to) >= 0) {
      more = false; // an empty range
    } else {
      while (true) {
        GetResponse first = fetch();
        if (revision == 0) {
          long now = first.getHeader().getRevision();
          if (!view.hold(now)) {
            continue; // a compaction pin moved past it meanwhile: read again, newer
          }
          revision = now;
          held = true;
        }
        take(first);
        break;
      }
    }
    view.scans().add(this);
  }

  private GetResponse fetch() {
    ByteSequence start = ByteSequence.from(from);
    ByteSequence end = ByteSequence.from(to);
    long at = revision;
    int pageLimit = limit;
    return view.read(
        local -> {
          GetOption.Builder o = EtcdView.option(at, local).withRange(end).withLimit(pageLimit);
          if (reverse) {
            o.withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.DESCEND);
          }
          return view.kv.get(start, o.build());
        },
        g -> g.getHeader().getRevision(),
        at,
        "a page of the " + what);
  }

  private void take(GetResponse r) {
    long bytes = 0;
    byte[] last = null;
    for (KeyValue kv : r.getKvs()) {
      byte[] full = kv.getKey().getBytes();
      byte[] value = kv.getValue().getBytes();
      page.add(new Entry(Arrays.copyOfRange(full, strip, full.length), value));
      bytes += full.length + value.length;
      last = full;
    }
    more = r.isMore() && last != null;
    if (more) {
      if (reverse) {
        to = last;
      } else {
        from = EtcdKeys.successor(last);
      }
      long average = Math.max(1, bytes / r.getKvs().size());
      limit = (int) Math.max(16, Math.min(MAX_PAGE, PAGE_BYTES / average));
    } else {
      release();
    }
  }

  @Override
  public synchronized boolean hasNext() {
    if (closedBecause != null) {
      throw new StoreClosedException(what + " is closed: " + closedBecause);
    }
    if (!page.isEmpty()) {
      return true;
    }
    if (!more) {
      return false;
    }
    try {
      take(fetch());
    } catch (StoreException e) {
      closeFrom("the walk failed: " + e.getMessage());
      throw new StoreCorruptionException(
          what
              + " failed before the end of its range ("
              + e.getMessage()
              + "); the"
              + " rest of the range was not read. Check the cluster, then scan again",
          e);
    }
    return !page.isEmpty();
  }

  @Override
  public synchronized Entry next() {
    if (!hasNext()) {
      throw new NoSuchElementException(what + " is at the end of its range");
    }
    return page.poll();
  }

  @Override
  public void close() {
    closeFrom("it was closed by its owner");
  }

  @Override
  public synchronized void closeFrom(String reason) {
    if (closedBecause == null) {
      closedBecause = reason;
      page.clear();
      more = false;
      release();
    }
    view.scans().remove(this);
  }

  private void release() {
    if (held) {
      held = false;
      view.letGo(revision);
    }
  }

  String family() {
    return family;
  }
}
