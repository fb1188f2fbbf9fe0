package io.ankusa.store.spi;

/**
 * The store has no room for the write: a disk is full, or a configured size limit (for example an
 * LMDB map size maximum) is reached. The failed batch was not applied. The message names the
 * directory and the option to raise.
 */
public class StoreFullException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreFullException(String message) {
    super(message);
  }

  public StoreFullException(String message, Throwable cause) {
    super(message, cause);
  }
}
