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
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
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

  /** Every WAL of the closed store in {@code dir}, oldest first (by number). */
  static java.util.List<Wal> all(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches("[0-9]+\\.log"))
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
      return files.filter(p -> p.getFileName().toString().endsWith(".log"))
          .filter(p -> !p.getFileName().toString().startsWith("LOG"))
          .max(Comparator.comparing(p -> p.getFileName().toString()))
          .map(Wal::new)
          .orElseThrow(() -> new IllegalStateException("no write-ahead log in " + dir));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
