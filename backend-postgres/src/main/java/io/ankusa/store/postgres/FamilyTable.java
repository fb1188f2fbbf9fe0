package io.ankusa.store.postgres;

import io.ankusa.store.spi.Direction;

/**
 * One family as a table of the store's schema, and every SQL statement on it, built here and
 * nowhere else. A plain family is {@code (key bytea PRIMARY KEY, value bytea NOT NULL)}; a counters
 * family stores its counter as {@code value bigint NOT NULL} (the backend converts to and from
 * {@link io.ankusa.store.spi.Int64Add}'s 8 little-endian bytes at the edge), so a merge is one
 * upsert that adds on the server, with no read in Java.
 *
 * <p>Order: {@code bytea} compares byte by byte as unsigned values, a shorter prefix first, and no
 * collation applies to it: exactly the contract's key order (property {@code
 * keysCompareAsUnsignedBytes}). The primary key's B-tree keeps that order, so a scan is an index
 * range walk.
 *
 * @param family the family's name
 * @param counters whether it holds counters
 * @param qualified the table's schema-qualified, quoted name
 */
record FamilyTable(String family, boolean counters, String qualified) {
  /**
   * {@code a + b} on bigints, wrapping on overflow as {@link io.ankusa.store.spi.Int64Add#apply}
   * does; PostgreSQL's own {@code +} raises an error on overflow instead, so the sum goes through
   * numeric and is brought back into range modulo 2^64.
   */
  static String wrappingAdd(String a, String b) {
    return "(((("
        + a
        + ")::numeric + ("
        + b
        + ")::numeric + 9223372036854775808) % 18446744073709551616"
        + " + 18446744073709551616) % 18446744073709551616 - 9223372036854775808)::bigint";
  }

  static FamilyTable of(String schema, String family, boolean counters) {
    return new FamilyTable(family, counters, quote(schema) + "." + quote(family));
  }

  /** A quoted identifier. Family and schema names never hold a quote; doubled anyway. */
  static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  String create() {
    return "CREATE TABLE "
        + qualified
        + " (key bytea PRIMARY KEY, value "
        + (counters ? "bigint" : "bytea")
        + " NOT NULL)";
  }

  String put() {
    return "INSERT INTO "
        + qualified
        + " (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value";
  }

  String merge() {
    return "INSERT INTO "
        + qualified
        + " AS t (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = "
        + wrappingAdd("t.value", "EXCLUDED.value");
  }

  String delete() {
    return "DELETE FROM " + qualified + " WHERE key = ?";
  }

  String deleteRange() {
    return "DELETE FROM " + qualified + " WHERE key >= ? AND key < ?";
  }

  String get() {
    return "SELECT value FROM " + qualified + " WHERE key = ?";
  }

  /**
   * A multiGet of a few keys: {@code key = ANY (?)}. Once pgjdbc prepares it on the server,
   * PostgreSQL may plan it generically, taking the array for 10 keys; on a small table it then
   * picks a sequential scan that compares every row with every key, harmless for a few keys only
   * ({@link #multiGetMany}).
   */
  String multiGetFew() {
    return "SELECT key, value FROM " + qualified + " WHERE key = ANY (?)";
  }

  /**
   * A multiGet of many keys: a join of the unnested array with the table, which PostgreSQL runs as
   * one primary key probe per key whatever the table's size. The {@code = ANY} form's generic plan
   * is a sequential scan comparing each row with each key of the statement, which for many keys
   * costs several times this form (docs/measurements/postgres.md).
   */
  String multiGetMany() {
    return "SELECT t.key, t.value FROM unnest(?::bytea[]) AS k(key) JOIN "
        + qualified
        + " AS t ON t.key = k.key";
  }

  String scan(boolean bounded, Direction direction) {
    return "SELECT key, value FROM "
        + qualified
        + " WHERE key >= ?"
        + (bounded ? " AND key < ?" : "")
        + " ORDER BY key"
        + (direction == Direction.REVERSE ? " DESC" : "");
  }
}
