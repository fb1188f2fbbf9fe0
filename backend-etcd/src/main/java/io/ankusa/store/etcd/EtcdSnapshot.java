package io.ankusa.store.etcd;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.StoreClosedException;
import io.etcd.jetcd.KV;

/**
 * A snapshot: reads at the revision that was current when {@link EtcdStore#snapshot()} returned,
 * which etcd keeps readable until it is compacted; the store's {@link CompactionPins} hold it until
 * the snapshot closes. Costs nothing on the cluster while open. Safe to use from several threads.
 *
 * <p>Ownership: the store closes it when the store closes; scans open on it are closed with it.
 */
final class EtcdSnapshot extends EtcdView implements Snapshot, OpenResources.Resource {
  private final long revision;
  private final CompactionPins pins;
  private final OpenResources owner;
  private final OpenResources scans = new OpenResources();
  private volatile String closedBecause;

  /** REQUIRES: {@code revision} is registered with {@code pins}; this snapshot releases it. */
  EtcdSnapshot(
      KV kv,
      FamilyCatalog catalog,
      EtcdKeys keys,
      long timeoutMs,
      long readBudgetMs,
      String cluster,
      long revision,
      CompactionPins pins,
      OpenResources owner) {
    super(kv, catalog, keys, timeoutMs, readBudgetMs, cluster);
    this.revision = revision;
    this.pins = pins;
    this.owner = owner;
    owner.add(this);
  }

  @Override
  void checkOpen() {
    String why = closedBecause;
    if (why != null) {
      throw new StoreClosedException(
          "etcd snapshot at revision " + revision + " is closed: " + why);
    }
  }

  @Override
  long fixedRevision() {
    return revision;
  }

  @Override
  long mustSee() {
    return 0; // reads at its revision: exact on any member that applied it
  }

  @Override
  void saw(long r) {}

  @Override
  boolean hold(long r) {
    return true;
  }

  @Override
  void letGo(long r) {}

  @Override
  OpenResources scans() {
    return scans;
  }

  @Override
  String label() {
    return "an etcd snapshot at revision " + revision;
  }

  @Override
  public void close() {
    closeFrom("it was closed by its owner");
  }

  @Override
  public void closeFrom(String reason) {
    synchronized (this) {
      if (closedBecause != null) {
        return;
      }
      closedBecause = reason;
    }
    scans.closeAll(
        "its snapshot "
            + (reason.startsWith("it was closed") ? "was closed" : "is closed: " + reason));
    pins.release(revision);
    owner.remove(this);
  }
}
