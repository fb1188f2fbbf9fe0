package io.ankusa.store.etcd;

import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Where an etcd store's data lives, as its directory records it in the file {@value #FILE} beside
 * the store marker: the members' client URLs, the key prefix, and the store's id, which the store's
 * meta key in the cluster records too, so a directory and a prefix that do not belong together are
 * refused.
 *
 * @param endpoints the members' client URLs
 * @param prefix the key prefix the store lives under
 * @param storeId the store's id
 */
record EtcdTarget(List<URI> endpoints, String prefix, String storeId) {
  static final String FILE = "etcd-target.properties";

  EtcdTarget {
    endpoints = List.copyOf(endpoints);
  }

  /** The target recorded in {@code dir}, or empty when there is none. Reads only. */
  static Optional<EtcdTarget> read(Path dir) {
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
    String endpoints = p.getProperty("endpoints");
    String prefix = p.getProperty("prefix");
    String id = p.getProperty("store");
    if (endpoints == null || prefix == null || id == null) {
      throw damaged(file, "lacks one of endpoints, prefix, store");
    }
    try {
      EtcdSettings.checkPrefix(prefix, "prefix");
      List<URI> parsed = EtcdSettings.endpoints(endpoints, "endpoints");
      if (parsed.isEmpty()) {
        throw damaged(file, "names no endpoint");
      }
      return Optional.of(new EtcdTarget(parsed, prefix, id));
    } catch (StoreFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      throw damaged(file, "holds a value that is not one: " + e.getMessage());
    }
  }

  private static StoreFormatException damaged(Path file, String what) {
    return new StoreFormatException(
        file
            + " "
            + what
            + ": the etcd store's record of its cluster is damaged;"
            + " nothing was changed. Restore the file from a backup, or write endpoints=, prefix= and store= lines naming"
            + " the members, the key prefix and the id in the store's meta key");
  }

  /**
   * Writes this target into the claimed store directory atomically and durably ({@link
   * DirectoryClaim#replaceFileDurably}: temporary file, fsync, rename, then an fsync of the
   * directory). Without the last one a power cut can take the rename, and the next open would find
   * a marker without a target and create a new, empty store under a fresh prefix while the data
   * stays under the old one.
   */
  void write(DirectoryClaim claim) {
    String text =
        "# ankusa-store etcd backend: where this store's data lives.\n"
            + "endpoints="
            + EtcdSettings.joined(endpoints)
            + "\nprefix="
            + prefix
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
