package io.ankusa.store.conformance;

import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The memory backend made to claim {@code corruptionInjection}: {@link #corrupt} marks the middle
 * fifth of a family's keys as damaged, and reads meeting a damaged key throw {@link
 * StoreCorruptionException} — or, when {@code quiet} (the mutant), a scan ends there as if the range
 * were exhausted, the bug {@code scanNeverEndsEarlyOnCorruption} exists for.
 */
final class DamageableMemoryFixture implements BackendFixture {
  /** A damaged key range [lo, hi) of one family. */
  private record Damage(String family, byte[] lo, byte[] hi) {
    boolean covers(String f, byte[] key) {
      return family.equals(f) && Bytes.compare(lo, key) <= 0 && Bytes.compare(key, hi) < 0;
    }
  }

  private static final Map<Path, Damage> DAMAGE = new ConcurrentHashMap<>();
  private final MemoryFixture memory = new MemoryFixture();
  private final boolean quiet;

  DamageableMemoryFixture(boolean quiet) {
    this.quiet = quiet;
  }

  @Override
  public StoreProvider provider() {
    return memory.provider();
  }

  @Override
  public Capabilities capabilities() {
    Capabilities c = memory.capabilities();
    return new Capabilities(c.concurrentWriters(), c.snapshots(), c.durableAfterProcessKill(), true, c.filesInDirectory(),
        c.maxKeyBytes(), c.maxValueBytes());
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    Store store = memory.open(dir, families);
    Damage damage = DAMAGE.get(key(dir));
    return damage == null ? store : new DamagedStore(store, damage, quiet);
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    List<byte[]> keys = new ArrayList<>();
    try (Store raw = memory.open(dir, families); Scan scan = raw.scan(family, new byte[0], null, Direction.FORWARD)) {
      scan.forEachRemaining(e -> keys.add(e.key()));
    }
    if (keys.size() >= 5) {
      DAMAGE.put(key(dir), new Damage(family, keys.get(keys.size() * 2 / 5), keys.get(keys.size() * 3 / 5)));
    }
  }

  @Override
  public void discard(Path dir) {
    DAMAGE.remove(key(dir));
    MemoryStoreProvider.discard(dir);
  }

  @Override
  public String name() {
    return quiet ? "memory mutant CORRUPTION_ENDS_SCAN" : "damageable memory";
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  private static final class DamagedStore extends ForwardingStore {
    private final Damage damage;
    private final boolean quiet;

    DamagedStore(Store delegate, Damage damage, boolean quiet) {
      super(delegate);
      this.damage = damage;
      this.quiet = quiet;
    }

    private StoreCorruptionException corrupt(String family, byte[] key) {
      return new StoreCorruptionException("checksum mismatch in family '" + family + "' at key " + Bytes.hex(key)
          + " (injected by the conformance self-test)");
    }

    @Override
    public byte[] get(String family, byte[] key) {
      if (damage.covers(family, key)) {
        throw corrupt(family, key);
      }
      return delegate.get(family, key);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      for (byte[] k : keys) {
        if (damage.covers(family, k)) {
          throw corrupt(family, k);
        }
      }
      return delegate.multiGet(family, keys);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      Scan inner = delegate.scan(family, lo, hi, direction);
      return new Scan() {
        private Entry ahead;
        private boolean ended;

        @Override
        public boolean hasNext() {
          if (ahead != null) {
            return true;
          }
          if (ended || !inner.hasNext()) {
            return false;
          }
          Entry e = inner.next();
          if (damage.covers(family, e.key())) {
            if (quiet) {
              ended = true;
              return false;
            }
            throw corrupt(family, e.key());
          }
          ahead = e;
          return true;
        }

        @Override
        public Entry next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          Entry e = ahead;
          ahead = null;
          return e;
        }

        @Override
        public void close() {
          inner.close();
        }
      };
    }
  }
}
