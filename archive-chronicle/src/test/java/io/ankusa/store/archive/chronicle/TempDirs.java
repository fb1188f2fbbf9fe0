package io.ankusa.store.archive.chronicle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Temporary directories for tests that cannot use {@code @TempDir} (jqwik properties). */
final class TempDirs {
  private TempDirs() {}

  static Path create(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
