package io.ankusa.store.bench.ingest;

import io.ankusa.store.bench.RawRocksOptions;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The raw baseline of the ingest bench: the queue's op pattern written by hand against RocksJava,
 * with nothing of the queue's machinery (no SPI, no {@code Batch}/{@code Op} records, no {@code
 * Transition}, no watermark, no fencing).
 *
 * <p>The same work per hook as the writer, format-3 keys and values byte for byte: the envelope
 * ({@code hooks}), one delivery row ({@code deliveries}), one due row of kind 0 ({@code index}),
 * the active marker (once per tenant and second per group), the dedupe {@code 'u'} and expiry
 * {@code 'e'} keys, and per group one {@code m:last_seq} put and one int64-add merge per (tenant,
 * field) plus the node aggregate's (pending, bytes), coalesced in the group. New tenants get {@code
 * 't'}, {@code 'n'} and {@code m:next_ord} in the same batch, as the writer does. The idempotency
 * keys are looked up with one multiGet per group (the writer's dedupe read; the bench's keys are
 * unique, so it always misses). A new database gets the sentinel keys of every key family first, as
 * a new format-3 store does ({@link #layOutSentinels}).
 *
 * <p>Threads: callers append to an unbounded {@link LinkedBlockingQueue}; one writer thread takes
 * up to {@value #MAX_GROUP} requests, builds ONE {@link WriteBatch} and writes it {@code
 * sync=false}, then hands the group to one sync thread, which takes every group handed to it before
 * it starts, calls {@code db.syncWal()} once and then completes their futures (with the seq) — so a
 * future completes only after a sync that started after its group's write returned.
 *
 * <p>The database is opened with the rocksdb backend's settings (bytes_per_sync 1 MiB, 2 background
 * jobs, 4 KiB blocks, LZ4 on compressed plain families, uint64add and no compression on counters,
 * the families' write buffer hints, max_successive_merges 16 with strict_max_successive_merges on
 * counters, and Bloom filters (10 bits per key in SST files, whole keys in the memtable) on every
 * family).
 */
final class RawGroupCommit implements IngestTarget {
  static {
    RocksDB.loadLibrary();
  }

  static final String WRITER_THREAD = "raw-writer";
  static final String SYNCER_THREAD = "raw-syncer";

  /**
   * {@code -Dbench.raw.readLikeBackend=true}: read the idempotency keys as the rocksdb backend's
   * multiGet does when no write overlaps its reads, as none does here (one point read per key,
   * which tells an absent key from a failed read) — to attribute the writer's cost, not for the
   * headline ratio.
   */
  static final boolean READ_LIKE_BACKEND = Boolean.getBoolean("bench.raw.readLikeBackend");

  /** Most hooks per group, as the writer's default {@code maxGroupHooks}. */
  static final int MAX_GROUP = 256;

  /** The writer's default dedupe TTL (expiry keys are stamped now + this). */
  private static final long DEDUPE_TTL_MS = 24L * 3600 * 1000;

  /** One request on its way: validated on the caller's thread like the writer does. */
  private record Pending(
      IngestRequest request,
      TenantId tenant,
      byte[] dedupeKey,
      byte[] idem,
      CompletableFuture<Long> future) {}

  /** A written group waiting for its sync. */
  private record Applied(List<Pending> hooks, long firstSeq) {}

  private final List<AutoCloseable> owned = new ArrayList<>();
  private final RocksDB db;
  private final Map<String, ColumnFamilyHandle> handles = new HashMap<>();
  private final WriteOptions noSync = new WriteOptions().setSync(false);
  private final LinkedBlockingQueue<Pending> input = new LinkedBlockingQueue<>();
  private final LinkedBlockingQueue<Applied> toSync = new LinkedBlockingQueue<>();
  private final Thread writerThread;
  private final Thread syncThread;
  private final Map<TenantId, Long> ords = new HashMap<>();
  private volatile boolean closing;
  private volatile long groups;
  private volatile long syncs;
  private volatile Throwable failure;

  /**
   * Whether the idempotency keys are read as the backend reads them ({@link #READ_LIKE_BACKEND}).
   */
  private final boolean readLikeBackend;

  /** Writer thread only. */
  private long lastSeq;

  private long nextOrd = 1;

  private RawGroupCommit(Path dir, boolean readLikeBackend) throws RocksDBException {
    this.readLikeBackend = readLikeBackend;
    UInt64AddOperator merge = new UInt64AddOperator();
    DBOptions dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            .setBytesPerSync(1L << 20)
            .setMaxBackgroundJobs(2)
            .setKeepLogFileNum(10);
    BloomFilter filter = RawRocksOptions.newFilter();
    var deletions = RawRocksOptions.newDeletionCollector();
    owned.add(merge);
    owned.add(filter);
    owned.add(deletions);
    owned.add(dbOptions);
    owned.add(noSync);
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (FamilySpec f : Format3.families()) {
      // The backend's counter fold: 16 operands, reading the base value from disk when not cached.
      ColumnFamilyOptions o =
          f.counters()
              ? RawRocksOptions.foldingOptions()
              : RawRocksOptions.deletionCompacted(deletions);
      BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockSize(4096);
      RawRocksOptions.filter(o, table, filter);
      o.setTableFormatConfig(table);
      if (f.counters()) {
        o.setMergeOperator(merge).setCompressionType(CompressionType.NO_COMPRESSION);
      } else {
        o.setCompressionType(
            f.compress() ? CompressionType.LZ4_COMPRESSION : CompressionType.NO_COMPRESSION);
      }
      if (f.writeBufferHint() > 0) {
        o.setWriteBufferSize(f.writeBufferHint());
      }
      owned.add(o);
      descriptors.add(
          new ColumnFamilyDescriptor(
              f.name().equals(Format3.DEFAULT)
                  ? RocksDB.DEFAULT_COLUMN_FAMILY
                  : f.name().getBytes(StandardCharsets.UTF_8),
              o));
    }
    List<ColumnFamilyHandle> all = new ArrayList<>();
    db = RocksDB.open(dbOptions, dir.toString(), descriptors, all);
    for (int i = 0; i < all.size(); i++) {
      handles.put(Format3.families().get(i).name(), all.get(i));
    }
    byte[] last = db.get(handles.get(Format3.DEFAULT), Keys.lastSeq());
    if (last == null) {
      layOutSentinels();
    }
    lastSeq = last == null ? 0 : LastSeqValue.decodeAt(Keys.lastSeq(), last).seq();
    byte[] next = db.get(handles.get(Format3.DEFAULT), Keys.nextOrd());
    nextOrd = next == null ? 1 : NextOrdinalValue.decodeAt(Keys.nextOrd(), next).next();
    // The tenants of earlier rounds keep their ordinals (the writer reads them into its cache).
    try (RocksIterator it = db.newIterator(handles.get(Format3.TENANTS))) {
      for (it.seek(new byte[] {'n'}); it.isValid() && it.key()[0] == 'n'; it.next()) {
        byte[] key = it.key();
        if (ORD_BY_TENANT_SENTINELS.isSentinel(key)) {
          continue;
        }
        TenantId tenant = TenantId.of(new String(key, 1, key.length - 1, StandardCharsets.UTF_8));
        ords.put(tenant, OrdinalValue.decodeAt(key, it.value()).ord());
      }
      it.status();
    }
    writerThread = new Thread(this::runWriter, WRITER_THREAD);
    syncThread = new Thread(this::runSyncer, SYNCER_THREAD);
    writerThread.setDaemon(true);
    syncThread.setDaemon(true);
  }

  private static final FamilySentinels ORD_BY_TENANT_SENTINELS =
      Keys.sentinels().stream()
          .filter(f -> f.family() == KeyFamily.ORD_BY_TENANT)
          .findFirst()
          .orElseThrow();

  /**
   * A new store gets the sentinel keys of every key family, as a format-3 store does when it is
   * created: they are part of the layout the writer writes into, and they decide how its families
   * compact (a hi sentinel above appended keys makes every flushed file overlap the file that holds
   * it, so files are merged where they would otherwise move down whole), so a baseline without them
   * would be spared compaction work the writer's store does.
   */
  private void layOutSentinels() throws RocksDBException {
    try (WriteBatch wb = new WriteBatch();
        WriteOptions sync = new WriteOptions().setSync(true)) {
      for (FamilySentinels s : Keys.sentinels()) {
        ColumnFamilyHandle h = handles.get(s.family().columnFamily());
        byte[] value = s.value();
        wb.put(h, s.lo(), value);
        wb.put(h, s.hi(), value);
      }
      db.write(sync, wb);
    }
  }

  /**
   * Opens (or creates) the raw database in {@code dir} and starts its two threads; reads as {@link
   * #READ_LIKE_BACKEND} says.
   */
  static RawGroupCommit open(Path dir) {
    return open(dir, READ_LIKE_BACKEND);
  }

  /**
   * {@link #open(Path)} reading the idempotency keys as the backend does when {@code
   * readLikeBackend}.
   */
  static RawGroupCommit open(Path dir, boolean readLikeBackend) {
    try {
      dir.toFile().mkdirs();
      RawGroupCommit raw = new RawGroupCommit(dir, readLikeBackend);
      raw.syncThread.start();
      raw.writerThread.start();
      return raw;
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "raw RocksDB ingest baseline: cannot open " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return "raw";
  }

  @Override
  public CompletableFuture<Long> submit(IngestRequest r) {
    CompletableFuture<Long> future = new CompletableFuture<>();
    if (closing || failure != null) {
      future.complete(-1L);
      return future;
    }
    TenantId tenant = TenantId.of(r.tenantId());
    byte[] idem = r.idempotencyKey().getBytes(StandardCharsets.UTF_8);
    input.add(new Pending(r, tenant, Keys.dedupe(tenant, idem), idem, future));
    return future;
  }

  @Override
  public String writerThread() {
    return WRITER_THREAD;
  }

  @Override
  public String syncerThread() {
    return SYNCER_THREAD;
  }

  @Override
  public long groups() {
    return groups;
  }

  @Override
  public long syncs() {
    return syncs;
  }

  // ------------------------------------------------------------------ writer thread

  private void runWriter() {
    List<Pending> group = new ArrayList<>(MAX_GROUP);
    try {
      while (true) {
        Pending first = input.poll(50, TimeUnit.MILLISECONDS);
        if (first == null) {
          if (closing && input.isEmpty()) {
            return;
          }
          continue;
        }
        group.add(first);
        input.drainTo(group, MAX_GROUP - 1);
        long firstSeq = lastSeq + 1;
        write(group, System.currentTimeMillis());
        groups++;
        toSync.add(new Applied(group, firstSeq));
        group = new ArrayList<>(MAX_GROUP);
      }
    } catch (Throwable t) {
      failure = t;
      group.forEach(p -> p.future().complete(-1L));
    } finally {
      toSync.add(new Applied(List.of(), -1)); // the stop mark
    }
  }

  /**
   * The idempotency keys read as the rocksdb backend's multiGet reads them while no write overlaps
   * the reads: one point read per key, each throwing for any status but OK and NotFound. (This
   * target's one thread that writes is the one reading, so none does.)
   */
  List<byte[]> readKeysLikeBackend(List<byte[]> keys) throws RocksDBException {
    ColumnFamilyHandle cf = handles.get(Format3.INDEX);
    List<byte[]> found = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      found.add(db.get(cf, k));
    }
    return found;
  }

  private void write(List<Pending> group, long now) throws RocksDBException {
    ColumnFamilyHandle hooksCf = handles.get(Format3.HOOKS);
    ColumnFamilyHandle deliveriesCf = handles.get(Format3.DELIVERIES);
    ColumnFamilyHandle indexCf = handles.get(Format3.INDEX);
    ColumnFamilyHandle countersCf = handles.get(Format3.COUNTERS);
    ColumnFamilyHandle tenantsCf = handles.get(Format3.TENANTS);
    ColumnFamilyHandle defaultCf = handles.get(Format3.DEFAULT);
    // The dedupe read (always a miss here: the keys are unique).
    List<byte[]> keys = new ArrayList<>(group.size());
    for (Pending p : group) {
      keys.add(p.dedupeKey());
    }
    List<byte[]> found =
        readLikeBackend
            ? readKeysLikeBackend(keys)
            : db.multiGetAsList(Collections.nCopies(keys.size(), indexCf), keys);
    try (WriteBatch wb = new WriteBatch()) {
      Map<TenantId, Long> created = new LinkedHashMap<>();
      Map<Long, long[]> deltas = new HashMap<>();
      Set<Long> markers = new HashSet<>();
      long[] aggregate = new long[2];
      for (int i = 0; i < group.size(); i++) {
        Pending p = group.get(i);
        if (found.get(i) != null) {
          throw new IllegalStateException(
              "raw baseline: idempotency key written twice: " + p.request().idempotencyKey());
        }
        IngestRequest r = p.request();
        Long ord = ords.get(p.tenant());
        if (ord == null) {
          ord = nextOrd++;
          ords.put(p.tenant(), ord);
          created.put(p.tenant(), ord);
          wb.put(tenantsCf, Keys.tenantByOrd(ord), TenantByOrdValue.of(p.tenant()).encode());
          wb.put(tenantsCf, Keys.ordByTenant(p.tenant()), new OrdinalValue(ord).encode());
        }
        long seq = ++lastSeq;
        long size = r.payload().length;
        int sink = r.sinks().get(0);
        HookEnvelope hook =
            new HookEnvelope(
                seq,
                r.tenantId(),
                r.sourceId(),
                r.hookId(),
                r.idempotencyKey(),
                r.receivedAt(),
                r.sinks(),
                r.payload());
        wb.put(hooksCf, Keys.hook(seq), hook.encode());
        wb.put(
            deliveriesCf,
            Keys.delivery(seq, sink),
            DeliveryRow.first(r.receivedAt(), size).encode());
        wb.put(
            indexCf,
            Keys.due(ord, r.receivedAt(), seq, sink),
            new DueValue(size, DueKind.FIRST_ATTEMPT).encode());
        long bucket = ActiveKey.bucketOf(r.receivedAt());
        if (markers.add(bucket * 0x1_0000_0000L + ord)) {
          wb.put(indexCf, Keys.active(bucket, ord), EmptyValue.encode());
        }
        long[] d = deltas.computeIfAbsent(ord, o -> new long[2]);
        d[0] += 1;
        d[1] += size;
        aggregate[0] += 1;
        aggregate[1] += size;
        wb.put(indexCf, p.dedupeKey(), new DedupeValue(seq).encode());
        wb.put(
            indexCf, Keys.expiry(now + DEDUPE_TTL_MS, p.tenant(), p.idem()), EmptyValue.encode());
      }
      if (!created.isEmpty()) {
        wb.put(defaultCf, Keys.nextOrd(), new NextOrdinalValue(nextOrd).encode());
      }
      wb.put(defaultCf, Keys.lastSeq(), new LastSeqValue(lastSeq).encode());
      for (Map.Entry<Long, long[]> e : deltas.entrySet()) {
        wb.merge(
            countersCf,
            Keys.counter(e.getKey(), CounterField.PENDING),
            Int64Add.encode(e.getValue()[0]));
        wb.merge(
            countersCf,
            Keys.counter(e.getKey(), CounterField.BYTES),
            Int64Add.encode(e.getValue()[1]));
      }
      wb.merge(
          countersCf,
          Keys.counter(Fields.NODE_AGGREGATE_ORD, CounterField.PENDING),
          Int64Add.encode(aggregate[0]));
      wb.merge(
          countersCf,
          Keys.counter(Fields.NODE_AGGREGATE_ORD, CounterField.BYTES),
          Int64Add.encode(aggregate[1]));
      db.write(noSync, wb);
    }
  }

  // ------------------------------------------------------------------ sync thread

  private void runSyncer() {
    List<Applied> batch = new ArrayList<>();
    try {
      while (true) {
        batch.add(toSync.take());
        toSync.drainTo(batch);
        boolean stop = batch.get(batch.size() - 1).firstSeq() < 0;
        db.syncWal();
        syncs++;
        for (Applied a : batch) {
          long seq = a.firstSeq();
          for (Pending p : a.hooks()) {
            p.future().complete(seq++);
          }
        }
        batch.clear();
        if (stop) {
          return;
        }
      }
    } catch (Throwable t) {
      failure = t;
      for (Applied a : batch) {
        a.hooks().forEach(p -> p.future().complete(-1L));
      }
    }
  }

  /** The first failure of either thread, or null. */
  Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    closing = true;
    boolean interrupted = false;
    for (Thread t : List.of(writerThread, syncThread)) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    // Column family handles, then the database, then the options it was opened with.
    handles.values().forEach(ColumnFamilyHandle::close);
    db.close();
    for (AutoCloseable c : owned) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(
            "raw RocksDB ingest baseline: close failed: " + e.getMessage(), e);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
