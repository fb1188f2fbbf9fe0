package io.ankusa.store.spi;

/**
 * The caller broke a {@code REQUIRES:} of the contract: an unknown family, an empty or oversized
 * key, a merge into a family without counters, a range with {@code lo > hi}, an unknown backend
 * name. Nothing was written: a batch with one bad op is refused whole.
 */
public class StoreArgumentException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreArgumentException(String message) {
    super(message);
  }
}
