package io.ankusa.store.kit.forwarding;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@link Store} that hands every call to another. Extend it to wrap a store and override only the
 * calls you change: the conformance suite's mutants break one call each, its recording store
 * records reads, the benches time calls, and a backend author can inject faults the same way.
 * Ownership and every guarantee are the delegate's. Closing it closes the delegate.
 *
 * <p>{@link #visit} is not forwarded: the interface's default walks this store's {@link #scan}, so
 * a subclass that changes {@code scan} changes {@code visit} alike; override {@code visit} too
 * (calling the delegate's) to keep the delegate's faster visit.
 */
public class ForwardingStore implements Store {
  /** The wrapped store. */
  protected final Store delegate;

  public ForwardingStore(Store delegate) {
    this.delegate = delegate;
  }

  @Override
  public byte[] get(String family, byte[] key) {
    return delegate.get(family, key);
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    return delegate.multiGet(family, keys);
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    return delegate.scan(family, lo, hi, direction);
  }

  @Override
  public long counter(String family, byte[] key) {
    return delegate.counter(family, key);
  }

  @Override
  public void write(Batch batch, Durability durability) {
    delegate.write(batch, durability);
  }

  @Override
  public void syncWal() {
    delegate.syncWal();
  }

  @Override
  public Snapshot snapshot() {
    return delegate.snapshot();
  }

  @Override
  public void reportWriteFailure(Throwable cause) {
    delegate.reportWriteFailure(cause);
  }

  @Override
  public Capabilities capabilities() {
    return delegate.capabilities();
  }

  @Override
  public Map<String, Long> engineStatistics() {
    return delegate.engineStatistics();
  }

  @Override
  public List<FamilySpec> families() {
    return delegate.families();
  }

  @Override
  public Path directory() {
    return delegate.directory();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
