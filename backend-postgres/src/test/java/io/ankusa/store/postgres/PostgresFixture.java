package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.PowerCutTarget;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The postgres backend as the conformance suite sees it: stores on the test JVM's one server
 * ({@link TestServer}), each in a fresh schema, dropped when the suite discards the store. It
 * cannot damage the server's data files or WAL: {@link #corrupt} says so (the suite reports the
 * corruption case as unverified with that reason), and the capabilities claim no log damage
 * injection. The power-cut case gets a server of its own on the power-cut file system ({@link
 * #powerCutTarget}).
 */
final class PostgresFixture implements BackendFixture {
  private final StoreProvider provider = new PostgresStoreProvider();

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public StoreOptions options() {
    StoreOptions o =
        StoreOptions.defaults()
            .with(PostgresSettings.URL, TestServer.url())
            .with(PostgresSettings.USER, TestServer.user());
    return TestServer.password() == null
        ? o
        : o.with(PostgresSettings.PASSWORD, TestServer.password());
  }

  @Override
  public Capabilities capabilities() {
    return PostgresStore.CAPABILITIES;
  }

  /**
   * Refuses: the store's directory holds only the marker and the name of its schema, and the rows
   * live in the server's files, which this fixture does not reach (an external server's least of
   * all).
   */
  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    throw new UnsupportedOperationException(
        "the rows live in the PostgreSQL server's files, which the fixture"
            + " cannot reach; the store directory holds only the marker and the schema's name");
  }

  /** A server of its own with its data directory below {@code root} ({@link PowerCutServer}). */
  @Override
  public PowerCutTarget powerCutTarget(Path root) {
    return PowerCutServer.start(root);
  }

  /** Drops the schema the store in {@code dir} lives in. */
  @Override
  public void discard(Path dir) {
    StoreTarget.read(dir)
        .ifPresent(
            t -> {
              try (Connection c = TestServer.connect()) {
                PostgresSchema.drop(c, t.schema());
              } catch (SQLException e) {
                throw new IllegalStateException(
                    "cannot drop schema " + t.schema() + " of " + dir + ": " + e, e);
              }
            });
  }
}
