package io.ankusa.store.queue.archive;

/**
 * Where the queue's archiver ({@link io.ankusa.store.queue.internal.archive.Archiver}) copies
 * hooks: an append-only log of {@code (seq, envelope)} records that outlives the queue's own rows.
 * The queue holds an archive obligation {@code 'a' seq} for every hook ingested with the archive
 * on; the archiver appends the hook's envelope here, {@link #sync syncs}, and only then deletes the
 * obligation. So the guarantee is <b>at-least-once</b>: a crash between the sync and the delete
 * appends the same seq again on the next run, and readers de-duplicate by seq.
 *
 * <p>What a sink must promise:
 *
 * <ul>
 *   <li>{@link #append} copies what it needs before it returns: the caller owns {@code envelope}
 *       and may reuse it. Appends are kept in call order.
 *   <li>{@link #sync} returns only when every record appended before it, by any earlier call, is
 *       durable (survives a process kill and, where the medium allows, a power loss). A sink that
 *       cannot make that promise must throw rather than return.
 *   <li>Records are never rewritten or dropped; a record is an exact copy of the bytes appended.
 * </ul>
 *
 * <p>Appends arrive in increasing seq order, except that a run of the archiver after a failure or a
 * restart starts again at the lowest unsettled obligation, so it may repeat seqs appended (and
 * maybe synced) before. A reader that keeps the highest seq it has returned and skips every record
 * at or below it returns each archived seq once, in seq order; {@code ChronicleArchiveReader}
 * (module {@code archive-chronicle}) does so.
 *
 * <p>One archiver uses a sink at a time; a sink need not be thread-safe. Failures are unchecked:
 * {@link ArchiveSinkException}, after which the archiver settles nothing from the failed chunk.
 */
public interface ArchiveSink {

  /**
   * Appends the envelope of hook {@code seq} (the value of its {@code 'h'} row, unchanged). Not
   * durable until {@link #sync} returns.
   *
   * <p>REQUIRES: {@code seq > 0}; {@code envelope} non-null. The sink does not keep the array.
   *
   * @throws ArchiveSinkException if the record could not be appended
   */
  void append(long seq, byte[] envelope);

  /**
   * Makes every record appended so far durable.
   *
   * @throws ArchiveSinkException if that cannot be promised; the archiver then settles nothing
   */
  void sync();
}
