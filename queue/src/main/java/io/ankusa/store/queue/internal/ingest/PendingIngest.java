package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A request that passed validation on the caller's thread and waits for the writer: the envelope
 * (seq 0 until assigned) and its encoding, the resolved tenant, the dedupe key, a size for the
 * group bound, and the future the caller holds. The envelope is encoded here, on the caller's
 * thread, so that the writer — one thread for every producer — only writes the seq into it ({@link
 * HookEnvelope#setEncodedSeq}).
 *
 * @param hook the envelope with seq 0
 * @param encoded {@code hook.encode()}; the writer owns it once the request is queued and sets its
 *     seq
 * @param tenant the tenant ({@code "default"} when the request named none)
 * @param dedupe the dedupe row key and the idempotency key's bytes, or null when the request has no
 *     idempotency key
 * @param bytes payload and id bytes, for {@link WriterConfig#maxGroupBytes()}
 * @param future completed once, by the writer or the syncer
 */
record PendingIngest(
    HookEnvelope hook,
    byte[] encoded,
    TenantId tenant,
    DedupeRowKey dedupe,
    long bytes,
    CompletableFuture<IngestResult> future) {

  /**
   * Per-envelope overhead beyond payload and strings: version, seq, presence bytes, lengths, at,
   * count.
   */
  private static final int ENVELOPE_OVERHEAD = 1 + 8 + 5 + 4 + 4 + 5 + 8 + 2 + 4;

  /** A request that breaks a rule: the REJECTED answer, without a stack trace. */
  static final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient IngestResult result;

    Rejected(String code, String detail) {
      super(code + ": " + detail, null, false, false);
      this.result = IngestResult.rejected(code, detail);
    }

    IngestResult result() {
      return result;
    }
  }

  /**
   * Checks {@code r} against every rule the store would otherwise refuse later, in the order the
   * {@code REJECT_…} codes are listed in {@link IngestResult}, and builds the pending request.
   *
   * @throws Rejected naming the first rule broken
   */
  static PendingIngest validate(IngestRequest r, WriterConfig config, Capabilities caps)
      throws Rejected {
    TenantId tenant;
    try {
      tenant = TenantId.of(r.tenantId());
    } catch (StoreArgumentException e) {
      throw new Rejected(IngestResult.REJECT_BAD_TENANT, e.getMessage());
    }
    if (r.sourceId() == null) {
      throw new Rejected(IngestResult.REJECT_MISSING_SOURCE, "the request names no source id");
    }
    if (r.hookId() == null) {
      throw new Rejected(
          IngestResult.REJECT_MISSING_HOOK_ID,
          "the request from source '" + r.sourceId() + "' names no hook id");
    }
    List<Integer> sinks = r.sinks();
    if (sinks == null || sinks.isEmpty()) {
      throw new Rejected(
          IngestResult.REJECT_EMPTY_SINKS,
          "hook '" + r.hookId() + "' has no sinks; a hook needs at least one");
    }
    if (sinks.size() > 0xFFFF) {
      throw new Rejected(
          IngestResult.REJECT_BAD_SINK,
          "hook '" + r.hookId() + "' lists " + sinks.size() + " sinks; at most 65535");
    }
    for (Integer sink : sinks) {
      if (sink == null || sink < 0 || sink > 0xFFFF) {
        throw new Rejected(
            IngestResult.REJECT_BAD_SINK,
            "hook '" + r.hookId() + "': sink " + sink + " is not in 0..65535");
      }
    }
    int repeated = HookEnvelope.firstRepeatedSink(sinks);
    if (repeated >= 0) {
      throw new Rejected(
          IngestResult.REJECT_DUPLICATE_SINK,
          "hook '" + r.hookId() + "' lists sink " + sinks.get(repeated) + " twice: " + sinks);
    }
    if (r.payload() == null) {
      throw new Rejected(
          IngestResult.REJECT_MISSING_PAYLOAD,
          "hook '" + r.hookId() + "' has no payload; send an empty array for an empty body");
    }
    if (r.payload().length > config.maxPayloadBytes()) {
      throw new Rejected(
          IngestResult.REJECT_OVERSIZED_PAYLOAD,
          "hook '"
              + r.hookId()
              + "' payload is "
              + r.payload().length
              + " bytes; at most "
              + config.maxPayloadBytes()
              + " (WriterConfig.maxPayloadBytes)");
    }
    if (r.receivedAt() < 0) {
      throw new Rejected(
          IngestResult.REJECT_BAD_RECEIVED_AT,
          "hook '"
              + r.hookId()
              + "' receivedAt "
              + r.receivedAt()
              + " is negative; use epoch milliseconds");
    }
    DedupeRowKey dedupe = null;
    int idemBytes = 0;
    if (r.idempotencyKey() != null) {
      byte[] idem = r.idempotencyKey().getBytes(StandardCharsets.UTF_8);
      idemBytes = idem.length;
      if (idem.length == 0) {
        throw new Rejected(
            IngestResult.REJECT_BAD_IDEMPOTENCY_KEY,
            "hook '" + r.hookId() + "' has an empty idempotency key; send none (null) instead");
      }
      // The expiry key 'e' at:64 tenant 0 key is the longer of the two keys built from it.
      int expiryKeyBytes = 1 + 8 + tenant.byteLength() + 1 + idem.length;
      if (expiryKeyBytes > caps.maxKeyBytes()) {
        throw new Rejected(
            IngestResult.REJECT_BAD_IDEMPOTENCY_KEY,
            "hook '"
                + r.hookId()
                + "' idempotency key is "
                + idem.length
                + " bytes; with tenant '"
                + tenant.value()
                + "' at most "
                + (caps.maxKeyBytes() - 10 - tenant.byteLength())
                + " fit this backend's keys");
      }
      dedupe = DedupeRowKey.of(tenant, idem);
    }
    long stringBytes =
        utf8Length(r.tenantId()) + utf8Length(r.sourceId()) + utf8Length(r.hookId()) + idemBytes;
    long envelopeBytes = ENVELOPE_OVERHEAD + stringBytes + 2L * sinks.size() + r.payload().length;
    if (envelopeBytes > caps.maxValueBytes()) {
      throw new Rejected(
          IngestResult.REJECT_OVERSIZED_HOOK,
          "hook '"
              + r.hookId()
              + "' encodes to about "
              + envelopeBytes
              + " bytes; this backend stores values of at most "
              + caps.maxValueBytes());
    }
    HookEnvelope hook =
        new HookEnvelope(
            0,
            r.tenantId(),
            r.sourceId(),
            r.hookId(),
            r.idempotencyKey(),
            r.receivedAt(),
            sinks,
            r.payload());
    return new PendingIngest(
        hook,
        hook.encode(),
        tenant,
        dedupe,
        r.payload().length + stringBytes,
        new CompletableFuture<>());
  }

  private static long utf8Length(String s) {
    return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
  }
}
