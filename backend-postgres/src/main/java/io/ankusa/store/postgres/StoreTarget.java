package io.ankusa.store.postgres;

import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a postgres store's data lives, as its directory records it in the file {@value #FILE}
 * beside the store marker: the server's JDBC URL without its query (so no password or other secret
 * is ever written), the role, the schema, and the store's id, which the schema records too, so a
 * directory and a schema that do not belong together are refused.
 *
 * <p>{@code url=embedded} is what an earlier release recorded for a store on an embedded server it
 * started itself, with its data directory {@code pgdata} under the store directory. This backend
 * starts no server: such a store opens only with {@code postgres.url} naming a server on that data.
 *
 * @param url the server's JDBC URL without query, or {@value #EMBEDDED} (an earlier release's)
 * @param user the role the store was created with
 * @param schema the schema holding the store's tables
 * @param storeId the store's id, also in the schema's {@code ankusa.store} table
 */
record StoreTarget(String url, String user, String schema, String storeId) {
  static final String FILE = "postgres-target.properties";
  static final String EMBEDDED = "embedded";

  StoreTarget {
    if (!url.equals(EMBEDDED)) {
      url = withoutSecrets(url);
    }
  }

  boolean embedded() {
    return url.equals(EMBEDDED);
  }

  /** {@code url} without its query string, where pgjdbc takes passwords and other parameters. */
  static String withoutSecrets(String url) {
    int q = url.indexOf('?');
    String bare = q < 0 ? url : url.substring(0, q);
    int at = bare.indexOf('@'); // user:password@host is not pgjdbc syntax, but never write one
    return at < 0 ? bare : "jdbc:postgresql://" + bare.substring(at + 1);
  }

  /** The target recorded in {@code dir}, or empty when there is none. Reads only. */
  static Optional<StoreTarget> read(Path dir) {
    Path file = dir.resolve(FILE);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new StoreException(
          "cannot read " + file + ": " + e + "; check the directory's permissions", e);
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw damaged(file, "is not a properties file");
    }
    String url = p.getProperty("url");
    String user = p.getProperty("user");
    String schema = p.getProperty("schema");
    String id = p.getProperty("store");
    if (url == null || user == null || schema == null || id == null) {
      throw damaged(file, "lacks one of url, user, schema, store");
    }
    try {
      PostgresSettings.checkSchema(schema, "schema");
    } catch (RuntimeException e) {
      throw damaged(file, "names a schema '" + schema + "' that is not one");
    }
    return Optional.of(new StoreTarget(url, user, schema, id));
  }

  private static StoreFormatException damaged(Path file, String what) {
    return new StoreFormatException(
        file
            + " "
            + what
            + ": the postgres store's record of its server is"
            + " damaged; nothing was changed. Restore the file from a backup, or write url=, user=, schema= and"
            + " store= lines naming the server, role, schema and the id in the schema's ankusa.store table");
  }

  /**
   * Writes this target into the claimed directory atomically and durably ({@link
   * DirectoryClaim#replaceFileDurably}: temporary file, fsync, rename, fsync of the directory:
   * until then a power cut may undo the rename and leave the store without its record).
   */
  void write(DirectoryClaim claim) {
    String text =
        "# ankusa-store postgres backend: where this store's data lives. No secret is written here.\n"
            + "url="
            + url
            + "\nuser="
            + user
            + "\nschema="
            + schema
            + "\nstore="
            + storeId
            + "\n";
    try {
      claim.replaceFileDurably(FILE, text);
    } catch (IOException e) {
      throw new StoreException(
          "cannot write "
              + claim.directory().resolve(FILE)
              + ": "
              + e
              + "; check the directory's permissions and free"
              + " space",
          e);
    }
  }
}
