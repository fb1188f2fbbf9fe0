package io.ankusa.store.etcd;

import io.ankusa.store.spi.StoreException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one owner of a store across machines: the owner key {@code P owner}, created only when absent
 * and held under this process's lease. Its create revision is the fencing token: every write
 * transaction compares it ({@link #compares()}), so once the key is gone — the lease lapsed while
 * the process was paused past its TTL, or was cut off — or belongs to a standby that took over, no
 * write of this process is ever applied again, whatever it believes.
 *
 * <p>An open waits up to {@code etcd.takeoverWaitMs} for the key to be free: a clean close revokes
 * the lease at once; a dead or paused owner's lease lapses after its TTL. The lease is renewed
 * every third of its TTL on the JVM's housekeeping thread; a renewal the cluster answers with "no
 * such lease" marks it lost (and the next write is refused by the compare anyway).
 *
 * <p>Ownership: created by the provider's open, closed by the store's close (which revokes the
 * lease: the owner key and the store's compaction pin go with it).
 */
final class Ownership implements WriteFence, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Ownership.class);

  /** How often an open waiting for another owner asks again. */
  static final long POLL_MILLIS = 100;

  private final Client client;
  private final ByteSequence ownerKey;
  private final long leaseId;
  private final long token;
  private final String holder;
  private final String cluster;
  private final long timeoutMs;
  private final ScheduledFuture<?> renewal;
  private volatile boolean leaseLost;

  private Ownership(
      Client client,
      ByteSequence ownerKey,
      long leaseId,
      long token,
      String holder,
      String cluster,
      long timeoutMs,
      long ttlSeconds) {
    this.client = client;
    this.ownerKey = ownerKey;
    this.leaseId = leaseId;
    this.token = token;
    this.holder = holder;
    this.cluster = cluster;
    this.timeoutMs = timeoutMs;
    long every = Math.max(100, TimeUnit.SECONDS.toMillis(ttlSeconds) / 3);
    this.renewal =
        SharedClients.scheduler()
            .scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * Takes the store: grants a lease and creates the owner key under it, waiting up to {@code
   * takeoverWaitMs} for another owner's key to go.
   *
   * @param holder who this is, written as the key's value for messages ({@code pid@host dir})
   * @throws StoreException when another process still owns the store after the wait, naming it
   */
  static Ownership acquire(
      Client client, EtcdKeys keys, EtcdSettings settings, String holder, String cluster) {
    long timeout = settings.requestTimeoutMs();
    long leaseId =
        EtcdCalls.await(
                client.getLeaseClient().grant(settings.leaseTtlSeconds()),
                timeout,
                EtcdCalls.Kind.WRITE,
                "the grant of the owner lease",
                cluster)
            .getID();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.takeoverWaitMs());
    ByteSequence value = ByteSequence.from(holder, StandardCharsets.UTF_8);
    boolean waited = false;
    long renewEvery = TimeUnit.SECONDS.toNanos(settings.leaseTtlSeconds()) / 3;
    long renewed = System.nanoTime();
    try {
      while (true) {
        if (System.nanoTime() - renewed
            >= renewEvery) { // keep this open's own lease while it waits
          EtcdCalls.await(
              client.getLeaseClient().keepAliveOnce(leaseId),
              timeout,
              EtcdCalls.Kind.WRITE,
              "the renewal of the owner lease",
              cluster);
          renewed = System.nanoTime();
        }
        TxnResponse r =
            EtcdCalls.await(
                client
                    .getKVClient()
                    .txn()
                    .If(new Cmp(keys.owner(), Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(
                        Op.put(
                            keys.owner(), value, PutOption.builder().withLeaseId(leaseId).build()))
                    .Else(Op.get(keys.owner(), GetOption.DEFAULT))
                    .commit(),
                timeout,
                EtcdCalls.Kind.WRITE,
                "the creation of the owner key",
                cluster);
        if (r.isSucceeded()) {
          long token = r.getHeader().getRevision();
          if (waited) {
            LOG.info(
                "took over the store under {} on {} (fencing token {})",
                keys.owner(),
                cluster,
                token);
          }
          return new Ownership(
              client,
              keys.owner(),
              leaseId,
              token,
              holder,
              cluster,
              timeout,
              settings.leaseTtlSeconds());
        }
        List<KeyValue> now =
            r.getGetResponses().isEmpty() ? List.of() : r.getGetResponses().get(0).getKvs();
        String other =
            now.isEmpty()
                ? "a process that just let go"
                : now.get(0).getValue().toString(StandardCharsets.UTF_8);
        if (System.nanoTime() >= deadline) {
          throw new StoreException(
              "the etcd store under "
                  + keys.owner()
                  + " on "
                  + cluster
                  + " is owned by "
                  + other
                  + " (its owner key is held under a live lease); nothing was changed. It lets go when it closes, or when"
                  + " its lease lapses "
                  + settings.leaseTtlSeconds()
                  + " s after it stops renewing it: open again then,"
                  + " or raise "
                  + EtcdSettings.TAKEOVER_WAIT
                  + " ("
                  + settings.takeoverWaitMs()
                  + " ms now)");
        }
        if (!waited) {
          LOG.info(
              "the store on {} is owned by {}; waiting up to {} ms for it to let go",
              cluster,
              other,
              settings.takeoverWaitMs());
          waited = true;
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      revokeQuietly(client, leaseId, timeout);
      throw new StoreException("interrupted while waiting to own the etcd store on " + cluster, e);
    } catch (RuntimeException e) {
      revokeQuietly(client, leaseId, timeout);
      throw e;
    }
  }

  long leaseId() {
    return leaseId;
  }

  /** The fencing token: the owner key's create revision. */
  long token() {
    return token;
  }

  boolean leaseLost() {
    return leaseLost;
  }

  @Override
  public List<Cmp> compares() {
    return List.of(new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.createRevision(token)));
  }

  @Override
  public boolean holds(KeyValue ownerNow) {
    return ownerNow != null && ownerNow.getCreateRevision() == token;
  }

  @Override
  public String describe(KeyValue ownerNow) {
    return ownerNow == null
        ? "no process (the owner key is gone: this process's lease lapsed)"
        : ownerNow.getValue().toString(StandardCharsets.UTF_8)
            + " (fencing token "
            + ownerNow.getCreateRevision()
            + "; this process holds "
            + token
            + " as "
            + holder
            + ")";
  }

  private void renew() {
    try {
      LeaseKeepAliveResponse r =
          client.getLeaseClient().keepAliveOnce(leaseId).get(timeoutMs, TimeUnit.MILLISECONDS);
      if (r.getTTL() <= 0) {
        lost("the cluster answered its renewal with TTL " + r.getTTL());
      }
    } catch (java.util.concurrent.ExecutionException e) {
      String message =
          String.valueOf(e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
      if (message.contains("requested lease not found")
          || e.getCause() instanceof io.etcd.jetcd.lease.NoSuchLeaseException) {
        lost(message);
      } else {
        LOG.debug(
            "renewing lease {} on {} failed: {}; trying again",
            Long.toHexString(leaseId),
            cluster,
            message);
      }
    } catch (java.util.concurrent.TimeoutException e) {
      LOG.debug(
          "renewing lease {} on {}: no answer within {} ms; trying again",
          Long.toHexString(leaseId),
          cluster,
          timeoutMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.debug(
          "renewing lease {} on {} failed; trying again", Long.toHexString(leaseId), cluster, e);
    }
  }

  private void lost(String why) {
    if (!leaseLost) {
      leaseLost = true;
      LOG.warn(
          "the owner lease {} of the store on {} lapsed ({}): this process no longer owns the store, and no"
              + " write of it is applied; reopen the store to own it again",
          Long.toHexString(leaseId),
          cluster,
          why);
    }
    renewal.cancel(false);
  }

  /**
   * Stops renewing and revokes the lease: the owner key goes at once, so a standby takes over now.
   */
  @Override
  public void close() {
    renewal.cancel(false);
    if (!leaseLost) {
      revokeQuietly(client, leaseId, timeoutMs);
    }
  }

  private static void revokeQuietly(Client client, long leaseId, long timeoutMs) {
    try {
      client.getLeaseClient().revoke(leaseId).get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // the lease lapses by itself after its TTL
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.debug("revoking lease {} failed; it lapses by itself", Long.toHexString(leaseId), e);
    }
  }
}
