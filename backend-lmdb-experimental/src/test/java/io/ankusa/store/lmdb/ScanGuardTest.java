package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.ChunkedScanGuardCases;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.List;

/** The chunked scan's guard cases ({@link ChunkedScanGuardCases}) on the LMDB backend's scan. */
class ScanGuardTest extends ChunkedScanGuardCases {
  @Override
  protected Store open(Path dir, List<FamilySpec> families) {
    return new LmdbStoreProvider().open(dir, StoreOptions.defaults(), families);
  }

  @Override
  protected void whileReadingChunk(Runnable hook) {
    LmdbScan.whileReadingChunk = hook;
  }
}
