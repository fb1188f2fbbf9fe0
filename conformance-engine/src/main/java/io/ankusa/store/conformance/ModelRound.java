package io.ankusa.store.conformance;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Op;
import java.util.List;

/**
 * One step of {@code modelBasedRandomBatches}: first a {@link Perturbation} of the store ({@code
 * before}: a flush, a compaction, a reopen, or nothing), then a batch of ops applied to the backend
 * under test and to the model, then checks — a reverse scan of {@code [lo, hi)} and a multiGet of
 * {@code probes} in both families, and, when {@code underSnapshot}, a snapshot taken before the
 * batch compared with the model's. Prints readably (ops and keys in hex) so jqwik's shrunk
 * counterexample can be read.
 *
 * <p>Ownership: the arrays are generated for this round and never changed.
 */
public record ModelRound(
    List<Op> ops,
    boolean underSnapshot,
    byte[] lo,
    byte[] hi,
    List<byte[]> probes,
    Perturbation before) {

  /** A step with no perturbation before its batch. */
  public ModelRound(
      List<Op> ops, boolean underSnapshot, byte[] lo, byte[] hi, List<byte[]> probes) {
    this(ops, underSnapshot, lo, hi, probes, Perturbation.NONE);
  }

  /** This step with {@code p} before its batch. */
  public ModelRound perturbedBy(Perturbation p) {
    return new ModelRound(ops, underSnapshot, lo, hi, probes, p);
  }

  /** The ops as a batch. */
  public Batch batch() {
    Batch b = new Batch();
    ops.forEach(b::add);
    return b;
  }

  @Override
  public String toString() {
    return "Round{"
        + (before == Perturbation.NONE ? "" : before.word() + " first, ")
        + "ops="
        + ops
        + (underSnapshot ? ", snapshot before the batch" : "")
        + ", reverse scan ["
        + Bytes.hex(lo)
        + ", "
        + Bytes.hex(hi)
        + "), multiGet "
        + probes.stream().map(Bytes::hex).toList()
        + "}";
  }
}
