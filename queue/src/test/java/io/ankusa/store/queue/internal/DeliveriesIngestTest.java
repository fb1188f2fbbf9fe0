package io.ankusa.store.queue.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An ingest given an envelope encoded earlier (the writer encodes on the caller's thread): the
 * stored bytes are that encoding, and one that carries another seq is refused before the batch
 * changes.
 */
class DeliveriesIngestTest {
  private static final HookEnvelope HOOK =
      new HookEnvelope(
          0, "acme", "src", "hook-1", null, 9_000, List.of(1, 2), new byte[] {1, 2, 3});

  @Test
  void anEncodingMadeEarlierIsStoredAsTheEnvelopeOnceItCarriesTheSeq() {
    byte[] encoded = HOOK.encode();
    HookEnvelope.setEncodedSeq(encoded, 42);
    Transition given = new Transition();
    Deliveries.ingest(given, HOOK.withSeq(42), encoded, 7, true);
    Transition built = new Transition();
    Deliveries.ingest(built, HOOK.withSeq(42), 7, true);

    assertThat(given.ops().ops())
        .usingRecursiveFieldByFieldElementComparator()
        .containsExactlyElementsOf(built.ops().ops());
    Op.Put envelope = (Op.Put) given.ops().ops().get(0);
    assertThat(envelope.family()).isEqualTo(Format3.HOOKS);
    assertThat(envelope.key()).isEqualTo(Keys.hook(42));
    assertThat(envelope.value()).isSameAs(encoded);
    assertThat(given.markersPut()).isEqualTo(built.markersPut());
  }

  @Test
  void anEncodingThatCarriesAnotherSeqIsRefusedAndNothingIsAdded() {
    byte[] encoded = HOOK.encode();
    Transition t = new Transition();
    assertThatThrownBy(() -> Deliveries.ingest(t, HOOK.withSeq(42), encoded, 7, false))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("hook 'hook-1' carries seq 0, not its seq 42");
    assertThat(t.ops().isEmpty()).isTrue();
    assertThat(t.steps()).isEmpty();
  }
}
