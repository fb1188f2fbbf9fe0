package io.ankusa.store.postgres;

import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.Lock;

/**
 * A scan streamed from a server-side cursor: the query runs when the scan opens (so it sees the
 * state of that moment: a PostgreSQL statement keeps one snapshot however long its cursor lives),
 * and rows arrive {@value #FETCH_ROWS} at a time as the caller walks, so a range is never held in
 * memory whole.
 *
 * <p>An error from the server in the middle of the walk — a lost connection, an I/O error — throws
 * {@link StoreCorruptionException}: the range was not read to its end, and {@link #hasNext()} never
 * reports that as the end (property {@code scanNeverEndsEarlyOnCorruption}).
 *
 * <p>Ownership: the scan owns its result set; {@code release} hands back what else it holds (the
 * connection of a scan on the live store; nothing for a scan on a snapshot). Calls take {@code
 * lock}, the lock of the connection the cursor lives on.
 */
final class PostgresScan implements Scan, OpenResources.Resource {
  static final int FETCH_ROWS = 512;

  private final Lock lock;
  private final ResultSet rows;
  private final boolean counters;
  private final SqlWork<Void> release;
  private final OpenResources owner;
  private final String what;
  private Entry pending;
  private boolean ended;
  private boolean released;
  private volatile String closedBecause;

  PostgresScan(
      Lock lock,
      ResultSet rows,
      boolean counters,
      SqlWork<Void> release,
      OpenResources owner,
      String what) {
    this.lock = lock;
    this.rows = rows;
    this.counters = counters;
    this.release = release;
    this.owner = owner;
    this.what = what;
    owner.add(this);
  }

  @Override
  public boolean hasNext() {
    lock.lock();
    try {
      if (closedBecause != null) {
        throw new StoreClosedException(what + " is closed: " + closedBecause);
      }
      if (pending != null) {
        return true;
      }
      if (ended) {
        return false;
      }
      try {
        if (rows.next()) {
          byte[] key = rows.getBytes(1);
          byte[] value = counters ? Int64Add.encode(rows.getLong(2)) : rows.getBytes(2);
          pending = new Entry(key, value);
          return true;
        }
      } catch (SQLException e) {
        closeFrom("the walk failed: " + e.getMessage());
        throw new StoreCorruptionException(
            what
                + " failed before the end of its range (SQLSTATE "
                + e.getSQLState()
                + ": "
                + e.getMessage()
                + "); the rest of the range was not read. Check the server, then scan again",
            e);
      }
      ended = true;
      releaseQuietly();
      return false;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Entry next() {
    if (!hasNext()) {
      throw new NoSuchElementException(what + " is at the end of its range");
    }
    Entry e = pending;
    pending = null;
    return e;
  }

  @Override
  public void close() {
    closeFrom("it was closed by its owner");
  }

  @Override
  public void closeFrom(String reason) {
    lock.lock();
    try {
      if (closedBecause == null) {
        closedBecause = reason;
        releaseQuietly();
      }
    } finally {
      lock.unlock();
      owner.remove(this);
    }
  }

  private void releaseQuietly() {
    if (released) {
      return;
    }
    released = true;
    try {
      rows.getStatement().close(); // closes the result set too
    } catch (SQLException e) {
      // the connection is gone: nothing left to close on it
    }
    try {
      release.run(null);
    } catch (SQLException e) {
      // as above
    }
  }
}
