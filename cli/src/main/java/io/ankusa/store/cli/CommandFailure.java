package io.ankusa.store.cli;

import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the user is told when a command fails: its {@link FailureCause} and one line, with advice
 * only where the advice is right (a permissions problem never advises a repair tool; only a damaged
 * store does, in the backend's own words).
 *
 * <p>Sorting looks at the whole cause chain, permissions first: an engine may report a file it was
 * not allowed to open as an I/O error, which a backend translates into {@link
 * StoreCorruptionException}, yet the data is intact.
 *
 * @param cause why it failed
 * @param line the message, one line, without the command's name
 */
record CommandFailure(FailureCause cause, String line) {
  private static final Pattern DENIED =
      Pattern.compile(
          "(?:(/[^\\s:;()\\]]*)\\s*:\\s*)?(Permission denied|Operation not permitted|Read-only file system)");
  private static final Pattern LOCKED =
      Pattern.compile(
          "locked by another|already open|open (?:read-write )?in another process|lock hold"
              + "|No locks available|is locked",
          Pattern.CASE_INSENSITIVE);

  /** The exit code of this failure. */
  int exitCode() {
    return cause.exitCode();
  }

  /** Sorts {@code e} (what a command threw) into a cause and a line. */
  static CommandFailure of(Throwable e) {
    CommandFailure denied = permissionDenied(e);
    if (denied != null) {
      return denied;
    }
    if (e instanceof CommandInputException c) {
      return new CommandFailure(c.failureCause(), oneLine(c));
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NotDirectoryException n) {
        return new CommandFailure(
            FailureCause.NOT_A_DIRECTORY,
            n.getFile() + " is not a directory" + " (a file is in the way); pass a directory");
      }
      if (t instanceof FileAlreadyExistsException x) {
        return new CommandFailure(
            FailureCause.ALREADY_EXISTS,
            x.getFile()
                + " already exists"
                + " and is not what the command needs there; pass a new path or move it away");
      }
      if (t instanceof NoSuchFileException n) {
        return new CommandFailure(FailureCause.NO_SUCH_PATH, n.getFile() + " does not exist");
      }
    }
    if (e instanceof ArchiveSinkException
        || e instanceof StoreWriteFailedException
        || e instanceof StoreFullException) {
      return new CommandFailure(FailureCause.WRITE_FAILED, oneLine(e));
    }
    if (e instanceof StoreCorruptionException) {
      return new CommandFailure(FailureCause.DAMAGED_STORE, oneLine(e));
    }
    if (e instanceof StoreFormatException) {
      return new CommandFailure(FailureCause.FOREIGN_STORE, oneLine(e));
    }
    if (e instanceof StoreArgumentException || e instanceof IllegalArgumentException) {
      return new CommandFailure(FailureCause.BAD_ARGUMENT, oneLine(e));
    }
    if (e instanceof io.ankusa.store.spi.StoreException
        && e.getMessage() != null
        && LOCKED.matcher(e.getMessage()).find()) {
      return new CommandFailure(FailureCause.LOCKED_STORE, oneLine(e));
    }
    return new CommandFailure(FailureCause.UNEXPECTED, oneLine(e));
  }

  /** The permission-denied failure anywhere in {@code e}'s chain, or null. */
  private static CommandFailure permissionDenied(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException a) {
        return denied(a.getFile(), "Permission denied");
      }
      if (t instanceof FileSystemException f
          && f.getReason() != null
          && DENIED.matcher(f.getReason()).find()) {
        return denied(f.getFile(), f.getReason());
      }
      if (t instanceof CommandInputException) {
        continue; // the CLI's own refusals name their cause
      }
      String m = t.getMessage();
      Matcher matcher = m == null ? null : DENIED.matcher(m);
      if (matcher != null && matcher.find()) {
        return denied(matcher.group(1), matcher.group(2));
      }
    }
    return null;
  }

  private static CommandFailure denied(String file, String reason) {
    return new CommandFailure(
        FailureCause.PERMISSION_DENIED,
        "permission denied: the operating system refused access"
            + (file == null || file.isEmpty() ? "" : " to " + file)
            + " ("
            + reason.toLowerCase(Locale.ROOT)
            + ")."
            + " This is an access problem, not a sign of damage: give this user access to the directory (owner, mode,"
            + " read-only mount, immutable attribute) or run as the user that owns it");
  }

  private static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.replace("\r", " ").replace('\n', ' ');
  }
}
