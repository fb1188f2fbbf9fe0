package io.ankusa.store.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Deleting a directory tree: the one place the project does it (scratch stores of the suite, the
 * benches and the tests, a fixture's temporary directory). Not part of the engine contract; it lives
 * here because every module that makes scratch directories depends on the SPI.
 */
public final class FileTrees {
  private FileTrees() {}

  /**
   * Deletes {@code root} and everything under it, files before their directories; nothing when it
   * is null or does not exist. Symbolic links are deleted, never followed. Throws {@link
   * UncheckedIOException} naming {@code root} when a file cannot be deleted.
   */
  public static void deleteRecursively(Path root) {
    if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the directory tree " + root, e);
    }
  }
}
