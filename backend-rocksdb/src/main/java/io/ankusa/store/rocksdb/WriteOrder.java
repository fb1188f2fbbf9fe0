package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Op;
import java.util.Arrays;
import java.util.List;

/**
 * The order in which {@link RocksDbStore#write} adds a batch's ops to RocksDB's native write batch:
 * grouped by family, each family's ops in key order (unsigned bytes, RocksDB's bytewise order), and
 * the ops on one key in the order the batch has them.
 *
 * <p>Why: RocksDB inserts a write batch's entries into each family's memtable one by one, and the
 * memtable is a skip list that keeps the position of its last insert. A key just past that position
 * is placed from there; a key elsewhere is searched for from the top levels down. The queue
 * writer's groups interleave many kinds of row in one family (due rows, markers, dedupe and expiry
 * keys, for many tenants), so in the batch's own order nearly every insert was a search from the
 * top, and that search was the largest part of the write (docs/configuration.md, 'rocksdb').
 *
 * <p>The outcome is the same as in the batch's order. RocksDB gives a batch's entries consecutive
 * sequence numbers and makes them visible together, and entries on different keys do not act on
 * each other, so only the order of the ops on one key matters, and this order keeps it (the sort is
 * stable). A range delete is the exception: it removes what the batch wrote before it inside its
 * range and not what it writes after, so a batch holding a range delete keeps its own order.
 *
 * <p>Allocates a few arrays of the batch's size per call; keeps nothing between calls. Cost: one
 * pass over the ops to read their keys; when they are out of order, a counting sort by family and a
 * merge sort of each family whose ops are out of key order.
 */
final class WriteOrder {
  /** Runs up to this long are sorted by insertion. */
  private static final int INSERTION_RUN = 12;

  private final int[] families;
  private final byte[][] keys;

  /** Each key's first 8 bytes, big-endian, zero-padded: most comparisons end here, on one array. */
  private final long[] prefixes;

  private WriteOrder(int n) {
    this.families = new int[n];
    this.keys = new byte[n][];
    this.prefixes = new long[n];
  }

  /**
   * The indexes of {@code ops} in write order, or null when the batch's own order is the one to
   * use: it holds a range delete, has fewer than two ops, or is in write order already. REQUIRES:
   * the ops were validated (no null family or key).
   */
  static int[] of(List<Op> ops) {
    int n = ops.size();
    if (n < 2) {
      return null;
    }
    WriteOrder order = new WriteOrder(n);
    String[] names = new String[4];
    int distinct = 0;
    boolean inOrder = true;
    for (int i = 0; i < n; i++) {
      Op op = ops.get(i);
      byte[] key = op.pointKey();
      if (key == null) {
        return null; // a range delete pins the batch's order
      }
      order.keys[i] = key;
      order.prefixes[i] = prefix(key);
      String family = op.family();
      int f = 0;
      while (f < distinct && !names[f].equals(family)) {
        f++;
      }
      if (f == distinct) {
        if (distinct == names.length) {
          names = Arrays.copyOf(names, distinct * 2);
        }
        names[distinct++] = family;
      }
      order.families[i] = f;
      if (inOrder && i > 0 && order.compare(i - 1, i) > 0) {
        inOrder = false;
      }
    }
    if (inOrder) {
      return null;
    }
    return order.sorted(distinct);
  }

  /**
   * The indexes in write order: first grouped by family with a counting sort (stable, one pass),
   * then each family's run sorted by key unless it is in key order already. The queue writer's
   * batches interleave their families op by op, but most families' ops come in key order (hooks and
   * delivery rows by rising seq), so after the grouping only the families that need it are sorted,
   * and only among their own ops.
   */
  private int[] sorted(int distinct) {
    int n = keys.length;
    int[] starts = new int[distinct + 1];
    for (int i = 0; i < n; i++) {
      starts[families[i] + 1]++;
    }
    for (int f = 0; f < distinct; f++) {
      starts[f + 1] += starts[f];
    }
    int[] indexes = new int[n];
    int[] next = Arrays.copyOf(starts, distinct);
    for (int i = 0; i < n; i++) {
      indexes[next[families[i]]++] = i;
    }
    int[] tmp = null;
    for (int f = 0; f < distinct; f++) {
      int lo = starts[f];
      int hi = starts[f + 1];
      if (!inKeyOrder(indexes, lo, hi)) {
        if (tmp == null) {
          tmp = new int[n];
        }
        sort(indexes, tmp, lo, hi);
      }
    }
    return indexes;
  }

  /** Whether {@code a[lo, hi)} is in write order already (equal keys count as in order). */
  private boolean inKeyOrder(int[] a, int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      if (compare(a[i - 1], a[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /** Family (by first appearance), then key; equal for two ops on one key. */
  private int compare(int a, int b) {
    int byFamily = Integer.compare(families[a], families[b]);
    if (byFamily != 0) {
      return byFamily;
    }
    // Unequal prefixes order the keys as their bytes do; equal ones (padding included) need the
    // rest.
    int byPrefix = Long.compareUnsigned(prefixes[a], prefixes[b]);
    return byPrefix != 0 ? byPrefix : Arrays.compareUnsigned(keys[a], keys[b]);
  }

  private static long prefix(byte[] key) {
    long p = 0;
    int n = Math.min(8, key.length);
    for (int i = 0; i < n; i++) {
      p |= (key[i] & 0xFFL) << (56 - 8 * i);
    }
    return p;
  }

  /** A stable merge sort of {@code a[lo, hi)}; {@code tmp} is scratch of {@code a}'s length. */
  private void sort(int[] a, int[] tmp, int lo, int hi) {
    if (hi - lo <= INSERTION_RUN) {
      for (int i = lo + 1; i < hi; i++) {
        int x = a[i];
        int j = i - 1;
        while (j >= lo && compare(a[j], x) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = x;
      }
      return;
    }
    int mid = (lo + hi) >>> 1;
    sort(a, tmp, lo, mid);
    sort(a, tmp, mid, hi);
    if (compare(a[mid - 1], a[mid]) <= 0) {
      return; // the halves are in order already: a run the batch had
    }
    System.arraycopy(a, lo, tmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      // Ties take the left half's op: the earlier one in the batch stays first.
      a[k] = j >= hi || (i < mid && compare(tmp[i], tmp[j]) <= 0) ? tmp[i++] : tmp[j++];
    }
  }
}
