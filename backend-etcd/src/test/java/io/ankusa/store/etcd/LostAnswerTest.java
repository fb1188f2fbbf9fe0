package io.ankusa.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The two compares that keep a write exact when the cluster's answers cannot be trusted, each
 * forced at the moment it matters:
 *
 * <ul>
 *   <li>a try stuck in a dying leader's log that reaches the cluster after the write was sent
 *       again, applied, and followed by a later write: the ledger compare refuses it, so it never
 *       undoes the later write;
 *   <li>a try that applied but whose answer was lost (a killed leader) is sent again: the ledger
 *       compare refuses the second try and the store recognises its own mark, so the merge is added
 *       once, not twice;
 *   <li>a counter changed behind the store's back between its last write and a merge (what another
 *       writer, or a stale cache entry, looks like): the mod-revision compare refuses the sum made
 *       from the stale value, and the store reads the counter and adds again.
 * </ul>
 */
class LostAnswerTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));

  @Test
  void aDelayedTryArrivingAfterTheResentOneAndALaterWriteIsRefused() throws Exception {
    try (TempDirStore t = TempDirStore.open(new EtcdFixture(), FAMILIES)) {
      EtcdStore s = (EtcdStore) t.store();
      byte[] k = {3};
      s.holdNextTry.set(true);
      s.write(
          new Batch().put("rows", k, new byte[] {1}),
          Durability.SYNC); // its first try is held back
      s.write(new Batch().put("rows", k, new byte[] {2}), Durability.SYNC);
      boolean applied =
          s.heldTry
              .get()
              .commit()
              .get(TestCluster.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS)
              .isSucceeded();
      assertThat(applied).as("the held try, arriving late").isFalse();
      assertThat(s.get("rows", k)).as("the later write stands").isEqualTo(new byte[] {2});
    }
  }

  @Test
  void aTryWhoseAnswerWasLostIsSentAgainButAppliedOnce() {
    try (TempDirStore t = TempDirStore.open(new EtcdFixture(), FAMILIES)) {
      EtcdStore s = (EtcdStore) t.store();
      byte[] k = {1};
      s.write(new Batch().merge("counts", k, 5), Durability.SYNC);
      s.answersToLose.set(1);
      s.write(new Batch().merge("counts", k, 1).put("rows", k, new byte[] {9}), Durability.SYNC);
      assertThat(s.resent()).as("the try whose answer was dropped was sent again").isEqualTo(1);
      assertThat(s.counter("counts", k))
          .as("the merge of a write sent twice, applied once")
          .isEqualTo(6);
      s.write(new Batch().merge("counts", k, 1), Durability.SYNC);
      assertThat(s.counter("counts", k)).as("the next write on the same ledger slot").isEqualTo(7);
    }
  }

  @Test
  void aCounterChangedBehindTheStoresBackIsReadAgainBeforeTheMerge() throws Exception {
    try (TempDirStore t = TempDirStore.open(new EtcdFixture(), FAMILIES)) {
      EtcdStore s = (EtcdStore) t.store();
      byte[] k = {2};
      s.write(
          new Batch().merge("counts", k, 1),
          Durability.SYNC); // the store now knows the counter as 1
      EtcdTarget target = EtcdTarget.read(t.dir()).orElseThrow();
      Client client = SharedClients.acquire(target.endpoints(), TestCluster.REQUEST_TIMEOUT_MS);
      try {
        EtcdKeys keys = new EtcdKeys(target.prefix(), target.storeId());
        client
            .getKVClient()
            .put(
                ByteSequence.from(EtcdKeys.concat(keys.familyStart("counts"), k)),
                ByteSequence.from(Int64Add.encode(100)))
            .get(TestCluster.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      } finally {
        SharedClients.release(client);
      }
      long before = s.retried();
      s.write(new Batch().merge("counts", k, 1), Durability.SYNC);
      assertThat(s.counter("counts", k))
          .as("the merge onto the value the cluster holds")
          .isEqualTo(101);
      assertThat(s.retried() - before)
          .as("the stale sum was refused once and made again")
          .isEqualTo(1);
    }
  }
}
