package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.HookKey;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * The layout suite against a store whose multiGet of hook envelopes answers "absent" for every even
 * seq that still has an archive obligation: the archiver takes those hooks for gone and drops their
 * obligations without archiving them. Must be rejected by {@code
 * archiverSettlesOnlyWhatTheSinkSynced} ({@link LayoutMutantRejectionTest}). Not a surefire test by
 * name: only the launcher runs it.
 */
class ArchiveReadMissesHooksMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: multiGet of hooks misses owed even seqs", MissesHooks::new);
  }

  static final class MissesHooks extends ForwardingStore {
    MissesHooks(Store d) {
      super(d);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      List<byte[]> values = delegate.multiGet(family, keys);
      if (!family.equals(Format3.HOOKS)) {
        return values;
      }
      List<byte[]> missing = new ArrayList<>(values);
      for (int i = 0; i < keys.size(); i++) {
        long seq = HookKey.decode(keys.get(i)).seq();
        if (seq % 2 == 0 && delegate.get(Format3.INDEX, Keys.archive(seq)) != null) {
          missing.set(i, null);
        }
      }
      return missing;
    }
  }
}
