package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * A test backend, {@code denied}: every open fails the way RocksDB fails when the operating system
 * refuses it a file (an {@code IOError} "Permission denied" on the info log), translated by the
 * real {@link RocksDbFailures#open} — which reports it as damaged files. The CLI must still call it
 * a permissions problem. Lives in the RocksDB backend's package only to reach that translation.
 */
public final class PermissionDeniedProvider implements StoreProvider {
  @Override
  public String name() {
    return "denied";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    String state =
        "While open a file for appending: " + dir.toAbsolutePath() + "/LOG: Permission denied";
    throw RocksDbFailures.open(
        new RocksDBException(state, new Status(Status.Code.IOError, Status.SubCode.None, state)),
        dir);
  }
}
