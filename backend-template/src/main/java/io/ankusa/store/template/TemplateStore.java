package io.ankusa.store.template;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.List;

/**
 * The skeleton of a backend's {@link Store}: every method throws, naming the step of
 * docs/writing-a-backend.md that fills it, so a copy compiles at once and the conformance suite's
 * first failures say what to write next. It is not the suite's model (that is the suite's own
 * {@code ReferenceModel}) and not the memory backend (a working store to read, not to copy).
 *
 * <p>Ownership and durability are the SPI's: read the javadoc of {@link Store} and {@code ReadView}
 * for each method before you fill it; each promise names the property that checks it.
 */
public final class TemplateStore implements Store {

  // ---------------------------------------------------------------- step 2: the reads

  @Override
  public byte[] get(String family, byte[] key) {
    throw Step.READS.notYet("TemplateStore.get");
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    throw Step.READS.notYet("TemplateStore.multiGet");
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    throw Step.READS.notYet("TemplateStore.scan");
  }

  @Override
  public long counter(String family, byte[] key) {
    throw Step.READS.notYet("TemplateStore.counter");
  }

  // ---------------------------------------------------------------- step 3: the writes

  @Override
  public void write(Batch batch, Durability durability) {
    throw Step.WRITES.notYet("TemplateStore.write");
  }

  @Override
  public void syncWal() {
    throw Step.WRITES.notYet("TemplateStore.syncWal");
  }

  // ---------------------------------------------------------------- step 4: snapshots

  @Override
  public Snapshot snapshot() {
    throw Step.SNAPSHOTS.notYet("TemplateStore.snapshot");
  }

  // ---------------------------------------------------------------- step 5: close, failures, getters

  @Override
  public void reportWriteFailure(Throwable cause) {
    throw Step.LIFECYCLE.notYet("TemplateStore.reportWriteFailure");
  }

  @Override
  public List<FamilySpec> families() {
    throw Step.LIFECYCLE.notYet("TemplateStore.families");
  }

  @Override
  public Path directory() {
    throw Step.LIFECYCLE.notYet("TemplateStore.directory");
  }

  @Override
  public void close() {
    throw Step.LIFECYCLE.notYet("TemplateStore.close");
  }

  // ---------------------------------------------------------------- step 6: capabilities

  /**
   * What the backend claims, and only what passes. {@code detectsDamage}: a read that meets damaged
   * bytes in your files throws {@code StoreCorruptionException}; the suite damages the files of every
   * store that lives in files whether you claim it or not, and reports what your engine did with the
   * damage as unverified when you do not. Build them with {@link Capabilities#builder()}, naming each
   * claim; a claim you do not name keeps its default, what a minimal backend claims.
   */
  @Override
  public Capabilities capabilities() {
    throw Step.CAPABILITIES.notYet("TemplateStore.capabilities");
  }
}
