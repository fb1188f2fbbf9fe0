package io.ankusa.store.etcd;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scans and snapshots open on a store (or on a snapshot), so that closing the store, closing
 * the snapshot or {@code reportWriteFailure} closes them and lets go of the revisions they pin.
 */
final class OpenResources {
  /** Something that reads at a pinned revision until closed. */
  interface Resource {
    /**
     * Closes it; later use throws {@link io.ankusa.store.spi.StoreClosedException} saying {@code
     * reason}.
     */
    void closeFrom(String reason);
  }

  private final Set<Resource> open = ConcurrentHashMap.newKeySet();

  void add(Resource r) {
    open.add(r);
  }

  void remove(Resource r) {
    open.remove(r);
  }

  /** Closes every resource open now. */
  void closeAll(String reason) {
    for (Resource r : open.toArray(new Resource[0])) {
      r.closeFrom(reason);
      open.remove(r);
    }
  }
}
