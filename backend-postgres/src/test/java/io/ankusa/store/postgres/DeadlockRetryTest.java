package io.ankusa.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A deadlock between two of the store's own writes, forced: the test locks counter row k2; a write
 * merging into k2 then k1 waits for it; a second write merging into k1 then k2 takes k1 and queues
 * for k2 behind the first. When the test lets go, the first takes k2 and wants k1, which the second
 * holds while it waits for k2: the server aborts one (SQLSTATE 40P01), the store runs it again, and
 * both writes succeed with every delta counted once.
 */
class DeadlockRetryTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.counters("counts", 0));

  @Test
  void aDeadlockedWriteIsRunAgainAndCountsOnce() throws Exception {
    byte[] k1 = {1};
    byte[] k2 = {2};
    try (TempDirStore t = TempDirStore.open(new PostgresFixture(), FAMILIES)) {
      Store s = t.store();
      s.write(new Batch().merge("counts", k1, 1).merge("counts", k2, 1), Durability.SYNC);
      String schema = StoreTarget.read(t.dir()).orElseThrow().schema();
      String table = FamilyTable.quote(schema) + ".\"counts\"";
      CompletableFuture<Void> forward;
      CompletableFuture<Void> backward;
      try (Connection locker = TestServer.connect();
          Connection watcher = TestServer.connect()) {
        locker.setAutoCommit(false);
        try (PreparedStatement lock =
            locker.prepareStatement("SELECT key FROM " + table + " WHERE key = ? FOR UPDATE")) {
          lock.setBytes(1, k2);
          lock.executeQuery().close();
        }
        // backward waits for k2 first; then forward takes k1 and queues behind it for k2
        backward =
            CompletableFuture.runAsync(
                () ->
                    s.write(
                        new Batch().merge("counts", k2, 100).merge("counts", k1, 100),
                        Durability.SYNC));
        TestServer.lockWaiters(watcher, schema, 1);
        forward =
            CompletableFuture.runAsync(
                () ->
                    s.write(
                        new Batch().merge("counts", k1, 10).merge("counts", k2, 10),
                        Durability.SYNC));
        TestServer.lockWaiters(watcher, schema, 2);
        locker.commit();
      }
      forward.get(60, TimeUnit.SECONDS);
      backward.get(60, TimeUnit.SECONDS);
      assertThat(s.counter("counts", k1)).as("k1 after both writes").isEqualTo(111);
      assertThat(s.counter("counts", k2)).as("k2 after both writes").isEqualTo(111);
      assertThat(((PostgresStore) s).retried())
          .as("transactions run again after the deadlock")
          .isPositive();
    }
  }
}
