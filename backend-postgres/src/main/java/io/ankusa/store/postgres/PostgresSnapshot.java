package io.ankusa.store.postgres;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.StoreClosedException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A snapshot: a read-only {@code REPEATABLE READ} transaction held open on a connection of its own,
 * its snapshot taken when {@link PostgresStore#snapshot()} returns. Every read and every scan of
 * the snapshot runs in that transaction, one at a time (the connection's lock); scans open on it
 * are closed with it.
 *
 * <p>Ownership: holds its pooled connection until {@link #close()}, which rolls the transaction
 * back and hands the connection back; the store closes it when the store closes.
 */
final class PostgresSnapshot extends PostgresView implements Snapshot, OpenResources.Resource {
  private final ReentrantLock lock = new ReentrantLock();
  private final Connection connection;
  private final OpenResources owner;
  private final OpenResources scans = new OpenResources();
  private volatile String closedBecause;

  private PostgresSnapshot(
      FamilyCatalog catalog,
      Map<String, FamilyTable> tables,
      String server,
      Connection connection,
      OpenResources owner) {
    super(catalog, tables, server);
    this.connection = connection;
    this.owner = owner;
  }

  /**
   * Begins the transaction on {@code connection} (which it then owns) and takes its snapshot now.
   */
  static PostgresSnapshot begin(
      FamilyCatalog catalog,
      Map<String, FamilyTable> tables,
      String server,
      Connection connection,
      OpenResources owner)
      throws SQLException {
    try {
      connection.setAutoCommit(false);
      try (Statement st = connection.createStatement()) {
        st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        st.execute(
            "SELECT 1"); // the first statement fixes the snapshot: now, not at the first read
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    PostgresSnapshot s = new PostgresSnapshot(catalog, tables, server, connection, owner);
    owner.add(s);
    return s;
  }

  @Override
  void checkOpen() {
    String why = closedBecause;
    if (why != null) {
      throw new StoreClosedException("postgres snapshot is closed: " + why);
    }
  }

  @Override
  <T> T onConnection(SqlWork<T> work) throws SQLException {
    lock.lock();
    try {
      checkOpen();
      return work.run(connection);
    } finally {
      lock.unlock();
    }
  }

  @Override
  <T> T onConsistentConnection(SqlWork<T> work) throws SQLException {
    return onConnection(work);
  }

  @Override
  Scan openScan(FamilyTable table, String sql, byte[] lo, byte[] hi) throws SQLException {
    return onConnection(
        c ->
            new PostgresScan(
                lock,
                runScan(c, sql, lo, hi),
                table.counters(),
                x -> null,
                scans,
                "scan of family '" + table.family() + "' on a postgres snapshot"));
  }

  @Override
  public void close() {
    closeFrom("it was closed by its owner");
  }

  @Override
  public void closeFrom(String reason) {
    lock.lock();
    try {
      if (closedBecause != null) {
        return;
      }
      scans.closeAll(
          "its snapshot "
              + (reason.startsWith("it was closed") ? "was closed" : "is closed: " + reason));
      closedBecause = reason;
      try {
        connection.rollback();
      } catch (SQLException e) {
        // a connection that is gone has no transaction left to end
      }
      try {
        connection.close();
      } catch (SQLException e) {
        // as above
      }
    } finally {
      lock.unlock();
      owner.remove(this);
    }
  }
}
