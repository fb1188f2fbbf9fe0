package io.ankusa.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done on one connection, which may throw {@link SQLException}. */
@FunctionalInterface
interface SqlWork<T> {
  T run(Connection c) throws SQLException;
}
