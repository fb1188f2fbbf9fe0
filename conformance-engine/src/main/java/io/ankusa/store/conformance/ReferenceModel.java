package io.ankusa.store.conformance;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The engine suite's oracle: what a {@link io.ankusa.store.spi.Store} holds after a sequence of
 * batches, written as plainly as it can be (one sorted map per family, every op applied in order)
 * and shared with no backend, so the model-based property never compares a backend with itself.
 *
 * <p>It checks nothing a backend must refuse (the properties that check refusals use the backend
 * alone): REQUIRES the batches it is given were accepted by the backend under test. Not
 * thread-safe; a {@link #copy} is the model of a snapshot.
 */
public final class ReferenceModel implements ReadView {
  private final Map<String, TreeMap<byte[], byte[]>> families = new LinkedHashMap<>();

  /** An empty model of {@code families}. */
  public ReferenceModel(List<String> families) {
    families.forEach(f -> this.families.put(f, new TreeMap<>(Bytes::compare)));
  }

  /** The model as it is now; later batches do not change the copy. */
  public ReferenceModel copy() {
    ReferenceModel copy = new ReferenceModel(List.copyOf(families.keySet()));
    families.forEach((f, map) -> copy.families.get(f).putAll(map));
    return copy;
  }

  /** Applies every op of {@code batch}, in order. */
  public void apply(Batch batch) {
    batch.forEach(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            family(p.family()).put(p.key().clone(), p.value().clone());
          }

          @Override
          public void delete(Op.Delete d) {
            family(d.family()).remove(d.key());
          }

          @Override
          public void deleteRange(Op.DeleteRange r) {
            if (Bytes.compare(r.lo(), r.hi()) < 0) {
              family(r.family()).subMap(r.lo(), true, r.hi(), false).clear();
            }
          }

          @Override
          public void merge(Op.Merge m) {
            byte[] old = family(m.family()).get(m.key());
            long current = old == null ? 0 : Int64Add.decode(m.family(), m.key(), old);
            family(m.family())
                .put(m.key().clone(), Int64Add.encode(Int64Add.apply(current, m.delta())));
          }
        });
  }

  @Override
  public byte[] get(String family, byte[] key) {
    byte[] v = family(family).get(key);
    return v == null ? null : v.clone();
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    List<byte[]> out = new ArrayList<>(keys.size());
    keys.forEach(k -> out.add(get(family, k)));
    return out;
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    TreeMap<byte[], byte[]> map = family(family);
    NavigableMap<byte[], byte[]> range =
        hi == null
            ? map.tailMap(lo, true)
            : Bytes.compare(lo, hi) >= 0
                ? new TreeMap<>(Bytes::compare)
                : map.subMap(lo, true, hi, false);
    List<Entry> entries = new ArrayList<>();
    (direction == Direction.REVERSE ? range.descendingMap() : range)
        .forEach((k, v) -> entries.add(new Entry(k.clone(), v.clone())));
    Iterator<Entry> it = entries.iterator();
    return new Scan() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Entry next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public long counter(String family, byte[] key) {
    byte[] v = family(family).get(key);
    return v == null ? 0 : Int64Add.decode(family, key, v);
  }

  private TreeMap<byte[], byte[]> family(String family) {
    TreeMap<byte[], byte[]> map = families.get(family);
    if (map == null) {
      throw new IllegalArgumentException(
          "the model has no family '" + family + "'; it has " + families.keySet());
    }
    return map;
  }
}
