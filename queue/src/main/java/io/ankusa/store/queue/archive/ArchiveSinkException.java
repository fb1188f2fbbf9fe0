package io.ankusa.store.queue.archive;

import io.ankusa.store.spi.StoreException;

/**
 * An {@link ArchiveSink} could not append or sync. The archive obligations of the chunk in hand
 * stay in the queue and are appended again by the next run, so nothing is lost; the message says
 * which archive and seq failed and what to do (typically: free disk space or fix permissions, then
 * let the archiver run again).
 */
public class ArchiveSinkException extends StoreException {
  private static final long serialVersionUID = 1L;

  public ArchiveSinkException(String message) {
    super(message);
  }

  public ArchiveSinkException(String message, Throwable cause) {
    super(message, cause);
  }
}
