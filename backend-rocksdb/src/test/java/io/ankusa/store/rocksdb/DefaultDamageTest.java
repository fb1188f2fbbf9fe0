package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.conformance.queue.SuiteRun;
import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The suite's default damage ({@code StoreFileDamage}: seeded runs of inverted bytes in the largest
 * file under the store directory), not the RocksDB fixture's aimed one, on a real engine: RocksDB,
 * which claims detectsDamage, must report it. What an author gets who writes no {@code corrupt} of
 * their own: {@code scanNeverEndsEarlyOnCorruption} passes, or — when the damage hit a file RocksDB
 * checks at open, which refuses the store — ends unverified saying so, since this fixture cannot
 * get past the open to check the reads (the aimed damage of {@code RocksDbFixture} checks them).
 * Never a failure.
 */
class DefaultDamageTest {

  @Test
  void rocksDbDetectsTheSuitesDefaultDamage() {
    SuiteRun run =
        SuiteRun.runOnly(DefaultDamageSuite.class, "scanNeverEndsEarlyOnCorruption", Map.of());
    assertThat(run.cases())
        .as("the corruption case with the default damage")
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.outcome()).as(c.message()).isIn(Outcome.PASSED, Outcome.SKIPPED);
              if (c.outcome() == Outcome.SKIPPED) {
                assertThat(c.message())
                    .as("a skip must be the refusal at open, a detection")
                    .contains("refused the damaged store at open (detected at open)");
              }
            });
  }

  /**
   * The engine layer with a fixture that keeps BackendFixture's default corrupt. Nested: surefire
   * skips it.
   */
  static class DefaultDamageSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new BackendFixture() {
        @Override
        public StoreProvider provider() {
          return new RocksDbStoreProvider();
        }

        @Override
        public Capabilities capabilities() {
          return RocksDbStore.CAPABILITIES;
        }

        @Override
        public String name() {
          return "rocksdb (default damage)";
        }
      };
    }
  }
}
