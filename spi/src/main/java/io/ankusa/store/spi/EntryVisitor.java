package io.ankusa.store.spi;

/**
 * Receives the entries of {@link ReadView#visit}, one call per entry in scan order.
 *
 * <p>Ownership: {@code key} and {@code value} are the backend's, valid only during the call. A
 * backend may hand the same arrays again, overwritten, for a later entry of the same visit (the
 * RocksDB backend reuses an array whose length matches), so copy what you keep ({@code clone()})
 * and never change them. Decoding them into fresh objects during the call is the intended use.
 */
@FunctionalInterface
public interface EntryVisitor {
  /**
   * Called with one entry of the range. Return {@code true} to receive the next entry, {@code
   * false} to stop the visit here.
   */
  boolean visit(byte[] key, byte[] value);
}
