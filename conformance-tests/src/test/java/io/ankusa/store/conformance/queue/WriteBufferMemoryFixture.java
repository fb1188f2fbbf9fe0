package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.NamedOptions;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory backend behind a pretend write buffer, for mutants that go wrong only across a flush:
 * the fixture's {@link #flush} hook "flushes" the buffer, and under the option set {@value
 * #TINY_BUFFER} the store flushes by itself after every {@value #TINY_BUFFER_WRITES} writes, as an
 * engine with a tiny memtable would. With {@link Defect#NONE} a flush changes nothing (the honest
 * control); with a defect it breaks the promise a real engine breaks when its flush is wrong.
 * Without a flush — the default option set and no perturbation — every defect is exactly the memory
 * store.
 */
final class WriteBufferMemoryFixture implements BackendFixture {
  /** What a flush gets wrong. */
  enum Defect {
    /** Nothing: the control. */
    NONE,
    /**
     * Merge operands still in the buffer at a flush are lost: the flush writes the base value only.
     */
    FLUSH_LOSES_MERGE_OPERANDS,
    /**
     * A range delete written after a flush spares the keys that were flushed (it covers the buffer
     * only).
     */
    RANGE_DELETE_SPARES_FLUSHED_KEYS
  }

  /** The store option that makes the store flush by itself every N writes (0: never). */
  static final String FLUSH_EVERY = "mutant.flushEveryWrites";

  /** The option set under which the store flushes by itself. */
  static final String TINY_BUFFER = "tiny-buffer";

  /** How often the store flushes by itself under {@value #TINY_BUFFER}. */
  static final int TINY_BUFFER_WRITES = 2;

  private final MemoryFixture memory = new MemoryFixture();
  private final Defect defect;
  private final boolean offersTinyBuffer;

  /**
   * {@code offersTinyBuffer}: whether {@link #optionSets()} lists {@value #TINY_BUFFER} after the
   * default.
   */
  WriteBufferMemoryFixture(Defect defect, boolean offersTinyBuffer) {
    this.defect = defect;
    this.offersTinyBuffer = offersTinyBuffer;
  }

  @Override
  public StoreProvider provider() {
    return memory.provider();
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families, StoreOptions options) {
    return new BufferedStore(
        memory.open(dir, families, options), defect, options.longProperty(FLUSH_EVERY, 0));
  }

  @Override
  public Capabilities capabilities() {
    return memory.capabilities();
  }

  @Override
  public void discard(Path dir) {
    memory.discard(dir);
  }

  @Override
  public List<NamedOptions> optionSets() {
    if (!offersTinyBuffer) {
      return List.of(new NamedOptions(NamedOptions.DEFAULT, options()));
    }
    return List.of(
        new NamedOptions(NamedOptions.DEFAULT, options()),
        new NamedOptions(
            TINY_BUFFER, options().with(FLUSH_EVERY, Integer.toString(TINY_BUFFER_WRITES))));
  }

  @Override
  public void flush(Store store) {
    ((BufferedStore) store).flushBuffer();
  }

  @Override
  public String name() {
    return "memory-write-buffer-" + defect;
  }

  /** The memory store, its buffer's bookkeeping, and the defect applied at and after a flush. */
  private static final class BufferedStore extends ForwardingStore {
    private final Defect defect;
    private final long flushEvery;

    /**
     * Per counters family: the sum of the merges on each key (hex) since the last flush or
     * put/delete.
     */
    private final Map<String, Map<String, Long>> unflushedMerges = new HashMap<>();

    /** Per family: the keys (hex) present at the last flush. */
    private final Map<String, List<byte[]>> flushedKeys = new HashMap<>();

    private long writes;

    BufferedStore(Store delegate, Defect defect, long flushEvery) {
      super(delegate);
      this.defect = defect;
      this.flushEvery = flushEvery;
    }

    @Override
    public synchronized void write(Batch batch, Durability durability) {
      Batch written =
          defect == Defect.RANGE_DELETE_SPARES_FLUSHED_KEYS ? spareFlushedKeys(batch) : batch;
      delegate.write(written, durability);
      batch.ops().forEach(this::track);
      if (flushEvery > 0 && ++writes % flushEvery == 0) {
        flushBuffer();
      }
    }

    synchronized void flushBuffer() {
      switch (defect) {
        case NONE -> {}
        case FLUSH_LOSES_MERGE_OPERANDS -> {
          Batch lose = new Batch();
          unflushedMerges.forEach(
              (family, sums) ->
                  sums.forEach(
                      (key, sum) -> {
                        if (sum != 0) {
                          lose.merge(family, Bytes.fromHex(key), -sum);
                        }
                      }));
          if (!lose.isEmpty()) {
            delegate.write(lose, Durability.NO_SYNC);
          }
        }
        case RANGE_DELETE_SPARES_FLUSHED_KEYS -> {
          flushedKeys.clear();
          for (FamilySpec f : delegate.families()) {
            List<byte[]> keys = new ArrayList<>();
            try (Scan scan = delegate.scan(f.name(), new byte[0], null, Direction.FORWARD)) {
              while (scan.hasNext()) {
                keys.add(scan.next().key());
              }
            }
            flushedKeys.put(f.name(), keys);
          }
        }
      }
      unflushedMerges.clear();
    }

    /**
     * The batch with each range delete followed by puts that restore the flushed keys it covered.
     */
    private Batch spareFlushedKeys(Batch batch) {
      Batch out = new Batch();
      for (Op op : batch.ops()) {
        out.add(op);
        if (op instanceof Op.DeleteRange r) {
          for (byte[] k : flushedKeys.getOrDefault(r.family(), List.of())) {
            byte[] value =
                Bytes.compare(k, r.lo()) >= 0 && Bytes.compare(k, r.hi()) < 0
                    ? delegate.get(r.family(), k)
                    : null;
            if (value != null) {
              out.put(r.family(), k, value);
            }
          }
        }
      }
      return out;
    }

    private void track(Op op) {
      if (op instanceof Op.Merge m) {
        unflushedMerges
            .computeIfAbsent(m.family(), f -> new HashMap<>())
            .merge(Bytes.fullHex(m.key()), m.delta(), Long::sum);
      } else if (op instanceof Op.Put p) {
        forget(p.family(), p.key());
      } else if (op instanceof Op.Delete d) {
        forget(d.family(), d.key());
      } else if (op instanceof Op.DeleteRange r) {
        Map<String, Long> sums = unflushedMerges.get(r.family());
        if (sums != null) {
          sums.keySet()
              .removeIf(
                  k ->
                      Bytes.compare(Bytes.fromHex(k), r.lo()) >= 0
                          && Bytes.compare(Bytes.fromHex(k), r.hi()) < 0);
        }
      }
    }

    private void forget(String family, byte[] key) {
      Map<String, Long> sums = unflushedMerges.get(family);
      if (sums != null) {
        sums.remove(Bytes.fullHex(key));
      }
    }
  }
}
