package io.ankusa.store.spi;

/**
 * The root of every exception a {@link Store} throws. Unchecked: a storage engine fails in ways the
 * caller usually cannot handle locally, and the subclasses say what kind of failure it was.
 *
 * <p>Messages name the family, the key in hex (see {@link Bytes#hex(byte[])}) where there is one,
 * and what the caller should do next.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
