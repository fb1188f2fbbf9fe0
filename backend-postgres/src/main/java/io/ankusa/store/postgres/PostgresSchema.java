package io.ankusa.store.postgres;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreFormatException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A store's schema on the server: a table per family ({@link FamilyTable}) and two bookkeeping
 * tables whose names hold a dot, which no family name can: {@code "ankusa.store"} (the store's id
 * and format, one row) and {@code "ankusa.families"} (each family's name and whether it holds
 * counters). Creating a store or adding families is one transaction, so a crash leaves all of it or
 * none.
 */
final class PostgresSchema {
  /** The backend's storage format, in the store marker and the {@code ankusa.store} row. */
  static final int FORMAT = 1;

  private PostgresSchema() {}

  /**
   * Opens (creating when {@code create} and it has none) the store in {@code schema} and checks its
   * families against {@code asked}: a family the store holds but the caller did not list, or one
   * with another counters setting, is refused; missing families are created when {@code create}.
   *
   * @param expectedId the store id the directory records, or null for a new store
   * @return the store's id
   * @throws StoreFormatException when the schema holds no store (and none may be created), holds
   *     another store than the directory names, or its families do not match; nothing was changed
   */
  static String open(
      Connection c,
      String schema,
      String expectedId,
      List<FamilySpec> asked,
      boolean create,
      String where)
      throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      String id = storeId(c, schema);
      if (id == null) {
        if (expectedId != null) {
          throw new StoreFormatException(
              where
                  + " names the store "
                  + expectedId
                  + " in schema '"
                  + schema
                  + "', but that schema holds no store: it was dropped or the directory points at another server;"
                  + " nothing was changed. Point postgres.url at the server that holds it, or restore the schema");
        }
        if (!create) {
          throw new StoreFormatException(
              "schema '" + schema + "' holds no postgres store and createIfMissing is false");
        }
        id = UUID.randomUUID().toString();
        try (Statement st = c.createStatement()) { // one round trip
          st.execute(
              "CREATE SCHEMA IF NOT EXISTS "
                  + FamilyTable.quote(schema)
                  + "; CREATE TABLE "
                  + storeTable(schema)
                  + " (id text PRIMARY KEY, format integer NOT NULL)"
                  + "; CREATE TABLE "
                  + familiesTable(schema)
                  + " (name text PRIMARY KEY, counters boolean NOT NULL)"
                  + "; INSERT INTO "
                  + storeTable(schema)
                  + " VALUES ('"
                  + id
                  + "', "
                  + FORMAT
                  + ")");
        }
      } else if (expectedId == null) {
        throw new StoreFormatException(
            "schema '"
                + schema
                + "' already holds the postgres store "
                + id
                + ", which "
                + where
                + " does not name; nothing was changed. Choose another postgres.schema (or none, for a fresh"
                + " one), or open the directory that holds that store");
      } else if (!id.equals(expectedId)) {
        throw new StoreFormatException(
            "schema '"
                + schema
                + "' holds the postgres store "
                + id
                + ", not the store "
                + expectedId
                + " that "
                + where
                + " names; nothing was changed: the directory and the schema do not"
                + " belong together");
      }
      Map<String, Boolean> existing = families(c, schema);
      check(existing, asked, schema);
      StringBuilder ddl = new StringBuilder();
      for (FamilySpec f : asked) {
        if (!existing.containsKey(f.name())) {
          if (!create) {
            throw new StoreFormatException(
                "the postgres store in schema '"
                    + schema
                    + "' has no family '"
                    + f.name()
                    + "' and createIfMissing is false (or the open is read-only); nothing was changed");
          }
          // family names are [a-z0-9_-]: safe inside a string literal
          ddl.append(FamilyTable.of(schema, f.name(), f.counters()).create())
              .append("; INSERT INTO ")
              .append(familiesTable(schema))
              .append(" VALUES ('")
              .append(f.name())
              .append("', ")
              .append(f.counters())
              .append(");");
        }
      }
      if (ddl.length() > 0) {
        try (Statement st = c.createStatement()) { // one round trip
          st.execute(ddl.toString());
        }
      }
      c.commit();
      return id;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private static void check(Map<String, Boolean> existing, List<FamilySpec> asked, String schema) {
    for (String name : existing.keySet()) {
      if (asked.stream().noneMatch(f -> f.name().equals(name))) {
        throw new StoreFormatException(
            "the postgres store in schema '"
                + schema
                + "' holds family '"
                + name
                + "' that the caller did not list "
                + asked.stream().map(FamilySpec::name).toList()
                + ": it was written by a newer release; open it with that release");
      }
    }
    for (FamilySpec f : asked) {
      Boolean had = existing.get(f.name());
      if (had != null && had != f.counters()) {
        throw new StoreFormatException(
            "the postgres store in schema '"
                + schema
                + "': family '"
                + f.name()
                + "' was created with counters="
                + had
                + " but is opened with counters="
                + f.counters());
      }
    }
  }

  /** The id in the schema's {@code ankusa.store} table, or null when the schema holds no store. */
  static String storeId(Connection c, String schema) throws SQLException {
    try (PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?)")) {
      exists.setString(1, storeTable(schema));
      try (ResultSet rs = exists.executeQuery()) {
        rs.next();
        if (rs.getString(1) == null) {
          return null;
        }
      }
    }
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id, format FROM " + storeTable(schema))) {
      if (!rs.next()) {
        return null;
      }
      int format = rs.getInt(2);
      if (format > FORMAT) {
        throw new StoreFormatException(
            "schema '"
                + schema
                + "' holds a postgres store of format "
                + format
                + ", newer than format "
                + FORMAT
                + " this release reads; open it with the release that wrote it");
      }
      return rs.getString(1);
    }
  }

  private static Map<String, Boolean> families(Connection c, String schema) throws SQLException {
    Map<String, Boolean> out = new LinkedHashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name, counters FROM " + familiesTable(schema) + " ORDER BY name")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getBoolean(2));
      }
    }
    return out;
  }

  /** Drops the schema and everything in it. */
  static void drop(Connection c, String schema) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + FamilyTable.quote(schema) + " CASCADE");
    }
  }

  static String storeTable(String schema) {
    return FamilyTable.quote(schema) + ".\"ankusa.store\"";
  }

  static String familiesTable(String schema) {
    return FamilyTable.quote(schema) + ".\"ankusa.families\"";
  }
}
