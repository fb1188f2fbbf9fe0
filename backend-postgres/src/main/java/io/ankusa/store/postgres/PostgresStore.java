package io.ankusa.store.postgres;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store on a PostgreSQL server: one schema, a table per family ({@link FamilyTable}).
 *
 * <ul>
 *   <li>{@link #write}: one transaction per batch; consecutive ops of one kind on one family go to
 *       the server as one JDBC batch, in order; a merge is an upsert that adds on the server.
 *       {@code SYNC} commits with {@code synchronous_commit = on} (the commit waits for the WAL
 *       flush), {@code NO_SYNC} with {@code off} (the commit returns before it);
 *   <li>{@link #syncWal()}: a transaction that writes a row, committed with {@code
 *       synchronous_commit = on}: its commit record is flushed, and with it the WAL of every commit
 *       before it;
 *   <li>a serialization failure or deadlock rolls the transaction back; it runs again, at most
 *       {@value #ATTEMPTS} times in all;
 *   <li>{@link #snapshot()}: a read-only {@code REPEATABLE READ} transaction on a connection of its
 *       own ({@link PostgresSnapshot}); a scan on the live store runs its one statement in a
 *       transaction of its own, streamed from a cursor ({@link PostgresScan}).
 * </ul>
 *
 * <p>Durability: a {@code SYNC} batch, or a {@code NO_SYNC} batch before a returned {@link
 * #syncWal()}, survives a kill of this process (the server has it) and a crash of the server (its
 * WAL is flushed). Thread safety: every method may be called from any thread; each write borrows
 * its own connection.
 */
final class PostgresStore extends PostgresView implements Store {
  /**
   * What this backend claims; see {@link Capabilities}. The server's B-tree limits a key to about
   * 2.7 KiB. No {@code detectsDamage}: the data lives in the server's files, whose damage this
   * backend neither sees nor checks (the server detects it only with data checksums, which it may
   * run without), so the suite reports {@code scanNeverEndsEarlyOnCorruption} as unverified for it.
   */
  static final Capabilities CAPABILITIES =
      Capabilities.builder()
          .concurrentWriters(true)
          .snapshots(true)
          .durableAfterProcessKill(true)
          .filesInDirectory(true)
          .maxKeyBytes(2048)
          .maxValueBytes(64 << 20)
          .build();

  /** Tries of a transaction that meets a serialization failure or deadlock. */
  static final int ATTEMPTS = 8;

  private static final Logger LOG = LoggerFactory.getLogger(PostgresStore.class);

  private final DirectoryClaim claim;
  private final PostgresServer connections;
  private final String schema;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final OpenResources open = new OpenResources();

  /** Transactions run again after a serialization failure or deadlock, for tests and logs. */
  private final java.util.concurrent.atomic.AtomicLong retried =
      new java.util.concurrent.atomic.AtomicLong();

  PostgresStore(
      DirectoryClaim claim, PostgresServer connections, FamilyCatalog catalog, String schema) {
    super(catalog, tablesOf(catalog, schema), connections.label());
    this.claim = claim;
    this.connections = connections;
    this.schema = schema;
  }

  private static Map<String, FamilyTable> tablesOf(FamilyCatalog catalog, String schema) {
    Map<String, FamilyTable> tables = new HashMap<>();
    for (FamilySpec f : catalog.specs()) {
      tables.put(f.name(), FamilyTable.of(schema, f.name(), f.counters()));
    }
    return Map.copyOf(tables);
  }

  @Override
  void checkOpen() {
    if (closed.get()) {
      throw new StoreClosedException(
          "postgres store "
              + claim.directory()
              + " (schema '"
              + schema
              + "' on "
              + server
              + ") is closed");
    }
  }

  @Override
  <T> T onConnection(SqlWork<T> work) throws SQLException {
    try (Connection c = connections.connection()) {
      return work.run(c);
    } catch (SQLException e) {
      checkOpen(); // a read racing close: say closed, not a server failure
      throw e;
    }
  }

  @Override
  <T> T onConsistentConnection(SqlWork<T> work) throws SQLException {
    try (Connection c = connections.connection()) {
      c.setAutoCommit(false);
      try {
        try (Statement st = c.createStatement()) {
          st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        }
        return work.run(c);
      } finally {
        c.rollback();
      }
    } catch (SQLException e) {
      checkOpen();
      throw e;
    }
  }

  @Override
  Scan openScan(FamilyTable table, String sql, byte[] lo, byte[] hi) throws SQLException {
    Connection c = connections.connection();
    try {
      c.setAutoCommit(false); // a cursor lives in a transaction; its one statement sees one state
      return new PostgresScan(
          new ReentrantLock(),
          runScan(c, sql, lo, hi),
          table.counters(),
          x -> {
            try {
              c.rollback();
            } finally {
              c.close();
            }
            return null;
          },
          open,
          "scan of family '" + table.family() + "' on postgres store " + claim.directory());
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  @Override
  public void write(Batch batch, Durability durability) {
    checkOpen();
    catalog.validate(batch, durability); // refuse a bad batch whole, before anything is sent
    if (batch.isEmpty()) {
      return;
    }
    inTransaction(
        durability == Durability.SYNC,
        () -> "a write of " + batch.size() + " ops to families " + families(batch),
        c -> {
          apply(c, batch.ops());
          return null;
        });
  }

  private static Set<String> families(Batch batch) {
    Set<String> names = new LinkedHashSet<>();
    batch.ops().forEach(op -> names.add(op.family()));
    return names;
  }

  /**
   * Sends the ops as {@link BatchPlan} orders them: each group of a stage is one JDBC batch of one
   * prepared statement, executed before the next group starts.
   */
  private void apply(Connection c, List<Op> ops) throws SQLException {
    for (List<BatchPlan.Group> stage : BatchPlan.stages(ops)) {
      for (BatchPlan.Group group : stage) {
        FamilyTable table = tables.get(group.family());
        try (PreparedStatement ps = c.prepareStatement(sqlOf(table, group.ops().get(0)))) {
          for (Op op : group.ops()) {
            bind(ps, table, op);
            ps.addBatch();
          }
          ps.executeBatch();
        }
      }
    }
  }

  private static String sqlOf(FamilyTable table, Op op) {
    return op.accept(
        new Op.Visitor<String>() {
          @Override
          public String put(Op.Put p) {
            return table.put();
          }

          @Override
          public String delete(Op.Delete d) {
            return table.delete();
          }

          @Override
          public String deleteRange(Op.DeleteRange r) {
            return table.deleteRange();
          }

          @Override
          public String merge(Op.Merge m) {
            return table.merge();
          }
        });
  }

  private static void bind(PreparedStatement ps, FamilyTable table, Op op) throws SQLException {
    op.handle(
        new OpHandler<SQLException>() {
          @Override
          public void put(Op.Put p) throws SQLException {
            ps.setBytes(1, p.key());
            if (table.counters()) {
              ps.setLong(2, Int64Add.decode(p.family(), p.key(), p.value()));
            } else {
              ps.setBytes(2, p.value());
            }
          }

          @Override
          public void delete(Op.Delete d) throws SQLException {
            ps.setBytes(1, d.key());
          }

          @Override
          public void deleteRange(Op.DeleteRange r) throws SQLException {
            ps.setBytes(1, r.lo());
            ps.setBytes(2, r.hi());
          }

          @Override
          public void merge(Op.Merge m) throws SQLException {
            ps.setBytes(1, m.key());
            ps.setLong(2, m.delta());
          }
        });
  }

  /**
   * Runs {@code work} in one transaction committed with {@code synchronous_commit} on or off; a
   * serialization failure or deadlock runs it again, up to {@value #ATTEMPTS} times in all.
   */
  private <T> T inTransaction(
      boolean sync, java.util.function.Supplier<String> what, SqlWork<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = connections.connection()) {
        c.setAutoCommit(false);
        try {
          try (Statement st = c.createStatement()) {
            st.execute(
                sync
                    ? "SET LOCAL synchronous_commit TO on"
                    : "SET LOCAL synchronous_commit TO off");
          }
          T result = work.run(c);
          c.commit();
          return result;
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(c);
          throw e;
        }
      } catch (SQLException e) {
        checkOpen();
        if (PostgresFailures.retryable(e) && attempt < ATTEMPTS) {
          retried.incrementAndGet();
          LOG.debug(
              "{} met {} (attempt {}); running it again", what.get(), e.getSQLState(), attempt);
          pause(attempt);
          continue;
        }
        throw PostgresFailures.write(e, what.get(), server);
      }
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      // the connection is gone; so is the transaction
    }
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 2 + 4 * attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreWriteFailedException(
          "interrupted while waiting to run a transaction again", e);
    }
  }

  /**
   * One transaction that writes a row (the store's own {@code ankusa.store} row, unchanged),
   * committed with {@code synchronous_commit = on}: the server flushes its WAL up to that commit
   * record, past every commit made before this call.
   *
   * <p>Pitfall: a transaction that only takes a transaction id ({@code SELECT txid_current()}) is
   * not enough. PostgreSQL flushes at commit only when the transaction wrote WAL before its commit
   * record; otherwise the commit is asynchronous whatever {@code synchronous_commit} says, and the
   * earlier {@code NO_SYNC} commits stay unflushed (the server-crash test lost them that way).
   */
  @Override
  public void syncWal() {
    checkOpen();
    String touch = "UPDATE " + PostgresSchema.storeTable(schema) + " SET format = format";
    inTransaction(
        true,
        () -> "a WAL sync",
        c -> {
          try (Statement st = c.createStatement()) {
            st.executeUpdate(touch);
          }
          return null;
        });
  }

  @Override
  public Snapshot snapshot() {
    checkOpen();
    try {
      return PostgresSnapshot.begin(catalog, tables, server, connections.connection(), open);
    } catch (SQLException e) {
      checkOpen();
      throw PostgresFailures.read(e, "a snapshot", server);
    }
  }

  /**
   * Closes the scans and snapshots open on the store and retires every pooled connection, so the
   * next call connects afresh; then checks that the server answers.
   *
   * @throws StoreWriteFailedException if it does not: the store is then closed
   */
  @Override
  public void reportWriteFailure(Throwable cause) {
    checkOpen();
    FamilyCatalog.checkCause(cause);
    open.closeAll("closed by reportWriteFailure; open a new one");
    connections.evict();
    try (Connection c = connections.connection();
        Statement st = c.createStatement()) {
      st.execute("SELECT 1");
    } catch (SQLException e) {
      close();
      StoreWriteFailedException failed =
          new StoreWriteFailedException(
              "the PostgreSQL server "
                  + server
                  + " does not answer after a write failure ("
                  + e.getMessage()
                  + "); the store is closed: open it again"
                  + " once the server is back",
              e);
      failed.addSuppressed(cause);
      throw failed;
    }
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public List<FamilySpec> families() {
    return catalog.specs();
  }

  @Override
  public Path directory() {
    return claim.directory();
  }

  /** How many transactions ran again after a serialization failure or deadlock. */
  long retried() {
    return retried.get();
  }

  /** The schema holding the store's tables. */
  String schema() {
    return schema;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<RuntimeException> failures = new ArrayList<>();
    try {
      open.closeAll("its store is closed");
    } catch (RuntimeException e) {
      failures.add(e);
    }
    try {
      connections.close();
    } catch (RuntimeException e) {
      failures.add(e);
    }
    claim.close();
    if (!failures.isEmpty()) {
      throw new StoreException(
          "closing postgres store " + claim.directory() + ": " + failures.get(0), failures.get(0));
    }
  }
}
