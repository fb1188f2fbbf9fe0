package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.EntryVisitor;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.UnaryOperator;

/**
 * Deliberately broken backends: each wraps a memory store and breaks one promise of the contract.
 * {@link MutantRejectionTest} runs the engine suite against each and checks that the property named
 * here is among the failures — a suite that passes a mutant has a hole.
 */
enum Mutant {
  DROPS_LAST_OP("a batch drops its last op", "batchOpsApplyInOrder", DropsLastOp::new),
  SCAN_STOPS_EARLY(
      "a scan silently stops after 3 entries", "scanRespectsHalfOpenBounds", ScanStopsEarly::new),
  VISIT_IGNORES_STOP(
      "a visit goes on calling the visitor after it returned false",
      "visitSeesWhatScanSees",
      VisitIgnoresStop::new),
  BIG_ENDIAN_COUNTERS(
      "counter bytes are big-endian", "mergeBytesIdenticalOnEveryBackend", BigEndianCounters::new),
  INCLUSIVE_DELETE_RANGE(
      "deleteRange also removes hi", "deleteRangeIsHalfOpen", InclusiveDeleteRange::new),
  SNAPSHOT_SEES_LATER_WRITES(
      "a snapshot reads the live store", "snapshotDoesNotSeeLaterWrites", LiveSnapshot::new),
  HALF_APPLIED_BATCH(
      "a batch is applied one op at a time, visible half-done",
      "batchIsAtomicToConcurrentReaders",
      OneOpAtATime::new),
  MULTIGET_DROPS_NULLS(
      "multiGet leaves out absent keys", "multiGetKeepsOrderAndNulls", MultiGetDropsNulls::new),
  CLOSE_LEAVES_SCANS_OPEN(
      "close does not close open scans", "everyCallAfterCloseThrows", CloseLeavesScansOpen::new),
  SIGNED_KEY_ORDER(
      "scans order keys as signed bytes", "keysCompareAsUnsignedBytes", SignedKeyOrder::new),
  MERGE_READ_MODIFY_WRITE(
      "merge is a get then a put, not atomic",
      "concurrentMergesLoseNoOperand",
      ReadModifyWriteMerge::new),
  CORRUPTION_ENDS_SCAN(
      "corruption met by a scan is reported as the end of the range",
      "scanNeverEndsEarlyOnCorruption",
      UnaryOperator.identity()),
  CORRUPTION_ENDS_SCAN_BEHIND_OPEN_CHECK(
      "a scan ends quietly at a damaged row, behind an open-time check that refuses"
          + " the damaged store",
      "scanNeverEndsEarlyOnCorruption",
      UnaryOperator.identity()),
  EMPTY_RANGE_HOLDS_LO(
      "a scan of [k, k) returns k", "emptyRangeScansNothing", EmptyRangeHoldsLo::new),
  UNBOUNDED_HI_STOPS_AT_FF(
      "hi == null is read as hi = ff", "unboundedHiScansToTheEnd", UnboundedHiStopsAtFf::new),
  REVERSE_SCAN_INCLUDES_HI(
      "a reverse scan starts at hi, inclusive",
      "reverseScanIsForwardReversed",
      ReverseIncludesHi::new),
  SCAN_READS_LIVE_STATE(
      "a scan reads the live store step by step", "scanSeesOneStateWhileWritesGoOn", LiveScan::new),
  BAD_BATCH_PARTLY_APPLIED(
      "a refused batch leaves its valid prefix applied",
      "badBatchIsRefusedWhole",
      AppliesValidPrefix::new),
  EMPTY_BATCH_REFUSED("an empty batch throws", "emptyBatchIsANoOp", RefusesEmptyBatch::new),
  KEEPS_CALLER_ARRAYS(
      "get returns the array the caller put",
      "writeDoesNotKeepCallerArrays",
      KeepsCallerArrays::new),
  SHARES_RETURNED_ARRAYS(
      "get returns the same array to every caller",
      "readsReturnFreshCopies",
      SharesReturnedArrays::new),
  REUSES_READ_ARRAYS(
      "get returns one array per value length, overwritten by the next get",
      "readsDoNotReuseReturnedArrays",
      ReusesReadArrays::new),
  STALE_MULTIGET_SLOTS(
      "a multiGet answers an absent key with what the previous multiGet answered in its slot",
      "consecutiveMultiGetsAnswerOnlyTheirOwnKeys",
      StaleMultiGetSlots::new),
  REPLAYS_PREVIOUS_BATCH(
      "each write of several ops applies the previous such write's ops again first",
      "consecutiveWritesApplyOnlyTheirOwnOps",
      ReplaysPreviousBatch::new),
  DELETE_CROSSES_FAMILIES(
      "a delete in plain also deletes in counters",
      "familiesAreIndependent",
      DeleteCrossesFamilies::new),
  SATURATING_MERGE(
      "merge saturates at Long.MIN/MAX instead of wrapping",
      "mergeIsSigned64BitAdditionWithWrapAround",
      SaturatingMerge::new),
  MERGE_ONTO_ABSENT_IGNORED(
      "a merge onto an absent key is dropped",
      "mergeOntoAbsentKeyEqualsDelta",
      MergeOntoAbsentIgnored::new),
  COUNTER_OF_PLAIN_DECODES(
      "counter() decodes a plain family's value",
      "counterOfPlainFamilyIsRefused",
      CounterOfPlainDecodes::new),
  LENIENT_READS(
      "get of an empty key returns null", "badReadArgumentsAreRefused", LenientReads::new),
  DROPS_EVERY_7TH_BATCH(
      "every 7th batch is silently dropped", "modelBasedRandomBatches", DropsEvery7thBatch::new),
  REOPEN_LOSES_LAST_KEY(
      "reopening loses the last key of the plain family",
      "syncWritesSurviveReopen",
      UnaryOperator.identity()),
  REFUSAL_NAMES_NO_FAMILY(
      "an unlisted family is refused without naming it",
      "openRefusesUnlistedFamilies",
      UnaryOperator.identity()),
  MULTIGET_CAPS_KEYS(
      "multiGet fails above 65 536 keys, as one buffer sized for all keys overflows",
      "multiGetOfAMillionKeys",
      MultiGetCapsKeys::new),
  DAMAGE_READ_AS_DATA(
      "damaged entries read back with altered values and no error",
      "scanNeverEndsEarlyOnCorruption",
      UnaryOperator.identity()),
  SILENT_WAL_DROP(
      "a reopen after mid-log damage silently drops every batch after the damage",
      "midLogDamageIsReportedNeverSilentlyDropped",
      UnaryOperator.identity()),
  FAMILIES_RECOVER_APART(
      "a reopen of a log cut short recovers each family on its own, so a family flushed past the"
          + " cut keeps its part of the batches the others lost",
      "cutLogNeverSplitsABatchAcrossFamilies",
      UnaryOperator.identity()),
  SYMLINK_BLIND_LOCK(
      "the directory lock is keyed by the path as given, so a symlink opens the store twice",
      "secondOpenThroughSymlinkIsRefused",
      UnaryOperator.identity()),
  ADOPTING_PROVIDER(
      "the provider creates its store in any directory, foreign or not empty",
      "foreignOrNonEmptyDirectoryIsRefusedUntouched",
      UnaryOperator.identity()),

  // ---- durability without a clean close: memory behind a pretend journal that simulates crashes
  // (CrashableMemoryFixture), each committing it wrongly; a clean close would hide every one.
  SYNC_WAL_DOES_NOTHING(
      "syncWal() returns without committing: NO_SYNC writes are lost by a crash after it",
      "noSyncWritesSurviveReopenAfterSyncWal",
      UnaryOperator.identity()),
  SYNC_COMMITTED_AT_CLOSE(
      "a SYNC write is acknowledged but committed only by a later sync or a clean close",
      "syncWritesSurviveReopen",
      UnaryOperator.identity()),
  COMMITS_MID_BATCH(
      "a batch above the 1 MiB write buffer is committed in part when the buffer fills",
      "crashKeepsAcknowledgedWritesAndWholeBatches",
      UnaryOperator.identity()),

  // ---- injected faults: an engine left failed by an I/O error (FailingEngineMemoryFixture)
  REPORT_WRITE_FAILURE_RECOVERS_NOTHING(
      "reportWriteFailure closes scans and snapshots but never recovers the"
          + " engine an I/O failure left failed: every later write fails",
      "reportWriteFailureRecoversFromInjectedFaults",
      UnaryOperator.identity()),
  REPORT_WRITE_FAILURE_NOOP(
      "reportWriteFailure does nothing: a write that failed half way leaves its part in the"
          + " engine, and the engine failed",
      "reportWriteFailureDiscardsAWriteHalfInTheEngine",
      UnaryOperator.identity()),

  // ---- the missing contract cases: createIfMissing, close after NO_SYNC, maxValueBytes, snapshots
  // ---- across flushes
  CREATE_IF_MISSING_IGNORED(
      "the provider ignores createIfMissing=false and creates a family the store lacks",
      "createIfMissingFalseRefusesANewFamily",
      UnaryOperator.identity()),
  CLOSE_AFTER_NO_SYNC_LEAVES_SCANS_OPEN(
      "while NO_SYNC writes are unsynced, scans read ahead and outlive close",
      "closeAfterNoSyncWritesClosesOpenScans",
      ScansOutliveCloseWhileUnsynced::new),
  MAX_VALUE_REFUSED(
      "a value of exactly maxValueBytes is refused (the limit checked with >=)",
      "valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused",
      RefusesMaxValue::new),
  SNAPSHOT_RELEASED_AT_FLUSH(
      "a flush releases the versions a snapshot holds, so it reads the live store after one",
      "snapshotHeldAcrossCommitsAndFlushes",
      UnaryOperator.identity()),
  LOCK_KEPT_AFTER_FAILURE_REPORT(
      "reportWriteFailure and close take the store's exclusive lock and never release it:"
          + " the calling thread goes on (the lock is reentrant), every other thread waits for ever",
      "otherThreadsProceedAfterReportWriteFailureAndClose",
      KeepsExclusiveLock::new),
  SINGLE_DELETE_DROPPED(
      "a batch of exactly one delete takes a short path that forgets to apply it",
      "aBatchOfOneOpAppliesLikeAnyOther",
      DropsSingleDelete::new),
  VISIT_UNCHECKED(
      "visit skips the argument checks: a range with lo > hi, or a null visitor, visits nothing",
      "badReadArgumentsAreRefused",
      UncheckedVisit::new),
  VISIT_JUDGES_BEFORE_CLOSE(
      "visit refuses a null visitor before it looks whether the store is closed",
      "aClosedStoreSaysSoBeforeJudgingArguments",
      VisitorCheckedFirst::new),
  KEY_ORDER_PAST_RANGE_DELETES(
      "a batch is applied in key order even when it holds a range delete, so a put"
          + " before a range that covers it lands after the range",
      "batchOpsApplyInOrder",
      d -> new KeyOrderedBatches(d, true, false)),
  KEY_ORDER_UNSTABLE(
      "a batch without a range delete is applied in key order, the ops on one key last first",
      "batchOpsApplyInOrder",
      d -> new KeyOrderedBatches(d, false, true)),
  KEPT_CURSOR_NOT_REFRESHED(
      "a forward scan or visit of a range read before reads the state the first scan of it"
          + " read: the cursor of a closed scan kept for the next one and never refreshed",
      "aRescanSeesWritesSinceTheLastScanOfItsRange",
      UnrefreshedKeptCursors::new),
  MULTIGET_KEY_BY_KEY(
      "a multiGet reads its keys one get after another, with no common state, so a batch that"
          + " lands between two of the gets shows half done",
      "batchIsAtomicToConcurrentReaders",
      MultiGetKeyByKey::new),
  RETAINS_SCAN_BOUNDS(
      "a scan keeps the caller's bound arrays and checks each entry against them as it reads, as a"
          + " sorted map's sub-map view does, so bounds the caller overwrote after the call end it early",
      "argumentArraysAreNeverRetained",
      RetainsScanBounds::new),
  FREED_SPACE_COUNTED_AT_REOPEN(
      "the open checks the space the store's batches allocated, counting large values a"
          + " batch freed itself, and refuses a cleanly closed store as truncated",
      "batchesThatFreeWhatTheyWroteReopenWhole",
      UnaryOperator.identity());

  final String breaks;
  final String caughtBy;
  final UnaryOperator<Store> wrap;

  Mutant(String breaks, String caughtBy, UnaryOperator<Store> wrap) {
    this.breaks = breaks;
    this.caughtBy = caughtBy;
    this.wrap = wrap;
  }

  /** The fixture running the suite against this mutant. */
  BackendFixture fixture() {
    switch (this) {
      case SYNC_WAL_DOES_NOTHING:
        return new CrashableMemoryFixture(CrashableMemoryFixture.Commit.SYNC_WAL_DOES_NOTHING);
      case SYNC_COMMITTED_AT_CLOSE:
        return new CrashableMemoryFixture(CrashableMemoryFixture.Commit.SYNC_COMMITTED_AT_CLOSE);
      case COMMITS_MID_BATCH:
        return new CrashableMemoryFixture(CrashableMemoryFixture.Commit.COMMITS_WHEN_BUFFER_FILLS);
      case REPORT_WRITE_FAILURE_RECOVERS_NOTHING:
        return new FailingEngineMemoryFixture(false);
      case REPORT_WRITE_FAILURE_NOOP:
        return new FailingEngineMemoryFixture(FailingEngineMemoryFixture.Recovery.NOOP);
      default:
        break;
    }
    if (this == FREED_SPACE_COUNTED_AT_REOPEN) {
      return new FreedSpaceCountingFixture();
    }
    if (this == SYMLINK_BLIND_LOCK) {
      return new DirectoryMemoryFixture(
          new DirectoryMemoryProvider.SymlinkBlindLock(), "memory-in-directory mutant " + name());
    }
    if (this == ADOPTING_PROVIDER) {
      return new DirectoryMemoryFixture(
          new DirectoryMemoryProvider.Adopting(), "memory-in-directory mutant " + name());
    }
    if (this == CORRUPTION_ENDS_SCAN) {
      return new DamageableMemoryFixture(DamageableMemoryFixture.Report.AS_END_OF_SCAN);
    }
    if (this == CORRUPTION_ENDS_SCAN_BEHIND_OPEN_CHECK) {
      return new DamageableMemoryFixture(
          DamageableMemoryFixture.Report.AS_END_OF_SCAN, true, true, true);
    }
    if (this == DAMAGE_READ_AS_DATA) {
      return new DamageableMemoryFixture(DamageableMemoryFixture.Report.AS_DATA);
    }
    if (this == SILENT_WAL_DROP) {
      return new LogDamageableMemoryFixture(true);
    }
    if (this == FAMILIES_RECOVER_APART) {
      return new LogDamageableMemoryFixture(
          LogDamageableMemoryFixture.Recovery.FAMILIES_RECOVER_APART);
    }
    if (this == REOPEN_LOSES_LAST_KEY) {
      return new WrappingFixture("memory mutant " + name(), UnaryOperator.identity()) {
        @Override
        public Store open(Path dir, List<FamilySpec> families) {
          Store s = super.open(dir, families);
          if (families.stream().anyMatch(f -> f.name().equals(EngineConformance.PLAIN))) {
            try (Scan last =
                s.scan(EngineConformance.PLAIN, new byte[0], null, Direction.REVERSE)) {
              if (last.hasNext()) {
                s.write(
                    new Batch().delete(EngineConformance.PLAIN, last.next().key()),
                    Durability.SYNC);
              }
            }
          }
          return s;
        }
      };
    }
    if (this == REFUSAL_NAMES_NO_FAMILY) {
      return new WrappingFixture("memory mutant " + name(), UnaryOperator.identity()) {
        @Override
        public Store open(Path dir, List<FamilySpec> families) {
          try {
            return super.open(dir, families);
          } catch (StoreFormatException e) {
            throw new StoreFormatException("the store holds families that were not listed");
          }
        }
      };
    }
    if (this == CREATE_IF_MISSING_IGNORED) {
      return new WrappingFixture("memory mutant " + name(), UnaryOperator.identity()) {
        @Override
        public StoreProvider provider() {
          return new IgnoresCreateIfMissing(super.provider());
        }
      };
    }
    if (this == SNAPSHOT_RELEASED_AT_FLUSH) {
      return new WrappingFixture("memory mutant " + name(), SnapshotReleasedAtFlush::new) {
        @Override
        public void flush(Store store) {
          ((SnapshotReleasedAtFlush) store).flushed();
        }
      };
    }
    return new WrappingFixture("memory mutant " + name(), wrap);
  }

  // ---------------------------------------------------------------- the missing contract cases'
  // mutants

  /** A provider that opens every read-write store with createIfMissing, whatever it was asked. */
  private record IgnoresCreateIfMissing(StoreProvider honest) implements StoreProvider {
    @Override
    public String name() {
      return honest.name();
    }

    @Override
    public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
      return honest.open(
          dir, options.readOnly() ? options : options.createIfMissing(true), families);
    }
  }

  /**
   * While a NO_SYNC write is not yet covered by a sync, scans read their range up front and answer
   * from that copy, after close too: an engine whose close takes another path while it holds
   * unsynced state, leaving the iterators it handed out alive.
   */
  private static final class ScansOutliveCloseWhileUnsynced extends ForwardingStore {
    private volatile boolean unsynced;

    ScansOutliveCloseWhileUnsynced(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      delegate.write(batch, durability);
      unsynced = durability == Durability.NO_SYNC;
    }

    @Override
    public void syncWal() {
      delegate.syncWal();
      unsynced = false;
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      return unsynced
          ? new CloseLeavesScansOpen(delegate).scan(family, lo, hi, direction)
          : delegate.scan(family, lo, hi, direction);
    }
  }

  /** Refuses a value of exactly maxValueBytes, as a limit checked with {@code >=} would. */
  private static final class RefusesMaxValue extends ForwardingStore {
    RefusesMaxValue(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      int max = delegate.capabilities().maxValueBytes();
      for (Op op : batch.ops()) {
        if (op instanceof Op.Put p && p.value().length >= max) {
          throw new StoreArgumentException(
              "value of "
                  + p.value().length
                  + " bytes in family '"
                  + p.family()
                  + "' at key "
                  + Bytes.hex(p.key())
                  + "; at most "
                  + max);
        }
      }
      delegate.write(batch, durability);
    }
  }

  /**
   * Snapshots that hold their state only until the next flush (the fixture's {@code flush} hook),
   * then read the live store: an engine that releases the versions a snapshot pins when it moves
   * its memtable to files.
   */
  private static final class SnapshotReleasedAtFlush extends ForwardingStore {
    private final java.util.concurrent.atomic.AtomicInteger flushes =
        new java.util.concurrent.atomic.AtomicInteger();

    SnapshotReleasedAtFlush(Store d) {
      super(d);
    }

    void flushed() {
      flushes.incrementAndGet();
    }

    @Override
    public Snapshot snapshot() {
      Snapshot held = delegate.snapshot();
      int at = flushes.get();
      Store live = delegate;
      java.util.function.Supplier<io.ankusa.store.spi.ReadView> view =
          () -> flushes.get() == at ? held : live;
      return new Snapshot() {
        @Override
        public byte[] get(String family, byte[] key) {
          return view.get().get(family, key);
        }

        @Override
        public List<byte[]> multiGet(String family, List<byte[]> keys) {
          return view.get().multiGet(family, keys);
        }

        @Override
        public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
          return view.get().scan(family, lo, hi, direction);
        }

        @Override
        public long counter(String family, byte[] key) {
          return view.get().counter(family, key);
        }

        @Override
        public void close() {
          held.close();
        }
      };
    }
  }

  // ---------------------------------------------------------------- the mutants

  /**
   * multiGet refuses large key lists, like a backend that sizes one buffer for every key at once.
   */
  private static final class MultiGetCapsKeys extends ForwardingStore {
    MultiGetCapsKeys(Store d) {
      super(d);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      if (keys.size() > 65_536) {
        throw new IllegalArgumentException("capacity < 0: (" + keys.size() * 65_536 + " < 0)");
      }
      return delegate.multiGet(family, keys);
    }
  }

  private static final class DropsLastOp extends ForwardingStore {
    DropsLastOp(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      List<Op> ops = batch.ops();
      Batch shorter = new Batch();
      ops.subList(0, Math.max(0, ops.size() - 1)).forEach(shorter::add);
      delegate.write(shorter, durability);
    }
  }

  private static final class DropsSingleDelete extends ForwardingStore {
    DropsSingleDelete(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (batch.ops().size() == 1 && batch.ops().get(0) instanceof Op.Delete) {
        return; // the mutant's short path; an honest one would call the engine's delete
      }
      delegate.write(batch, durability);
    }
  }

  private static final class VisitorCheckedFirst extends ForwardingStore {
    VisitorCheckedFirst(Store d) {
      super(d);
    }

    @Override
    public void visit(
        String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
      if (visitor == null) {
        throw new StoreArgumentException("null visitor passed to visit of family '" + family + "'");
      }
      delegate.visit(family, lo, hi, direction, visitor);
    }
  }

  private static final class UncheckedVisit extends ForwardingStore {
    UncheckedVisit(Store d) {
      super(d);
    }

    @Override
    public void visit(
        String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
      if (visitor == null || (hi != null && Bytes.compare(lo, hi) > 0)) {
        return;
      }
      delegate.visit(family, lo, hi, direction, visitor);
    }
  }

  private static final class VisitIgnoresStop extends ForwardingStore {
    VisitIgnoresStop(Store d) {
      super(d);
    }

    @Override
    public void visit(
        String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
      delegate.visit(
          family,
          lo,
          hi,
          direction,
          (key, value) -> {
            visitor.visit(key, value);
            return true;
          });
    }
  }

  private static final class ScanStopsEarly extends ForwardingStore {
    ScanStopsEarly(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      Scan inner = delegate.scan(family, lo, hi, direction);
      return new Scan() {
        private int returned;

        @Override
        public boolean hasNext() {
          return inner.hasNext() && returned < 3;
        }

        @Override
        public Entry next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          returned++;
          return inner.next();
        }

        @Override
        public void close() {
          inner.close();
        }
      };
    }
  }

  private static final class BigEndianCounters extends ForwardingStore {
    BigEndianCounters(Store d) {
      super(d);
    }

    private static byte[] flip(String family, byte[] v) {
      if (v == null || !family.equals(EngineConformance.COUNTERS) || v.length != Int64Add.WIDTH) {
        return v;
      }
      byte[] out = new byte[v.length];
      for (int i = 0; i < v.length; i++) {
        out[i] = v[v.length - 1 - i];
      }
      return out;
    }

    @Override
    public byte[] get(String family, byte[] key) {
      return flip(family, delegate.get(family, key));
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      return delegate.multiGet(family, keys).stream().map(v -> flip(family, v)).toList();
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      List<Entry> entries = new ArrayList<>();
      try (Scan inner = delegate.scan(family, lo, hi, direction)) {
        inner.forEachRemaining(e -> entries.add(new Entry(e.key(), flip(family, e.value()))));
      }
      return new ListScan(entries, () -> {});
    }
  }

  private static final class InclusiveDeleteRange extends ForwardingStore {
    InclusiveDeleteRange(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      Batch changed = new Batch();
      for (Op op : batch.ops()) {
        changed.add(op);
        if (op instanceof Op.DeleteRange r && r.hi().length > 0) {
          changed.delete(r.family(), r.hi());
        }
      }
      delegate.write(changed, durability);
    }
  }

  private static final class LiveSnapshot extends ForwardingStore {
    LiveSnapshot(Store d) {
      super(d);
    }

    @Override
    public Snapshot snapshot() {
      delegate.snapshot().close(); // the checks a real snapshot makes (closed store) still happen
      Store live = delegate;
      return new Snapshot() {
        @Override
        public byte[] get(String family, byte[] key) {
          return live.get(family, key);
        }

        @Override
        public List<byte[]> multiGet(String family, List<byte[]> keys) {
          return live.multiGet(family, keys);
        }

        @Override
        public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
          return live.scan(family, lo, hi, direction);
        }

        @Override
        public long counter(String family, byte[] key) {
          return live.counter(family, key);
        }

        @Override
        public void close() {}
      };
    }
  }

  private static final class OneOpAtATime extends ForwardingStore {
    OneOpAtATime(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      List<Op> ops = batch.ops();
      for (int i = 0; i < ops.size(); i++) {
        delegate.write(new Batch().add(ops.get(i)), durability);
        if (i + 1 < ops.size()) {
          // Hold the half-applied state for a moment, as a descheduled writer would: on a loaded
          // 2-core machine a reader otherwise rarely runs inside the window, and the mutant
          // slipped.
          LockSupport.parkNanos(200_000);
        }
      }
      if (batch.isEmpty()) {
        delegate.write(batch, durability);
      }
    }
  }

  private static final class MultiGetDropsNulls extends ForwardingStore {
    MultiGetDropsNulls(Store d) {
      super(d);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      return delegate.multiGet(family, keys).stream().filter(v -> v != null).toList();
    }
  }

  /**
   * multiGet as one get per key, each at the live state, with a pause between two gets (the time a
   * backend's own read of the next key takes when the writer gets the core): what a backend that
   * reads key by key without pinning one state, or without checking that no write overlapped, does.
   */
  private static final class MultiGetKeyByKey extends ForwardingStore {
    MultiGetKeyByKey(Store d) {
      super(d);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      delegate.multiGet(family, List.of()); // argument checks on the family
      List<byte[]> values = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        if (!values.isEmpty()) {
          LockSupport.parkNanos(20_000);
        }
        values.add(delegate.get(family, k));
      }
      return values;
    }
  }

  /** Guards calls with a read-write lock as RocksDB's backend does, and forgets one unlock. */
  private static final class KeepsExclusiveLock extends ForwardingStore {
    private final ReentrantReadWriteLock handle = new ReentrantReadWriteLock();

    KeepsExclusiveLock(Store d) {
      super(d);
    }

    @Override
    public byte[] get(String family, byte[] key) {
      handle.readLock().lock();
      try {
        return super.get(family, key);
      } finally {
        handle.readLock().unlock();
      }
    }

    @Override
    public void write(Batch batch, Durability durability) {
      handle.readLock().lock();
      try {
        super.write(batch, durability);
      } finally {
        handle.readLock().unlock();
      }
    }

    @Override
    public void reportWriteFailure(Throwable cause) {
      handle.writeLock().lock();
      super.reportWriteFailure(cause);
    }

    @Override
    public void close() {
      handle.writeLock().lock();
      super.close();
    }
  }

  private static final class CloseLeavesScansOpen extends ForwardingStore {
    CloseLeavesScansOpen(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      List<Entry> entries = new ArrayList<>();
      try (Scan inner = delegate.scan(family, lo, hi, direction)) {
        inner.forEachRemaining(entries::add);
      }
      return new ListScan(entries, () -> {});
    }
  }

  private static final class SignedKeyOrder extends ForwardingStore {
    SignedKeyOrder(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      List<Entry> entries = new ArrayList<>();
      try (Scan inner = delegate.scan(family, lo, hi, direction)) {
        inner.forEachRemaining(entries::add);
      }
      Comparator<Entry> signed = (a, b) -> Arrays.compare(a.key(), b.key());
      entries.sort(direction == Direction.FORWARD ? signed : signed.reversed());
      return new ListScan(entries, () -> delegate.get(family, new byte[] {0}));
    }
  }

  /**
   * With {@code -Dankusa.mutant.narrowMerge=true} the read-modify-write merge does not yield
   * between its read and its write: the window of a real racy engine, for measuring the catch rate
   * of {@code concurrentMergesLoseNoOperand} (docs/measurements/suite.md); the self-test runs with
   * the yield, caught on every run.
   */
  static final String NARROW_MERGE_PROPERTY = "ankusa.mutant.narrowMerge";

  private static final class ReadModifyWriteMerge extends ForwardingStore {
    ReadModifyWriteMerge(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      Map<String, Long> pending = new HashMap<>();
      Batch changed = new Batch();
      for (Op op : batch.ops()) {
        if (op instanceof Op.Merge m) {
          String slot = m.family() + "/" + Bytes.fullHex(m.key());
          long current =
              pending.containsKey(slot) ? pending.get(slot) : delegate.counter(m.family(), m.key());
          pending.put(slot, current + m.delta());
          changed.put(m.family(), m.key(), Int64Add.encode(current + m.delta()));
        } else {
          changed.add(op);
        }
      }
      if (!Boolean.getBoolean(NARROW_MERGE_PROPERTY)) {
        Thread.yield(); // widen the window between the read and the write
      }
      delegate.write(changed, durability);
    }
  }

  private static final class EmptyRangeHoldsLo extends ForwardingStore {
    EmptyRangeHoldsLo(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      if (hi != null && Arrays.equals(lo, hi) && lo.length > 0) {
        return delegate.scan(family, lo, concat(lo, new byte[] {0}), direction);
      }
      return delegate.scan(family, lo, hi, direction);
    }
  }

  private static final class UnboundedHiStopsAtFf extends ForwardingStore {
    UnboundedHiStopsAtFf(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      byte[] ff = {(byte) 0xff};
      return delegate.scan(
          family, lo, hi == null && Bytes.compare(lo, ff) <= 0 ? ff : hi, direction);
    }
  }

  private static final class ReverseIncludesHi extends ForwardingStore {
    ReverseIncludesHi(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      if (direction == Direction.FORWARD || hi == null || hi.length == 0) {
        return delegate.scan(family, lo, hi, direction);
      }
      return delegate.scan(family, lo, concat(hi, new byte[] {0}), direction);
    }
  }

  /** Reads one entry at a time from the live store, after the last key returned. */
  private static final class LiveScan extends ForwardingStore {
    LiveScan(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      delegate.scan(family, lo, hi, direction).close(); // argument checks
      return new Scan() {
        private byte[] last;
        private Entry ahead;

        @Override
        public boolean hasNext() {
          if (ahead != null) {
            return true;
          }
          byte[] from = lo;
          byte[] to = hi;
          if (last != null && direction == Direction.FORWARD) {
            from = concat(last, new byte[] {0});
          } else if (last != null) {
            to = last;
          }
          if (to != null && Bytes.compare(from, to) > 0) {
            return false;
          }
          try (Scan one = delegate.scan(family, from, to, direction)) {
            ahead = one.hasNext() ? one.next() : null;
          }
          return ahead != null;
        }

        @Override
        public Entry next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          Entry e = ahead;
          ahead = null;
          last = e.key();
          return e;
        }

        @Override
        public void close() {}
      };
    }
  }

  private static final class AppliesValidPrefix extends ForwardingStore {
    AppliesValidPrefix(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      try {
        delegate.write(batch, durability);
      } catch (StoreArgumentException e) {
        for (Op op : batch.ops()) {
          delegate.write(new Batch().add(op), durability);
        }
      }
    }
  }

  private static final class RefusesEmptyBatch extends ForwardingStore {
    RefusesEmptyBatch(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (batch.isEmpty()) {
        throw new StoreArgumentException("empty batch");
      }
      delegate.write(batch, durability);
    }
  }

  private static final class KeepsCallerArrays extends ForwardingStore {
    private final Map<String, byte[]> puts = new java.util.concurrent.ConcurrentHashMap<>();

    KeepsCallerArrays(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      delegate.write(batch, durability);
      for (Op op : batch.ops()) {
        if (op instanceof Op.Put p) {
          puts.put(p.family() + "/" + Bytes.fullHex(p.key()), p.value());
        } else {
          puts.clear();
        }
      }
    }

    @Override
    public byte[] get(String family, byte[] key) {
      byte[] v = delegate.get(family, key);
      byte[] kept = puts.get(family + "/" + Bytes.fullHex(key));
      return kept != null && v != null ? kept : v;
    }
  }

  private static final class SharesReturnedArrays extends ForwardingStore {
    private final Map<String, byte[]> handedOut = new java.util.concurrent.ConcurrentHashMap<>();

    SharesReturnedArrays(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      delegate.write(batch, durability);
      handedOut.clear();
    }

    @Override
    public byte[] get(String family, byte[] key) {
      byte[] v = delegate.get(family, key);
      return v == null
          ? null
          : handedOut.computeIfAbsent(family + "/" + Bytes.fullHex(key), k -> v);
    }
  }

  /**
   * A read buffer reused to save an allocation: each get copies its value into the buffer of that
   * length.
   */
  private static final class ReusesReadArrays extends ForwardingStore {
    private final Map<Integer, byte[]> buffers = new java.util.concurrent.ConcurrentHashMap<>();

    ReusesReadArrays(Store d) {
      super(d);
    }

    @Override
    public byte[] get(String family, byte[] key) {
      byte[] v = delegate.get(family, key);
      if (v == null) {
        return null;
      }
      byte[] buffer = buffers.computeIfAbsent(v.length, byte[]::new);
      System.arraycopy(v, 0, buffer, 0, v.length);
      return buffer;
    }
  }

  /** A read buffer kept between multiGets whose slots an absent key does not overwrite. */
  private static final class StaleMultiGetSlots extends ForwardingStore {
    private List<byte[]> slots = List.of();

    StaleMultiGetSlots(Store d) {
      super(d);
    }

    @Override
    public synchronized List<byte[]> multiGet(String family, List<byte[]> keys) {
      List<byte[]> got = delegate.multiGet(family, keys);
      List<byte[]> answers = new ArrayList<>(got.size());
      for (int i = 0; i < got.size(); i++) {
        byte[] stale = i < slots.size() ? slots.get(i) : null;
        answers.add(got.get(i) == null && stale != null ? stale.clone() : got.get(i));
      }
      slots = answers;
      return answers;
    }
  }

  /**
   * Applies each batch in (family, key) order, as a backend might to insert faster: {@code
   * pastRanges} sorts batches holding a range delete too (a range sorts at its {@code lo}); {@code
   * unstable} puts the ops on one key last first.
   */
  private static final class KeyOrderedBatches extends ForwardingStore {
    private final boolean pastRanges;
    private final boolean unstable;

    KeyOrderedBatches(Store d, boolean pastRanges, boolean unstable) {
      super(d);
      this.pastRanges = pastRanges;
      this.unstable = unstable;
    }

    @Override
    public void write(Batch batch, Durability durability) {
      List<Op> ops = batch.ops();
      boolean holdsRange = ops.stream().anyMatch(o -> o instanceof Op.DeleteRange);
      if (holdsRange && !pastRanges) {
        delegate.write(batch, durability);
        return;
      }
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < ops.size(); i++) {
        order.add(i);
      }
      Comparator<Integer> byKey =
          Comparator.comparing((Integer i) -> ops.get(i).family())
              .thenComparing(i -> sortKey(ops.get(i)), Bytes::compare);
      order.sort(unstable ? byKey.thenComparing(Comparator.reverseOrder()) : byKey);
      Batch sorted = new Batch();
      order.forEach(i -> sorted.add(ops.get(i)));
      delegate.write(sorted, durability);
    }

    private static byte[] sortKey(Op op) {
      return op.pointKey() != null ? op.pointKey() : ((Op.DeleteRange) op).lo();
    }
  }

  /** A native batch kept between writes and never cleared: the last write's ops go in again. */
  private static final class ReplaysPreviousBatch extends ForwardingStore {
    private Batch previous = new Batch();

    ReplaysPreviousBatch(Store d) {
      super(d);
    }

    @Override
    public synchronized void write(Batch batch, Durability durability) {
      if (batch.size() < 2) {
        delegate.write(batch, durability);
        return;
      }
      delegate.write(new Batch().addAll(previous).addAll(batch), durability);
      previous = batch;
    }
  }

  private static final class DeleteCrossesFamilies extends ForwardingStore {
    DeleteCrossesFamilies(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      Batch changed = new Batch();
      for (Op op : batch.ops()) {
        changed.add(op);
        if (op instanceof Op.Delete d && d.family().equals(EngineConformance.PLAIN)) {
          changed.delete(EngineConformance.COUNTERS, d.key());
        }
      }
      delegate.write(changed, durability);
    }
  }

  /**
   * Rewrites merges as puts of a computed value, under a lock; {@code law} is the broken addition.
   */
  private abstract static class RewrittenMerge extends ForwardingStore {
    RewrittenMerge(Store d) {
      super(d);
    }

    abstract Long law(Long current, long delta);

    @Override
    public synchronized void write(Batch batch, Durability durability) {
      Map<String, Long> pending = new HashMap<>();
      Batch changed = new Batch();
      for (Op op : batch.ops()) {
        String slot = op instanceof Op.Merge m ? m.family() + "/" + Bytes.fullHex(m.key()) : null;
        if (op instanceof Op.Merge m) {
          byte[] stored = pending.containsKey(slot) ? null : delegate.get(m.family(), m.key());
          Long current =
              pending.containsKey(slot)
                  ? pending.get(slot)
                  : stored == null ? null : Int64Add.decode(m.family(), m.key(), stored);
          Long next = law(current, m.delta());
          pending.put(slot, next);
          if (next != null) {
            changed.put(m.family(), m.key(), Int64Add.encode(next));
          }
        } else {
          pending.clear();
          changed.add(op);
        }
      }
      delegate.write(changed, durability);
    }
  }

  private static final class SaturatingMerge extends RewrittenMerge {
    SaturatingMerge(Store d) {
      super(d);
    }

    @Override
    Long law(Long current, long delta) {
      long c = current == null ? 0 : current;
      long sum = c + delta;
      if (((c ^ sum) & (delta ^ sum)) < 0) {
        return delta > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
      }
      return sum;
    }
  }

  private static final class MergeOntoAbsentIgnored extends RewrittenMerge {
    MergeOntoAbsentIgnored(Store d) {
      super(d);
    }

    @Override
    Long law(Long current, long delta) {
      return current == null ? null : current + delta;
    }
  }

  private static final class CounterOfPlainDecodes extends ForwardingStore {
    CounterOfPlainDecodes(Store d) {
      super(d);
    }

    @Override
    public long counter(String family, byte[] key) {
      byte[] v = delegate.get(family, key);
      return v == null || v.length != Int64Add.WIDTH ? 0 : Int64Add.decode(family, key, v);
    }
  }

  private static final class LenientReads extends ForwardingStore {
    LenientReads(Store d) {
      super(d);
    }

    @Override
    public byte[] get(String family, byte[] key) {
      return key.length == 0 ? null : delegate.get(family, key);
    }
  }

  private static final class DropsEvery7thBatch extends ForwardingStore {
    private int writes;

    DropsEvery7thBatch(Store d) {
      super(d);
    }

    @Override
    public synchronized void write(Batch batch, Durability durability) {
      if (++writes % 7 != 0) {
        delegate.write(batch, durability);
      }
    }
  }

  /**
   * A scan over entries read up front; {@code check} runs before each call (throws when closed).
   */
  static final class ListScan implements Scan {
    private final List<Entry> entries;
    private final Runnable check;
    private int next;
    private boolean closed;

    ListScan(List<Entry> entries, Runnable check) {
      this.entries = entries;
      this.check = check;
    }

    @Override
    public boolean hasNext() {
      if (closed) {
        throw new StoreClosedException("scan is closed");
      }
      check.run();
      return next < entries.size();
    }

    @Override
    public Entry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return entries.get(next++);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  /**
   * Reads every forward scan and visit of a range (a family and an upper bound) that was scanned
   * before from the state of that first scan: a snapshot taken then, as a kept cursor that is never
   * refreshed would.
   */
  private static final class UnrefreshedKeptCursors extends ForwardingStore {
    private final Map<String, Snapshot> kept = new HashMap<>();

    UnrefreshedKeptCursors(Store d) {
      super(d);
    }

    private synchronized io.ankusa.store.spi.ReadView stateOf(String family, byte[] hi) {
      String range = family + "/" + (hi == null ? "end" : Bytes.hex(hi));
      Snapshot first = kept.get(range);
      if (first == null) {
        kept.put(range, delegate.snapshot());
        return delegate;
      }
      return first;
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      return direction == Direction.FORWARD
          ? stateOf(family, hi).scan(family, lo, hi, direction)
          : delegate.scan(family, lo, hi, direction);
    }

    @Override
    public void visit(
        String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
      if (direction == Direction.FORWARD) {
        stateOf(family, hi).visit(family, lo, hi, direction, visitor);
      } else {
        delegate.visit(family, lo, hi, direction, visitor);
      }
    }

    @Override
    public synchronized void close() {
      kept.values().forEach(Snapshot::close);
      kept.clear();
      delegate.close();
    }
  }

  /**
   * The memory backend's scan as it was: its range a sub-map view over the caller's bound arrays,
   * so an entry is checked against whatever the arrays hold when it is read.
   */
  private static final class RetainsScanBounds extends ForwardingStore {
    RetainsScanBounds(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      Scan scan = delegate.scan(family, lo, hi, direction);
      return new Scan() {
        private Entry ahead;
        private boolean ended;

        @Override
        public boolean hasNext() {
          if (ahead == null && !ended) {
            Entry e = scan.hasNext() ? scan.next() : null;
            if (e != null
                && Bytes.compare(e.key(), lo) >= 0
                && (hi == null || Bytes.compare(e.key(), hi) < 0)) {
              ahead = e;
            } else {
              ended = true;
            }
          }
          return ahead != null;
        }

        @Override
        public Entry next() {
          if (!hasNext()) {
            throw new NoSuchElementException("scan is at the end of its range");
          }
          Entry e = ahead;
          ahead = null;
          return e;
        }

        @Override
        public void close() {
          scan.close();
        }
      };
    }
  }

  /** {@code a} then {@code b}: {@code concat(key, {0})} is the first key after {@code key}. */
  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
