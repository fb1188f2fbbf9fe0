package io.ankusa.store.etcd;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.options.GetOption;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The counters the writes of one {@link EtcdStore} merge onto. etcd has no server-side add: a write
 * takes the stripes of the counters it merges onto ({@link #lockStripes}), reads their bases — from
 * the {@link CounterCache} of what this store last wrote, else from the cluster ({@link #bases}) —
 * and puts the sums under a compare on each counter's mod revision; once it applied, {@link
 * #remember} keeps the sums it wrote and forgets the counters it put or deleted otherwise.
 *
 * <p>Owned by its store, which it reads through (client, families, keys, budget); holds no resource
 * to close. Thread-safe: the stripes are locks, the cache is synchronised.
 */
final class CounterMerges {
  /** Merge bases read per transaction of gets. */
  static final int BASES_PER_READ = 128;

  private final EtcdView store;
  private final CounterCache counters = new CounterCache();

  /** Writes that merge onto the same counter take turns on its stripe. */
  private final ReentrantLock[] stripes = new ReentrantLock[64];

  CounterMerges(EtcdView store) {
    this.store = store;
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /**
   * Takes the stripes of the counters {@code net} merges onto, in stripe order: writes of this
   * store that merge onto the same counter take turns, so they do not fail each other's compares
   * (one process owns a store, so nothing else merges onto it).
   */
  List<ReentrantLock> lockStripes(NetBatch net) {
    if (net.mergesOnto() == 0) {
      return List.of();
    }
    java.util.TreeSet<Integer> which = new java.util.TreeSet<>();
    net.families()
        .forEach(
            (family, f) ->
                f.keys.forEach(
                    (key, effect) -> {
                      if (effect instanceof NetBatch.MergeOnto) {
                        which.add(
                            Math.floorMod(
                                family.hashCode() * 31 + java.util.Arrays.hashCode(key),
                                stripes.length));
                      }
                    }));
    List<ReentrantLock> held = new ArrayList<>(which.size());
    for (int i : which) {
      stripes[i].lock();
      held.add(stripes[i]);
    }
    return held;
  }

  /**
   * After a successful write at {@code revision}: the merged counters as written, and nothing of
   * the counters it put, deleted or range-deleted otherwise.
   */
  void remember(NetBatch net, Map<ByteBuffer, Long> sums, long revision) {
    for (Map.Entry<String, NetBatch.FamilyEffects> fe : net.families().entrySet()) {
      if (!store.catalog.require(fe.getKey()).counters()) {
        continue;
      }
      if (!fe.getValue().deleted.isEmpty()) {
        counters.clear();
      }
      byte[] start = store.keys.familyStart(fe.getKey());
      for (byte[] key : fe.getValue().keys.keySet()) {
        ByteBuffer full = ByteBuffer.wrap(EtcdKeys.concat(start, key));
        Long sum = sums.get(full);
        if (sum == null) {
          counters.forget(full);
        } else {
          counters.put(full, new CounterCache.Known(sum, revision));
        }
      }
    }
  }

  /**
   * The counters {@code net} merges onto: from the cache when {@code trustCache} and it knows them,
   * else as the cluster holds them now (absent: not in the map), read {@value #BASES_PER_READ} per
   * transaction of gets, concurrently. No one revision is needed: each sum is written under a
   * compare on its own counter's mod revision.
   */
  Map<ByteBuffer, CounterCache.Known> bases(NetBatch net, String what, boolean trustCache) {
    Map<ByteBuffer, CounterCache.Known> bases = new HashMap<>();
    List<ByteSequence> wanted = new ArrayList<>();
    net.families()
        .forEach(
            (family, f) -> {
              byte[] start = store.keys.familyStart(family);
              f.keys.forEach(
                  (key, effect) -> {
                    if (effect instanceof NetBatch.MergeOnto) {
                      ByteBuffer full = ByteBuffer.wrap(EtcdKeys.concat(start, key));
                      CounterCache.Known cached = trustCache ? counters.get(full) : null;
                      if (cached != null) {
                        bases.put(full, cached);
                      } else {
                        counters.forget(full);
                        wanted.add(ByteSequence.from(full.array()));
                      }
                    }
                  });
            });
    List<CompletableFuture<TxnResponse>> calls = new ArrayList<>();
    for (int from = 0; from < wanted.size(); from += BASES_PER_READ) {
      List<ByteSequence> chunk =
          wanted.subList(from, Math.min(wanted.size(), from + BASES_PER_READ));
      calls.add(
          store
              .kv
              .txn()
              .Then(
                  chunk.stream()
                      .map(k -> (io.etcd.jetcd.op.Op) io.etcd.jetcd.op.Op.get(k, GetOption.DEFAULT))
                      .toArray(io.etcd.jetcd.op.Op[]::new))
              .commit());
    }
    for (CompletableFuture<TxnResponse> call : calls) {
      TxnResponse r =
          EtcdCalls.await(
              call,
              store.timeoutMs,
              EtcdCalls.Kind.WRITE,
              "the counters read for " + what + " to " + store.label(),
              store.cluster);
      r.getGetResponses()
          .forEach(
              g ->
                  g.getKvs()
                      .forEach(
                          kv -> {
                            byte[] full = kv.getKey().getBytes();
                            String family = familyOf(full);
                            byte[] key =
                                java.util.Arrays.copyOfRange(
                                    full, store.keys.familyStart(family).length, full.length);
                            bases.put(
                                ByteBuffer.wrap(full),
                                new CounterCache.Known(
                                    Int64Add.decode(family, key, kv.getValue().getBytes()),
                                    kv.getModRevision()));
                          }));
    }
    return bases;
  }

  /** The family whose range holds {@code fullKey} (a key this store wrote). */
  private String familyOf(byte[] fullKey) {
    for (FamilySpec f : store.catalog.specs()) {
      byte[] start = store.keys.familyStart(f.name());
      if (fullKey.length >= start.length
          && java.util.Arrays.equals(fullKey, 0, start.length, start, 0, start.length)) {
        return f.name();
      }
    }
    throw new IllegalStateException(
        "key " + io.ankusa.store.spi.Bytes.hex(fullKey) + " is in no family of " + store.label());
  }
}
