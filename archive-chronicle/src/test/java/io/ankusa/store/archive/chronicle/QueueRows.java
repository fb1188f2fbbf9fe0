package io.ankusa.store.archive.chronicle;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.HookKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the tests read back from a queue's store: hooks, archive obligations, the archive_pending
 * counter.
 */
final class QueueRows {
  private QueueRows() {}

  /** Every stored hook: seq -> the exact bytes of its 'h' row, in seq order. */
  static TreeMap<Long, byte[]> hooks(Store store) {
    TreeMap<Long, byte[]> out = new TreeMap<>();
    for (Entry e : scan(store, KeyFamily.HOOK)) {
      out.put(HookKey.decode(e.key()).seq(), e.value());
    }
    return out;
  }

  /** The seqs of every archive obligation 'a'. */
  static TreeSet<Long> obligations(Store store) {
    TreeSet<Long> out = new TreeSet<>();
    for (Entry e : scan(store, KeyFamily.ARCHIVE)) {
      out.add(ArchiveKey.decode(e.key()).seq());
    }
    return out;
  }

  /** The node aggregate's archive_pending counter. */
  static long archivePending(Store store, QueueConfig config) {
    return new Counters(config).aggregate(store).archivePending();
  }

  private static List<Entry> scan(Store store, KeyFamily family) {
    KeyRange range = Keys.realKeysOf(family);
    List<Entry> out = new ArrayList<>();
    try (Scan scan = store.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(scan.next());
      }
    }
    return out;
  }
}
