package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;

/**
 * The etcd clusters of a test JVM, each 3 members on loopback started from the etcd binary on first
 * use and killed when the JVM exits, data and member logs under {@code target/etcd-clusters/NAME}
 * (emptied when the next run starts it):
 *
 * <ul>
 *   <li>{@link #shared()}: every conformance layer's stores, each under a prefix of its own;
 *       nothing kills its members;
 *   <li>{@link #disruptable()}: the failover, fencing and crash tests, which kill and pause members
 *       and restore them before they end.
 * </ul>
 *
 * One surefire fork runs the module's tests, so each cluster starts once per build.
 */
final class TestCluster {
  /** The owner lease's TTL in tests: short, so a takeover after a pause is quick. */
  static final long LEASE_TTL_SECONDS = 2;

  /** The write budget: above a leader election on a loaded 2-core machine (one took over 3 s). */
  static final long REQUEST_TIMEOUT_MS = 8_000;

  static final long TAKEOVER_WAIT_MS = 15_000;
  static final long RECOVER_WAIT_MS = 30_000;

  /** Low, so the conformance layers compact (and check snapshots across it) often. */
  static final long COMPACT_EVERY = 500;

  private static LocalEtcdCluster shared;
  private static LocalEtcdCluster disruptable;

  private TestCluster() {}

  static synchronized LocalEtcdCluster shared() {
    if (shared == null) {
      shared = start("shared");
    }
    return shared;
  }

  static synchronized LocalEtcdCluster disruptable() {
    if (disruptable == null) {
      disruptable = start("disruptable");
    }
    return disruptable;
  }

  private static LocalEtcdCluster start(String name) {
    Path base =
        Path.of(System.getProperty("basedir", "."), "target", "etcd-clusters", name)
            .toAbsolutePath();
    deleteQuietly(base);
    LocalEtcdCluster.Limits queue = LocalEtcdCluster.Limits.forTheQueue();
    // a smaller quota than a deployment's: the members preallocate nothing for it, but keep the
    // test's disk use bounded
    LocalEtcdCluster c =
        LocalEtcdCluster.start(
            base,
            3,
            new LocalEtcdCluster.Limits(
                queue.maxTxnOps(),
                queue.maxRequestBytes(),
                2L << 30,
                queue.heartbeatMs(),
                queue.electionMs()));
    return c; // the members' data and logs stay under target/ for a look after a failure; the next
    // run empties it
  }

  /** The options every test store is opened with on {@code cluster}. */
  static StoreOptions options(LocalEtcdCluster cluster) {
    return StoreOptions.defaults()
        .with(EtcdSettings.ENDPOINTS, cluster.endpoints())
        .with(EtcdSettings.LEASE_TTL, Long.toString(LEASE_TTL_SECONDS))
        .with(EtcdSettings.REQUEST_TIMEOUT, Long.toString(REQUEST_TIMEOUT_MS))
        .with(EtcdSettings.TAKEOVER_WAIT, Long.toString(TAKEOVER_WAIT_MS))
        .with(EtcdSettings.RECOVER_WAIT, Long.toString(RECOVER_WAIT_MS))
        .with(EtcdSettings.COMPACT_EVERY, Long.toString(COMPACT_EVERY));
  }

  private static void deleteQuietly(Path root) {
    if (!java.nio.file.Files.exists(root)) {
      return;
    }
    try (var paths = java.nio.file.Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException | RuntimeException e) {
      // a temporary directory left behind is harmless; the next run empties it
    }
  }
}
