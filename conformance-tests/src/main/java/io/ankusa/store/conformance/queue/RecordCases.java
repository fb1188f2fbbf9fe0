package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.Example;

/**
 * The queue's own records, hook envelopes and delivery rows, as a backend stores them: every field
 * reads back as written, at its edges; a record that was damaged or written by other code is
 * refused with an error naming its family and key.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface RecordCases extends LayoutCase {
  /**
   * Every field of a hook reads back from the store as it was ingested, at its edges: no tenant and
   * no idempotency key; non-ASCII text in every string; an empty payload and one of the largest
   * size the writer accepts ({@link WriterConfig#DEFAULT_MAX_PAYLOAD_BYTES}, or what fits the
   * backend's largest value); sinks 0 and 65 535 and a hook of 300 sinks; received at 0 and at
   * {@code Long.MAX_VALUE}. Each hook read back equals the one ingested (with its seq) and hashes
   * alike, names its hook id and payload size when printed, and differs from a hook that differs
   * from it in any one field.
   */
  @Example
  default void everyHookFieldReadsBackAsIngested() {
    List<Integer> manySinks = new ArrayList<>();
    for (int s = 0; s < 300; s++) {
      manySinks.add(s * 219);
    }
    byte[] large =
        new byte
            [Math.min(
                WriterConfig.DEFAULT_MAX_PAYLOAD_BYTES, capabilities().maxValueBytes() - 256)];
    new Random(17).nextBytes(large);
    List<HookEnvelope> hooks =
        List.of(
            new HookEnvelope(0, null, "s", "h-none", null, 0, List.of(0), new byte[0]),
            new HookEnvelope(
                0,
                "tenant-ü-東京-🙂",
                "ソース-é",
                "hook-ħ-🙂",
                "idem-ß-🙂",
                Long.MAX_VALUE,
                List.of(65_535, 0, 256),
                new byte[] {0, (byte) 0xff, 0x7f}),
            new HookEnvelope(0, "wide", "src", "h-many", "k", START, manySinks, new byte[] {1}),
            new HookEnvelope(0, "large", "src", "h-large", null, START + 1, List.of(1), large));
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig());
      List<Long> seqs = d.ingest().ingest(hooks);
      String on = backend().name();
      for (int i = 0; i < hooks.size(); i++) {
        HookEnvelope ingested = hooks.get(i).withSeq(seqs.get(i));
        HookEnvelope read = d.hook(seqs.get(i));
        assertThat(read).as("%s: hook %s read back", on, ingested.hookId()).isEqualTo(ingested);
        assertThat(read.hashCode())
            .as("%s: hash of hook %s read back", on, ingested.hookId())
            .isEqualTo(ingested.hashCode());
        assertThat(read.toString())
            .as("%s: hook %s printed", on, ingested.hookId())
            .contains("hook=" + ingested.hookId())
            .contains(ingested.payload().length + " bytes");
      }
      assertThat(new HashSet<>(d.hooks()))
          .as("%s: the distinct hooks in the store", on)
          .hasSize(hooks.size());
      assertThat(d.deliveryRow(seqs.get(2), 299 * 219))
          .as("%s: the last of 300 sinks' delivery row", on)
          .isEqualTo(DeliveryRow.first(START, 1));

      HookEnvelope base = d.hook(seqs.get(1));
      List<Function<HookEnvelope, HookEnvelope>> oneFieldChanged =
          List.of(
              h ->
                  new HookEnvelope(
                      h.seq() + 1,
                      h.tenantId(),
                      h.sourceId(),
                      h.hookId(),
                      h.idempotencyKey(),
                      h.receivedAt(),
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      null,
                      h.sourceId(),
                      h.hookId(),
                      h.idempotencyKey(),
                      h.receivedAt(),
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      "other",
                      h.hookId(),
                      h.idempotencyKey(),
                      h.receivedAt(),
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      h.sourceId(),
                      "other",
                      h.idempotencyKey(),
                      h.receivedAt(),
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      h.sourceId(),
                      h.hookId(),
                      null,
                      h.receivedAt(),
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      h.sourceId(),
                      h.hookId(),
                      h.idempotencyKey(),
                      0,
                      h.sinks(),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      h.sourceId(),
                      h.hookId(),
                      h.idempotencyKey(),
                      h.receivedAt(),
                      List.of(65_535),
                      h.payload()),
              h ->
                  new HookEnvelope(
                      h.seq(),
                      h.tenantId(),
                      h.sourceId(),
                      h.hookId(),
                      h.idempotencyKey(),
                      h.receivedAt(),
                      h.sinks(),
                      new byte[3]));
      for (int f = 0; f < oneFieldChanged.size(); f++) {
        HookEnvelope other = oneFieldChanged.get(f).apply(base);
        assertThat(base)
            .as("%s: hook %s and the hook %s differing in field %d", on, base, other, f)
            .isNotEqualTo(other);
      }
      assertThat(base).as("%s: a hook and something else", on).isNotEqualTo(base.toString());
    }
  }

  /**
   * A delivery row's fields read back from the store at their extremes: attempts and size of 2³²−1,
   * the next attempt at {@code Long.MAX_VALUE}, an empty and a non-ASCII last error, and none.
   */
  @Example
  default void deliveryRowFieldsReadBackAtTheirExtremes() {
    List<DeliveryRow> rows =
        List.of(
            new DeliveryRow(0xFFFF_FFFFL, Long.MAX_VALUE, "", 0xFFFF_FFFFL),
            new DeliveryRow(0, 0, "503 — überlastet 🙂", 0),
            DeliveryRow.first(START, 7));
    try (TempDirStore t = openQueueStore()) {
      Batch batch = new Batch();
      for (int i = 0; i < rows.size(); i++) {
        batch.put(Format3.DELIVERIES, Keys.delivery(1_000 + i, 1), rows.get(i).encode());
      }
      t.store().write(batch, Durability.NO_SYNC);
      for (int i = 0; i < rows.size(); i++) {
        byte[] key = Keys.delivery(1_000 + i, 1);
        assertThat(DeliveryRow.decodeAt(key, t.store().get(Format3.DELIVERIES, key)))
            .as("%s: delivery row %s read back", backend().name(), rows.get(i))
            .isEqualTo(rows.get(i));
      }
    }
  }

  /**
   * A hook envelope cut short anywhere, or with a byte too many, of another version, with a
   * presence byte other than 0 or 1, with text that is not UTF-8, with no sink or a sink twice, is
   * refused on reading with {@link StoreCorruptionException} naming the family, the key in hex and
   * the field; so is such a delivery row. The queue's own readers name them too: the verifier
   * reports a damaged hook as a breach naming it, and the counter fold refuses a dead row's damaged
   * delivery row.
   */
  @Example
  default void aDamagedRecordIsRefusedNamingItsFamilyAndKey() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      String on = backend().name();
      long seq =
          d.ingest()
              .ingest(
                  new HookEnvelope(
                      0, "acme", "s", "h", "k", START, List.of(300, 2), new byte[] {1, 2}));
      byte[] hook = d.hook(seq).encode();
      byte[] row = d.deliveryRow(seq, 300).encode();

      List<byte[]> damagedHooks = new ArrayList<>();
      List<String> why = new ArrayList<>();
      for (int cut = 0; cut < hook.length; cut++) {
        damagedHooks.add(Arrays.copyOf(hook, cut));
        why.add(
            cut == 0
                ? "needs 1 bytes"
                : cut == hook.length - 1
                    ? "field 'payload' at offset \\d+ declares 2 bytes but only" + " 1 remain"
                    : "truncated|remain");
      }
      damagedHooks.add(Arrays.copyOf(hook, hook.length + 1));
      why.add("1 unexpected trailing bytes");
      damagedHooks.add(withByte(hook, 0, 9));
      why.add("field 'version' at offset 1 is 9");
      damagedHooks.add(withByte(hook, 9, 2));
      why.add("field 'tenantId' at offset 10 has presence byte 2");
      damagedHooks.add(withByte(hook, 1 + 8 + 1 + 4 + "acme".length() + 4, 0xff));
      why.add("field 'sourceId' at offset \\d+ is not valid UTF-8");
      damagedHooks.add(sinksRewritten(hook, 7, 7));
      why.add("lists a sink twice");
      damagedHooks.add(sinksRewritten(hook));
      why.add("has no sinks");
      Batch batch = new Batch();
      for (int i = 0; i < damagedHooks.size(); i++) {
        batch.put(Format3.HOOKS, Keys.hook(1_000_000 + i), damagedHooks.get(i));
      }
      store.write(batch, Durability.NO_SYNC);
      for (int i = 0; i < damagedHooks.size(); i++) {
        byte[] key = Keys.hook(1_000_000 + i);
        byte[] stored = store.get(Format3.HOOKS, key);
        String expected = why.get(i);
        assertThatThrownBy(() -> HookEnvelope.decodeAt(key, stored))
            .as("%s: hook envelope %s read back", on, Bytes.hex(stored))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageStartingWith(
                "hook envelope at key " + Bytes.hex(key) + " in family 'hooks' does not decode: ")
            .hasMessageContaining("restore it from a backup")
            .satisfies(e -> assertThat(e.getMessage()).containsPattern(expected));
      }
      Batch cleanUp = new Batch();
      for (int i = 0; i < damagedHooks.size(); i++) {
        cleanUp.delete(Format3.HOOKS, Keys.hook(1_000_000 + i));
      }
      store.write(cleanUp, Durability.NO_SYNC);

      byte[] rowKey = Keys.delivery(seq, 300);
      for (byte[] damaged :
          List.of(
              Arrays.copyOf(row, row.length - 1),
              Arrays.copyOf(row, row.length + 1),
              withByte(row, 0, 2),
              withByte(row, 5, 0x80))) {
        store.write(new Batch().put(Format3.DELIVERIES, rowKey, damaged), Durability.NO_SYNC);
        assertThatThrownBy(
                () -> DeliveryRow.decodeAt(rowKey, store.get(Format3.DELIVERIES, rowKey)))
            .as("%s: delivery row %s read back", on, Bytes.hex(damaged))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageStartingWith(
                "delivery row at key "
                    + Bytes.hex(rowKey)
                    + " in family 'deliveries' does not decode: ");
      }

      store.write(
          new Batch().put(Format3.HOOKS, Keys.hook(seq), Arrays.copyOf(hook, 3)),
          Durability.NO_SYNC);
      assertThat(QueueVerifier.verify(store))
          .as("%s: the verifier reading a damaged hook", on)
          .anySatisfy(
              b ->
                  assertThat(b.detail())
                      .contains(
                          "hook envelope at key "
                              + Bytes.hex(Keys.hook(seq))
                              + " in family 'hooks' does not decode"));
      store.write(
          new Batch().put(Format3.HOOKS, Keys.hook(seq), hook).put(Format3.DELIVERIES, rowKey, row),
          Durability.NO_SYNC);
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 10, 1L << 20)
              .tick(START + 1_000)
              .claimed();
      InflightRow toKill =
          claimed.stream().filter(r -> r.key().sink() == 300).findFirst().orElseThrow();
      Transition dead = new Transition();
      Deliveries.deadLetter(dead, toKill, d.deliveryRow(seq, 300), START + 2_000, "s", "h", "410");
      d.write(dead);
      store.write(
          new Batch().put(Format3.DELIVERIES, rowKey, withByte(row, 0, 7)), Durability.NO_SYNC);
      assertThatThrownBy(() -> CounterFold.fold(store))
          .as("%s: the counter fold reading a dead row's damaged delivery row", on)
          .isInstanceOf(StoreCorruptionException.class)
          .hasMessageContaining(
              "delivery row at key " + Bytes.hex(rowKey) + " in family 'deliveries'")
          .hasMessageContaining("field 'version'");
    }
  }

  /** {@code record} with byte {@code at} set to {@code value}. */
  private static byte[] withByte(byte[] record, int at, int value) {
    byte[] out = record.clone();
    out[at] = (byte) value;
    return out;
  }

  /**
   * The envelope {@code hook} (of two sinks, payload last) with its sink list replaced by {@code
   * sinks}: the 2-byte count and 2 bytes per sink sit just before the payload's length and bytes.
   */
  private static byte[] sinksRewritten(byte[] hook, int... sinks) {
    int payloadAndLength = 4 + 2;
    int sinkListStart = hook.length - payloadAndLength - 2 * 2 - 2;
    byte[] out = new byte[sinkListStart + 2 + 2 * sinks.length + payloadAndLength];
    System.arraycopy(hook, 0, out, 0, sinkListStart);
    out[sinkListStart] = (byte) (sinks.length >>> 8);
    out[sinkListStart + 1] = (byte) sinks.length;
    for (int i = 0; i < sinks.length; i++) {
      out[sinkListStart + 2 + 2 * i] = (byte) (sinks[i] >>> 8);
      out[sinkListStart + 3 + 2 * i] = (byte) sinks[i];
    }
    System.arraycopy(
        hook, hook.length - payloadAndLength, out, out.length - payloadAndLength, payloadAndLength);
    return out;
  }
}
