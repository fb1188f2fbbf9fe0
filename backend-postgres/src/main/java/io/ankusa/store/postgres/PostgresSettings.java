package io.ankusa.store.postgres;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code postgres.*} options of a store open, parsed and checked in one place.
 *
 * @param url the JDBC URL of the server ({@code postgres.url}), or null: then the URL the store
 *     directory records is used; a new store without one (and without a {@code DataSource}) is
 *     refused
 * @param user the role to connect as ({@code postgres.user}), or null for the recorded one (or
 *     {@code postgres})
 * @param password the role's password ({@code postgres.password}), or null: then the driver's own
 *     sources apply (a {@code .pgpass} file, or none for a server that trusts local connections).
 *     Never written to the store directory
 * @param schema the schema that holds the store's tables ({@code postgres.schema}), or null: a new
 *     store gets a fresh schema {@code ankusa_<random>}, an existing one uses the recorded schema
 * @param poolSize the most connections the store holds at once ({@code postgres.poolSize}); scans
 *     and snapshots each hold one while open
 */
record PostgresSettings(String url, String user, String password, String schema, int poolSize) {
  static final String URL = "postgres.url";
  static final String USER = "postgres.user";
  static final String PASSWORD = "postgres.password";
  static final String SCHEMA = "postgres.schema";
  static final String POOL_SIZE = "postgres.poolSize";
  static final List<String> KNOWN = List.of(URL, USER, PASSWORD, SCHEMA, POOL_SIZE);
  static final int DEFAULT_POOL_SIZE = 16;

  /** Unquoted lower-case identifiers only, so a schema name needs no quoting rules of its own. */
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /**
   * @throws StoreArgumentException for an unknown {@code postgres.*} option, a URL that is not a
   *     PostgreSQL JDBC URL, a schema name that is not a lower-case identifier, or a pool size out
   *     of range
   */
  static PostgresSettings of(StoreOptions options) {
    options.refuseUnknown("postgres", KNOWN);
    String url = blankToNull(options.property(URL, null));
    if (url != null && !url.startsWith("jdbc:postgresql:")) {
      throw new StoreArgumentException(
          "option "
              + URL
              + "='"
              + StoreTarget.withoutSecrets(url)
              + "' is not a PostgreSQL JDBC URL; write it as jdbc:postgresql://HOST:PORT/DATABASE");
    }
    String schema = blankToNull(options.property(SCHEMA, null));
    if (schema != null) {
      checkSchema(schema, "option " + SCHEMA);
    }
    long pool = options.longProperty(POOL_SIZE, DEFAULT_POOL_SIZE);
    if (pool < 2 || pool > 1000) {
      throw new StoreArgumentException(
          "option "
              + POOL_SIZE
              + "="
              + pool
              + " is out of range 2..1000 (a write and a scan each need a connection)");
    }
    return new PostgresSettings(
        url,
        blankToNull(options.property(USER, null)),
        options.property(PASSWORD, null),
        schema,
        (int) pool);
  }

  static void checkSchema(String schema, String where) {
    if (!SCHEMA_NAME.matcher(schema).matches()) {
      throw new StoreArgumentException(
          where
              + "='"
              + schema
              + "' is not a schema name this backend uses:"
              + " 1..63 of [a-z0-9_], not starting with a digit");
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
