package io.ankusa.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A write whose connection dies under it: the test holds a lock on the family's table, so the write
 * waits on the server at a known point; the test then terminates the write's server process (what a
 * lost connection looks like to the driver) and releases the lock. The write throws {@link
 * StoreWriteFailedException} saying the connection was lost; after {@code reportWriteFailure} the
 * store writes and reads again on fresh connections, and the failed batch was not applied.
 */
class ConnectionLossTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));

  @Test
  void aWriteWhoseConnectionIsLostThrowsWriteFailedAndTheStoreRecovers() throws Exception {
    try (TempDirStore t = TempDirStore.open(new PostgresFixture(), FAMILIES)) {
      Store s = t.store();
      String schema = StoreTarget.read(t.dir()).orElseThrow().schema();
      byte[] k = {1};
      CompletableFuture<Void> write;
      try (Connection locker = TestServer.connect();
          Connection watcher = TestServer.connect()) {
        locker.setAutoCommit(false);
        try (Statement st = locker.createStatement()) {
          st.execute(
              "LOCK TABLE " + FamilyTable.quote(schema) + ".\"rows\" IN ACCESS EXCLUSIVE MODE");
        }
        write =
            CompletableFuture.runAsync(
                () ->
                    s.write(
                        new Batch().put("rows", k, new byte[] {7}).merge("counts", k, 1),
                        Durability.SYNC));
        int pid = TestServer.lockWaiters(watcher, schema, 1).get(0);
        try (PreparedStatement kill = watcher.prepareStatement("SELECT pg_terminate_backend(?)")) {
          kill.setInt(1, pid);
          kill.executeQuery().close();
        }
        locker.rollback();
      }
      Throwable failure = null;
      try {
        write.get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        failure = e.getCause();
      }
      assertThat(failure)
          .as("the write whose connection was terminated")
          .isInstanceOf(StoreWriteFailedException.class)
          .hasMessageContaining("connection to the PostgreSQL server")
          .hasMessageContaining("was lost");
      s.reportWriteFailure(failure);
      assertThat(s.get("rows", k)).as("the batch of the failed write").isNull();
      assertThat(s.counter("counts", k)).as("the merge of the failed write").isZero();
      s.write(new Batch().put("rows", k, new byte[] {8}).merge("counts", k, 2), Durability.SYNC);
      assertThat(s.get("rows", k)).as("a write after reportWriteFailure").isEqualTo(new byte[] {8});
      assertThat(s.counter("counts", k)).isEqualTo(2);
    }
  }
}
