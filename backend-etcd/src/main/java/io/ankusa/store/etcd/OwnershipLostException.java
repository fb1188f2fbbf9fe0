package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreWriteFailedException;

/**
 * This process no longer owns the store: its owner key in the cluster is gone (its lease lapsed
 * while the process was paused or cut off) or belongs to another process, which has taken the store
 * over. Every write carries the owner key's revision as a fencing token, so the write that throws
 * this was refused by the cluster and applied nothing; no later write of this store object is ever
 * applied. {@code reportWriteFailure} closes the store; open it again, which waits for the current
 * owner to let go and recovers the queue as a restart does.
 */
public class OwnershipLostException extends StoreWriteFailedException {
  private static final long serialVersionUID = 1L;

  public OwnershipLostException(String message) {
    super(message);
  }
}
