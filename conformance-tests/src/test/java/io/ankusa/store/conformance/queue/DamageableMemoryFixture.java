package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
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
 * The memory backend made damageable: {@link #corrupt} marks the middle fifth of a family's keys as
 * damaged, and reads meeting a damaged key throw {@link StoreCorruptionException} ({@link
 * Report#HONESTLY}) — or, in the mutants, a scan ends there as if the range were exhausted ({@link
 * Report#AS_END_OF_SCAN}), or the damaged entries are read back with altered values and no error
 * ({@link Report#AS_DATA}): the bugs {@code scanNeverEndsEarlyOnCorruption} exists for. It claims
 * {@code detectsDamage} unless made with {@code claimsDetection} false: an engine honest about not
 * detecting damage, whose case the suite must report as unverified with what it did, neither passed
 * nor failed. Made with {@code checksAtOpen}, its {@link #open} refuses a damaged store with
 * StoreCorruptionException (an open-time check, as an engine that checks its files at open has) and
 * {@link #openWithoutOpenTimeCheck} opens it anyway, so the reads are checked too; without {@code
 * readPastOpenCheck} it offers neither that open nor damage of an open store, and the read path
 * must end unverified.
 */
final class DamageableMemoryFixture implements BackendFixture {
  /** How reads meeting damage behave. */
  enum Report {
    /** They throw StoreCorruptionException. */
    HONESTLY,
    /** A scan ends at the damage as if its range were exhausted; point reads throw. */
    AS_END_OF_SCAN,
    /** Every read returns the damaged entries with altered values, without an error. */
    AS_DATA
  }

  /** A damaged key range [lo, hi) of one family. */
  private record Damage(String family, byte[] lo, byte[] hi) {
    boolean covers(String f, byte[] key) {
      return family.equals(f) && Bytes.compare(lo, key) <= 0 && Bytes.compare(key, hi) < 0;
    }
  }

  private static final Map<Path, Damage> DAMAGE = new ConcurrentHashMap<>();
  private final MemoryFixture memory = new MemoryFixture();
  private final Report report;
  private final boolean claimsDetection;
  private final boolean checksAtOpen;
  private final boolean readPastOpenCheck;

  DamageableMemoryFixture(Report report) {
    this(report, true);
  }

  DamageableMemoryFixture(Report report, boolean claimsDetection) {
    this(report, claimsDetection, false, false);
  }

  DamageableMemoryFixture(
      Report report, boolean claimsDetection, boolean checksAtOpen, boolean readPastOpenCheck) {
    this.report = report;
    this.claimsDetection = claimsDetection;
    this.checksAtOpen = checksAtOpen;
    this.readPastOpenCheck = readPastOpenCheck;
  }

  @Override
  public StoreProvider provider() {
    return memory.provider();
  }

  @Override
  public Capabilities capabilities() {
    Capabilities c = memory.capabilities();
    return c.toBuilder().detectsDamage(claimsDetection).build();
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    if (checksAtOpen && DAMAGE.containsKey(key(dir))) {
      throw new StoreCorruptionException(
          "the open-time check of "
              + dir
              + " found damaged entries (injected by the"
              + " conformance self-test)");
    }
    return openUnchecked(dir, families);
  }

  @Override
  public Store openWithoutOpenTimeCheck(Path dir, List<FamilySpec> families) {
    if (checksAtOpen && !readPastOpenCheck) {
      return BackendFixture.super.openWithoutOpenTimeCheck(dir, families);
    }
    return openUnchecked(dir, families);
  }

  private Store openUnchecked(Path dir, List<FamilySpec> families) {
    Store store = memory.open(dir, families);
    Damage damage = DAMAGE.get(key(dir));
    return damage == null ? store : new DamagedStore(store, damage, report);
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    List<byte[]> keys = new ArrayList<>();
    try (Store raw = memory.open(dir, families);
        Scan scan = raw.scan(family, new byte[0], null, Direction.FORWARD)) {
      scan.forEachRemaining(e -> keys.add(e.key()));
    }
    if (keys.size() >= 5) {
      DAMAGE.put(
          key(dir),
          new Damage(family, keys.get(keys.size() * 2 / 5), keys.get(keys.size() * 3 / 5)));
    }
  }

  @Override
  public void discard(Path dir) {
    DAMAGE.remove(key(dir));
    MemoryStoreProvider.discard(dir);
  }

  @Override
  public String name() {
    return switch (report) {
      case HONESTLY -> "damageable memory" + (checksAtOpen ? " checking at open" : "");
      case AS_END_OF_SCAN ->
          "memory mutant CORRUPTION_ENDS_SCAN" + (checksAtOpen ? "_BEHIND_OPEN_CHECK" : "");
      case AS_DATA ->
          claimsDetection
              ? "memory mutant DAMAGE_READ_AS_DATA"
              : "damageable memory, no detection claimed";
    };
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  private static final class DamagedStore extends ForwardingStore {
    private final Damage damage;
    private final Report report;

    DamagedStore(Store delegate, Damage damage, Report report) {
      super(delegate);
      this.damage = damage;
      this.report = report;
    }

    /** The value a damaged entry reads back as, in the AS_DATA mutant: its first byte flipped. */
    private static byte[] altered(byte[] value) {
      byte[] out = value.length == 0 ? new byte[1] : value.clone();
      out[0] ^= 0x40;
      return out;
    }

    private StoreCorruptionException corrupt(String family, byte[] key) {
      return new StoreCorruptionException(
          "checksum mismatch in family '"
              + family
              + "' at key "
              + Bytes.hex(key)
              + " (injected by the conformance self-test)");
    }

    @Override
    public byte[] get(String family, byte[] key) {
      if (damage.covers(family, key)) {
        if (report == Report.AS_DATA) {
          byte[] v = delegate.get(family, key);
          return v == null ? null : altered(v);
        }
        throw corrupt(family, key);
      }
      return delegate.get(family, key);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      for (byte[] k : keys) {
        if (damage.covers(family, k) && report != Report.AS_DATA) {
          throw corrupt(family, k);
        }
      }
      List<byte[]> values = new ArrayList<>(delegate.multiGet(family, keys));
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i) != null && damage.covers(family, keys.get(i))) {
          values.set(i, altered(values.get(i)));
        }
      }
      return values;
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
            switch (report) {
              case HONESTLY -> throw corrupt(family, e.key());
              case AS_END_OF_SCAN -> {
                ended = true;
                return false;
              }
              case AS_DATA -> e = new Entry(e.key(), altered(e.value()));
            }
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
