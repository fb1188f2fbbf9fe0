package io.ankusa.store.sample;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The store's log: one record per batch, {@code [int length][int crc32c][ops]}, appended with one
 * write (so a process kill loses no acknowledged batch: the bytes are the operating system's) and
 * forced to disk on {@code SYNC} and {@code syncWal}. At open the records are read back in order; a
 * record cut short at the end (a crash during its write) is dropped and, on a read-write open, cut
 * off; a whole record whose checksum does not match is damage, reported, never skipped.
 *
 * <p>Owned by one {@link LogStore}; {@link #append} and {@link #force} are called under its write lock.
 */
final class LogFile implements AutoCloseable {
  static final String NAME = "sample.log";

  private static final byte PUT = 0;
  private static final byte DELETE = 1;
  private static final byte DELETE_RANGE = 2;
  private static final byte MERGE = 3;

  private final Path path;
  private final FileChannel channel;

  private LogFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /**
   * Reads every whole record of the log in {@code dir} into {@code replay}, then (read-write) opens it
   * for appending after the last one.
   */
  static LogFile open(Path dir, boolean readOnly, OpHandler<RuntimeException> replay) {
    Path path = dir.resolve(NAME);
    try {
      long end = Files.exists(path) ? replay(path, replay) : 0;
      if (readOnly) {
        return new LogFile(path, null);
      }
      FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      channel.truncate(end); // a torn last record
      channel.position(end);
      return new LogFile(path, channel);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the log " + path, e);
    }
  }

  /** Appends {@code batch} as one record; forces it to disk when {@code sync}. */
  void append(Batch batch, boolean sync) {
    byte[] ops = encode(batch);
    CRC32C crc = new CRC32C();
    crc.update(ops);
    ByteBuffer record = ByteBuffer.allocate(8 + ops.length).putInt(ops.length).putInt((int) crc.getValue()).put(ops);
    record.flip();
    try {
      while (record.hasRemaining()) {
        channel.write(record);
      }
      if (sync) {
        channel.force(false);
      }
    } catch (IOException e) {
      throw new StoreWriteFailedException("cannot append to the log " + path + ": " + e.getMessage()
          + "; the batch may be half-written: report the failure and reopen the store", e);
    }
  }

  /** Forces every appended record to disk. */
  void force() {
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new StoreWriteFailedException("cannot sync the log " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close the log " + path, e);
      }
    }
  }

  private static long replay(Path path, OpHandler<RuntimeException> replay) throws IOException {
    byte[] log = Files.readAllBytes(path);
    ByteBuffer in = ByteBuffer.wrap(log);
    while (in.remaining() >= 8) {
      long start = in.position();
      int length = in.getInt();
      int checksum = in.getInt();
      if (length < 0 || length > in.remaining()) {
        return start; // cut short by a crash while it was written
      }
      byte[] ops = new byte[length];
      in.get(ops);
      CRC32C crc = new CRC32C();
      crc.update(ops);
      if ((int) crc.getValue() != checksum) {
        throw new StoreCorruptionException("the log " + path + " is damaged at byte " + start
            + " (a record's checksum does not match); restore the store from a copy");
      }
      decode(ops, replay);
    }
    return in.position();
  }

  private static byte[] encode(Batch batch) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    batch.forEach(new OpHandler<RuntimeException>() {
      @Override
      public void put(Op.Put p) {
        write(PUT, p.family(), p.key(), p.value());
      }

      @Override
      public void delete(Op.Delete d) {
        write(DELETE, d.family(), d.key());
      }

      @Override
      public void deleteRange(Op.DeleteRange r) {
        write(DELETE_RANGE, r.family(), r.lo(), r.hi());
      }

      @Override
      public void merge(Op.Merge m) {
        write(MERGE, m.family(), m.key(), ByteBuffer.allocate(8).putLong(m.delta()).array());
      }

      private void write(byte kind, String family, byte[]... arrays) {
        try {
          out.writeByte(kind);
          out.writeUTF(family);
          for (byte[] a : arrays) {
            out.writeInt(a.length);
            out.write(a);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
      }
    });
    return bytes.toByteArray();
  }

  private static void decode(byte[] ops, OpHandler<RuntimeException> replay) throws IOException {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(ops));
    while (in.available() > 0) {
      byte kind = in.readByte();
      String family = in.readUTF();
      List<byte[]> arrays = new ArrayList<>();
      for (int i = kind == DELETE ? 1 : 2; i > 0; i--) {
        byte[] a = new byte[in.readInt()];
        in.readFully(a);
        arrays.add(a);
      }
      switch (kind) {
        case PUT -> replay.put(new Op.Put(family, arrays.get(0), arrays.get(1)));
        case DELETE -> replay.delete(new Op.Delete(family, arrays.get(0)));
        case DELETE_RANGE -> replay.deleteRange(new Op.DeleteRange(family, arrays.get(0), arrays.get(1)));
        case MERGE -> replay.merge(new Op.Merge(family, arrays.get(0), ByteBuffer.wrap(arrays.get(1)).getLong()));
        default -> throw new StoreCorruptionException("unknown op " + kind + " in a log record");
      }
    }
  }
}
