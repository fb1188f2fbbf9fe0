package io.ankusa.store.cli;

import io.ankusa.store.etcd.LocalEtcdCluster;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The local etcd cluster of {@code demo --backend etcd} without {@code --etcd-endpoints}: three
 * members on loopback, started from the etcd binary on the PATH, their data in {@code DIR.etcd}
 * beside the store directory (so a second demo on the same directory finds the same cluster, on the
 * same ports), stopped when the demo ends.
 */
final class DemoEtcdCluster implements AutoCloseable {
  private final LocalEtcdCluster cluster;

  private DemoEtcdCluster(LocalEtcdCluster cluster) {
    this.cluster = cluster;
  }

  /** The cluster the demo needs, or null: another backend, or endpoints given. */
  static DemoEtcdCluster startIfNeeded(
      String backend, String endpoints, Path dir, PrintWriter out) {
    if (!backend.equals("etcd") || endpoints != null) {
      return null;
    }
    if (LocalEtcdCluster.binary().isEmpty()) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT,
          "--backend etcd needs --etcd-endpoints, or the etcd"
              + " binary on the PATH to start a local cluster (apt-get install etcd-server)");
    }
    Path abs = dir.toAbsolutePath().normalize();
    Path base = abs.resolveSibling(abs.getFileName() + ".etcd");
    out.printf("demo: starting a local 3-member etcd cluster, data in %s%n", base);
    out.flush();
    return new DemoEtcdCluster(
        LocalEtcdCluster.start(base, 3, LocalEtcdCluster.Limits.forTheQueue()));
  }

  String endpoints() {
    return cluster.endpoints();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
