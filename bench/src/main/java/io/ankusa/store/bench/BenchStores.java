package io.ankusa.store.bench;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Opens the stores the benches measure, through the SPI, with the settings every bench uses: the
 * backends' defaults, except LMDB's map, which starts at 4 GiB so that no bench pays for (or waits
 * on) map growth in the middle of a measurement. A postgres store with no {@code postgres.url} (set
 * one with {@code -Dbench.store.postgres.url=jdbc:postgresql://HOST:PORT/DB}) goes to the bench
 * JVM's one embedded server ({@link BenchPostgres}, fsync on), started on first use. An etcd store
 * with no {@code etcd.endpoints} (set one with {@code
 * -Dbench.store.etcd.endpoints=http://HOST:PORT,...}) goes to the bench JVM's one local 3-member
 * cluster ({@link BenchEtcd}), started on first use from the etcd binary on the PATH. A system
 * property {@code bench.store.KEY=VALUE} adds the store option {@code KEY=VALUE} (e.g. {@code
 * -Dbench.store.rocksdb.maxSuccessiveMerges=0}), to measure a backend knob without a rebuild.
 */
public final class BenchStores {
  /** The SPI backends a bench can name. */
  public static final List<String> BACKENDS =
      List.of("memory", "rocksdb", "lmdb", "postgres", "etcd");

  /** System properties with this prefix become store options. */
  public static final String STORE_OPTION_PREFIX = "bench.store.";

  private BenchStores() {}

  /**
   * A new store of backend {@code backend} in {@code dir} (created if missing) with {@code
   * families}.
   *
   * @throws StoreArgumentException if no backend of that name is on the classpath
   */
  public static Store open(String backend, Path dir, List<FamilySpec> families) {
    return open(backend, dir, families, Map.of());
  }

  /**
   * {@link #open(String, Path, List)} with the store options {@code extra} added before the system
   * properties' (which win). Options of other backends are ignored by each backend.
   */
  public static Store open(
      String backend, Path dir, List<FamilySpec> families, Map<String, String> extra) {
    StoreOptions options =
        StoreOptions.defaults().with("lmdb.mapSizeBytes", String.valueOf(4L << 30));
    for (Map.Entry<String, String> e : extra.entrySet()) {
      options = options.with(e.getKey(), e.getValue());
    }
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith(STORE_OPTION_PREFIX)) {
        options =
            options.with(name.substring(STORE_OPTION_PREFIX.length()), System.getProperty(name));
      }
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the bench store directory " + dir, e);
    }
    if (backend.equals("postgres") && options.property("postgres.url", null) == null) {
      options =
          options
              .with("postgres.url", BenchPostgres.server().url())
              .with("postgres.user", BenchPostgres.server().user());
    }
    if (backend.equals("etcd") && options.property("etcd.endpoints", null) == null) {
      options =
          options.with("etcd.endpoints", BenchEtcd.endpoints(dir.toAbsolutePath().getParent()));
    }
    return StoreProvider.named(backend).open(dir, options, families);
  }

  /** Checks {@code backend} is one of {@link #BACKENDS}. */
  public static String requireBackend(String backend) {
    if (!BACKENDS.contains(backend)) {
      throw new StoreArgumentException(
          "unknown backend '" + backend + "'; the benches know " + BACKENDS);
    }
    return backend;
  }
}
