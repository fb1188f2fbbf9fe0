package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.spi.Capabilities;

/**
 * What every case of the layout layer needs from the suite that runs it: the backend under test, a
 * fresh format-3 store, the queue settings and the visible skip.
 */
public interface LayoutCase {
  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /** Skips the calling case, visibly, when the backend does not claim a capability. */
  void requireCapability(boolean claimed, String capability, String why);

  /** What the backend under test claims. */
  Capabilities capabilities();

  /**
   * A new store of the backend under test with the format-3 families, in a fresh temporary
   * directory.
   */
  TempDirStore openQueueStore();

  /**
   * The queue settings every case starts from (a case may add to them, e.g. the archive or a tenant
   * cap): the defaults. Override to run the whole layer in a second configuration, as {@code
   * MemoryShardedLayoutConformanceTest} does with {@code counters.sharded_aggregate} on.
   */
  QueueConfig queueConfig();
}
