package io.ankusa.store.lmdb;

import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child JVM of {@link ProcessKillDurabilityTest}: opens the store in {@code args[0]} and writes
 * {@code NO_SYNC} batches forever, printing {@code committed N} on stdout after batch N's write has
 * returned, until the parent kills it with SIGKILL. Never calls syncWal and never closes the store.
 */
final class KillableWriter {
  private KillableWriter() {}

  public static void main(String[] args) {
    Store store =
        new LmdbStoreProvider()
            .open(
                Path.of(args[0]),
                StoreOptions.defaults().with("lmdb.mapSizeBytes", Integer.toString(1 << 20)),
                ProcessKillDurabilityTest.FAMILIES);
    PrintStream out = System.out;
    for (int n = 0; ; n++) {
      store.write(ProcessKillDurabilityTest.batch(n), Durability.NO_SYNC);
      out.println("committed " + n);
      out.flush();
    }
  }
}
