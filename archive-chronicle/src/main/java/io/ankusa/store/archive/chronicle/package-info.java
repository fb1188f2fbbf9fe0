/**
 * The queue's archive on Chronicle Queue: an {@link io.ankusa.store.queue.archive.ArchiveSink} that
 * the {@link io.ankusa.store.queue.internal.archive.Archiver} copies hooks into, and a reader that
 * gives them back.
 *
 * <h2>What is promised</h2>
 *
 * <p><b>At-least-once into the archive, exactly-once out of it by seq.</b> The queue keeps an
 * archive obligation {@code 'a' seq} for every hook ingested with the archive on. The archiver
 * appends the hook's envelope (its {@code 'h'} row, unchanged) to {@link
 * io.ankusa.store.archive.chronicle.ChronicleArchiveSink}, calls {@code sync()}, and only then
 * deletes the obligations. A kill between the sync and the delete leaves the obligations, and the
 * next run appends those hooks again; so the archive may hold a seq twice, never loses one whose
 * obligation was settled, and never holds a hook that was not stored. {@link
 * io.ankusa.store.archive.chronicle.ChronicleArchiveReader} skips every record whose seq is at or
 * below the highest it has returned, which yields each archived seq once, in increasing order, with
 * the bytes of its first copy. {@code ArchiverKillTest} SIGKILLs a child JVM mid-archiving to check
 * all of it.
 *
 * <h2>Record format</h2>
 *
 * <p>One Chronicle excerpt per record, integers big-endian: {@code format:8 = 1 | seq:64 |
 * length:32 | envelope}. An excerpt is exactly {@code 13 + length} bytes; a reader meeting any
 * other format byte or length throws {@link io.ankusa.store.spi.StoreCorruptionException} naming
 * the directory and the excerpt index. A later format gets a new format byte.
 *
 * <h2>Roll cycles</h2>
 *
 * <p>{@link io.ankusa.store.archive.chronicle.ArchiveRollCycle#DAILY} ({@code FAST_DAILY}, one file
 * a UTC day, the usual choice) or {@link io.ankusa.store.archive.chronicle.ArchiveRollCycle#HOURLY}
 * ({@code FAST_HOURLY}). Chronicle's weekly cycle is not offered: in 2026.4 a tailer reads nothing
 * from it. The cycle of an existing archive wins over the one asked for. Whole old cycle files may
 * be moved away once they are no longer needed; the reader reads what is left.
 *
 * <h2>Durability of {@code sync}</h2>
 *
 * <p>Appends go into Chronicle's memory-mapped file and survive a process kill as soon as {@code
 * append} returns. {@code sync()} makes them survive a power loss: Chronicle's {@code
 * ExcerptAppender.sync()} ({@code msync} with {@code SyncMode.SYNC}), then an {@code fsync} of
 * every cycle file appended to since the last sync, and of {@code metadata.cq4t} and the directory
 * after a roll. The {@code fsync} is there because Chronicle 2026.4 only logs a failed {@code
 * msync}; it turns a write-back error into an {@link
 * io.ankusa.store.queue.archive.ArchiveSinkException}, after which the archiver settles nothing.
 *
 * <h2>One writer at a time</h2>
 *
 * <p>One sink (so one archiver) per archive directory, in any number of processes. After a kill
 * Chronicle frees the dead writer's lock when the next sink first appends (it checks the owner's
 * pid; failing that it forces the lock after its timeout, 10 s) and overwrites the excerpt the kill
 * left unfinished; a reader stops at such an unfinished excerpt and does not wait for it. Readers
 * may run at any time, read-only.
 *
 * <h2>JVM flags</h2>
 *
 * <p>Chronicle reaches into JDK internals. A JVM that loads this module needs
 *
 * <pre>
 * --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
 * --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true
 * </pre>
 *
 * <p>and, in tests, {@code -Djna.tmpdir=<build dir>} (JNA, pulled in by Chronicle, writes under
 * {@code ~/.cache/JNA} otherwise). Chronicle phones home unless {@code chronicle.analytics.disable}
 * is true, and logs a banner asking for an e-mail address unless {@code
 * chronicle.announcer.disable} is true: when either property is not set at all, the sink and the
 * reader set it to {@code true} in their static initializers, before any Chronicle class is
 * initialized — the flag above is still the reliable way, since some other code may load Chronicle
 * first. Chronicle wants an SLF4J binding and logs its start-up at INFO.
 */
package io.ankusa.store.archive.chronicle;
