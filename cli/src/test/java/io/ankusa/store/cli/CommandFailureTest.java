package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.api.Test;

/** How a failure is sorted into a cause, a line and an exit code. */
class CommandFailureTest {

  @Test
  void permissionDeniedAnywhereInTheChainIsNeverCalledDamage() {
    CommandFailure rocks =
        CommandFailure.of(
            new StoreCorruptionException(
                "RocksDB store /s could not be opened: its"
                    + " files are damaged (IOError: While open a file for appending: /s/LOG: Permission denied); restore it from a"
                    + " backup or run RocksDB's repair tool (ldb repair)"));
    assertThat(rocks.cause()).isEqualTo(FailureCause.PERMISSION_DENIED);
    assertThat(rocks.exitCode()).isEqualTo(2);
    assertThat(rocks.line()).contains("/s/LOG").doesNotContain("repair").doesNotContain("damaged");

    CommandFailure java =
        CommandFailure.of(new StoreException("cannot create", new AccessDeniedException("/s/x")));
    assertThat(java.cause()).isEqualTo(FailureCause.PERMISSION_DENIED);
    assertThat(java.line()).contains("/s/x");

    CommandFailure immutable =
        CommandFailure.of(
            new IllegalStateException(
                "x", new FileSystemException("/s/LOCK", null, "Operation not permitted")));
    assertThat(immutable.cause()).isEqualTo(FailureCause.PERMISSION_DENIED);
  }

  @Test
  void eachCauseHasItsExitCode() {
    assertThat(
            CommandFailure.of(new StoreCorruptionException("checksum mismatch; ldb repair"))
                .cause())
        .isEqualTo(FailureCause.DAMAGED_STORE);
    assertThat(CommandFailure.of(new StoreCorruptionException("checksum mismatch")).exitCode())
        .isEqualTo(1);
    assertThat(CommandFailure.of(new StoreFormatException("no RocksDB store in /s")).cause())
        .isEqualTo(FailureCause.FOREIGN_STORE);
    assertThat(
            CommandFailure.of(
                    new StoreException("RocksDB store /s is locked by another open store"))
                .cause())
        .isEqualTo(FailureCause.LOCKED_STORE);
    assertThat(
            CommandFailure.of(new StoreException("memory store /s is already open in this JVM"))
                .exitCode())
        .isEqualTo(2);
    assertThat(
            CommandFailure.of(
                    new StoreException(
                        "the store in /s is open read-write in another process (it holds"
                            + " /s/ankusa-store.lock); close it there first"))
                .cause())
        .isEqualTo(FailureCause.LOCKED_STORE);
    assertThat(CommandFailure.of(new ArchiveSinkException("fsync failed")).exitCode())
        .as("a sink that cannot write")
        .isEqualTo(1);
    assertThat(CommandFailure.of(new StoreWriteFailedException("write failed")).cause())
        .isEqualTo(FailureCause.WRITE_FAILED);
    assertThat(
            CommandFailure.of(new StoreArgumentException("no store backend named 'x'")).exitCode())
        .isEqualTo(2);
    assertThat(
            CommandFailure.of(
                    new ArchiveSinkException("cannot create", new FileAlreadyExistsException("/a")))
                .cause())
        .isEqualTo(FailureCause.ALREADY_EXISTS);
    assertThat(
            CommandFailure.of(new IllegalStateException("x", new NotDirectoryException("/a")))
                .cause())
        .isEqualTo(FailureCause.NOT_A_DIRECTORY);
    assertThat(CommandFailure.of(new IllegalStateException("boom")).exitCode()).isEqualTo(1);
  }

  @Test
  void theLineIsOneLine() {
    assertThat(CommandFailure.of(new StoreFormatException("two\nlines")).line())
        .isEqualTo("two lines");
  }
}
