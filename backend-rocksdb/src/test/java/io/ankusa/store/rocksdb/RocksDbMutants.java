package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.conformance.queue.DurabilityConformance;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The RocksDB backend broken on purpose the way outside backends were found broken, where the
 * memory backend cannot show it: the breaks are about what reaches the disk. Each is a provider of
 * its own (registered in this module's test service file, so the suite's child JVMs open it by
 * name) wrapping real RocksDB stores; {@link RocksDbMutantRejectionTest} checks that the suite
 * rejects each.
 */
final class RocksDbMutants {
  private RocksDbMutants() {}

  /**
   * Every write goes to RocksDB {@code NO_SYNC} and {@code syncWal()} does nothing: the engine
   * hands each write to the OS at commit and never fsyncs (SQLite with {@code synchronous=OFF}). A
   * process kill keeps all of it; a power cut does not.
   */
  public static final class NoFsync extends Wrapping {
    public static final String NAME = "rocksdb-mutant-no-fsync";

    public NoFsync() {
      super(NAME);
    }

    @Override
    Store wrap(Store store) {
      return new ForwardingStore(store) {
        @Override
        public void write(Batch batch, Durability durability) {
          delegate.write(batch, Durability.NO_SYNC);
        }

        @Override
        public void syncWal() {}
      };
    }
  }

  /**
   * A {@code SYNC} write is acknowledged but held in this JVM, and committed (synced) only by the
   * next {@code syncWal()}, {@code NO_SYNC} write or close: a kill right after the write loses it.
   */
  public static final class SyncAtSyncWal extends Wrapping {
    public static final String NAME = "rocksdb-mutant-sync-at-syncwal";

    public SyncAtSyncWal() {
      super(NAME);
    }

    @Override
    Store wrap(Store store) {
      return new ForwardingStore(store) {
        private final List<Batch> pending = new ArrayList<>();

        @Override
        public synchronized void write(Batch batch, Durability durability) {
          if (durability == Durability.SYNC) {
            pending.add(batch);
            return;
          }
          commitPending();
          delegate.write(batch, durability);
        }

        @Override
        public synchronized void syncWal() {
          commitPending();
          delegate.syncWal();
        }

        @Override
        public synchronized void close() {
          commitPending();
          delegate.close();
        }

        private void commitPending() {
          pending.forEach(b -> delegate.write(b, Durability.SYNC));
          pending.clear();
        }
      };
    }
  }

  /** A provider of RocksDB stores behind a wrapper, under a name of its own. */
  abstract static class Wrapping implements StoreProvider {
    private final String name;
    private final StoreProvider rocksDb = new RocksDbStoreProvider();

    Wrapping(String name) {
      this.name = name;
    }

    abstract Store wrap(Store store);

    @Override
    public String name() {
      return name;
    }

    @Override
    public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
      return wrap(rocksDb.open(dir, options, families));
    }
  }

  /** The suite's view of a mutant: RocksDB's claims, the mutant's stores. */
  record Fixture(StoreProvider provider) implements BackendFixture {
    @Override
    public Capabilities capabilities() {
      return RocksDbStore.CAPABILITIES;
    }
  }

  /** The durability layer against {@link NoFsync}. */
  static final class NoFsyncDurabilitySuite extends DurabilityConformance {
    @Override
    protected BackendFixture fixture() {
      return new Fixture(new NoFsync());
    }
  }

  /** The engine layer against {@link NoFsync}. */
  static final class NoFsyncEngineSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new Fixture(new NoFsync());
    }
  }

  /** The engine layer against {@link SyncAtSyncWal}. */
  static final class SyncAtSyncWalEngineSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new Fixture(new SyncAtSyncWal());
    }
  }
}
