package io.ankusa.store.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Deleting a directory tree: the one place the project does it (scratch stores of the suite, the
 * benches and the tests, a fixture's temporary directory). A tool of tests and benches, not of
 * backends: it lives in the suite's engine module, which every module that makes scratch
 * directories has on its (test) classpath.
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
