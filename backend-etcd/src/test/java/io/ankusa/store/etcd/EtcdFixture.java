package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The etcd backend as the conformance suite sees it: stores on the test JVM's shared cluster
 * ({@link TestCluster#shared()}), each under a fresh prefix, deleted when the suite discards the
 * store. It cannot damage the members' data files: {@link #corrupt} says so. {@link #flush}
 * compacts the cluster's history as far as the open reads allow, so the snapshot and model
 * properties check reads across a compaction.
 */
class EtcdFixture implements BackendFixture {
  private final StoreProvider provider = new EtcdStoreProvider();

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public StoreOptions options() {
    return TestCluster.options(TestCluster.shared());
  }

  @Override
  public Capabilities capabilities() {
    return EtcdStore.CAPABILITIES;
  }

  /**
   * Refuses: the store's directory holds only the marker and the prefix; the data lives in the
   * members' files.
   */
  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    throw new UnsupportedOperationException(
        "the entries live in the etcd members' databases, which the fixture"
            + " cannot reach; the store directory holds only the marker, the endpoints and the prefix");
  }

  @Override
  public void flush(Store store) {
    EtcdStore s = unwrap(store);
    if (s != null) {
      s.compactNow();
    }
  }

  /** Deletes every key under the prefix of the store in {@code dir}. */
  @Override
  public void discard(Path dir) {
    EtcdTarget.read(dir)
        .ifPresent(
            t -> {
              Client client = SharedClients.acquire(t.endpoints(), TestCluster.REQUEST_TIMEOUT_MS);
              try {
                EtcdKeys keys = new EtcdKeys(t.prefix(), t.storeId());
                client
                    .getKVClient()
                    .delete(
                        keys.storeStart(),
                        DeleteOption.builder().withRange(keys.storeEnd()).build())
                    .get(TestCluster.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
              } catch (Exception e) {
                throw new IllegalStateException(
                    "cannot delete the prefix " + t.prefix() + " of " + dir + ": " + e, e);
              } finally {
                SharedClients.release(client);
              }
            });
  }

  /** The etcd store itself, or null when the suite wrapped it. */
  static EtcdStore unwrap(Store store) {
    return store instanceof EtcdStore e ? e : null;
  }
}
