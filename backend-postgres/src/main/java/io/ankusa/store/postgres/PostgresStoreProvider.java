package io.ankusa.store.postgres;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code postgres} backend: a store's data lives in one schema of a PostgreSQL server; its
 * directory holds the store marker and {@link StoreTarget#FILE} (server URL without secrets, role,
 * schema, store id), claimed through {@link DirectoryClaim} like every disk backend's, so the other
 * backends refuse it and this one refuses theirs.
 *
 * <p>Options ({@link PostgresSettings}): {@code postgres.url}, {@code postgres.user}, {@code
 * postgres.password}, {@code postgres.schema}, {@code postgres.poolSize}; an embedder with a pool
 * of its own passes a {@link DataSource} to {@link #open(Path, StoreOptions, List, DataSource)}.
 * The server is always someone else's: a new store needs {@code postgres.url} (or a {@code
 * DataSource}) and is refused without one, before anything is written; an existing store reaches
 * the server its directory records unless {@code postgres.url} names another. This backend never
 * starts a server (for tests and the demo, module {@code postgres-embedded} runs one and hands its
 * URL over).
 *
 * <p>A read-only open writes nothing to the directory and creates nothing on the server.
 */
public final class PostgresStoreProvider implements StoreProvider {
  static final StoreMarker MARKER = new StoreMarker("postgres", PostgresSchema.FORMAT);
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStoreProvider.class);

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    return open(dir, options, families, null);
  }

  /**
   * {@link #open(Path, StoreOptions, List)} on connections from {@code dataSource}, which the
   * caller keeps owning (the store never closes it); {@code postgres.url}, {@code .user}, {@code
   * .password} and {@code .poolSize} must then be absent.
   *
   * @param dataSource connections to the server, or null to use the options
   */
  public Store open(
      Path dir, StoreOptions options, List<FamilySpec> families, DataSource dataSource) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    PostgresSettings settings = PostgresSettings.of(options);
    if (dataSource != null
        && (settings.url() != null || settings.user() != null || settings.password() != null)) {
      throw new StoreArgumentException(
          "open with a DataSource takes no postgres.url, postgres.user or"
              + " postgres.password: the DataSource already says where and as whom to connect");
    }
    FamilyCatalog catalog =
        new FamilyCatalog(
            families,
            PostgresStore.CAPABILITIES.maxKeyBytes(),
            PostgresStore.CAPABILITIES.maxValueBytes());
    boolean creates =
        options.createIfMissing()
            && !options.readOnly()
            && (!Files.exists(dir) || StoreMarker.isEmptyDirectory(dir));
    if (dataSource == null && settings.url() == null && creates) {
      // Before the claim, which writes a new store's marker: a new store with no server is refused
      // untouched.
      requireRecordedServer(dir.toAbsolutePath().normalize(), Optional.empty());
    }
    return DirectoryClaim.openStore(
        dir,
        options,
        MARKER,
        d -> false,
        claim -> openOnClaim(claim, options, settings, catalog, dataSource));
  }

  private static Store openOnClaim(
      DirectoryClaim claim,
      StoreOptions options,
      PostgresSettings settings,
      FamilyCatalog catalog,
      DataSource dataSource) {
    Path dir = claim.directory();
    Optional<StoreTarget> recorded = StoreTarget.read(dir);
    boolean create = options.createIfMissing() && !claim.readOnly();
    if (recorded.isEmpty() && !create) {
      throw new StoreFormatException(
          dir
              + " holds a postgres store marker but no "
              + StoreTarget.FILE
              + ": the store's creation was cut short, so it holds no data; nothing was changed. Open it read-write"
              + " with createIfMissing to create the store");
    }
    String schema = schema(dir, settings, recorded);
    if (dataSource == null && settings.url() == null) {
      requireRecordedServer(
          dir, recorded); // again under the claim: the directory may have changed meanwhile
    }
    PostgresServer server = connect(settings, recorded, dataSource);
    try {
      String where = dir + " (" + StoreTarget.FILE + ")";
      String storeId;
      String user;
      String serverUrl;
      try (Connection c = server.connection()) {
        storeId =
            PostgresSchema.open(
                c,
                schema,
                recorded.map(StoreTarget::storeId).orElse(null),
                catalog.specs(),
                create,
                where);
        user = c.getMetaData().getUserName();
        serverUrl = c.getMetaData().getURL();
      } catch (SQLException e) {
        throw PostgresFailures.write(e, "the open of schema '" + schema + "'", server.label());
      }
      StoreTarget target = new StoreTarget(serverUrl, user, schema, storeId);
      if (!claim.readOnly() && !recorded.equals(Optional.of(target))) {
        target.write(claim);
        LOG.info("postgres store {} is schema '{}' on {}", dir, schema, server.label());
      }
      return new PostgresStore(claim, server, catalog, schema);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * The schema: the recorded one (an option naming another is refused), the option's, or a fresh
   * name.
   */
  private static String schema(
      Path dir, PostgresSettings settings, Optional<StoreTarget> recorded) {
    if (recorded.isPresent()) {
      String had = recorded.get().schema();
      if (settings.schema() != null && !settings.schema().equals(had)) {
        throw new StoreFormatException(
            dir
                + " holds the postgres store in schema '"
                + had
                + "', not '"
                + settings.schema()
                + "' as "
                + PostgresSettings.SCHEMA
                + " says; nothing was changed: drop the option"
                + " or name that schema");
      }
      return had;
    }
    if (settings.schema() != null) {
      return settings.schema();
    }
    return "ankusa_"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
  }

  /**
   * Refuses an open that names no server ({@code postgres.url} absent, no {@code DataSource}) when
   * {@code dir} records none it can reach: a new store, or a store an earlier release made on an
   * embedded server it started itself ({@code url=embedded}).
   *
   * @throws StoreArgumentException saying which option to set; nothing was written
   */
  private static void requireRecordedServer(Path dir, Optional<StoreTarget> recorded) {
    if (recorded.isEmpty()) {
      throw new StoreArgumentException(
          "no PostgreSQL server named for the postgres store in "
              + dir
              + ": set the"
              + " option "
              + PostgresSettings.URL
              + "=jdbc:postgresql://HOST:PORT/DATABASE (and "
              + PostgresSettings.USER
              + ", "
              + PostgresSettings.PASSWORD
              + " or a ~/.pgpass), or pass a DataSource to PostgresStoreProvider.open;"
              + " nothing was written. This backend starts no server (for tests and demos, ankusa-store-postgres-embedded"
              + " runs one)");
    }
    if (recorded.get().embedded()) {
      throw new StoreArgumentException(
          "the postgres store in "
              + dir
              + " was made on an embedded server that an"
              + " earlier release started itself (its "
              + StoreTarget.FILE
              + " says url="
              + StoreTarget.EMBEDDED
              + ", its data is in "
              + dir.resolve("pgdata")
              + "); this backend starts no server: start one on that data"
              + " directory (pg_ctl start -D "
              + dir.resolve("pgdata")
              + ") and set the option "
              + PostgresSettings.URL
              + " to it; a read-write open then records it. Nothing was written");
    }
  }

  private static PostgresServer connect(
      PostgresSettings settings, Optional<StoreTarget> recorded, DataSource dataSource) {
    if (dataSource != null) {
      return PostgresServer.given(dataSource, "a DataSource given to open");
    }
    String user =
        settings.user() != null
            ? settings.user()
            : recorded.map(StoreTarget::user).orElse("postgres");
    String url = settings.url() != null ? settings.url() : recorded.orElseThrow().url();
    return PostgresServer.pooled(url, user, settings.password(), settings.poolSize());
  }
}
