package io.ankusa.store.cli;

import static io.ankusa.store.cli.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
  @TempDir Path tmp;

  /** A small rocksdb store with three tenants' rows, then {@code damage} applied. */
  private Path store(Batch damage) {
    Path dir = tmp.resolve("store-" + UUID.randomUUID());
    try (Store store =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      new DirectIngest(queue)
          .ingest(
              List.of(
                  new HookEnvelope(0, "acme", "s", "h1", null, 5_000, List.of(1, 2), new byte[7]),
                  new HookEnvelope(0, null, "s", "h2", null, 6_000, List.of(1), new byte[3]),
                  new HookEnvelope(0, "globex", "s", "h3", null, 7_000, List.of(4), new byte[9])));
      if (!damage.isEmpty()) {
        store.write(damage, Durability.SYNC);
      }
    }
    return dir;
  }

  @Test
  void aCleanStoreExitsZero() {
    CommandRun r = run("verify", store(new Batch()).toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("clean");
  }

  @Test
  void aHandBrokenStoreNamesEachBreachAndExitsOne() {
    Batch damage =
        new Batch()
            // a deleted marker: tenant 1's due rows at 5 000 ms lose 'A' 5 1
            .delete(Format3.INDEX, Keys.active(ActiveKey.bucketOf(5_000), 1))
            // an extra counter delta on tenant 2's pending
            .merge(Format3.COUNTERS, Keys.counter(2, CounterField.PENDING), 1)
            // a missing delivery row: hook seq 3, sink 4
            .delete(Format3.DELIVERIES, Keys.delivery(3, 4));
    CommandRun r = run("verify", store(damage).toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains("due-row-has-marker")
        .contains(
            "counters-equal-fold: tenant ord 2 PENDING counter is 2 but a fold of the rows gives 1")
        .contains("index-row-has-delivery-row");
  }

  /**
   * Moves hook 1's due row for sink 1 (tenant acme, at 5 000 ms) to ordinal {@code toOrd}, with its
   * active marker and its counters moved along, so every other invariant still holds.
   */
  private Path refiled(java.util.function.ToLongFunction<Store> toOrd) {
    Path dir = store(new Batch());
    try (Store store =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), Format3.families())) {
      long from = Tenants.ord(store, TenantId.of("acme")).orElseThrow();
      long to = toOrd.applyAsLong(store);
      byte[] oldKey = Keys.due(from, 5_000, 1, 1);
      byte[] value = store.get(Format3.INDEX, oldKey);
      assertThat(value).as("acme's due row for hook 1, sink 1").isNotNull();
      DueValue due = DueValue.decodeAt(oldKey, value);
      store.write(
          new Batch()
              .delete(Format3.INDEX, oldKey)
              .put(Format3.INDEX, Keys.due(to, 5_000, 1, 1), value)
              .put(Format3.INDEX, Keys.active(ActiveKey.bucketOf(5_000), to), EmptyValue.encode())
              .merge(Format3.COUNTERS, Keys.counter(from, due.kind().counter()), -1)
              .merge(Format3.COUNTERS, Keys.counter(from, CounterField.BYTES), -due.size())
              .merge(Format3.COUNTERS, Keys.counter(to, due.kind().counter()), 1)
              .merge(Format3.COUNTERS, Keys.counter(to, CounterField.BYTES), due.size()),
          Durability.SYNC);
    }
    return dir;
  }

  @Test
  void aDueRowUnderAnOrdinalNeverAssignedIsABreach() {
    CommandRun r = run("verify", refiled(store -> 99).toString());
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
    assertThat(r.out())
        .contains("row-ordinal-assigned: due row")
        .contains("is filed under ordinal 99, which was never assigned")
        .doesNotContain("counters-equal-fold")
        .doesNotContain("due-row-has-marker");
  }

  @Test
  void aDueRowUnderAnotherTenantsOrdinalIsABreach() {
    CommandRun r =
        run(
            "verify",
            refiled(store -> Tenants.ord(store, TenantId.of("globex")).orElseThrow()).toString());
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
    assertThat(r.out())
        .contains("row-ordinal-matches-hook: due row")
        .contains("(tenant 'globex') but hook seq 1 belongs to tenant 'acme'")
        .contains("1 breach\n");
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    CommandRun missing = run("verify", tmp.resolve("nope").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err().strip()).contains("no store at").doesNotContain("\tat ");
    assertThat(missing.err().strip().lines()).hasSize(1);

    CommandRun backend = run("verify", tmp.toString(), "--backend", "nosuch");
    assertThat(backend.code()).isEqualTo(2);
    assertThat(backend.err()).contains("no store backend named 'nosuch'");

    CommandRun number = run("inspect", tmp.toString(), "--top", "many");
    assertThat(number.code()).isEqualTo(2);
  }

  @Test
  void aLockedOrNewerFormatDirectoryIsOneLineAndExitTwo() {
    Path dir = store(new Batch());
    try (Store open =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), Format3.families())) {
      CommandRun locked = run("verify", dir.toString());
      assertThat(locked.code()).isEqualTo(2);
      assertThat(locked.err().strip().lines()).hasSize(1);
      assertThat(locked.err()).contains("already open");
    }
    Path newer =
        store(
            new Batch().put(Format3.DEFAULT, Keys.formatStamp(), new FormatStampValue(4).encode()));
    for (String command : new String[] {"verify", "inspect"}) {
      CommandRun r = run(command, newer.toString());
      assertThat(r.code()).as(command).isEqualTo(2);
      assertThat(r.err()).contains("store format 4 is newer than 3");
    }
    CommandRun demo = run("demo", "--dir", newer.toString(), "--seconds", "1");
    assertThat(demo.code()).isEqualTo(2);
    assertThat(demo.err()).contains("newer than 3");
  }

  @Test
  void inspectShowsFamiliesTenantsAndTopTenants() {
    CommandRun r = run("inspect", store(new Batch()).toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("format     3")
        .contains("tenants    3")
        .contains("acme")
        .contains("pending 4");
  }
}
