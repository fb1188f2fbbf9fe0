package io.ankusa.store.spi;

/**
 * The store, snapshot or scan was used after {@code close()} (property {@code
 * everyCallAfterCloseThrows}). Open the store again.
 */
public class StoreClosedException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreClosedException(String message) {
    super(message);
  }
}
