package io.ankusa.store.bench.migration;

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

/**
 * A {@link Store} that hands every call to another one unchanged: the base of the migration bench's
 * decorators, which override the calls they observe or change. Byte arrays pass through untouched,
 * so ownership is the delegate's ({@link Store}'s javadoc). Closing it closes the delegate.
 */
abstract class ForwardingStore implements Store {
  /** The store every call goes to. */
  protected final Store delegate;

  ForwardingStore(Store delegate) {
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
