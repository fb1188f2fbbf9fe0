package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The engine layer's generators ({@code @Provide} methods the cases name in {@code @ForAll}); a
 * backend's test class may override one to narrow what it draws.
 */
public abstract class EngineGenerators extends ConformanceSuite implements EngineCase {
  /** Bytes that make ordering bugs show: the signed/unsigned boundary, the extremes. */
  private static final byte[] EDGE_BYTES = {
    0x00, 0x01, 0x7e, 0x7f, (byte) 0x80, (byte) 0x81, (byte) 0xfe, (byte) 0xff
  };

  /**
   * The model's small key alphabet: 4 bytes, keys of 1..2 bytes, 20 keys in all, so ops collide.
   */
  private static final byte[] MODEL_BYTES = {0x00, 0x7f, (byte) 0x80, (byte) 0xff};

  /**
   * Keys of 1..32 bytes (never more than the backend's maxKeyBytes): a third from a small alphabet
   * of edge bytes and 1..3 bytes long, so keys collide and share prefixes; a third an edge-byte
   * prefix plus random bytes; a third any bytes.
   */
  @Provide
  protected Arbitrary<byte[]> keys() {
    int max = Math.min(32, capabilities().maxKeyBytes());
    Arbitrary<byte[]> colliding = edgeBytes(EDGE_BYTES, 1, 3);
    Arbitrary<byte[]> prefixed =
        edgeBytes(EDGE_BYTES, 1, 2)
            .flatMap(
                p ->
                    Arbitraries.bytes()
                        .array(byte[].class)
                        .ofMinSize(0)
                        .ofMaxSize(max - p.length)
                        .map(rest -> concat(p, rest)));
    Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(max);
    return Arbitraries.oneOf(colliding, prefixed, any);
  }

  @Provide
  protected Arbitrary<List<byte[]>> keySets() {
    return keys().list().ofMaxSize(20);
  }

  /** Values of 0..64 bytes (within maxValueBytes). */
  @Provide
  protected Arbitrary<byte[]> values() {
    return Arbitraries.bytes()
        .array(byte[].class)
        .ofMaxSize(Math.min(64, capabilities().maxValueBytes()));
  }

  /** Values of 0..64 KiB (within maxValueBytes). */
  @Provide
  protected Arbitrary<byte[]> largeValues() {
    int max = Math.min(64 * 1024, capabilities().maxValueBytes());
    return Arbitraries.oneOf(
        values(),
        Arbitraries.integers()
            .between(0, max)
            .map(
                n -> {
                  byte[] v = new byte[n];
                  new java.util.Random(n).nextBytes(v);
                  return v;
                }),
        Arbitraries.just(new byte[max]));
  }

  /** Deltas including 0, ±1 and the extremes of long, so wrap-around happens often. */
  @Provide
  protected Arbitrary<Long> deltas() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.longs()),
        Tuple.of(
            2,
            Arbitraries.of(
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                -1L,
                0L,
                1L,
                Long.MIN_VALUE + 1,
                Long.MAX_VALUE - 1)),
        Tuple.of(1, Arbitraries.longs().between(-1000, 1000)));
  }

  @Provide
  protected Arbitrary<List<Long>> deltaLists() {
    return deltas().list().ofMinSize(1).ofMaxSize(8);
  }

  /**
   * The model's values: seven puts in eight 0..4 bytes, so equal values collide; one in eight 2..40
   * KiB of random bytes (within maxValueBytes), above half an LMDB page, so an engine that keeps
   * large values on pages of their own (LMDB's overflow pages) allocates and frees them within
   * batches — a put overwritten or deleted by the same batch — and across the reopens the property
   * draws ({@link Perturbation#REOPEN}).
   */
  @Provide
  protected Arbitrary<byte[]> modelValues() {
    int max = Math.min(40 * 1024, capabilities().maxValueBytes());
    Arbitrary<byte[]> large =
        Arbitraries.integers()
            .between(Math.min(2048, max), max)
            .map(
                n -> {
                  byte[] v = new byte[n];
                  new java.util.Random(n).nextBytes(v);
                  return v;
                });
    return Arbitraries.frequencyOf(
        Tuple.of(7, Arbitraries.bytes().array(byte[].class).ofMaxSize(4)), Tuple.of(1, large));
  }

  /** Random ops over the model's small key space, in either family. */
  @Provide
  protected Arbitrary<Op> ops() {
    Arbitrary<byte[]> k = edgeBytes(MODEL_BYTES, 1, 2);
    Arbitrary<byte[]> v = modelValues();
    return Arbitraries.frequencyOf(
        Tuple.of(
            4, Combinators.combine(k, v).as((key, value) -> (Op) new Op.Put(PLAIN, key, value))),
        Tuple.of(2, k.map(key -> (Op) new Op.Delete(PLAIN, key))),
        Tuple.of(1, Combinators.combine(k, k).as((a, b) -> (Op) range(PLAIN, a, b))),
        Tuple.of(
            4,
            Combinators.combine(k, deltas()).as((key, d) -> (Op) new Op.Merge(COUNTERS, key, d))),
        Tuple.of(
            1,
            Combinators.combine(k, deltas())
                .as((key, d) -> (Op) new Op.Put(COUNTERS, key, Int64Add.encode(d)))),
        Tuple.of(1, k.map(key -> (Op) new Op.Delete(COUNTERS, key))),
        Tuple.of(1, Combinators.combine(k, k).as((a, b) -> (Op) range(COUNTERS, a, b))));
  }

  /** 1..8 batches of 1..6 ops each. */
  @Provide
  protected Arbitrary<List<List<Op>>> smallBatches() {
    return ops().list().ofMinSize(1).ofMaxSize(6).list().ofMinSize(1).ofMaxSize(8);
  }

  /**
   * 1..12 rounds of 1..6 ops, a check range and probe keys each; a fifth of them under a snapshot;
   * about one in four with a {@link #perturbations() perturbation} before its batch.
   */
  @Provide
  protected Arbitrary<List<ModelRound>> rounds() {
    Arbitrary<byte[]> k = edgeBytes(MODEL_BYTES, 1, 2);
    Arbitrary<byte[]> bound = Arbitraries.oneOf(k, Arbitraries.just(START));
    Arbitrary<ModelRound> round =
        Combinators.combine(
                ops().list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.integers()
                    .between(0, 4)
                    .map(i -> i == 4), // shrinks towards no snapshot
                bound,
                bound,
                k.list().ofMinSize(1).ofMaxSize(5),
                perturbations())
            .as(
                (ops, snap, a, b, probes, p) ->
                    Bytes.compare(a, b) <= 0
                        ? new ModelRound(ops, snap, a, b, probes, p)
                        : new ModelRound(ops, snap, b, a, probes, p));
    return round.list().ofMinSize(1).ofMaxSize(12);
  }

  /**
   * What the model property does to the store before a batch: nothing three times in four, else a
   * flush, a compaction or a reopen (shrinks towards nothing). Override with {@code
   * Arbitraries.just(Perturbation.NONE)} for a run without perturbation.
   */
  @Provide
  protected Arbitrary<Perturbation> perturbations() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.just(Perturbation.NONE)),
        Tuple.of(2, Arbitraries.just(Perturbation.FLUSH)),
        Tuple.of(1, Arbitraries.just(Perturbation.COMPACT)),
        Tuple.of(1, Arbitraries.just(Perturbation.REOPEN)));
  }

  /**
   * The option set of one try of the model property: the backend's default set in half the tries,
   * its other {@link BackendFixture#optionSets() sets} sharing the other half (so each gets fewer
   * tries than the default; {@code -Pheavy}'s 1 000 tries give each of them hundreds). Shrinks
   * towards the default set.
   */
  @Provide
  protected Arbitrary<NamedOptions> optionSets() {
    List<NamedOptions> sets = backend().optionSets();
    if (sets.size() == 1) {
      return Arbitraries.just(sets.get(0));
    }
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(sets.get(0))),
        Tuple.of(1, Arbitraries.of(sets.subList(1, sets.size()))));
  }

  private static Op.DeleteRange range(String family, byte[] a, byte[] b) {
    return Bytes.compare(a, b) <= 0
        ? new Op.DeleteRange(family, a, b)
        : new Op.DeleteRange(family, b, a);
  }

  private static Arbitrary<byte[]> edgeBytes(byte[] alphabet, int minLength, int maxLength) {
    Byte[] boxed = new Byte[alphabet.length];
    for (int i = 0; i < alphabet.length; i++) {
      boxed[i] = alphabet[i];
    }
    return Arbitraries.of(boxed)
        .list()
        .ofMinSize(minLength)
        .ofMaxSize(maxLength)
        .map(
            list -> {
              byte[] out = new byte[list.size()];
              for (int i = 0; i < out.length; i++) {
                out[i] = list.get(i);
              }
              return out;
            });
  }
}
