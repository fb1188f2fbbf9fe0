package io.ankusa.store.queue.internal.migration;

import static io.ankusa.store.layout.UnsignedBigEndian.putU64;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.counter.CounterDeltas;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.OrdinalCache;
import io.ankusa.store.queue.internal.tenant.TenantAllocator;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2 → 3 migration (docs/deployment.md): re-keys due, inflight and dead rows by tenant ordinal
 * and seeds the per-tenant counters, {@value #ROWS_PER_STEP} old rows per step.
 *
 * <p>Phases, in order; each step seeks just past the last old key it moved (never to the family's
 * start: the keys already moved are tombstones, and rescanning them would make the migration
 * quadratic), and a step that finishes a phase goes on with the next one while rows remain in its
 * budget:
 *
 * <pre>
 * phase     reads                                writes, per row
 * due       'd' at seq sink -> size, the hook    delete 'd'; put 'D' ord at seq sink -> size kind and
 *                                                its marker 'A'; pending (kind 0) or scheduled (kind 1
 *                                                when at is after the migration started) +1, bytes +size
 * inflight  'f' seq sink -> size, the hook       delete 'f'; put 'F' ord seq sink -> size;
 *                                                inflight +1, bytes +size
 * dead      'x' at seq sink -> ids, the hook,    put 'x' with ord added to its value; put 'X';
 *           the delivery row (its size)          dead +1, bytes +row size
 * archive   'a' seq -> size, the hook            put 'a' -> size ord; archive_pending +1
 * finish    -                                    deleteRange of the old 'd' and 'f' ranges (strays and
 *                                                the format-2 sentinels); Migrate adds the stamp
 * </pre>
 *
 * <p>The inflight phase adds its rows' sizes to {@code bytes} too: the definition of {@code bytes}
 * (every delivery row that exists: due, inflight, dead) and the counters-equal-a-fold property
 * require it.
 *
 * <p>The tenant of a row is its hook envelope's (one multiGet of the step's distinct hooks); a hook
 * that names none, is gone, or does not decode files its rows under {@code "default"}. Ordinals are
 * allocated through {@link TenantAllocator} in first-sight order (due rows by time first), their
 * puts in the step's batch; the tenant limit is not applied (the cap refuses new tenants at ingest;
 * it never strands rows that exist): {@link Migrate} logs the overage. Counter deltas are coalesced
 * with {@link CounterDeltas} and turned into merges by {@link Counters#ops}, so the ord-0 aggregate
 * is written as everywhere else.
 *
 * <p>The first step also writes the format-3 sentinels of every key family, {@code m:next_ord} when
 * absent and {@code m:last_seq} (the highest hook seq): puts that are idempotent.
 *
 * <p>Cursor: {@code phase:8 startedAt:64 lastOldKey} — {@code startedAt} is persisted so a resumed
 * run classifies due rows into kind 0 and 1 exactly as the first run would have.
 *
 * <p>Not thread-safe; one instance per run of {@link Migrate}. Nothing may write to the store while
 * it runs.
 */
public final class TenantKeys implements Migration {
  /** Old rows moved per step at most. */
  public static final int ROWS_PER_STEP = 500;

  private static final Logger LOG = LoggerFactory.getLogger(TenantKeys.class);

  private final Counters counters;
  private final LongSupplier clock;
  private final int rowsPerStep;

  /**
   * Single-threaded, and the limit is the largest ordinal: the migration allocates past
   * tenants.max.
   */
  private final TenantAllocator allocator =
      new TenantAllocator(new OrdinalCache(), Fields.MAX_ORDINAL);

  /** The phases, with the code stored in the cursor. */
  enum Phase {
    DUE(1),
    INFLIGHT(2),
    DEAD(3),
    ARCHIVE(4),
    FINISH(5);

    final int code;

    Phase(int code) {
      this.code = code;
    }

    Phase next() {
      return values()[ordinal() + 1];
    }

    static Phase ofCode(int code) {
      for (Phase p : values()) {
        if (p.code == code) {
          return p;
        }
      }
      return null;
    }
  }

  /**
   * The decoded cursor.
   *
   * @param lastOldKey the last old key moved in {@code phase}; empty when the phase has not started
   */
  record Cursor(Phase phase, long startedAt, byte[] lastOldKey) {
    byte[] encode() {
      byte[] c = new byte[9 + lastOldKey.length];
      c[0] = (byte) phase.code;
      putU64(c, 1, startedAt);
      System.arraycopy(lastOldKey, 0, c, 9, lastOldKey.length);
      return c;
    }

    static Cursor decode(byte[] cursor) {
      Phase phase = cursor.length < 9 ? null : Phase.ofCode(cursor[0] & 0xff);
      if (phase == null || (cursor[1] & 0x80) != 0) {
        throw new StoreCorruptionException(
            "migration cursor "
                + Bytes.hex(cursor)
                + " at key "
                + Bytes.hex(Keys.migrating(Format3.FORMAT))
                + " in family 'default' is not phase:8 (1..5)"
                + " startedAt:64 lastOldKey; the store is damaged: restore the pre-upgrade backup");
      }
      return new Cursor(phase, u64(cursor, 1), Arrays.copyOfRange(cursor, 9, cursor.length));
    }
  }

  /** One old row read by a step, with what it needs decoded. */
  private record OldRow(Phase phase, Entry entry, long seq, int sink, long at, long size) {}

  public TenantKeys(QueueConfig config, LongSupplier clock) {
    this(config, clock, ROWS_PER_STEP);
  }

  /**
   * With another step size: for tests that want many steps from few rows. REQUIRES: {@code
   * rowsPerStep >= 1}.
   */
  public TenantKeys(QueueConfig config, LongSupplier clock, int rowsPerStep) {
    if (rowsPerStep < 1) {
      throw new StoreArgumentException("rowsPerStep " + rowsPerStep + " must be at least 1");
    }
    this.counters = new Counters(config);
    this.clock = clock;
    this.rowsPerStep = rowsPerStep;
  }

  @Override
  public int fromFormat() {
    return FormatTwo.FORMAT;
  }

  @Override
  public int toFormat() {
    return Format3.FORMAT;
  }

  @Override
  public String plan() {
    return "2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters";
  }

  @Override
  public Step step(Store store, byte[] cursorBytes) {
    Batch batch = new Batch();
    Cursor cursor;
    if (cursorBytes == null) {
      cursor = new Cursor(Phase.DUE, clock.getAsLong(), new byte[0]);
      firstStep(store, batch);
    } else {
      cursor = Cursor.decode(cursorBytes);
    }
    Phase phase = cursor.phase();
    byte[] last = cursor.lastOldKey();
    List<OldRow> rows = new ArrayList<>();
    while (phase != Phase.FINISH && rows.size() < rowsPerStep) {
      byte[] lastRead = read(store, phase, last, rowsPerStep - rows.size(), rows);
      if (lastRead != null) {
        last = lastRead; // the budget ran out with rows left in this phase
        break;
      }
      phase = phase.next();
      last = new byte[0];
    }
    TenantAllocator.Allocation allocation = move(store, rows, cursor.startedAt(), batch);
    if (phase == Phase.FINISH) {
      KeyRange due = FormatTwo.dueWholeRange();
      KeyRange inflight = FormatTwo.inflightWholeRange();
      batch.deleteRange(due.columnFamily(), due.lo(), due.hi());
      batch.deleteRange(inflight.columnFamily(), inflight.lo(), inflight.hi());
      return new Migration.Step(batch, null, rows.size(), allocation::committed);
    }
    byte[] next = new Cursor(phase, cursor.startedAt(), last).encode();
    return new Migration.Step(batch, next, rows.size(), allocation::committed);
  }

  /** Format-3 sentinels, {@code m:next_ord} if absent, {@code m:last_seq}: idempotent puts. */
  private static void firstStep(Store store, Batch batch) {
    for (FamilySentinels s : Keys.sentinels()) {
      byte[] value = s.value();
      batch.put(s.family().columnFamily(), s.lo(), value);
      batch.put(s.family().columnFamily(), s.hi(), value);
    }
    if (store.get(Format3.DEFAULT, Keys.nextOrd()) == null) {
      batch.put(Format3.DEFAULT, Keys.nextOrd(), NextOrdinalValue.FIRST.encode());
    }
    long lastSeq = maxHookSeq(store);
    byte[] stored = store.get(Format3.DEFAULT, Keys.lastSeq());
    if (stored != null) {
      lastSeq = Math.max(lastSeq, LastSeqValue.decodeAt(Keys.lastSeq(), stored).seq());
    }
    batch.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(lastSeq).encode());
  }

  /** The highest seq in the hooks family, 0 when there is none. */
  static long maxHookSeq(ReadView view) {
    KeyRange hooks = Keys.realKeysOf(KeyFamily.HOOK);
    try (Scan scan = view.scan(Format3.HOOKS, new byte[0], hooks.hi(), Direction.REVERSE)) {
      while (scan.hasNext()) {
        byte[] k = scan.next().key();
        if (k.length == 8 && !Keys.family(KeyFamily.HOOK).isSentinel(k)) {
          return u64(k, 0);
        }
      }
    }
    return 0;
  }

  /**
   * Reads up to {@code limit} rows of {@code phase} after {@code last} into {@code out}. Returns
   * the last key read when rows are left in the phase, or null when the phase is done.
   */
  private static byte[] read(ReadView view, Phase phase, byte[] last, int limit, List<OldRow> out) {
    KeyRange range = oldRange(phase);
    byte[] lo = last.length == 0 ? range.lo() : Arrays.copyOf(last, last.length + 1);
    if (Bytes.compare(lo, range.hi()) >= 0) {
      return null;
    }
    int n = 0;
    try (Scan scan = view.scan(range.columnFamily(), lo, range.hi(), Direction.FORWARD)) {
      byte[] lastKey = null;
      while (scan.hasNext()) {
        if (n == limit) {
          return lastKey;
        }
        Entry e = scan.next();
        out.add(decode(phase, e));
        lastKey = e.key();
        n++;
      }
    }
    return null;
  }

  private static KeyRange oldRange(Phase phase) {
    switch (phase) {
      case DUE:
        return FormatTwo.dueRealKeys();
      case INFLIGHT:
        return FormatTwo.inflightRealKeys();
      case DEAD:
        return Keys.realKeysOf(KeyFamily.DEAD);
      case ARCHIVE:
        return Keys.realKeysOf(KeyFamily.ARCHIVE);
      default:
        throw new IllegalStateException("phase " + phase + " reads no rows");
    }
  }

  private static OldRow decode(Phase phase, Entry e) {
    byte[] k = e.key();
    switch (phase) {
      case DUE:
        {
          FormatTwo.DueKeyV2 d = FormatTwo.DueKeyV2.decode(k);
          return new OldRow(
              phase, e, d.seq(), d.sink(), d.at(), FormatTwo.decodeSize(k, e.value()));
        }
      case INFLIGHT:
        {
          FormatTwo.InflightKeyV2 f = FormatTwo.InflightKeyV2.decode(k);
          return new OldRow(phase, e, f.seq(), f.sink(), 0, FormatTwo.decodeSize(k, e.value()));
        }
      case DEAD:
        {
          DeadKey x = DeadKey.decode(k);
          return new OldRow(phase, e, x.seq(), x.sink(), x.at(), 0);
        }
      default:
        {
          ArchiveKey a = ArchiveKey.decode(k);
          return new OldRow(phase, e, a.seq(), 0, 0, FormatTwo.decodeSize(k, e.value()));
        }
    }
  }

  /** Appends the ops moving {@code rows}, their tenants' ordinals and their counter merges. */
  private TenantAllocator.Allocation move(
      Store store, List<OldRow> rows, long startedAt, Batch batch) {
    Map<Long, TenantId> tenantOfSeq = tenants(store, rows);
    List<TenantId> firstSight = new ArrayList<>(rows.size());
    rows.forEach(r -> firstSight.add(tenantOfSeq.get(r.seq())));
    TenantAllocator.Allocation allocation = allocator.resolve(store, firstSight);
    allocation.appendTo(batch);
    Map<SeqSink, Long> deadSizes = deadRowSizes(store, rows);
    CounterDeltas deltas = new CounterDeltas();
    Set<ActiveKey> markers = new HashSet<>();
    for (OldRow r : rows) {
      long ord = allocation.ord(tenantOfSeq.get(r.seq()));
      byte[] oldKey = r.entry().key();
      switch (r.phase()) {
        case DUE:
          {
            DueKind kind = r.at() > startedAt ? DueKind.RETRY : DueKind.FIRST_ATTEMPT;
            batch.delete(Format3.INDEX, oldKey);
            batch.put(
                Format3.INDEX,
                Keys.due(ord, r.at(), r.seq(), r.sink()),
                new DueValue(r.size(), kind).encode());
            ActiveKey marker = new ActiveKey(ActiveKey.bucketOf(r.at()), ord);
            if (markers.add(marker)) {
              batch.put(Format3.INDEX, Keys.active(marker.bucket(), ord), EmptyValue.encode());
            }
            deltas.add(ord, kind.counter(), 1);
            deltas.add(ord, CounterField.BYTES, r.size());
            break;
          }
        case INFLIGHT:
          batch.delete(Format3.INDEX, oldKey);
          batch.put(
              Format3.INDEX,
              Keys.inflight(ord, r.seq(), r.sink()),
              new InflightValue(r.size()).encode());
          deltas.add(ord, CounterField.INFLIGHT, 1);
          deltas.add(ord, CounterField.BYTES, r.size());
          break;
        case DEAD:
          {
            FormatTwo.DeadValueV2 v = FormatTwo.DeadValueV2.decodeAt(oldKey, r.entry().value());
            batch.put(Format3.INDEX, oldKey, new DeadValue(ord, v.sourceId(), v.hookId()).encode());
            batch.put(
                Format3.INDEX,
                Keys.deadByTenant(ord, r.at(), r.seq(), r.sink()),
                EmptyValue.encode());
            deltas.add(ord, CounterField.DEAD, 1);
            deltas.add(ord, CounterField.BYTES, deadSizes.getOrDefault(key(r.seq(), r.sink()), 0L));
            break;
          }
        default:
          batch.put(Format3.INDEX, oldKey, new ArchiveValue(r.size(), ord).encode());
          deltas.add(ord, CounterField.ARCHIVE_PENDING, 1);
          break;
      }
    }
    counters.ops(deltas, batch);
    return allocation;
  }

  /**
   * The tenant of each distinct hook of {@code rows}: one multiGet; missing or undecodable →
   * default.
   */
  private static Map<Long, TenantId> tenants(ReadView view, List<OldRow> rows) {
    Set<Long> seqs = new LinkedHashSet<>();
    rows.forEach(r -> seqs.add(r.seq()));
    List<Long> seqList = new ArrayList<>(seqs);
    List<byte[]> keys = new ArrayList<>(seqList.size());
    seqList.forEach(s -> keys.add(Keys.hook(s)));
    List<byte[]> envelopes = keys.isEmpty() ? List.of() : view.multiGet(Format3.HOOKS, keys);
    Map<Long, TenantId> out = new HashMap<>();
    int missing = 0;
    int undecodable = 0;
    for (int i = 0; i < seqList.size(); i++) {
      byte[] envelope = envelopes.get(i);
      TenantId tenant = TenantId.DEFAULT;
      if (envelope == null) {
        missing++;
      } else {
        try {
          tenant = TenantId.of(HookEnvelope.decodeAt(keys.get(i), envelope).tenantId());
        } catch (StoreCorruptionException | StoreArgumentException e) {
          undecodable++;
          LOG.debug(
              "hook {} does not decode ({}); its rows file under tenant 'default'",
              seqList.get(i),
              e.getMessage());
        }
      }
      out.put(seqList.get(i), tenant);
    }
    if (missing + undecodable > 0) {
      LOG.warn(
          "migration 2 -> 3: {} hook(s) missing and {} that do not decode; their rows file under tenant"
              + " 'default' (the dispatcher drops or dead-letters them when they come due)",
          missing,
          undecodable);
    }
    return out;
  }

  /**
   * The sizes of the delivery rows of the step's dead rows: one multiGet. A missing row counts 0,
   * as in the fold.
   */
  private static Map<SeqSink, Long> deadRowSizes(ReadView view, List<OldRow> rows) {
    List<byte[]> keys = new ArrayList<>();
    List<SeqSink> ids = new ArrayList<>();
    for (OldRow r : rows) {
      if (r.phase() == Phase.DEAD) {
        keys.add(Keys.delivery(r.seq(), r.sink()));
        ids.add(key(r.seq(), r.sink()));
      }
    }
    Map<SeqSink, Long> sizes = new HashMap<>();
    if (keys.isEmpty()) {
      return sizes;
    }
    List<byte[]> values = view.multiGet(Format3.DELIVERIES, keys);
    for (int i = 0; i < keys.size(); i++) {
      if (values.get(i) != null) {
        sizes.put(ids.get(i), DeliveryRow.decodeAt(keys.get(i), values.get(i)).size());
      }
    }
    return sizes;
  }

  /** A delivery's identity, as a map key. */
  private record SeqSink(long seq, int sink) {}

  private static SeqSink key(long seq, int sink) {
    return new SeqSink(seq, sink);
  }
}
