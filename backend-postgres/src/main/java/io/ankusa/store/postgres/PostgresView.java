package io.ankusa.store.postgres;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads, shared by the live store (each read borrows a pooled connection) and snapshots (every
 * read runs in the snapshot's own {@code REPEATABLE READ} transaction). Ownership: arrays passed in
 * are only read; every array returned is fresh from the driver.
 */
abstract class PostgresView implements ReadView {
  /** Keys per multiGet query; a longer multiGet runs several in one consistent transaction. */
  static final int MULTI_GET_CHUNK = 20_000;

  /**
   * Most keys a multiGet reads with {@link FamilyTable#multiGetFew}; a longer one uses {@link
   * FamilyTable#multiGetMany}. A few keys read cheaper the first way; the two ways cost the same
   * only well above this bound (docs/measurements/postgres.md).
   */
  static final int FEW_KEYS = 64;

  final FamilyCatalog catalog;
  final Map<String, FamilyTable> tables;
  final String server;

  PostgresView(FamilyCatalog catalog, Map<String, FamilyTable> tables, String server) {
    this.catalog = catalog;
    this.tables = tables;
    this.server = server;
  }

  /** Throws {@link io.ankusa.store.spi.StoreClosedException} once this view is closed. */
  abstract void checkOpen();

  /** Runs {@code work} on a connection that sees this view's state for one statement. */
  abstract <T> T onConnection(SqlWork<T> work) throws SQLException;

  /** Runs {@code work} on a connection that sees this view's state for every statement it makes. */
  abstract <T> T onConsistentConnection(SqlWork<T> work) throws SQLException;

  /** Opens a streamed scan of {@code sql}, whose parameters are the range's bounds. */
  abstract Scan openScan(FamilyTable table, String sql, byte[] lo, byte[] hi) throws SQLException;

  @Override
  public byte[] get(String family, byte[] key) {
    checkOpen();
    FamilyTable table = tables.get(catalog.require(family).name());
    catalog.checkKey(family, key);
    try {
      return onConnection(
          c -> {
            try (PreparedStatement ps = c.prepareStatement(table.get())) {
              ps.setBytes(1, key);
              try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? value(table, rs, 1) : null;
              }
            }
          });
    } catch (SQLException e) {
      throw PostgresFailures.read(
          e, "key " + Bytes.hex(key) + " of family '" + family + "'", server);
    }
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    checkOpen();
    FamilyTable table = tables.get(catalog.require(family).name());
    catalog.checkKeys(family, keys);
    if (keys.isEmpty()) {
      return new ArrayList<>();
    }
    SqlWork<Map<ByteBuffer, byte[]>> lookUp =
        c -> {
          Map<ByteBuffer, byte[]> found = new HashMap<>();
          String sql = keys.size() <= FEW_KEYS ? table.multiGetFew() : table.multiGetMany();
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int from = 0; from < keys.size(); from += MULTI_GET_CHUNK) {
              List<byte[]> chunk =
                  keys.subList(from, Math.min(keys.size(), from + MULTI_GET_CHUNK));
              Array array = c.createArrayOf("bytea", chunk.toArray(new byte[0][]));
              ps.setArray(1, array);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  found.put(ByteBuffer.wrap(rs.getBytes(1)), value(table, rs, 2));
                }
              }
              array.free();
            }
          }
          return found;
        };
    Map<ByteBuffer, byte[]> found;
    try {
      found =
          keys.size() <= MULTI_GET_CHUNK ? onConnection(lookUp) : onConsistentConnection(lookUp);
    } catch (SQLException e) {
      throw PostgresFailures.read(e, keys.size() + " keys of family '" + family + "'", server);
    }
    List<byte[]> out = new ArrayList<>(keys.size());
    Map<ByteBuffer, Integer> handedOut = new HashMap<>();
    for (byte[] k : keys) {
      ByteBuffer b = ByteBuffer.wrap(k);
      byte[] v = found.get(b);
      // the same key asked twice gets two arrays: the caller owns each
      out.add(v == null ? null : handedOut.merge(b, 1, Integer::sum) == 1 ? v : v.clone());
    }
    return out;
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    checkOpen();
    catalog.checkScan(family, lo, hi, direction);
    FamilyTable table = tables.get(family);
    try {
      return openScan(table, table.scan(hi != null, direction), lo, hi);
    } catch (SQLException e) {
      throw PostgresFailures.read(
          e, "a scan of family '" + family + "' from " + Bytes.hex(lo), server);
    }
  }

  @Override
  public long counter(String family, byte[] key) {
    checkOpen();
    catalog.requireCounters(family);
    byte[] v = get(family, key);
    return v == null ? 0 : Int64Add.decode(family, key, v);
  }

  /**
   * Binds the range of a scan statement and runs it with a cursor of {@value
   * PostgresScan#FETCH_ROWS} rows.
   */
  static ResultSet runScan(Connection c, String sql, byte[] lo, byte[] hi) throws SQLException {
    PreparedStatement ps =
        c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    try {
      ps.setFetchSize(PostgresScan.FETCH_ROWS);
      ps.setBytes(1, lo);
      if (hi != null) {
        ps.setBytes(2, hi);
      }
      return ps.executeQuery();
    } catch (SQLException | RuntimeException e) {
      ps.close();
      throw e;
    }
  }

  /**
   * The value in column {@code column}: bytes, or a counter's bigint as {@link Int64Add}'s 8 bytes.
   */
  static byte[] value(FamilyTable table, ResultSet rs, int column) throws SQLException {
    return table.counters() ? Int64Add.encode(rs.getLong(column)) : rs.getBytes(column);
  }
}
