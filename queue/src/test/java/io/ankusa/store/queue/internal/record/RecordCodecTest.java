package io.ankusa.store.queue.internal.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Generated round trips of the queue's records, and truncation anywhere named. The edges, damaged
 * and foreign records read back from a store, and the errors' family and key are the layout layer's
 * {@code RecordCases}, on every backend.
 */
class RecordCodecTest {

  @Provide
  Arbitrary<HookEnvelope> envelopes() {
    Arbitrary<String> text = Arbitraries.strings().ofMinLength(1).ofMaxLength(40);
    Arbitrary<String> maybe = text.injectNull(0.3);
    Arbitrary<List<Integer>> sinks =
        Arbitraries.integers()
            .between(0, 0xFFFF)
            .set()
            .ofMinSize(1)
            .ofMaxSize(5)
            .map(s -> List.copyOf(s));
    Arbitrary<byte[]> payload = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    return Combinators.combine(
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            maybe,
            text,
            text,
            maybe,
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            sinks,
            payload)
        .as(HookEnvelope::new);
  }

  /**
   * An envelope's sinks: each in 0..65535, none twice, in short lists (compared with each other)
   * and long ones (a set of those seen); the first repeat is named by its position.
   */
  @Example
  void anEnvelopeRefusesARepeatedOrOutOfRangeSink() {
    List<Integer> many = new ArrayList<>(IntStream.range(0, 40).boxed().toList());
    assertThat(HookEnvelope.firstRepeatedSink(List.of(7))).isEqualTo(-1);
    assertThat(HookEnvelope.firstRepeatedSink(List.of(3, 1, 3))).isEqualTo(2);
    assertThat(HookEnvelope.firstRepeatedSink(many)).isEqualTo(-1);
    many.add(39);
    assertThat(HookEnvelope.firstRepeatedSink(many)).isEqualTo(40);
    for (List<Integer> sinks : List.of(List.of(3, 1, 3), many)) {
      assertThatThrownBy(() -> envelope(sinks))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("lists a sink twice");
    }
    for (List<Integer> sinks : List.of(List.of(1, 65_536), List.of(-1))) {
      assertThatThrownBy(() -> envelope(sinks))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("is outside 0..65535");
    }
    assertThat(envelope(List.of(0, 65_535)).withSeq(9).sinks()).containsExactly(0, 65_535);
  }

  private static HookEnvelope envelope(List<Integer> sinks) {
    return new HookEnvelope(0, null, "s", "h", null, 1, sinks, new byte[0]);
  }

  @Property
  void envelopeRoundTrips(@ForAll("envelopes") HookEnvelope e) {
    assertThat(HookEnvelope.decode(e.encode())).isEqualTo(e);
  }

  /**
   * The writer encodes an envelope before its seq is known and sets the seq in place: the bytes
   * then equal the encoding of the envelope with that seq, and the seq reads back without decoding
   * the rest.
   */
  @Property
  void anEncodingGivenItsSeqInPlaceEqualsTheEnvelopeWithThatSeq(
      @ForAll("envelopes") HookEnvelope e,
      @ForAll @net.jqwik.api.constraints.LongRange(min = 0, max = Long.MAX_VALUE) long seq) {
    byte[] encoded = e.withSeq(0).encode();
    HookEnvelope.setEncodedSeq(encoded, seq);
    assertThat(encoded).isEqualTo(e.withSeq(seq).encode());
    assertThat(HookEnvelope.encodedSeq(encoded)).isEqualTo(seq);
    assertThat(HookEnvelope.decode(encoded)).isEqualTo(e.withSeq(seq));
  }

  /**
   * The binary form, byte for byte, of one envelope: what stores already hold must keep decoding.
   */
  @Example
  void anEnvelopeEncodesToItsDocumentedBytes() {
    HookEnvelope e =
        new HookEnvelope(
            7, "acme", "src", "h\u00e9", null, 9_000, List.of(1, 65_535), new byte[] {1, 2, 3});
    assertThat(java.util.HexFormat.of().formatHex(e.encode()))
        .isEqualTo(
            "01"
                + "0000000000000007"
                + "01"
                + "00000004"
                + "61636d65"
                + "00000003"
                + "737263"
                + "00000003"
                + "68c3a9"
                + "00"
                + "0000000000002328"
                + "0002"
                + "0001"
                + "ffff"
                + "00000003"
                + "010203");
  }

  /**
   * A record writer grows past its size hint, and hands over its array only when the record filled
   * it.
   */
  @Example
  void aRecordWriterGrowsPastItsHintAndCopiesOnlyWhatItWrote() {
    byte[] big = new byte[1000];
    java.util.Arrays.fill(big, (byte) 7);
    byte[] written = new RecordWriter(16).u8(1).bytes(big).u64(-1).toByteArray();
    assertThat(written).hasSize(1 + 4 + 1000 + 8);
    assertThat(written[0]).isEqualTo((byte) 1);
    assertThat(java.util.Arrays.copyOfRange(written, 5, 1005)).isEqualTo(big);
    assertThat(java.util.Arrays.copyOfRange(written, 1005, 1013)).containsOnly((byte) 0xff);
    assertThat(new RecordWriter(64).u16(0x0102).toByteArray()).containsExactly(1, 2);
    // Each width grows a full writer: a hint of 16 filled by two u64, then one more of each.
    byte[] full =
        new RecordWriter(16).u64(0).u64(0).u8(0xab).u16(0xcdef).u32(0x01020304L).toByteArray();
    assertThat(java.util.Arrays.copyOfRange(full, 16, full.length))
        .containsExactly(0xab, 0xcd, 0xef, 0x01, 0x02, 0x03, 0x04);
    assertThat(new RecordWriter(16).u64(0).u64(0).u16(0x0102).toByteArray()).hasSize(18);
  }

  @Example
  void anEncodedSeqIsRefusedOnBytesThatAreNoEnvelopeOrForANegativeSeq() {
    byte[] encoded = envelope(List.of(1)).encode();
    assertThatThrownBy(() -> HookEnvelope.setEncodedSeq(encoded, -1))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("non-negative, got -1");
    assertThatThrownBy(() -> HookEnvelope.encodedSeq(new byte[8]))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining(
            "not an encoded hook envelope of version 1 (8 bytes, version byte 0)");
    byte[] otherVersion = encoded.clone();
    otherVersion[0] = 2;
    assertThatThrownBy(() -> HookEnvelope.setEncodedSeq(otherVersion, 5))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("version byte 2");
    assertThat(otherVersion).containsExactly(withFirst(encoded, (byte) 2));
  }

  private static byte[] withFirst(byte[] b, byte first) {
    byte[] copy = b.clone();
    copy[0] = first;
    return copy;
  }

  @Property
  void truncatedEnvelopeNamesTheFieldItStoppedAt(
      @ForAll("envelopes") HookEnvelope e, @ForAll @IntRange(min = 1, max = 400) int cut) {
    byte[] bytes = e.encode();
    byte[] truncated =
        Arrays.copyOf(bytes, Math.max(0, bytes.length - Math.min(cut, bytes.length)));
    assertThatThrownBy(() -> HookEnvelope.decode(truncated))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageStartingWith("hook envelope in family 'hooks' does not decode: field '");
  }

  @Property
  void deliveryRowRoundTrips(
      @ForAll @IntRange(min = 0) int attempts,
      @ForAll @IntRange(min = 0) int at,
      @ForAll @IntRange(min = 0) int size,
      @ForAll("errors") String error) {
    DeliveryRow row = new DeliveryRow(attempts, at, error, size);
    assertThat(DeliveryRow.decode(row.encode())).isEqualTo(row);
  }

  @Provide
  Arbitrary<String> errors() {
    return Arbitraries.strings().ofMaxLength(60).injectNull(0.5);
  }
}
