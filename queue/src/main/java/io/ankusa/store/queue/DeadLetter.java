package io.ankusa.store.queue;

import io.ankusa.store.queue.internal.record.DeadRow;

/**
 * One delivery in the dead-letter queue, as {@link DeadLetterQueue#newest(int)} reads it. Pass it
 * back to {@link DeadLetterQueue#revive} or {@link DeadLetterQueue#purge(DeadLetter)}; those act on
 * it only while it is still dead as read (another revive or purge that got there first wins).
 */
public final class DeadLetter {
  private final DeadRow row;
  private final String tenantId;
  private final long attempts;
  private final String lastError;
  private final long size;

  DeadLetter(DeadRow row, String tenantId, long attempts, String lastError, long size) {
    this.row = row;
    this.tenantId = tenantId;
    this.attempts = attempts;
    this.lastError = lastError;
    this.size = size;
  }

  /** The row as read, for the queue's own use. */
  DeadRow row() {
    return row;
  }

  /** The tenant that owns the hook. */
  public String tenantId() {
    return tenantId;
  }

  /** The provider the hook came from. */
  public String sourceId() {
    return new String(row.value().sourceId(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The provider's id of the hook. */
  public String hookId() {
    return new String(row.value().hookId(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The queue's sequence number of the hook. */
  public long seq() {
    return row.key().seq();
  }

  /** The sink it was to be delivered to. */
  public int sink() {
    return row.key().sink();
  }

  /** When it was dead-lettered, epoch milliseconds. */
  public long deadAt() {
    return row.key().at();
  }

  /** Attempts made before it was given up. */
  public long attempts() {
    return attempts;
  }

  /** The reason the last attempt gave. */
  public String lastError() {
    return lastError;
  }

  /** The payload's length in bytes. */
  public long payloadSize() {
    return size;
  }

  @Override
  public String toString() {
    return "dead letter of hook seq "
        + seq()
        + " ("
        + sourceId()
        + "/"
        + hookId()
        + ", tenant "
        + tenantId
        + ") to sink "
        + sink()
        + " at "
        + deadAt()
        + " after "
        + attempts
        + " attempts: "
        + lastError;
  }
}
