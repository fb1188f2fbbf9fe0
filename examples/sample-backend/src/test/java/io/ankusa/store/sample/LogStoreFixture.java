package io.ankusa.store.sample;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreProvider;

/** The sample backend as the conformance suite sees it. */
public class LogStoreFixture implements BackendFixture {
  @Override
  public StoreProvider provider() {
    return new LogStoreProvider();
  }

  @Override
  public Capabilities capabilities() {
    return LogStore.CAPABILITIES;
  }
}
