package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * How a RocksDB failure becomes the contract's exception, and what its message says: each kind the
 * translation tells apart, with a status built as RocksDB builds it. (The kinds a test can provoke
 * in a real store — damage, a held lock, unlisted families — are also checked end to end elsewhere;
 * a full disk and an I/O error are not, so they are checked here.)
 */
class RocksDbFailuresTest {
  @TempDir Path dir;

  private static RocksDBException failure(Status.Code code, Status.SubCode sub, String state) {
    return new RocksDBException(code + ": " + state, new Status(code, sub, state));
  }

  @Test
  void readsOfDamagedOrUnreadableDataAreCorruptionAndOthersArePlainFailures() {
    for (Status.Code code : new Status.Code[] {Status.Code.Corruption, Status.Code.IOError}) {
      StoreException e =
          RocksDbFailures.read(
              failure(code, Status.SubCode.None, "block checksum mismatch"),
              dir,
              "rows",
              new byte[] {0x0a},
              "get");
      assertThat(e).as("a read failing with %s", code).isInstanceOf(StoreCorruptionException.class);
      assertThat(e.getMessage())
          .contains("get in family 'rows' at key 0a of RocksDB store " + dir)
          .contains(code + ": block checksum mismatch")
          .contains("restore it from a backup");
    }
    for (Status.Code code :
        new Status.Code[] {Status.Code.Busy, Status.Code.InvalidArgument, Status.Code.Aborted}) {
      StoreException e =
          RocksDbFailures.read(
              failure(code, Status.SubCode.None, "try again"), dir, "rows", null, "scan");
      assertThat(e)
          .as("a read failing with %s", code)
          .isNotInstanceOf(StoreCorruptionException.class);
      assertThat(e.getMessage())
          .isEqualTo(
              "scan in family 'rows' of RocksDB store " + dir + " failed: " + code + ": try again");
    }
  }

  @Test
  void aFullDiskIsStoreFullAndOtherWriteFailuresAreNotAcknowledged() {
    StoreException bySubCode =
        RocksDbFailures.write(
            failure(Status.Code.IOError, Status.SubCode.NoSpace, "While" + " appending to file"),
            dir,
            "rows",
            "write of 3 ops");
    assertThat(bySubCode).isInstanceOf(StoreFullException.class);
    assertThat(bySubCode.getMessage())
        .contains("IOError/NoSpace: While appending to file")
        .contains("free space on the volume of " + dir)
        .contains("(first op in family 'rows')");
    StoreException byMessage =
        RocksDbFailures.write(
            new RocksDBException("IO error: No space left on device"), dir, null, "syncWal");
    assertThat(byMessage).isInstanceOf(StoreFullException.class);
    assertThat(byMessage.getMessage())
        .doesNotContain("first op")
        .contains("IO error: No space left on device");
    StoreException other =
        RocksDbFailures.write(
            failure(Status.Code.IOError, Status.SubCode.None, "fsync failed"),
            dir,
            "rows",
            "write of 1 ops");
    assertThat(other)
        .isInstanceOf(StoreWriteFailedException.class)
        .isNotInstanceOf(StoreFullException.class);
    assertThat(other.getMessage())
        .contains("IOError: fsync failed")
        .contains("call reportWriteFailure");
    StoreException noStatus =
        RocksDbFailures.write(new RocksDBException("something else"), dir, "rows", "write");
    assertThat(noStatus)
        .isInstanceOf(StoreWriteFailedException.class)
        .isNotInstanceOf(StoreFullException.class);
  }

  @Test
  void anOpenFailureSaysWhetherTheLockIsHeldTheFilesAreDamagedOrFamiliesAreUnlisted()
      throws Exception {
    StoreException locked =
        RocksDbFailures.open(
            failure(
                Status.Code.IOError,
                Status.SubCode.None,
                "While lock file: " + dir + "/LOCK: Resource temporarily unavailable"),
            dir);
    assertThat(locked.getMessage()).contains("is locked by another open store");
    StoreException unlisted =
        RocksDbFailures.open(
            failure(
                Status.Code.InvalidArgument,
                Status.SubCode.None,
                "Column families not opened: extra"),
            dir);
    assertThat(unlisted).isInstanceOf(StoreFormatException.class);
    StoreException other =
        RocksDbFailures.open(
            failure(Status.Code.InvalidArgument, Status.SubCode.None, "unsupported option"), dir);
    assertThat(other)
        .isNotInstanceOf(StoreCorruptionException.class)
        .isNotInstanceOf(StoreFormatException.class);
    assertThat(other.getMessage())
        .isEqualTo(
            "RocksDB store "
                + dir
                + " could not be opened: InvalidArgument:"
                + " unsupported option")
        .doesNotContain("locked");

    StoreException damagedNoLogs =
        RocksDbFailures.open(
            failure(Status.Code.Corruption, Status.SubCode.None, "bad record length"), dir);
    assertThat(damagedNoLogs).isInstanceOf(StoreCorruptionException.class);
    assertThat(damagedNoLogs.getMessage()).doesNotContain("write-ahead log");
    Files.writeString(dir.resolve("000012.log"), "");
    Files.writeString(dir.resolve("OPTIONS-000007"), "");
    StoreException damaged =
        RocksDbFailures.open(
            failure(Status.Code.Corruption, Status.SubCode.None, "bad record length"), dir);
    assertThat(damaged.getMessage())
        .as("the damage message names the write-ahead logs, and only them")
        .contains("write-ahead log [000012.log]");
  }
}
