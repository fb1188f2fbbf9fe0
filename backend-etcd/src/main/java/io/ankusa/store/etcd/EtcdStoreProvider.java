package io.ankusa.store.etcd;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code etcd} backend: a store's data lives under one key prefix of an etcd cluster; its
 * directory holds the store marker and {@link EtcdTarget#FILE} (endpoints, prefix, store id),
 * claimed through {@link DirectoryClaim} like every disk backend's, so the other backends refuse it
 * and this one refuses theirs.
 *
 * <p>Options ({@link EtcdSettings}): {@code etcd.endpoints} (needed for a new store; an existing
 * one uses the recorded endpoints unless given), {@code etcd.prefix}, {@code etcd.leaseTtlSeconds},
 * {@code etcd.requestTimeoutMs}, {@code etcd.takeoverWaitMs}, {@code etcd.recoverWaitMs}, {@code
 * etcd.compactEvery}.
 *
 * <p>One owner per store across machines: a read-write open takes the store's owner key under a
 * lease ({@link Ownership}), waiting for another owner to let go, and every write is fenced by it.
 * A standby opens the same store from a directory of its own: an empty directory with {@code
 * etcd.endpoints} and {@code etcd.prefix} naming a store the cluster holds records that store, and
 * the open waits for the current owner's lease (closed, dead, or paused past its TTL) before it
 * takes over.
 *
 * <p>A read-only open writes nothing to the directory and nothing to the cluster.
 */
public final class EtcdStoreProvider implements StoreProvider {
  static final StoreMarker MARKER = new StoreMarker("etcd", StoreMeta.FORMAT);
  private static final Logger LOG = LoggerFactory.getLogger(EtcdStoreProvider.class);

  @Override
  public String name() {
    return "etcd";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    return open(dir, options, families, UnaryOperator.identity());
  }

  /**
   * {@link #open(Path, StoreOptions, List)} with the write fence {@code fence} makes of the store's
   * ownership: the identity for every real store; tests pass one that compares nothing.
   */
  Store open(
      Path dir, StoreOptions options, List<FamilySpec> families, UnaryOperator<WriteFence> fence) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    EtcdSettings settings = EtcdSettings.of(options);
    FamilyCatalog catalog =
        new FamilyCatalog(
            families, EtcdStore.CAPABILITIES.maxKeyBytes(), EtcdStore.CAPABILITIES.maxValueBytes());
    return DirectoryClaim.openStore(
        dir,
        options,
        MARKER,
        d -> false,
        claim -> openOnClaim(claim, options, settings, catalog, fence));
  }

  private static Store openOnClaim(
      DirectoryClaim claim,
      StoreOptions options,
      EtcdSettings settings,
      FamilyCatalog catalog,
      UnaryOperator<WriteFence> fence) {
    Path dir = claim.directory();
    Optional<EtcdTarget> recorded = EtcdTarget.read(dir);
    boolean create = options.createIfMissing() && !claim.readOnly();
    if (recorded.isEmpty() && !create) {
      throw new StoreFormatException(
          dir
              + " holds an etcd store marker but no "
              + EtcdTarget.FILE
              + ": the store's creation was cut short, so it names no data; nothing was changed. Open it read-write"
              + " with createIfMissing to create the store");
    }
    List<URI> endpoints =
        !settings.endpoints().isEmpty()
            ? settings.endpoints()
            : recorded.map(EtcdTarget::endpoints).orElse(List.of());
    if (endpoints.isEmpty()) {
      throw new StoreArgumentException(
          "a new etcd store in "
              + dir
              + " needs the cluster's members: give "
              + EtcdSettings.ENDPOINTS
              + "=http://HOST:PORT,...");
    }
    String prefix = prefix(dir, settings, recorded);
    String cluster = EtcdSettings.joined(endpoints);
    String where = "under prefix '" + prefix + "' on " + cluster;
    EtcdKeys probeKeys = new EtcdKeys(prefix, "");
    Client client = SharedClients.acquire(endpoints, settings.requestTimeoutMs());
    Ownership ownership = null;
    try {
      StoredMeta stored = readMeta(client, probeKeys, settings, cluster, where);
      StoreMeta meta = stored == null ? null : stored.meta();
      if (meta == null) {
        if (recorded.isPresent()) {
          throw new StoreFormatException(
              dir
                  + " ("
                  + EtcdTarget.FILE
                  + ") names the store "
                  + recorded.get().storeId()
                  + " "
                  + where
                  + ", but the cluster holds no store there: it was deleted or the directory names another"
                  + " cluster; nothing was changed. Point "
                  + EtcdSettings.ENDPOINTS
                  + " at the cluster that holds it");
        }
        if (!create) {
          throw new StoreFormatException(
              "no etcd store " + where + " and createIfMissing is false");
        }
      } else if (recorded.isPresent() && !recorded.get().storeId().equals(meta.storeId())) {
        throw new StoreFormatException(
            "the cluster holds the etcd store "
                + meta.storeId()
                + " "
                + where
                + ", not the"
                + " store "
                + recorded.get().storeId()
                + " that "
                + dir
                + " names; nothing was changed: the directory and"
                + " the prefix do not belong together");
      }
      StoreMeta wanted =
          meta == null
              ? new StoreMeta(UUID.randomUUID().toString(), StoreMeta.FORMAT, java.util.Map.of())
                  .checkedWith(catalog.specs(), where)
              : meta.checkedWith(catalog.specs(), where);
      if (meta != null && wanted != meta && !create) {
        throw new StoreFormatException(
            "the etcd store "
                + where
                + " lacks families of "
                + catalog.specs().stream().map(FamilySpec::name).toList()
                + " and createIfMissing is false (or the open is read-only); nothing was"
                + " changed");
      }
      EtcdKeys keys = new EtcdKeys(prefix, wanted.storeId());
      WriteFence writeFence = null;
      CompactionPins pins;
      if (claim.readOnly()) {
        pins = CompactionPins.none();
      } else {
        ownership = Ownership.acquire(client, keys, settings, holder(dir), cluster);
        writeFence = fence.apply(ownership);
        dropOldLedgers(client, keys, settings, writeFence, ownership.token(), cluster, where);
        long revision =
            wanted == meta
                ? stored.revision()
                : writeMeta(client, keys, settings, writeFence, stored, wanted, cluster, where);
        pins =
            new CompactionPins(
                client.getKVClient(),
                keys.pin(ownership.leaseId()),
                ownership.leaseId(),
                revision,
                settings.compactEvery(),
                settings.requestTimeoutMs(),
                cluster);
        EtcdTarget target = new EtcdTarget(endpoints, prefix, wanted.storeId());
        if (!recorded.equals(Optional.of(target))) {
          target.write(claim);
          LOG.info("etcd store {} is prefix '{}' on {}", dir, prefix, cluster);
        }
      }
      return new EtcdStore(
          claim, client, catalog, keys, settings, prefix, cluster, writeFence, ownership, pins);
    } catch (RuntimeException e) {
      if (ownership != null) {
        ownership.close();
      }
      SharedClients.release(client);
      throw e;
    }
  }

  /** The meta key as read, with the revision of the read. */
  private record StoredMeta(StoreMeta meta, long modRevision, long revision) {}

  private static StoredMeta readMeta(
      Client client, EtcdKeys keys, EtcdSettings settings, String cluster, String where) {
    GetResponse r =
        EtcdCalls.await(
            client.getKVClient().get(keys.meta(), GetOption.DEFAULT),
            settings.requestTimeoutMs(),
            EtcdCalls.Kind.READ,
            "the store's meta key " + where,
            cluster);
    if (r.getKvs().isEmpty()) {
      return new StoredMeta(null, 0, r.getHeader().getRevision());
    }
    KeyValue kv = r.getKvs().get(0);
    return new StoredMeta(
        StoreMeta.parse(kv.getValue().getBytes(), "the meta key " + where),
        kv.getModRevision(),
        r.getHeader().getRevision());
  }

  /**
   * Creates or extends the meta key, fenced, unless it changed since read; returns the revision.
   */
  private static long writeMeta(
      Client client,
      EtcdKeys keys,
      EtcdSettings settings,
      WriteFence fence,
      StoredMeta stored,
      StoreMeta wanted,
      String cluster,
      String where) {
    List<Cmp> compares = new ArrayList<>(fence.compares());
    compares.add(
        new Cmp(
            keys.meta(),
            Cmp.Op.EQUAL,
            CmpTarget.modRevision(stored == null ? 0 : stored.modRevision())));
    TxnResponse r =
        EtcdCalls.await(
            client
                .getKVClient()
                .txn()
                .If(compares.toArray(new Cmp[0]))
                .Then(Op.put(keys.meta(), ByteSequence.from(wanted.bytes()), PutOption.DEFAULT))
                .commit(),
            settings.requestTimeoutMs(),
            EtcdCalls.Kind.WRITE,
            "the store's meta key " + where,
            cluster);
    if (!r.isSucceeded()) {
      throw new StoreFormatException(
          "the etcd store's meta key "
              + where
              + " changed while this open wrote it (or this"
              + " process lost its ownership meanwhile); nothing was changed: open it again");
    }
    return r.getHeader().getRevision();
  }

  /**
   * Deletes the write ledgers ({@link WriteLedger}) of the owners before the last one: a killed
   * owner leaves its slots behind. The last owner's ledger stays: that owner may only be paused,
   * and its writes must meet the fencing compare, not a ledger that vanished (which would refuse
   * some of them by accident and hide a missing fence from the tests). This open's own ledger goes
   * at its close.
   */
  private static void dropOldLedgers(
      Client client,
      EtcdKeys keys,
      EtcdSettings settings,
      WriteFence fence,
      long myToken,
      String cluster,
      String where) {
    GetResponse r =
        EtcdCalls.await(
            client
                .getKVClient()
                .get(
                    keys.ledgersStart(),
                    GetOption.builder().withRange(keys.ledgersEnd()).withKeysOnly(true).build()),
            settings.requestTimeoutMs(),
            EtcdCalls.Kind.READ,
            "the write ledgers " + where,
            cluster);
    java.util.TreeSet<Long> tokens = new java.util.TreeSet<>();
    for (KeyValue kv : r.getKvs()) {
      tokens.add(EtcdKeys.ledgerToken(kv.getKey()));
    }
    tokens.remove(myToken);
    if (tokens.size() <= 1) {
      return;
    }
    long last = tokens.last();
    List<Op> deletes = new ArrayList<>();
    for (long token : tokens.headSet(last)) {
      deletes.add(
          Op.delete(
              keys.ledgerStart(token),
              io.etcd.jetcd.options.DeleteOption.builder()
                  .withRange(keys.ledgerEnd(token))
                  .build()));
    }
    EtcdCalls.await(
        client
            .getKVClient()
            .txn()
            .If(fence.compares().toArray(new Cmp[0]))
            .Then(deletes.toArray(new Op[0]))
            .commit(),
        settings.requestTimeoutMs(),
        EtcdCalls.Kind.WRITE,
        "the deletion of old write ledgers " + where,
        cluster);
  }

  /**
   * The prefix: the recorded one (an option naming another is refused), the option's, or a fresh
   * one.
   */
  private static String prefix(Path dir, EtcdSettings settings, Optional<EtcdTarget> recorded) {
    if (recorded.isPresent()) {
      String had = recorded.get().prefix();
      if (settings.prefix() != null && !settings.prefix().equals(had)) {
        throw new StoreFormatException(
            dir
                + " holds the etcd store under prefix '"
                + had
                + "', not '"
                + settings.prefix()
                + "' as "
                + EtcdSettings.PREFIX
                + " says; nothing was changed: drop the option or"
                + " name that prefix");
      }
      return had;
    }
    if (settings.prefix() != null) {
      return settings.prefix();
    }
    return "ankusa/"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT)
        + "/";
  }

  /**
   * Who holds the owner key, for the messages of a process waiting for it: {@code pid@host dir}.
   */
  private static String holder(Path dir) {
    return ManagementFactory.getRuntimeMXBean().getName() + " " + dir;
  }
}
