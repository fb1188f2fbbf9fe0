package io.ankusa.store.queue.internal.migration;

import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;

/**
 * Writes the rows of a format-2 store ({@link FormatTwo}): hook envelopes, delivery rows, the
 * {@code 'd'}/{@code 'f'}/{@code 'x'}/{@code 'a'} index rows and the format stamp {@code m:format =
 * 2}. <b>Used only by fixtures and tests</b> — to build the input of the 2 → 3 migration; no
 * release writes format 2 any more.
 *
 * <p>Rows accumulate in one batch until {@link #commit()} writes it with {@link Durability#SYNC}.
 * The store may be opened with {@link FormatTwo#families()} or with {@link Format3#families()}:
 * only the hooks, deliveries, index and default families are written. The writer does not check
 * that rows agree with each other (a due row whose hook is missing is a valid test input). Not
 * thread-safe.
 *
 * <p>Ownership: envelopes and byte arrays passed in are encoded or referenced by the pending batch;
 * do not change them before {@link #commit()} returns.
 */
public final class FormatTwoWriter {
  private final Store store;
  private Batch batch = new Batch();

  /** A writer into {@code store}. Call {@link #layout()} once on a new store. */
  public FormatTwoWriter(Store store) {
    this.store = store;
  }

  /**
   * Adds what a new format-2 store holds: the sentinels of its key families ({@code 'd'}, {@code
   * 'f'}, {@code 'x'}, {@code 'a'}, hooks, deliveries, meta, cleared, dedupe, expiry, audit) and
   * {@code m:format = 2}.
   */
  public FormatTwoWriter layout() {
    for (KeyFamily f : FormatTwo.SHARED_KEY_FAMILIES) {
      FamilySentinels s = Keys.family(f);
      batch.put(f.columnFamily(), s.lo(), new byte[0]);
      batch.put(f.columnFamily(), s.hi(), new byte[0]);
    }
    for (byte[] k : FormatTwo.dueSentinels()) {
      batch.put(Format3.INDEX, k, new byte[0]);
    }
    for (byte[] k : FormatTwo.inflightSentinels()) {
      batch.put(Format3.INDEX, k, new byte[0]);
    }
    batch.put(Format3.DEFAULT, Keys.formatStamp(), new FormatStampValue(FormatTwo.FORMAT).encode());
    return this;
  }

  /** The envelope of {@code hook} under its seq. */
  public FormatTwoWriter hook(HookEnvelope hook) {
    batch.put(Format3.HOOKS, Keys.hook(hook.seq()), hook.encode());
    return this;
  }

  /** Raw bytes under hook {@code seq}: for an envelope that does not decode. */
  public FormatTwoWriter rawHook(long seq, byte[] envelope) {
    batch.put(Format3.HOOKS, Keys.hook(seq), envelope);
    return this;
  }

  /**
   * A due row (pending or retrying): delivery row {@code row} and {@code 'd' at seq sink ->
   * row.size}.
   */
  public FormatTwoWriter due(long seq, int sink, long at, DeliveryRow row) {
    batch.put(Format3.DELIVERIES, Keys.delivery(seq, sink), row.encode());
    batch.put(Format3.INDEX, FormatTwo.dueKey(at, seq, sink), FormatTwo.sizeValue(row.size()));
    return this;
  }

  /** An inflight row: delivery row {@code row} and {@code 'f' seq sink -> row.size}. */
  public FormatTwoWriter inflight(long seq, int sink, DeliveryRow row) {
    batch.put(Format3.DELIVERIES, Keys.delivery(seq, sink), row.encode());
    batch.put(Format3.INDEX, FormatTwo.inflightKey(seq, sink), FormatTwo.sizeValue(row.size()));
    return this;
  }

  /** A dead row: delivery row {@code row} and {@code 'x' at seq sink -> source, hook id}. */
  public FormatTwoWriter dead(
      long at, long seq, int sink, String sourceId, String hookId, DeliveryRow row) {
    batch.put(Format3.DELIVERIES, Keys.delivery(seq, sink), row.encode());
    batch.put(
        Format3.INDEX,
        FormatTwo.deadKey(at, seq, sink),
        FormatTwo.DeadValueV2.of(sourceId, hookId).encode());
    return this;
  }

  /** An archive obligation {@code 'a' seq -> size}. */
  public FormatTwoWriter archive(long seq, long size) {
    batch.put(Format3.INDEX, FormatTwo.archiveKey(seq), FormatTwo.sizeValue(size));
    return this;
  }

  /** Writes what was added, SYNC, and starts a new batch. */
  public void commit() {
    if (!batch.isEmpty()) {
      store.write(batch, Durability.SYNC);
    }
    batch = new Batch();
  }
}
