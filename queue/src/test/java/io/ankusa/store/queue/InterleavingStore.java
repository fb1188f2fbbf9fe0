package io.ankusa.store.queue;

import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.List;

/**
 * A store that forces one interleaving: the next scan of the {@code index} family whose lower bound
 * starts with a given prefix letter (or the next scan of another family) runs an operation when it is closed (or the next point read of a
 * family runs it when it returns) — after the transition that read has its rows and before it writes
 * them. The operation runs once, on the reading thread, holding no lock of the queue (transitions read
 * outside the guard). It also counts {@code multiGet} calls (the guard's re-reads) and, being a
 * {@link FaultInjectingStore}, can fail the next write, for the cases about what the guard reads and
 * what it forgets.
 */
final class InterleavingStore extends FaultInjectingStore {
  private String family;
  private byte prefix;
  private boolean anyPrefix;
  private Runnable between;
  private String getFamily;
  private Runnable afterGet;
  private boolean ran;
  private int multiGets;

  InterleavingStore(Store delegate) {
    super(delegate);
  }

  /** {@code multiGet} calls so far. */
  int multiGets() {
    return multiGets;
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    multiGets++;
    return delegate.multiGet(family, keys);
  }

  /** Runs {@code op} once, when the next index scan starting at prefix {@code letter} is closed. */
  void afterNextScanOf(char letter, Runnable op) {
    this.family = Format3.INDEX;
    this.prefix = (byte) letter;
    this.anyPrefix = false;
    this.between = op;
    this.ran = false;
  }

  /** Runs {@code op} once, when the next scan of {@code scannedFamily} (any bounds) is closed. */
  void afterNextScanOf(String scannedFamily, Runnable op) {
    this.family = scannedFamily;
    this.anyPrefix = true;
    this.between = op;
    this.ran = false;
  }

  /** Runs {@code op} once, when the next {@code get} of {@code family} returns. */
  void afterNextGetOf(String family, Runnable op) {
    this.getFamily = family;
    this.afterGet = op;
    this.ran = false;
  }

  @Override
  public byte[] get(String family, byte[] key) {
    byte[] value = delegate.get(family, key);
    if (afterGet != null && family.equals(getFamily)) {
      Runnable op = afterGet;
      afterGet = null;
      ran = true;
      op.run();
    }
    return value;
  }

  /** Whether the operation ran (a test that forced nothing proves nothing). */
  boolean ran() {
    return ran;
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    Scan scan = delegate.scan(family, lo, hi, direction);
    if (between == null || !family.equals(this.family) || !(anyPrefix || (lo.length > 0 && lo[0] == prefix))) {
      return scan;
    }
    Runnable op = between;
    between = null;
    return new Scan() {
      @Override
      public boolean hasNext() {
        return scan.hasNext();
      }

      @Override
      public Entry next() {
        return scan.next();
      }

      @Override
      public void close() {
        scan.close();
        ran = true;
        op.run();
      }
    };
  }
}
