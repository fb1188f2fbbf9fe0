package io.ankusa.store.spi;

/**
 * The directory holds a store this code cannot open as asked: families the caller did not list
 * (typically a newer release's store opened by an older release), a layout format newer than the
 * code, or files of another engine. Nothing was changed on disk.
 */
public class StoreFormatException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreFormatException(String message) {
    super(message);
  }

  public StoreFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
