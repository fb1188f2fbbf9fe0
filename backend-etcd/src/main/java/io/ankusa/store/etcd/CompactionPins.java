package io.ankusa.store.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The revisions this store's open snapshots and scans read, and the compaction of the cluster's
 * history below them. etcd keeps every revision until it is compacted, and compaction is one
 * cluster-wide revision, so a store compacts only below what every store of the cluster reads:
 *
 * <ol>
 *   <li>each read-write open publishes a pin, the key {@code EtcdKeys.PINS STOREID/LEASE} under its
 *       lease (it goes when the process does), holding a revision no open read of it is below;
 *   <li>an open read registers its revision here; it is valid when it is at or above the published
 *       pin, else it takes a newer revision ({@link #register});
 *   <li>{@link #compact()} moves the pin up to the lowest revision its open reads hold (or the
 *       current one), then compacts to the lowest pin of the whole cluster.
 * </ol>
 *
 * Why no read is compacted away: the pin moves only under this object's lock, to a revision no
 * registered read is below, and a read registered later holds a revision read after the pin was
 * last published or it retries; every store's compaction stays at or below every store's pin. A
 * read-only open publishes no pin: its reads are not protected from compaction by others (they fail
 * with a "compacted" StoreException rather than read a wrong state).
 */
final class CompactionPins {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPins.class);

  private final KV kv;
  private final ByteSequence pinKey;
  private final long leaseId;
  private final long compactEvery;
  private final long timeoutMs;
  private final String cluster;

  /** revision → number of open reads at it. */
  private final TreeMap<Long, Integer> open = new TreeMap<>();

  private long published;
  private volatile long lastWritten;
  private volatile long lastCompacted;

  /**
   * Pins for a read-write open holding {@code leaseId}; publishes {@code startRevision} at once.
   */
  CompactionPins(
      KV kv,
      ByteSequence pinKey,
      long leaseId,
      long startRevision,
      long compactEvery,
      long timeoutMs,
      String cluster) {
    this.kv = kv;
    this.pinKey = pinKey;
    this.leaseId = leaseId;
    this.compactEvery = compactEvery;
    this.timeoutMs = timeoutMs;
    this.cluster = cluster;
    if (pinKey != null) {
      publish(startRevision);
    }
    this.lastCompacted = startRevision;
    this.lastWritten = startRevision;
  }

  /** Pins for a read-only open: nothing published, nothing compacted. */
  static CompactionPins none() {
    return new CompactionPins(null, null, 0, 0, 0, 0, "");
  }

  /**
   * Registers an open read at {@code revision}; false (nothing registered) when it is below the
   * pin.
   */
  synchronized boolean register(long revision) {
    if (revision < published) {
      return false;
    }
    open.merge(revision, 1, Integer::sum);
    return true;
  }

  synchronized void release(long revision) {
    open.computeIfPresent(revision, (r, n) -> n == 1 ? null : n - 1);
  }

  /**
   * Notes a write at {@code revision}: compaction is due once {@code etcd.compactEvery} revisions
   * passed.
   */
  void wrote(long revision) {
    if (revision > lastWritten) {
      lastWritten = revision;
    }
  }

  /** The revision of the last write noted (at first, the revision the open started at). */
  long lastWritten() {
    return lastWritten;
  }

  boolean due() {
    return pinKey != null && compactEvery > 0 && lastWritten - lastCompacted >= compactEvery;
  }

  /**
   * Moves this store's pin up and compacts the cluster's history to the lowest pin of every store.
   *
   * @return the revision compacted to, or 0 when nothing was compacted
   */
  long compact() {
    if (pinKey == null) {
      return 0;
    }
    synchronized (this) {
      long current =
          EtcdCalls.await(
                  kv.get(pinKey, GetOption.builder().withCountOnly(true).build()),
                  timeoutMs,
                  EtcdCalls.Kind.READ,
                  "the current revision",
                  cluster)
              .getHeader()
              .getRevision();
      long pin = open.isEmpty() ? current : Math.min(open.firstKey(), current);
      if (pin > published) {
        publish(pin);
      }
    }
    long lowest = Long.MAX_VALUE;
    for (KeyValue kv :
        EtcdCalls.await(
                this.kv.get(
                    EtcdKeys.allPins(),
                    GetOption.builder().withRange(EtcdKeys.allPinsEnd()).build()),
                timeoutMs,
                EtcdCalls.Kind.READ,
                "the compaction pins",
                cluster)
            .getKvs()) {
      try {
        lowest =
            Math.min(lowest, Long.parseLong(kv.getValue().toString(StandardCharsets.US_ASCII)));
      } catch (NumberFormatException e) {
        LOG.warn(
            "ignoring the compaction pin {} on {}: its value is not a revision",
            kv.getKey(),
            cluster);
      }
    }
    if (lowest == Long.MAX_VALUE || lowest <= lastCompacted) {
      return 0;
    }
    try {
      EtcdCalls.await(
          kv.compact(lowest),
          timeoutMs,
          EtcdCalls.Kind.WRITE,
          "a compaction to revision " + lowest,
          cluster);
    } catch (RuntimeException e) {
      if (!String.valueOf(e.getCause() == null ? "" : e.getCause().getMessage())
          .contains("compacted")) {
        throw e;
      }
      // another store compacted past it already
    }
    lastCompacted = lowest;
    LOG.debug("compacted the history of {} to revision {}", cluster, lowest);
    return lowest;
  }

  private void publish(long revision) {
    EtcdCalls.await(
        kv.put(
            pinKey,
            ByteSequence.from(Long.toString(revision), StandardCharsets.US_ASCII),
            PutOption.builder().withLeaseId(leaseId).build()),
        timeoutMs,
        EtcdCalls.Kind.WRITE,
        "the compaction pin " + pinKey,
        cluster);
    published = revision;
  }
}
