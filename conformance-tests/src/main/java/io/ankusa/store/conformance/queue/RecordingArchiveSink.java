package io.ankusa.store.conformance.queue;

import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.archive.ArchiveSinkException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The archive the layout layer checks the {@link io.ankusa.store.queue.internal.archive.Archiver}
 * against: it keeps every append in order and, separately, what a {@link #sync()} made durable —
 * the first copy of each seq, as a de-duplicating reader would return it. {@link #failSyncs(int)}
 * makes the next syncs throw (and {@link #failSyncAfter(int)} a later one) {@link
 * ArchiveSinkException}, as a full disk would; {@link #crash()} forgets the appends no sync
 * covered, as a process kill does. Not thread-safe; one property try owns it.
 */
public final class RecordingArchiveSink implements ArchiveSink {
  private final List<Long> appended = new ArrayList<>();
  private final List<byte[]> envelopes = new ArrayList<>();
  private final TreeMap<Long, byte[]> synced = new TreeMap<>();
  private int syncedUpTo;
  private int failingSyncs;
  private int syncsBeforeFailing = -1;
  private int syncs;

  @Override
  public void append(long seq, byte[] envelope) {
    appended.add(seq);
    envelopes.add(envelope.clone());
  }

  @Override
  public void sync() {
    if (syncsBeforeFailing == 0) {
      syncsBeforeFailing = -1;
      failingSyncs++;
    } else if (syncsBeforeFailing > 0) {
      syncsBeforeFailing--;
    }
    if (failingSyncs > 0) {
      failingSyncs--;
      throw new ArchiveSinkException(
          "recording archive: sync refused on purpose (the suite simulates a full disk)");
    }
    syncs++;
    for (int i = syncedUpTo; i < appended.size(); i++) {
      synced.putIfAbsent(appended.get(i), envelopes.get(i));
    }
    syncedUpTo = appended.size();
  }

  /** The next {@code syncs} calls of {@link #sync()} throw. */
  public void failSyncs(int syncs) {
    failingSyncs = syncs;
  }

  /** The sync after the next {@code succeeding} successful ones throws, once. */
  public void failSyncAfter(int succeeding) {
    syncsBeforeFailing = succeeding;
  }

  /** How many syncs succeeded. */
  public int syncs() {
    return syncs;
  }

  /** Forgets every append after the last successful sync. */
  public void crash() {
    appended.subList(syncedUpTo, appended.size()).clear();
    envelopes.subList(syncedUpTo, envelopes.size()).clear();
  }

  /** Every append so far, in call order (repeats included). */
  public List<Long> appended() {
    return Collections.unmodifiableList(appended);
  }

  /** What syncs made durable: each seq once, in seq order, with the bytes of its first copy. */
  public Map<Long, byte[]> synced() {
    return Collections.unmodifiableMap(synced);
  }
}
