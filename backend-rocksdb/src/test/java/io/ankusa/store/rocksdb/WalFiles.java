package io.ankusa.store.rocksdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The write-ahead log files ({@code NNNNNN.log}) of a closed RocksDB store, and the two kinds of
 * damage tests do to them: a flipped bit (a bad disk block) and a truncation (a crash mid-append).
 */
final class WalFiles {
  private WalFiles() {}

  /** One WAL file. */
  record Wal(Path path) {
    long size() {
      try {
        return Files.size(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Flips the lowest bit of the byte at {@code offset}. */
    void flipBit(long offset) {
      try (FileChannel ch =
          FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.allocate(1);
        ch.read(b, offset);
        b.put(0, (byte) (b.get(0) ^ 1)).rewind();
        ch.write(b, offset);
        ch.force(true);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot damage " + path, e);
      }
    }

    /** Cuts the file to {@code length} bytes. */
    void truncate(long length) {
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
        ch.truncate(length);
        ch.force(true);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot truncate " + path, e);
      }
    }
  }

  /** RocksDB's log block: a record's fragment never crosses one, and a block ends in padding. */
  private static final int BLOCK_BYTES = 32 * 1024;

  /** A fragment's header: checksum (4), length (2, little-endian), type (1). */
  private static final int HEADER_BYTES = 7;

  /** A recyclable fragment's header adds the log number (4); this backend never recycles logs. */
  private static final int RECYCLABLE_HEADER_BYTES = 11;

  private static final int FIRST = 2;
  private static final int MIDDLE = 3;

  /** One record of a WAL: the bytes {@code [start, end)}, all its fragments and their headers. */
  record LogRecord(long start, long end) {}

  /**
   * The records of {@code wal} in order, by RocksDB's log format: each record one fragment, or a
   * first, middle ones and a last one, each fragment behind its header and none crossing a 32 KiB
   * block; what is left of a block too short for a header is padding, and so is a zero header.
   */
  static java.util.List<LogRecord> records(Wal wal) {
    byte[] b;
    try {
      b = Files.readAllBytes(wal.path());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + wal.path(), e);
    }
    java.util.List<LogRecord> out = new java.util.ArrayList<>();
    long start = -1;
    int pos = 0;
    while (pos + HEADER_BYTES <= b.length) {
      int leftInBlock = BLOCK_BYTES - pos % BLOCK_BYTES;
      int length = (b[pos + 4] & 0xff) | (b[pos + 5] & 0xff) << 8;
      int type = b[pos + 6] & 0xff;
      if (leftInBlock < HEADER_BYTES || (type == 0 && length == 0)) {
        pos += leftInBlock;
        continue;
      }
      int header = type >= 5 && type <= 8 ? RECYCLABLE_HEADER_BYTES : HEADER_BYTES;
      if (start < 0) {
        start = pos;
      }
      pos += header + length;
      if (type != FIRST && type != MIDDLE) {
        out.add(new LogRecord(start, Math.min(pos, b.length)));
        start = -1;
      }
    }
    return out;
  }

  /** Every WAL of the closed store in {@code dir}, oldest first (by number). */
  static java.util.List<Wal> all(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().matches("[0-9]+\\.log"))
          .sorted(Comparator.comparing(p -> p.getFileName().toString()))
          .map(Wal::new)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  /**
   * The newest WAL of the closed store in {@code dir}: the one its unflushed batches are in.
   *
   * @throws IllegalStateException if the store has no WAL
   */
  static Wal newest(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".log"))
          .filter(p -> !p.getFileName().toString().startsWith("LOG"))
          .max(Comparator.comparing(p -> p.getFileName().toString()))
          .map(Wal::new)
          .orElseThrow(() -> new IllegalStateException("no write-ahead log in " + dir));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
