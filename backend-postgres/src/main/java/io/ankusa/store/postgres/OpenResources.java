package io.ankusa.store.postgres;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scans and snapshots open on a store (or on a snapshot), so that closing the store, closing
 * the snapshot or {@code reportWriteFailure} closes them and hands their connections back.
 */
final class OpenResources {
  /** Something that holds a connection until closed. */
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
