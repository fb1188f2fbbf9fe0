package io.ankusa.store.queue;

import java.util.List;

/**
 * One webhook handed to {@link WebhookQueue#ingest}: plain data, checked by the queue on the
 * calling thread (a request that breaks a rule is answered {@link IngestResult.Outcome#REJECTED} at
 * once, with the rule named in {@link IngestResult#reason()}).
 *
 * <p>Ownership: {@code payload} and {@code sinks} are not copied when the record is built; the
 * writer copies {@code sinks} and keeps a reference to {@code payload}. REQUIRES: the caller does
 * not modify {@code payload} after calling {@code ingest} (until the returned future is complete).
 *
 * @param tenantId the owner; {@code null} files the hook under {@code "default"}. 1..255 bytes of
 *     UTF-8 without NUL
 * @param sourceId the provider the hook came from; required
 * @param hookId the provider's id of the hook; required
 * @param idempotencyKey the dedupe key within the tenant, or {@code null} for none; a retry
 *     carrying the same key (same tenant) within {@link
 *     io.ankusa.store.queue.config.WriterConfig#dedupeTtlMs()} is answered {@link
 *     IngestResult.Outcome#DUPLICATE} with the seq of the hook first stored under it
 * @param receivedAt epoch milliseconds, non-negative; the due time of the first delivery attempts
 * @param sinks destinations, 1..65535 distinct values in 0..65535, in delivery order
 * @param payload the body, at most {@link
 *     io.ankusa.store.queue.config.WriterConfig#maxPayloadBytes()} bytes
 */
public record IngestRequest(
    String tenantId,
    String sourceId,
    String hookId,
    String idempotencyKey,
    long receivedAt,
    List<Integer> sinks,
    byte[] payload) {}
