package io.ankusa.store.kit.directory;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The store marker: the file {@value #FILE} a backend writes into a directory when it creates a
 * store there, naming the backend and the backend's own storage format. Every backend checks it at
 * open ({@link DirectoryClaim}), so a directory of another backend, of garbage, or of anything but
 * a store is refused with {@link StoreFormatException} before any file is written.
 *
 * <p>The file is a few lines of UTF-8 text:
 *
 * <pre>
 * # ankusa-store marker: this directory holds a store. Do not edit, move or delete this file.
 * backend=rocksdb
 * format=1
 * </pre>
 *
 * <p>{@code format} is the backend's storage format, a positive whole number the backend raises
 * when a release changes its files incompatibly; a marker with a format above the backend's is a
 * store of a newer release. It is written once, atomically (a temporary file, fsync, rename, fsync
 * of the directory), and never rewritten.
 *
 * @param backend the name of the backend that owns the store ({@link
 *     io.ankusa.store.spi.StoreProvider#name()})
 * @param format the backend's storage format, at least 1
 */
public record StoreMarker(String backend, int format) {
  /** The marker file's name in a store directory. */
  public static final String FILE = "ankusa-store.marker";

  /** The temporary file a marker is written to before it is renamed into place. */
  static final String TEMPORARY = FILE + ".tmp";

  /** Markers are tiny; a larger file is not one. */
  private static final int MAX_BYTES = 4096;

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{0,63}");
  private static final String HEADER =
      "# ankusa-store marker: this directory holds a store. Do not edit, move or delete this file.";

  /** What a directory holds, as {@link #inspect} sees it. */
  public enum Content {
    /** Nothing (or only the kit's own lock and temporary files): a store may be created here. */
    EMPTY,
    /** A marker naming the expected backend, in a format it reads. */
    MARKED,
    /** No marker, but the backend recognised a store it made before markers existed. */
    UNMARKED_STORE
  }

  /**
   * @throws StoreArgumentException if {@code backend} is not a backend name (lower-case letters,
   *     digits, dots and dashes) or {@code format} is below 1
   */
  public StoreMarker {
    if (backend == null || !NAME.matcher(backend).matches()) {
      throw new StoreArgumentException(
          "'"
              + backend
              + "' is not a backend name for a store marker:"
              + " use lower-case letters, digits, '.' and '-', at most 64");
    }
    if (format < 1) {
      throw new StoreArgumentException(
          "store format " + format + " of backend '" + backend + "' is below 1");
    }
  }

  /**
   * The marker in {@code dir}, or empty when there is none. Reads only.
   *
   * @throws StoreFormatException if {@value #FILE} exists but is not a marker (garbage, too large,
   *     a directory, a missing line); the message shows what it holds
   * @throws StoreException if it cannot be read
   */
  public static Optional<StoreMarker> read(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(file)) {
      throw new StoreFormatException(
          file
              + " is not a regular file, so it is not a store marker; this directory"
              + " does not hold a store this release can open: check the path");
    }
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw garbage(file, "is " + Files.size(file) + " bytes, larger than any marker");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new StoreException("cannot read the store marker " + file + ": " + e, e);
    }
    return Optional.of(parse(file, bytes));
  }

  private static StoreMarker parse(Path file, byte[] bytes) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw garbage(
          file,
          "is not UTF-8 text (first bytes "
              + Bytes.hex(java.util.Arrays.copyOf(bytes, Math.min(16, bytes.length)))
              + ")");
    }
    String backend = null;
    String format = null;
    for (String line : text.split("\n", -1)) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      if (l.startsWith("backend=") && backend == null) {
        backend = l.substring("backend=".length()).strip();
      } else if (l.startsWith("format=") && format == null) {
        format = l.substring("format=".length()).strip();
      } else {
        throw garbage(file, "has a line that is not part of a marker: '" + abbreviate(l) + "'");
      }
    }
    if (backend == null || format == null) {
      throw garbage(
          file,
          "lacks its "
              + (backend == null ? "backend=" : "format=")
              + " line (it holds '"
              + abbreviate(text.strip())
              + "')");
    }
    try {
      return new StoreMarker(backend, Integer.parseInt(format));
    } catch (NumberFormatException | StoreArgumentException e) {
      throw garbage(
          file,
          "names backend '"
              + abbreviate(backend)
              + "' format '"
              + abbreviate(format)
              + "', which is not a backend name and a whole number");
    }
  }

  private static StoreFormatException garbage(Path file, String what) {
    return new StoreFormatException(
        "the store marker "
            + file
            + " "
            + what
            + ": it is not a store marker, so"
            + " this directory does not hold a store this release can open; nothing was changed. Check the path,"
            + " or restore the directory from a backup");
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "…";
  }

  /** The marker's file content. */
  String text() {
    return HEADER + "\nbackend=" + backend + "\nformat=" + format + "\n";
  }

  /**
   * Writes this marker into {@code dir} atomically and durably: a temporary file, fsync, rename,
   * fsync of the directory. REQUIRES: the caller holds the directory's {@link DirectoryLock}
   * read-write.
   *
   * @throws StoreException if it cannot be written
   */
  public void write(Path dir) {
    try {
      replaceDurably(dir, FILE, text());
    } catch (IOException e) {
      throw new StoreException(
          "cannot write the store marker "
              + dir.resolve(FILE)
              + ": "
              + e
              + "; check the directory's permissions and free space",
          e);
    }
  }

  /**
   * Replaces the file {@code name} in {@code dir} with {@code text} (UTF-8) atomically and durably:
   * written to {@code name.tmp}, fsynced, renamed over {@code name}, then the directory fsynced, so
   * after a power cut the file holds either its old or its new text, never a part, and the rename
   * is not undone. REQUIRES: the caller holds the directory's {@link DirectoryLock} read-write.
   */
  static void replaceDurably(Path dir, String name, String text) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(
        tmp,
        dir.resolve(name),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(dir);
  }

  static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open or sync a directory; the rename is then as durable as they
      // make it.
    }
  }

  /**
   * What {@code dir} holds, for a backend about to open a store there as {@code expected}. Reads
   * only: nothing is created or changed, also when it refuses.
   *
   * @param unmarkedStore recognises, by the engine's own files, a store of this backend made before
   *     markers existed; called only when the directory has no marker and is not empty
   * @throws StoreFormatException naming what was found: a marker of another backend, a marker of a
   *     newer format, a file that is not a marker, or a non-empty directory with no marker that
   *     {@code unmarkedStore} does not recognise (a new store is created only in an empty
   *     directory)
   */
  public static Content inspect(Path dir, StoreMarker expected, Predicate<Path> unmarkedStore) {
    Optional<StoreMarker> found = read(dir);
    if (found.isPresent()) {
      StoreMarker m = found.get();
      if (!m.backend.equals(expected.backend)) {
        throw new StoreFormatException(
            dir
                + " holds a store of the '"
                + m.backend
                + "' backend (its "
                + FILE
                + " says so), not a '"
                + expected.backend
                + "' store; nothing was changed: open it with the '"
                + m.backend
                + "' backend");
      }
      if (m.format > expected.format) {
        throw new StoreFormatException(
            dir
                + " holds a '"
                + m.backend
                + "' store of format "
                + m.format
                + ", newer than format "
                + expected.format
                + " this release reads; nothing was changed: open it"
                + " with the release that wrote it");
      }
      return Content.MARKED;
    }
    List<String> entries = entries(dir);
    if (entries.isEmpty()) {
      return Content.EMPTY;
    }
    if (unmarkedStore.test(dir)) {
      return Content.UNMARKED_STORE;
    }
    int shown = Math.min(entries.size(), 8);
    throw new StoreFormatException(
        dir
            + " is not empty and holds no store marker ("
            + FILE
            + "): it holds "
            + entries.size()
            + (entries.size() == 1 ? " entry " : " entries ")
            + entries.subList(0, shown)
            + (shown < entries.size() ? " and more" : "")
            + ", which are not a '"
            + expected.backend
            + "' store;"
            + " nothing was changed. A new store is created only in an empty directory: choose an empty or"
            + " missing directory, or open this one with the backend that wrote it");
  }

  /**
   * Whether {@code dir} is an existing directory that holds nothing but the kit's own lock and
   * temporary files: the only kind of directory a store may be created in.
   *
   * @throws StoreException if the directory cannot be listed
   */
  public static boolean isEmptyDirectory(Path dir) {
    return Files.isDirectory(dir) && entries(dir).isEmpty();
  }

  /** The directory's entries, sorted, without the kit's own lock and temporary files. */
  private static List<String> entries(Path dir) {
    List<String> names = new ArrayList<>();
    try (Stream<Path> list = Files.list(dir)) {
      list.map(p -> p.getFileName().toString())
          .filter(n -> !n.equals(DirectoryLock.FILE) && !n.equals(TEMPORARY))
          .sorted()
          .forEach(names::add);
    } catch (IOException e) {
      throw new StoreException(
          "cannot list the store directory "
              + dir
              + ": "
              + e
              + "; check that it is a directory you may read",
          e);
    }
    return names;
  }
}
