package io.ankusa.store.etcd;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Leaves every test of this module out when there is no etcd binary to start the test clusters
 * from, and says so once: {@code UNVERIFIED backend-etcd: etcd not found on PATH (apt-get install
 * etcd-server)}. Registered for the JUnit Platform in {@code META-INF/services}, so it covers the
 * jqwik properties and the JUnit tests alike; the module's tests never pass without a cluster.
 */
public final class EtcdAvailable implements PostDiscoveryFilter {
  static final String UNVERIFIED =
      "UNVERIFIED backend-etcd: etcd not found on PATH (apt-get install etcd-server)";
  private static final AtomicBoolean SAID = new AtomicBoolean();

  @Override
  public FilterResult apply(TestDescriptor descriptor) {
    if (LocalEtcdCluster.binary().isPresent()) {
      return FilterResult.included("etcd found");
    }
    if (SAID.compareAndSet(false, true)) {
      System.out.println(UNVERIFIED);
    }
    return FilterResult.excluded(UNVERIFIED);
  }
}
