package io.ankusa.store.bench;

import io.ankusa.store.etcd.LocalEtcdCluster;
import java.nio.file.Path;

/**
 * The bench JVM's local etcd cluster: three members on loopback, started from the etcd binary on
 * the PATH on first use with the limits the queue's writer needs, data under {@code etcd-cluster}
 * beside the first bench store that asked; killed and deleted when the JVM exits. Every etcd bench
 * store of the run lives on it, each under a prefix of its own. Members fsync their log as in
 * production: a {@code SYNC} write costs a consensus round whose quorum fsynced it.
 */
public final class BenchEtcd {
  private static LocalEtcdCluster cluster;

  private BenchEtcd() {}

  /** The cluster's endpoints, starting it under {@code near/etcd-cluster} on first call. */
  public static synchronized String endpoints(Path near) {
    if (cluster == null) {
      LocalEtcdCluster c =
          LocalEtcdCluster.start(
              near.resolve("etcd-cluster"), 3, LocalEtcdCluster.Limits.forTheQueue());
      Runtime.getRuntime().addShutdownHook(new Thread(c::delete, "ankusa-bench-etcd-stop"));
      cluster = c;
    }
    return cluster.endpoints();
  }
}
