package io.ankusa.store.conformance.queue;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The queue under test on one open store, as the layout layer drives it: a {@link DeliveryQueue},
 * the {@link DirectIngest} that allocates its tenants, a logical clock ({@link #now()}, epoch ms,
 * moved only by the suite), and the reads a generated {@link QueueAction} picks its target from —
 * always rows as the store holds them at that moment, so every generated sequence is valid.
 *
 * <p>Not thread-safe: one property try owns it. The store is not owned: the {@link
 * io.ankusa.store.conformance.TempDirStore} around it closes it.
 */
public final class QueueDriver {
  /** Where every logical clock starts: a recent epoch second, so buckets look like real ones. */
  public static final long START_MS = 1_700_000_000_000L;

  /**
   * The tenants generated actions use, by index; index 0 is no tenant at all ({@code "default"}).
   */
  public static final List<String> TENANTS =
      Collections.unmodifiableList(Arrays.asList(null, "acme", "globex", "initech"));

  private final Store store;
  private final DeliveryQueue queue;
  private final DirectIngest ingest;
  private final RecordingArchiveSink archive = new RecordingArchiveSink();

  /** The durable watermark the archiver sees; {@link QueueAction.Archive} sets it. */
  private long archiveWatermark;

  private Archiver archiver;
  private long now = START_MS;
  private long hooksMade;

  /** Opens the queue on {@code store} (laying out a new format-3 store) with {@code config}. */
  public QueueDriver(Store store, QueueConfig config) {
    this(DeliveryQueue.open(store, config));
  }

  /**
   * A driver of {@code queue}, already open. Several drivers may share one queue, one per thread
   * (the transition layer's concurrent case); then only one of them may use {@link #ingest()}.
   */
  public QueueDriver(DeliveryQueue queue) {
    this.store = queue.store();
    this.queue = queue;
    this.ingest = new DirectIngest(queue);
  }

  public Store store() {
    return store;
  }

  public DeliveryQueue queue() {
    return queue;
  }

  public DirectIngest ingest() {
    return ingest;
  }

  /** The logical clock, epoch ms. */
  public long now() {
    return now;
  }

  /** Moves the clock forward by {@code ms} (REQUIRES: {@code ms >= 0}). */
  public void advance(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("the clock only moves forward; advance(" + ms + ")");
    }
    now += ms;
  }

  /**
   * A new hook (seq assigned at ingest) of {@code tenant} (null: none) received at {@code at}, for
   * sinks {@code 1..sinks}, with a payload of {@code payloadBytes} bytes; hook ids are unique.
   */
  public HookEnvelope newHook(String tenant, long at, int sinks, int payloadBytes) {
    List<Integer> sinkList = new ArrayList<>(sinks);
    for (int s = 1; s <= sinks; s++) {
      sinkList.add(s);
    }
    hooksMade++;
    return new HookEnvelope(
        0,
        tenant,
        "src-" + (hooksMade % 3),
        "hook-" + hooksMade,
        null,
        at,
        sinkList,
        new byte[payloadBytes]);
  }

  /** The archive the driver's {@link #archiver()} appends to. */
  public RecordingArchiveSink archive() {
    return archive;
  }

  /**
   * The queue's one archiver (chunks of 3 hooks, so runs end mid-backlog), kept between actions so
   * its start-above-the-last-chunk cursor is exercised; it sees the watermark last given to {@link
   * #archiveWatermark(long)} as {@code durableSeq}. {@link #restartArchiver()} replaces it, as a
   * process restart does.
   */
  public Archiver archiver() {
    if (archiver == null) {
      archiver = new Archiver(queue, () -> archiveWatermark, archive, 3);
    }
    return archiver;
  }

  /** A new archiver on the next {@link #archiver()} call, starting at the head of {@code 'a'}. */
  public void restartArchiver() {
    archiver = null;
  }

  public void archiveWatermark(long seq) {
    archiveWatermark = seq;
  }

  /** Writes one transition batch, SYNC. */
  public void write(Transition t) {
    queue.write(t, Durability.SYNC);
  }

  /** Every inflight row, in key order (tenant, seq, sink). */
  public List<InflightRow> inflightRows() {
    return scanFamily(
        KeyFamily.INFLIGHT,
        e ->
            new InflightRow(
                InflightKey.decode(e.key()), InflightValue.decodeAt(e.key(), e.value())));
  }

  /** Every dead row of the global time index, oldest first. */
  public List<DeadRow> deadRows() {
    return scanFamily(
        KeyFamily.DEAD,
        e -> new DeadRow(DeadKey.decode(e.key()), DeadValue.decodeAt(e.key(), e.value())));
  }

  /** Every stored hook envelope, in seq order. */
  public List<HookEnvelope> hooks() {
    return scanFamily(KeyFamily.HOOK, e -> HookEnvelope.decode(e.value()));
  }

  /** Every archive obligation, in seq order. */
  public List<Obligation> archiveObligations() {
    return scanFamily(
        KeyFamily.ARCHIVE,
        e ->
            new Obligation(
                ArchiveKey.decode(e.key()).seq(), ArchiveValue.decodeAt(e.key(), e.value())));
  }

  /** An archive obligation {@code 'a' seq -> size ord}. */
  public record Obligation(long seq, ArchiveValue value) {}

  /** The delivery row of ({@code seq}, {@code sink}). */
  public DeliveryRow deliveryRow(long seq, int sink) {
    byte[] key = Keys.delivery(seq, sink);
    byte[] row = store.get(Format3.DELIVERIES, key);
    if (row == null) {
      throw new StoreCorruptionException(
          "delivery row "
              + Bytes.hex(key)
              + " of an index row is missing;"
              + " the queue lost a row the index still points to");
    }
    return DeliveryRow.decode(row);
  }

  /** The hook envelope of {@code seq}. */
  public HookEnvelope hook(long seq) {
    byte[] key = Keys.hook(seq);
    byte[] v = store.get(Format3.HOOKS, key);
    if (v == null) {
      throw new StoreCorruptionException(
          "hook " + Bytes.hex(key) + " of a live delivery row is missing");
    }
    return HookEnvelope.decode(v);
  }

  /** {@code items.get(pick mod size)}, or null when empty: how an action picks its target. */
  public static <T> T pick(List<T> items, int pick) {
    return items.isEmpty() ? null : items.get(Math.floorMod(pick, items.size()));
  }

  private <T> List<T> scanFamily(KeyFamily family, Function<Entry, T> decode) {
    KeyRange range = Keys.realKeysOf(family);
    List<T> out = new ArrayList<>();
    try (Scan scan = store.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(decode.apply(scan.next()));
      }
    }
    return out;
  }
}
