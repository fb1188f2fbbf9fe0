package io.ankusa.store.conformance;

import io.ankusa.store.kit.directory.DirectoryLock;
import io.ankusa.store.kit.directory.StoreMarker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The damage the suite does to any backend whose store lives in files (the default of {@link
 * BackendFixture#corrupt}): runs of bytes inverted in the middle half of the largest data file
 * under the store directory, where an engine keeps the bulk of what was written, at offsets drawn
 * from a seed so that a run can be repeated byte for byte. The suite's own files (the store marker
 * and the directory lock) are never touched: damaging them tests the directory claim, not the
 * engine.
 *
 * <p>A backend whose engine may misread or abort the process on damage it does not claim to detect
 * (LMDB's page structure) overrides {@link BackendFixture#corrupt} with damage it does detect.
 */
public final class StoreFileDamage {
  /** How many runs of inverted bytes one damage makes. */
  static final int RUNS = 8;

  /** How many bytes each run inverts. */
  static final int RUN_BYTES = 16;

  /**
   * What was damaged, for messages.
   *
   * @param file the file damaged
   * @param offsets where each run of {@link #RUN_BYTES} inverted bytes starts, ascending
   * @param seed the seed the offsets were drawn from
   */
  public record Damage(Path file, List<Long> offsets, long seed) {
    @Override
    public String toString() {
      return RUNS
          + " runs of "
          + RUN_BYTES
          + " inverted bytes at offsets "
          + offsets
          + " of "
          + file.getFileName()
          + " ("
          + Seeds.replay(seed)
          + ")";
    }
  }

  /**
   * The seed when {@value Seeds#PROPERTY} is not set: fixed, so every run damages the same bytes.
   */
  static final long DEFAULT_SEED = 0x5eedL;

  private StoreFileDamage() {}

  /**
   * The seed of the default damage: {@code -Dankusa.seed=N} when set, else {@link #DEFAULT_SEED}.
   */
  public static long seed() {
    return Long.getLong(Seeds.PROPERTY, DEFAULT_SEED);
  }

  /**
   * Inverts {@link #RUNS} runs of {@link #RUN_BYTES} bytes in the middle half of the largest file
   * under {@code dir} (ties broken by path), at offsets drawn from {@code seed}; the store in
   * {@code dir} must be closed.
   *
   * @throws UnsupportedOperationException if {@code dir} holds no file but the suite's own, or none
   *     big enough to hold the runs: there is nothing of the engine's to damage
   */
  public static Damage invertBytes(Path dir, long seed) {
    Path target = largestDataFile(dir);
    long size;
    try {
      size = Files.size(target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + target, e);
    }
    long span = size / 2 - RUN_BYTES;
    if (span < RUNS * RUN_BYTES) {
      throw new UnsupportedOperationException(
          "the largest data file under "
              + dir
              + ", "
              + target.getFileName()
              + ", holds "
              + size
              + " bytes: too few to damage its middle");
    }
    Random random = new Random(seed);
    List<Long> offsets = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      offsets.add(size / 4 + (long) (random.nextDouble() * span));
    }
    offsets.sort(Comparator.naturalOrder());
    try (FileChannel ch =
        FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (long offset : offsets) {
        ByteBuffer run = ByteBuffer.allocate(RUN_BYTES);
        ch.read(run, offset);
        for (int i = 0; i < run.position(); i++) {
          run.put(i, (byte) ~run.get(i));
        }
        run.flip();
        ch.write(run, offset);
      }
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot damage " + target, e);
    }
    return new Damage(target, List.copyOf(offsets), seed);
  }

  private static Path largestDataFile(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              f ->
                  !f.getFileName().toString().equals(StoreMarker.FILE)
                      && !f.getFileName().toString().equals(DirectoryLock.FILE))
          .max(
              Comparator.comparingLong(StoreFileDamage::sizeOf)
                  .thenComparing(Comparator.reverseOrder()))
          .orElseThrow(
              () ->
                  new UnsupportedOperationException(
                      dir
                          + " holds no file of the engine's to damage (only the store marker and lock, if any)"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the files under " + dir, e);
    }
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
  }
}
