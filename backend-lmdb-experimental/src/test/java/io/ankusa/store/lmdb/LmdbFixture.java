package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * The conformance fixture of the lmdb backend: default options (64 MiB initial map).
 *
 * <p>{@link #corrupt} damages the family's root branch page with {@link BranchPointerDamage} (a child
 * pointer past the end of the file), the one kind of damage LMDB reliably reports. LMDB keeps no
 * checksums: flipped bytes inside a data page would be read back as data, so the suite's corruption
 * property checks this backend's error path (an LMDB error mid-scan throws, never ends the scan), not
 * detection of damaged values.
 */
final class LmdbFixture implements BackendFixture {
  @Override
  public StoreProvider provider() {
    return new LmdbStoreProvider();
  }

  @Override
  public Capabilities capabilities() {
    return LmdbStore.CAPABILITIES;
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    BranchPointerDamage.damage(dir, family);
  }
}
