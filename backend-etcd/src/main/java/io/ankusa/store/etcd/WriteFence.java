package io.ankusa.store.etcd;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import java.util.List;

/**
 * What makes a write transaction apply only while this process owns the store: the compares every
 * write carries, and the test of the owner key a refused transaction (or {@code
 * reportWriteFailure}) reads back. {@link Ownership} is the one fence of the backend; tests build
 * stores with a fence that compares nothing, to show the suite refuses them.
 */
interface WriteFence {
  /** The compares every write transaction carries. */
  List<Cmp> compares();

  /**
   * Whether {@code ownerNow} (the owner key as read, or null when absent) still names this process.
   */
  boolean holds(KeyValue ownerNow);

  /** Says who owns the store, for a message; {@code ownerNow} as in {@link #holds}. */
  String describe(KeyValue ownerNow);
}
