package io.ankusa.store.conformance;

import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * A fixture that opens every store under one of its delegate's option sets ({@link
 * BackendFixture#withOptions}) and otherwise is the delegate: same provider, capabilities, damage,
 * perturbation, crash and fault hooks. Its name is {@code BACKEND[SET]}, so every message under it
 * names the set.
 */
final class OptionSetFixture implements BackendFixture {
  private final BackendFixture delegate;
  private final NamedOptions set;

  OptionSetFixture(BackendFixture delegate, NamedOptions set) {
    this.delegate = delegate;
    this.set = set;
  }

  @Override
  public StoreProvider provider() {
    return delegate.provider();
  }

  @Override
  public StoreOptions options() {
    return set.options();
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    return delegate.open(dir, families, set.options());
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families, StoreOptions options) {
    return delegate.open(dir, families, options);
  }

  @Override
  public Capabilities capabilities() {
    return delegate.capabilities();
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    delegate.corrupt(dir, families, family);
  }

  @Override
  public boolean logDamageInjection() {
    return delegate.logDamageInjection();
  }

  @Override
  public void damageLog(Path dir) {
    delegate.damageLog(dir);
  }

  @Override
  public void flushFamily(Store store, String family) {
    delegate.flushFamily(store, family);
  }

  @Override
  public List<LogCut> logCuts(Path dir) {
    return delegate.logCuts(dir);
  }

  @Override
  public void copyWithLogCut(Path dir, Path copy, LogCut cut) {
    delegate.copyWithLogCut(dir, copy, cut);
  }

  @Override
  public void discard(Path dir) {
    delegate.discard(dir);
  }

  @Override
  public List<NamedOptions> optionSets() {
    return List.of(set);
  }

  @Override
  public BackendFixture withOptions(NamedOptions other) {
    return delegate.withOptions(other);
  }

  @Override
  public void flush(Store store) {
    delegate.flush(store);
  }

  @Override
  public void compact(Store store) {
    delegate.compact(store);
  }

  @Override
  public boolean simulatesCrash() {
    return delegate.simulatesCrash();
  }

  @Override
  public void crash(Store store) {
    delegate.crash(store);
  }

  @Override
  public FaultInjectingStore injectFaults(Store store) {
    return delegate.injectFaults(store);
  }

  @Override
  public String name() {
    return delegate.name() + "[" + set.name() + "]";
  }
}
