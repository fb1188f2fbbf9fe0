package io.ankusa.store.lmdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Damage done to the {@code data.mdb} of a closed LMDB store by tests, the way a bad disk, a bad
 * copy or a cut-short restore would: bytes found by their content and flipped, or the file
 * truncated.
 */
final class DataFileDamage {
  private DataFileDamage() {}

  static Path dataFile(Path dir) {
    return dir.resolve(LmdbEnvironment.DATA_FILE);
  }

  /** Every offset at which {@code pattern} occurs in the data file of {@code dir}. */
  static List<Long> find(Path dir, byte[] pattern) {
    byte[] file = readAll(dir);
    List<Long> at = new ArrayList<>();
    outer:
    for (int i = 0; i + pattern.length <= file.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (file[i + j] != pattern[j]) {
          continue outer;
        }
      }
      at.add((long) i);
    }
    return at;
  }

  /** XORs the byte at {@code offset} of the data file with {@code mask}. */
  static void flip(Path dir, long offset, int mask) {
    try (FileChannel ch =
        FileChannel.open(dataFile(dir), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ mask)).rewind();
      ch.write(b, offset);
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot damage " + dataFile(dir), e);
    }
  }

  /** Cuts the data file to {@code length} bytes. */
  static void truncate(Path dir, long length) {
    try (FileChannel ch = FileChannel.open(dataFile(dir), StandardOpenOption.WRITE)) {
      ch.truncate(length);
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot truncate " + dataFile(dir), e);
    }
  }

  static long size(Path dir) {
    try {
      return Files.size(dataFile(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] readAll(Path dir) {
    try {
      return Files.readAllBytes(dataFile(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
