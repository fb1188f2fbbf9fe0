package io.ankusa.store.spi;

/**
 * The engine found data it cannot trust: a checksum mismatch, a truncated file, an I/O error while
 * reading. A scan that meets corruption throws this; it never ends early as if the range were
 * exhausted (property {@code scanNeverEndsEarlyOnCorruption}). Restore from a backup or run the
 * engine's repair tool; do not keep writing to the store.
 */
public class StoreCorruptionException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreCorruptionException(String message) {
    super(message);
  }

  public StoreCorruptionException(String message, Throwable cause) {
    super(message, cause);
  }
}
