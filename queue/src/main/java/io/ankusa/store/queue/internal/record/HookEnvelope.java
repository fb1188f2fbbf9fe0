package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * One received webhook, stored once under its {@code seq} in the hooks family.
 *
 * <p>Binary form, version 1 (all integers big-endian): {@code version:8 seq:64 tenant? source
 * hookId idempotencyKey? receivedAt:64 sinkCount:16 sink:16… payload}, strings and payload
 * length-prefixed ({@code length:32}), optional strings behind a presence byte. A decoder of this
 * version refuses any other version with {@link io.ankusa.store.spi.StoreCorruptionException}
 * naming it.
 *
 * @param seq commit-order sequence, assigned by the writer
 * @param tenantId the owner, or {@code null} for none (filed under {@code "default"})
 * @param sourceId the provider the hook came from
 * @param hookId the provider's id of the hook
 * @param idempotencyKey the dedupe key, or {@code null}
 * @param receivedAt epoch milliseconds
 * @param sinks destinations, 1..65535 distinct values in 0..65535, in delivery order
 * @param payload the body; owned by the envelope (not copied: do not change it after construction)
 */
public record HookEnvelope(
    long seq,
    String tenantId,
    String sourceId,
    String hookId,
    String idempotencyKey,
    long receivedAt,
    List<Integer> sinks,
    byte[] payload) {

  /** The only version this code writes and reads. */
  public static final int VERSION = 1;

  /** Where {@code seq} sits in the binary form: right after the version byte. */
  private static final int SEQ_OFFSET = 1;

  /** Up to this many sinks, {@link #firstRepeatedSink} compares each with the earlier ones. */
  private static final int FEW_SINKS = 16;

  public HookEnvelope {
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(hookId, "hookId");
    Objects.requireNonNull(payload, "payload");
    sinks = List.copyOf(sinks);
    if (sinks.isEmpty()) {
      throw new StoreArgumentException(
          "hook " + hookId + " has no sinks; a hook needs at least one");
    }
    checkSinks(hookId, sinks);
    if (seq < 0 || receivedAt < 0) {
      throw new StoreArgumentException(
          "hook " + hookId + ": seq and receivedAt must be non-negative");
    }
  }

  /**
   * Each sink in 0..65535 and none twice, without a stream: the writer builds every envelope twice
   * (once on the caller's thread, then again with its seq), and most hooks have one sink.
   */
  private static void checkSinks(String hookId, List<Integer> sinks) {
    for (int sink : sinks) {
      if (sink < 0 || sink > 0xFFFF) {
        throw new StoreArgumentException(
            "hook " + hookId + ": sink " + sink + " is outside 0..65535");
      }
    }
    if (firstRepeatedSink(sinks) >= 0) {
      throw new StoreArgumentException("hook " + hookId + " lists a sink twice: " + sinks);
    }
  }

  /**
   * The position of the first sink of {@code sinks} that repeats an earlier one, or -1 when none
   * does. A short list is compared with itself; from {@value #FEW_SINKS} sinks on, a set of the
   * sinks seen is kept (8 KiB: allocating one per hook was most of what producers allocated under
   * load; docs/measurements/ingest.md). REQUIRES: every sink is in 0..65535.
   */
  public static int firstRepeatedSink(List<Integer> sinks) {
    int n = sinks.size();
    if (n <= FEW_SINKS) {
      // Index loops: no iterator, no sub-list, nothing allocated for the usual one sink.
      for (int i = 1; i < n; i++) {
        int sink = sinks.get(i);
        for (int j = 0; j < i; j++) {
          if (sinks.get(j) == sink) {
            return i;
          }
        }
      }
      return -1;
    }
    BitSet seen = new BitSet(0x10000);
    for (int i = 0; i < n; i++) {
      int sink = sinks.get(i);
      if (seen.get(sink)) {
        return i;
      }
      seen.set(sink);
    }
    return -1;
  }

  /** This envelope with {@code seq} set (the writer assigns it at commit). */
  public HookEnvelope withSeq(long newSeq) {
    return new HookEnvelope(
        newSeq, tenantId, sourceId, hookId, idempotencyKey, receivedAt, sinks, payload);
  }

  /**
   * Sets the seq of an encoded envelope in place: afterwards {@code encoded} equals {@link
   * #encode()} of the same envelope {@link #withSeq with} {@code seq}. The ingest writer encodes an
   * envelope once, on the caller's thread, before its seq is known, and gives it the seq when it
   * assigns one.
   *
   * <p>REQUIRES: {@code encoded} is {@link #encode()} of an envelope, and the caller owns it (no
   * batch holds it yet, or the batch that does will not be written).
   *
   * @throws StoreArgumentException if {@code encoded} is too short or not of {@link #VERSION}, or
   *     {@code seq} is negative
   */
  public static void setEncodedSeq(byte[] encoded, long seq) {
    checkEncoded(encoded);
    if (seq < 0) {
      throw new StoreArgumentException("an envelope's seq must be non-negative, got " + seq);
    }
    ByteBuffer.wrap(encoded).putLong(SEQ_OFFSET, seq);
  }

  /**
   * The seq an encoded envelope carries, read without decoding the rest.
   *
   * @throws StoreArgumentException if {@code encoded} is too short or not of {@link #VERSION}
   */
  public static long encodedSeq(byte[] encoded) {
    checkEncoded(encoded);
    return ByteBuffer.wrap(encoded).getLong(SEQ_OFFSET);
  }

  private static void checkEncoded(byte[] encoded) {
    if (encoded.length < SEQ_OFFSET + Long.BYTES || encoded[0] != VERSION) {
      throw new StoreArgumentException(
          "not an encoded hook envelope of version "
              + VERSION
              + " ("
              + encoded.length
              + " bytes"
              + (encoded.length > 0 ? ", version byte " + (encoded[0] & 0xff) : "")
              + ")");
    }
  }

  public byte[] encode() {
    byte[] tenant = RecordWriter.utf8(tenantId);
    byte[] source = RecordWriter.utf8(sourceId);
    byte[] hook = RecordWriter.utf8(hookId);
    byte[] idem = RecordWriter.utf8(idempotencyKey);
    // Sized exactly, so the writer's array is the result: no copy of the payload beyond the one
    // write.
    long size =
        1
            + 8
            + optionalLength(tenant)
            + 4
            + source.length
            + 4
            + hook.length
            + optionalLength(idem)
            + 8
            + 2
            + 2L * sinks.size()
            + 4
            + payload.length;
    RecordWriter w = new RecordWriter((int) Math.min(size, Integer.MAX_VALUE - 8));
    w.u8(VERSION)
        .u64(seq)
        .optionalUtf8(tenant)
        .bytes(source)
        .bytes(hook)
        .optionalUtf8(idem)
        .u64(receivedAt)
        .u16(sinks.size());
    for (int i = 0; i < sinks.size(); i++) {
      w.u16(sinks.get(i));
    }
    return w.bytes(payload).toByteArray();
  }

  private static int optionalLength(byte[] utf8) {
    return utf8 == null ? 1 : 1 + 4 + utf8.length;
  }

  /** {@link #decodeAt} without a key to name in errors. */
  public static HookEnvelope decode(byte[] bytes) {
    return decodeAt(null, bytes);
  }

  /**
   * Decodes the envelope stored at hook key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code bytes} is truncated, of another
   *     version, has bytes left over or holds a field out of range; the message names the key, the
   *     family, and the field and offset where decoding stopped
   */
  public static HookEnvelope decodeAt(byte[] key, byte[] bytes) {
    RecordReader r = new RecordReader("hook envelope", KeyFamily.HOOK, key, bytes);
    int version = r.u8("version");
    if (version != VERSION) {
      throw r.error(
          "version",
          "is "
              + version
              + "; this release reads version "
              + VERSION
              + " (a newer release wrote it?)");
    }
    long seq = r.u64("seq");
    String tenant = r.optionalString("tenantId");
    String source = r.string("sourceId");
    String hook = r.string("hookId");
    String idem = r.optionalString("idempotencyKey");
    long receivedAt = r.u64("receivedAt");
    int n = r.u16("sinkCount");
    Integer[] sinks = new Integer[n];
    for (int i = 0; i < n; i++) {
      sinks[i] = r.u16("sink[" + i + "]");
    }
    byte[] payload = r.bytes("payload");
    r.end();
    try {
      return new HookEnvelope(
          seq, tenant, source, hook, idem, receivedAt, Arrays.asList(sinks), payload);
    } catch (StoreArgumentException e) {
      throw r.corruption(e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HookEnvelope h
        && seq == h.seq
        && receivedAt == h.receivedAt
        && Objects.equals(tenantId, h.tenantId)
        && sourceId.equals(h.sourceId)
        && hookId.equals(h.hookId)
        && Objects.equals(idempotencyKey, h.idempotencyKey)
        && sinks.equals(h.sinks)
        && Arrays.equals(payload, h.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        seq,
        tenantId,
        sourceId,
        hookId,
        idempotencyKey,
        receivedAt,
        sinks,
        Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return "HookEnvelope[seq="
        + seq
        + ", tenant="
        + tenantId
        + ", source="
        + sourceId
        + ", hook="
        + hookId
        + ", idem="
        + idempotencyKey
        + ", receivedAt="
        + receivedAt
        + ", sinks="
        + sinks
        + ", payload="
        + payload.length
        + " bytes]";
  }
}
