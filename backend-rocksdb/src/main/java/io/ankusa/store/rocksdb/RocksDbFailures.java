package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Translates {@link RocksDBException}s into the contract's exceptions, in one place, so every read,
 * write and open reports the same kind of failure the same way. Each method returns the exception
 * for the caller to throw.
 */
final class RocksDbFailures {
  private RocksDbFailures() {}

  /**
   * A failed read: {@code Corruption} and {@code IOError} become {@link StoreCorruptionException}
   * (property {@code scanNeverEndsEarlyOnCorruption}); anything else a plain {@link
   * StoreException}. {@code key} may be null when the failure is not tied to one key.
   */
  static StoreException read(RocksDBException e, Path dir, String family, byte[] key, String what) {
    String where =
        what
            + " in family '"
            + family
            + "'"
            + (key == null ? "" : " at key " + Bytes.hex(key))
            + " of RocksDB store "
            + dir;
    if (isCorruption(e)) {
      return new StoreCorruptionException(
          where
              + " met damaged or unreadable data ("
              + describe(e)
              + "); stop writing to the store and"
              + " restore it from a backup or run RocksDB's repair tool (ldb repair)",
          e);
    }
    return new StoreException(where + " failed: " + describe(e), e);
  }

  /** A failed write or WAL sync: {@code NoSpace} becomes {@link StoreFullException}. */
  static StoreException write(RocksDBException e, Path dir, String firstFamily, String what) {
    String where =
        what
            + " to RocksDB store "
            + dir
            + (firstFamily == null ? "" : " (first op in family '" + firstFamily + "')");
    if (isNoSpace(e)) {
      return new StoreFullException(
          where
              + " failed: the disk is full ("
              + describe(e)
              + "); free space on the volume of "
              + dir
              + ", then call reportWriteFailure and retry",
          e);
    }
    return new StoreWriteFailedException(
        where
            + " failed ("
            + describe(e)
            + "); treat it as not acknowledged, call reportWriteFailure"
            + " and retry",
        e);
  }

  /** A failed open: unlisted families are a format refusal, a held LOCK a plain error. */
  static StoreException open(RocksDBException e, Path dir) {
    String msg = describe(e);
    if (msg.contains("Column families not opened") || msg.contains("Column family not found")) {
      return new StoreFormatException(
          "RocksDB store "
              + dir
              + " holds column families the caller did not list ("
              + msg
              + "): it was"
              + " written by a newer release; open it with that release",
          e);
    }
    if (isLockHeld(e)) {
      return new StoreException(
          "RocksDB store "
              + dir
              + " is locked by another open store ("
              + msg
              + "); close the other"
              + " store (in this or another process) before opening it again",
          e);
    }
    if (isCorruption(e) && isRecordedLogCut(msg)) {
      return new StoreCorruptionException(
          "RocksDB store "
              + dir
              + " could not be opened: a write-ahead log it closed is shorter than its MANIFEST"
              + " records, or missing ("
              + msg
              + "); the log was cut or lost after families were flushed past it,"
              + " so their files hold batches whose writes to the other families are gone, and opening it would"
              + " split those batches; restore the store from a backup (a repair tool would open it split)",
          e);
    }
    if (isCorruption(e)) {
      List<String> wals = writeAheadLogs(dir);
      return new StoreCorruptionException(
          "RocksDB store "
              + dir
              + " could not be opened: its files are damaged ("
              + msg
              + ")"
              + (wals.isEmpty()
                  ? ""
                  : "; if the damage is in its write-ahead log "
                      + wals
                      + ", the batches"
                      + " acknowledged after the damage cannot be replayed, and the store refuses to open rather"
                      + " than drop them silently")
              + "; restore it from a backup, or run RocksDB's repair tool (ldb repair), which keeps what"
              + " it can read and drops the rest",
          e);
    }
    return new StoreException("RocksDB store " + dir + " could not be opened: " + msg, e);
  }

  /**
   * Whether RocksDB refused the open because a closed write-ahead log is shorter than the size its
   * MANIFEST records, or missing ({@code track_and_verify_wals_in_manifest}, see {@code
   * RocksDbEngine}).
   */
  private static boolean isRecordedLogCut(String msg) {
    return msg != null
        && msg.contains("WAL")
        && (msg.contains("in MANIFEST") || msg.contains("Missing WAL"));
  }

  /**
   * The write-ahead log files ({@code NNNNNN.log}) in {@code dir}, by name; empty if none or
   * unreadable.
   */
  private static List<String> writeAheadLogs(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("[0-9]+\\.log"))
          .sorted()
          .toList();
    } catch (IOException | UncheckedIOException ex) {
      return List.of();
    }
  }

  static boolean isCorruption(RocksDBException e) {
    Status.Code code = code(e);
    return code == Status.Code.Corruption || code == Status.Code.IOError;
  }

  private static boolean isNoSpace(RocksDBException e) {
    Status s = e.getStatus();
    if (s != null && s.getSubCode() == Status.SubCode.NoSpace) {
      return true;
    }
    String m = e.getMessage();
    return m != null && m.contains("No space left on device");
  }

  private static boolean isLockHeld(RocksDBException e) {
    String m = e.getMessage();
    return m != null
        && (m.contains("LOCK") || m.contains("lock hold") || m.contains("No locks available"));
  }

  private static Status.Code code(RocksDBException e) {
    Status s = e.getStatus();
    return s == null ? null : s.getCode();
  }

  private static String describe(RocksDBException e) {
    Status s = e.getStatus();
    String m = e.getMessage();
    if (s == null) {
      return m;
    }
    return s.getCode()
        + (s.getSubCode() == null || s.getSubCode() == Status.SubCode.None
            ? ""
            : "/" + s.getSubCode())
        + ": "
        + (s.getState() != null ? s.getState() : m);
  }
}
