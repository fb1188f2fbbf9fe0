package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;

/** Scans of the archive obligations fail on one thread. */
final class FailingArchiveScans extends ForwardingStore {
  final StoreException injected =
      new StoreException("injected failure of a scan of 'a' by the conformance suite");
  volatile Thread failScansOf;
  volatile Runnable beforeFailing = () -> {};

  FailingArchiveScans(Store delegate) {
    super(delegate);
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    if (Thread.currentThread() == failScansOf
        && family.equals(Format3.INDEX)
        && lo.length > 0
        && lo[0] == 'a') {
      beforeFailing.run();
      throw injected;
    }
    return delegate.scan(family, lo, hi, direction);
  }
}
