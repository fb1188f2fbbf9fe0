package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;

/**
 * A child process that holds a store open until its stdin closes: {@code StoreHolderChild DIR
 * BACKEND read-only|read-write}. Prints {@code open} once the store is open, so the parent knows
 * the lock is held.
 */
public final class StoreHolderChild {
  private StoreHolderChild() {}

  public static void main(String[] args) throws Exception {
    StoreOptions options =
        args[2].equals("read-only")
            ? StoreOptions.readOnlyExisting()
            : StoreOptions.defaults().createIfMissing(false);
    try (Store store =
        StoreProvider.named(args[1]).open(Path.of(args[0]), options, Format3.families())) {
      System.out.println("open");
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the store until the parent closes our stdin
      }
    }
  }
}
