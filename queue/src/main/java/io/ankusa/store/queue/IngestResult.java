package io.ankusa.store.queue;

/**
 * The answer to one {@link WebhookQueue#ingest} call.
 *
 * <p>What each outcome guarantees to the caller:
 *
 * <ul>
 *   <li>{@link Outcome#CREATED}: the hook is stored under {@link #seq()} and durable — the WAL sync
 *       covering it returned before this result was completed. It survives a kill -9 of the process
 *       (on a backend with {@code durableAfterProcessKill}) and is visible to dispatch ({@code seq
 *       <= durableSeq}).
 *   <li>{@link Outcome#DUPLICATE}: the idempotency key was already used; {@link #seq()} is the hook
 *       first stored under it, and that hook is durable (a duplicate of a key whose group is still
 *       in the pipeline waits for that group's sync). Nothing was written; no counter moved.
 *   <li>{@link Outcome#TENANT_LIMIT}: the request would create tenant {@code tenants.max + 1};
 *       nothing was written and no ordinal was created. HTTP mapping for embedders: 503, {@code
 *       Retry-After: 300}.
 *   <li>{@link Outcome#REJECTED}: the request breaks a rule ({@link #reason()} starts with one of
 *       the {@code REJECT_…} codes); retrying it unchanged will not help. HTTP: 400 (413 for an
 *       oversized payload).
 *   <li>{@link Outcome#UNAVAILABLE}: not stored — {@link #FENCED} (a write or WAL sync failed and
 *       the writer is repairing; whatever this request wrote is deleted before anything of it
 *       becomes visible), {@link #OVERLOADED} (the bounded queue is full) or {@link #CLOSED}. A
 *       retry is safe: the hook is stored once, by the retry. HTTP: 503.
 * </ul>
 *
 * @param outcome what happened
 * @param seq the hook's seq for CREATED and DUPLICATE; 0 otherwise (real seqs start at 1)
 * @param reason why, for TENANT_LIMIT, REJECTED and UNAVAILABLE; empty otherwise
 */
public record IngestResult(Outcome outcome, long seq, String reason) {

  /** The kinds of answer. */
  public enum Outcome {
    CREATED,
    DUPLICATE,
    TENANT_LIMIT,
    REJECTED,
    UNAVAILABLE
  }

  /**
   * UNAVAILABLE: a write or sync failed; the queue is fenced until the unacknowledged rows are
   * deleted.
   */
  public static final String FENCED = "fenced";

  /** UNAVAILABLE: the writer's bounded queue is full. */
  public static final String OVERLOADED = "overloaded";

  /** UNAVAILABLE: the writer is closing or closed. */
  public static final String CLOSED = "closed";

  /** REJECTED: the tenant id is not 1..255 bytes of UTF-8 without NUL. */
  public static final String REJECT_BAD_TENANT = "bad tenant id";

  /** REJECTED: no source id. */
  public static final String REJECT_MISSING_SOURCE = "missing source id";

  /** REJECTED: no hook id. */
  public static final String REJECT_MISSING_HOOK_ID = "missing hook id";

  /** REJECTED: no sinks. */
  public static final String REJECT_EMPTY_SINKS = "empty sinks";

  /** REJECTED: a sink is null or outside 0..65535, or there are more than 65535. */
  public static final String REJECT_BAD_SINK = "bad sink";

  /** REJECTED: a sink is listed twice. */
  public static final String REJECT_DUPLICATE_SINK = "duplicate sink";

  /** REJECTED: no payload (use an empty array for an empty body). */
  public static final String REJECT_MISSING_PAYLOAD = "missing payload";

  /**
   * REJECTED: the payload is larger than {@link
   * io.ankusa.store.queue.config.WriterConfig#maxPayloadBytes()}.
   */
  public static final String REJECT_OVERSIZED_PAYLOAD = "oversized payload";

  /** REJECTED: receivedAt is negative. */
  public static final String REJECT_BAD_RECEIVED_AT = "bad receivedAt";

  /** REJECTED: the idempotency key is empty or its dedupe key is longer than the backend allows. */
  public static final String REJECT_BAD_IDEMPOTENCY_KEY = "bad idempotency key";

  /** REJECTED: the encoded hook is larger than the backend's largest value. */
  public static final String REJECT_OVERSIZED_HOOK = "oversized hook";

  public IngestResult {
    if (outcome == null) {
      throw new NullPointerException("outcome");
    }
    reason = reason == null ? "" : reason;
  }

  /** Stored under {@code seq}, durable. */
  public static IngestResult created(long seq) {
    return new IngestResult(Outcome.CREATED, seq, "");
  }

  /** The key was used before by the hook stored under {@code originalSeq}. */
  public static IngestResult duplicate(long originalSeq) {
    return new IngestResult(Outcome.DUPLICATE, originalSeq, "");
  }

  /** Refused: it would create one tenant too many. */
  public static IngestResult tenantLimit(String reason) {
    return new IngestResult(Outcome.TENANT_LIMIT, 0, reason);
  }

  /** Refused: {@code code} (one of the {@code REJECT_…} constants) and what exactly was wrong. */
  public static IngestResult rejected(String code, String detail) {
    return new IngestResult(Outcome.REJECTED, 0, code + ": " + detail);
  }

  /** Not stored, retry later: {@link #FENCED}, {@link #OVERLOADED} or {@link #CLOSED}. */
  public static IngestResult unavailable(String reason) {
    return new IngestResult(Outcome.UNAVAILABLE, 0, reason);
  }

  /** The reason up to the first {@code ": "}: the {@code REJECT_…} code, or the whole reason. */
  public String reasonCode() {
    int colon = reason.indexOf(": ");
    return colon < 0 ? reason : reason.substring(0, colon);
  }

  /** Whether the caller may send the same request again later and expect it to be stored once. */
  public boolean retryable() {
    return outcome == Outcome.UNAVAILABLE || outcome == Outcome.TENANT_LIMIT;
  }
}
