package io.ankusa.store.spi;

/**
 * A write or a WAL sync failed. What the failed call wrote may or may not be durable; the caller
 * must treat it as not acknowledged, call {@link Store#reportWriteFailure(Throwable)} so the
 * backend can reopen its engine, and retry.
 */
public class StoreWriteFailedException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreWriteFailedException(String message) {
    super(message);
  }

  public StoreWriteFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
