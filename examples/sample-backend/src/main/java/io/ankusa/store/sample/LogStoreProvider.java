package io.ankusa.store.sample;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * The sample backend, {@code sample-log}: sorted maps in memory, every batch appended to a log file
 * in the store's directory and replayed at open (docs/writing-a-backend.md, step 1). It has no
 * options of its own.
 */
public final class LogStoreProvider implements StoreProvider {
  static final String NAME = "sample-log";
  /** The on-disk format of this backend, recorded in the directory's marker. */
  static final int FORMAT = 1;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    options.refuseUnknown(NAME, List.of());
    FamilyCatalog catalog = new FamilyCatalog(families, LogStore.CAPABILITIES.maxKeyBytes(),
        LogStore.CAPABILITIES.maxValueBytes());
    // No store of this backend predates markers, so no unmarked directory is one of ours.
    return DirectoryClaim.openStore(dir, options, new StoreMarker(NAME, FORMAT), unmarked -> false,
        claim -> LogStore.open(claim, catalog, options.createIfMissing()));
  }
}
