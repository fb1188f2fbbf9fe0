package io.ankusa.store.etcd;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * The reads, shared by the live store and snapshots. A live read sees the latest revision (etcd's
 * reads are linearizable: every write acknowledged before it is seen); a snapshot reads at its
 * fixed revision. A read that takes several requests (a long multiGet, a scan's pages) reads them
 * all at one revision, held against compaction while it runs ({@link CompactionPins}).
 *
 * <p>Ownership: arrays passed in are only read; every array returned is fresh from the client.
 */
abstract class EtcdView implements ReadView {
  /** Most keys a multiGet reads in one transaction of gets (one round trip, one revision). */
  static final int FEW_KEYS = 64;

  /** Keys of a long multiGet read by one range request over their span. */
  static final int WINDOW_KEYS = 1024;

  final KV kv;
  final FamilyCatalog catalog;
  final EtcdKeys keys;
  final long timeoutMs;
  final String cluster;

  /**
   * How long a read is asked again while the cluster has no leader or quorum ({@code
   * etcd.recoverWaitMs}).
   */
  final long readBudgetMs;

  EtcdView(
      KV kv,
      FamilyCatalog catalog,
      EtcdKeys keys,
      long timeoutMs,
      long readBudgetMs,
      String cluster) {
    this.kv = kv;
    this.catalog = catalog;
    this.keys = keys;
    this.timeoutMs = timeoutMs;
    this.readBudgetMs = readBudgetMs;
    this.cluster = cluster;
  }

  /** Throws {@link io.ankusa.store.spi.StoreClosedException} once this view is closed. */
  abstract void checkOpen();

  /** The revision this view reads at, or 0 for the latest (the live store). */
  abstract long fixedRevision();

  /**
   * For a read of the latest state: the lowest revision a member's state must have reached for the
   * read to see every write this process had acknowledged before it — the revision of its last
   * write. Only the owning process writes a store (every write is fenced), so such a member's state
   * is as fresh as the leader's for this store, and the member answers alone (a serializable read)
   * instead of asking the leader for a quorum round. 0: every read of the latest state goes through
   * the leader (a read-only open, which does not know what others wrote). At least the highest
   * revision a read of this view has seen ({@link #saw}), so reads never go back in time.
   */
  abstract long mustSee();

  /** Notes that a read of the latest state saw {@code revision}. */
  abstract void saw(long revision);

  /**
   * Holds {@code revision} against compaction for a read of several requests; false: take a newer
   * one.
   */
  abstract boolean hold(long revision);

  /** Ends a {@link #hold}. */
  abstract void letGo(long revision);

  /** Where scans opened on this view are registered, so closing the view closes them. */
  abstract OpenResources scans();

  /** What the view is, for messages. */
  abstract String label();

  @Override
  public byte[] get(String family, byte[] key) {
    checkOpen();
    catalog.require(family);
    catalog.checkKey(family, key);
    ByteSequence k = ByteSequence.from(EtcdKeys.concat(keys.familyStart(family), key));
    long revision = fixedRevision();
    GetResponse r =
        read(
            local -> kv.get(k, option(revision, local).build()),
            g -> g.getHeader().getRevision(),
            revision,
            "key " + Bytes.hex(key) + " of family '" + family + "'");
    return r.getKvs().isEmpty() ? null : r.getKvs().get(0).getValue().getBytes();
  }

  /**
   * A read at {@code revision} (0: the latest), answered by any member when that is exact — a
   * member that has applied {@code revision}, or for the latest one whose state reaches {@link
   * #mustSee()} — else through the leader. {@code call} makes the request, serializable when given
   * true.
   */
  <T> T read(
      java.util.function.Function<Boolean, CompletableFuture<T>> call,
      java.util.function.ToLongFunction<T> revisionOf,
      long revision,
      String what) {
    long floor = revision != 0 ? 0 : mustSee();
    if (revision != 0 || floor > 0) {
      try {
        T r = await(() -> call.apply(true), what);
        if (revision != 0) {
          return r;
        }
        long at = revisionOf.applyAsLong(r);
        if (at >= floor) {
          saw(at);
          return r;
        }
      } catch (io.ankusa.store.spi.StoreException e) {
        Throwable cause = e.getCause();
        if (cause == null || !String.valueOf(cause.getMessage()).contains("future revision")) {
          throw e;
        }
        // that member has not applied the revision yet: ask through the leader
      }
    }
    T r = await(() -> call.apply(false), what);
    if (revision == 0) {
      saw(revisionOf.applyAsLong(r));
    }
    return r;
  }

  /** A range option at {@code revision} (0: the latest), serializable when {@code local}. */
  static GetOption.Builder option(long revision, boolean local) {
    return GetOption.builder().withRevision(revision).withSerializable(local);
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> asked) {
    checkOpen();
    catalog.require(family);
    catalog.checkKeys(family, asked);
    if (asked.isEmpty()) {
      return new ArrayList<>();
    }
    byte[] start = keys.familyStart(family);
    String what = asked.size() + " keys of family '" + family + "'";
    Map<ByteBuffer, byte[]> found =
        asked.size() <= FEW_KEYS && fixedRevision() == 0
            ? fewKeys(start, asked, what)
            : manyKeys(start, asked, what);
    List<byte[]> out = new ArrayList<>(asked.size());
    Map<ByteBuffer, Integer> handedOut = new HashMap<>();
    for (byte[] k : asked) {
      ByteBuffer b = ByteBuffer.wrap(k);
      byte[] v = found.get(b);
      // the same key asked twice gets two arrays: the caller owns each
      out.add(v == null ? null : handedOut.merge(b, 1, Integer::sum) == 1 ? v : v.clone());
    }
    return out;
  }

  /** One transaction of gets: one round trip, one revision. */
  private Map<ByteBuffer, byte[]> fewKeys(byte[] start, List<byte[]> asked, String what) {
    TxnResponse r =
        read(
            local -> {
              Op[] gets = new Op[asked.size()];
              for (int i = 0; i < gets.length; i++) {
                gets[i] =
                    Op.get(
                        ByteSequence.from(EtcdKeys.concat(start, asked.get(i))),
                        option(0, local).build());
              }
              return kv.txn().Then(gets).commit();
            },
            t -> t.getHeader().getRevision(),
            0,
            what);
    Map<ByteBuffer, byte[]> found = new HashMap<>();
    List<GetResponse> answers = r.getGetResponses();
    for (int i = 0; i < asked.size(); i++) {
      List<KeyValue> kvs = answers.get(i).getKvs();
      if (!kvs.isEmpty()) {
        found.put(ByteBuffer.wrap(asked.get(i)), kvs.get(0).getValue().getBytes());
      }
    }
    return found;
  }

  /**
   * Many keys, all at one revision: the distinct keys in order, {@value #WINDOW_KEYS} at a time,
   * each window read as the range over its span when the span holds few other entries (one
   * request), else key by key at that revision, concurrently.
   */
  private Map<ByteBuffer, byte[]> manyKeys(byte[] start, List<byte[]> asked, String what) {
    TreeSet<byte[]> sorted = new TreeSet<>(Bytes.UNSIGNED);
    sorted.addAll(asked);
    List<byte[]> distinct = new ArrayList<>(sorted);
    Map<ByteBuffer, byte[]> found = new HashMap<>();
    long revision = fixedRevision();
    boolean held = false;
    try {
      for (int from = 0; from < distinct.size(); from += WINDOW_KEYS) {
        List<byte[]> window = distinct.subList(from, Math.min(distinct.size(), from + WINDOW_KEYS));
        byte[] lo = EtcdKeys.concat(start, window.get(0));
        byte[] hi = EtcdKeys.successor(EtcdKeys.concat(start, window.get(window.size() - 1)));
        long atRevision = revision;
        GetResponse r =
            read(
                local ->
                    kv.get(
                        ByteSequence.from(lo),
                        option(atRevision, local)
                            .withRange(ByteSequence.from(hi))
                            .withLimit(2L * window.size() + 16)
                            .build()),
                g -> g.getHeader().getRevision(),
                atRevision,
                what);
        if (revision == 0) {
          long now = r.getHeader().getRevision();
          if (!hold(now)) {
            from -=
                WINDOW_KEYS; // a compaction pin moved past it meanwhile: read this window again,
            // newer
            continue;
          }
          revision = now;
          held = true;
        }
        if (!r.isMore()) {
          for (KeyValue kv : r.getKvs()) {
            byte[] full = kv.getKey().getBytes();
            found.put(
                ByteBuffer.wrap(Arrays.copyOfRange(full, start.length, full.length)),
                kv.getValue().getBytes());
          }
          continue;
        }
        List<CompletableFuture<GetResponse>> calls = new ArrayList<>(window.size());
        GetOption local = option(revision, true).build();
        for (byte[] k : window) {
          calls.add(kv.get(ByteSequence.from(EtcdKeys.concat(start, k)), local));
        }
        for (int i = 0; i < window.size(); i++) {
          CompletableFuture<GetResponse> sent = calls.get(i);
          byte[] k = window.get(i);
          boolean[] first = {true};
          long at = revision;
          List<KeyValue> kvs =
              read(
                      l -> {
                        if (first[0] && l) {
                          first[0] = false;
                          return sent;
                        }
                        return kv.get(
                            ByteSequence.from(EtcdKeys.concat(start, k)), option(at, l).build());
                      },
                      g -> g.getHeader().getRevision(),
                      at,
                      what)
                  .getKvs();
          if (!kvs.isEmpty()) {
            found.put(ByteBuffer.wrap(window.get(i)), kvs.get(0).getValue().getBytes());
          }
        }
      }
    } finally {
      if (held) {
        letGo(revision);
      }
    }
    return found;
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    checkOpen();
    catalog.checkScan(family, lo, hi, direction);
    return new EtcdScan(this, family, lo, hi, direction);
  }

  @Override
  public long counter(String family, byte[] key) {
    checkOpen();
    catalog.requireCounters(family);
    byte[] v = get(family, key);
    return v == null ? 0 : Int64Add.decode(family, key, v);
  }

  /**
   * The answer of the read {@code call} makes, asked again (for up to {@code etcd.recoverWaitMs})
   * while the cluster elects a leader or regains its quorum: a read waits for the cluster rather
   * than fail at the first lost member.
   */
  <T> T await(java.util.function.Supplier<CompletableFuture<T>> call, String what) {
    return EtcdCalls.retrying(
        call, timeoutMs, readBudgetMs, EtcdCalls.Kind.READ, what + " of " + label(), cluster);
  }
}
