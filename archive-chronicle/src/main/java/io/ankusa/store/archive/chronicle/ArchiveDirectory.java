package io.ankusa.store.archive.chronicle;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a directory must look like to be read or appended to as an archive, checked before Chronicle
 * opens it (Chronicle itself would read another engine's directory as an empty queue, and a
 * directory of garbage {@code .cq4} files as empty or as an internal error).
 *
 * <p>An archive directory holds Chronicle's table store {@code metadata.cq4t} (its header names
 * {@value #TABLE_STORE}) and cycle files {@code *.cq4} (each header names {@value #CYCLE_STORE}),
 * and nothing else. Reads only the first bytes of each file; never writes.
 */
public final class ArchiveDirectory {
  static final String METADATA = "metadata.cq4t";
  static final String TABLE_STORE = "STStore";
  static final String CYCLE_STORE = "SCQStore";
  private static final int HEADER_BYTES = 64;

  private ArchiveDirectory() {}

  /**
   * Refuses {@code dir} unless it is an archive directory.
   *
   * @throws StoreArgumentException if it is missing or not a directory
   * @throws StoreFormatException if it holds anything but an archive's files, naming the first one
   */
  public static void requireArchive(Path dir) {
    Path absolute = dir.toAbsolutePath();
    if (!Files.isDirectory(absolute)) {
      throw new StoreArgumentException(
          "archive directory "
              + absolute
              + (Files.exists(absolute) ? " is not a directory" : " does not exist")
              + "; pass the directory a ChronicleArchiveSink wrote to");
    }
    List<Path> entries = list(absolute);
    if (entries.stream().noneMatch(p -> p.getFileName().toString().equals(METADATA))) {
      throw new StoreFormatException(
          "archive directory "
              + absolute
              + " is not an archive: it has no "
              + METADATA
              + (entries.isEmpty()
                  ? " (it is empty)"
                  : " (it holds "
                      + entries.size()
                      + " entries, such as "
                      + entries.get(0).getFileName()
                      + ")")
              + "; pass the directory a ChronicleArchiveSink wrote to");
    }
    for (Path p : entries) {
      String name = p.getFileName().toString();
      String expected =
          name.equals(METADATA) ? TABLE_STORE : name.endsWith(".cq4") ? CYCLE_STORE : null;
      if (expected == null || !Files.isRegularFile(p) || !headerNames(p, expected)) {
        throw new StoreFormatException(
            "archive directory "
                + absolute
                + " is not an archive of this format: "
                + name
                + (expected == null
                    ? " is not a Chronicle archive file"
                    : " has no Chronicle " + expected + " header")
                + "; pass the directory a ChronicleArchiveSink wrote to; nothing was written");
      }
    }
  }

  /**
   * Refuses {@code dir} unless a sink may create an archive there or append to the one it holds: it
   * is missing (under directories), an empty directory, or an archive directory.
   *
   * @throws StoreArgumentException if it, or a parent of it, is a file
   * @throws StoreFormatException if it is a non-empty directory that is not an archive
   */
  public static void requireArchiveOrNew(Path dir) {
    Path absolute = dir.toAbsolutePath();
    for (Path p = absolute; p != null; p = p.getParent()) {
      if (Files.exists(p) && !Files.isDirectory(p)) {
        throw new StoreArgumentException(
            "archive directory "
                + absolute
                + ": "
                + p
                + " is a file, not a directory;"
                + " pass a directory for the archive (it is created if missing)");
      }
      if (Files.isDirectory(p)) {
        break;
      }
    }
    if (Files.isDirectory(absolute) && !list(absolute).isEmpty()) {
      requireArchive(absolute);
    }
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the archive directory " + dir, e);
    }
  }

  private static boolean headerNames(Path file, String store) {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(HEADER_BYTES);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return new String(head, StandardCharsets.ISO_8859_1).contains(store);
  }
}
