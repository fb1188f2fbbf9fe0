package io.ankusa.store.postgres;

import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * PostgreSQL's errors, by SQLSTATE, mapped to the SPI's exceptions in one place.
 *
 * <ul>
 *   <li>{@code 40001} (serialization failure) and {@code 40P01} (deadlock): {@link #retryable}; the
 *       store retries the whole transaction a bounded number of times;
 *   <li>{@code 53100} (disk full): {@link StoreFullException}, the batch was not applied;
 *   <li>class {@code 08} (connection exception), {@code 57P01..57P03} (server shut down or
 *       starting) and a pool that could not hand out a connection: the connection is lost;
 *   <li>anything else on a write or sync: {@link StoreWriteFailedException}; on a read: {@link
 *       StoreException}.
 * </ul>
 */
final class PostgresFailures {
  static final String DISK_FULL = "53100";

  private PostgresFailures() {}

  /**
   * A serialization failure or deadlock: the transaction was rolled back and may simply run again.
   */
  static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return "40001".equals(state) || "40P01".equals(state);
  }

  /** The connection to the server is gone (or none could be had). */
  static boolean connectionLost(SQLException e) {
    String state = e.getSQLState();
    return e instanceof SQLTransientConnectionException
        || (state != null
            && (state.startsWith("08")
                || state.equals("57P01")
                || state.equals("57P02")
                || state.equals("57P03")));
  }

  /** The exception for a failed write of {@code what} (families named) to {@code server}. */
  static StoreException write(SQLException e, String what, String server) {
    if (DISK_FULL.equals(e.getSQLState())) {
      return new StoreFullException(
          "the PostgreSQL server "
              + server
              + " has no room for "
              + what
              + " (disk full: "
              + e.getMessage()
              + "); the batch was not applied. Free space on the server's data"
              + " volume, then write it again",
          e);
    }
    if (connectionLost(e)) {
      return new StoreWriteFailedException(
          "the connection to the PostgreSQL server "
              + server
              + " was lost during "
              + what
              + " ("
              + e.getMessage()
              + "); it may or may not be applied: call reportWriteFailure, treat it as"
              + " not acknowledged and write it again once the server answers",
          e);
    }
    return new StoreWriteFailedException(
        "the PostgreSQL server "
            + server
            + " failed "
            + what
            + " (SQLSTATE "
            + e.getSQLState()
            + ": "
            + e.getMessage()
            + "); it was not acknowledged: call reportWriteFailure and"
            + " write it again",
        e);
  }

  /** The exception for a failed read of {@code what}. */
  static StoreException read(SQLException e, String what, String server) {
    return new StoreException(
        "cannot read "
            + what
            + " from the PostgreSQL server "
            + server
            + " (SQLSTATE "
            + e.getSQLState()
            + ": "
            + e.getMessage()
            + ")"
            + (connectionLost(e)
                ? "; the connection was lost: check that the server is up, then read again"
                : ""),
        e);
  }
}
