package io.ankusa.store.etcd;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where a store's keys live in the cluster's one ordered key space. With the store's prefix {@code
 * P} (ASCII, ending in '/'):
 *
 * <ul>
 *   <li>{@code P meta}: the store's id, format and families ({@link StoreMeta});
 *   <li>{@code P owner}: the owner key, held under the owning process's lease; its create revision
 *       is the fencing token every write compares;
 *   <li>{@code P ledger/TOKEN/SLOT}: the write ledger ({@link WriteLedger}): each write of the
 *       owner holding fencing token {@code TOKEN} sets its slot's key, so a write whose answer was
 *       lost is sent again without being applied twice; a close deletes its own, an open those of
 *       the owners before the last one;
 *   <li>{@code P f/NAME 0x00 KEY}: the entry {@code KEY} of family {@code NAME}. Family names are
 *       {@code [a-z0-9_-]}, so no family's prefix is a prefix of another's, and etcd orders keys as
 *       unsigned bytes: a family's entries are one contiguous range {@code [P f/NAME 0x00, P f/NAME
 *       0x01)}, in the order the SPI promises;
 *   <li>{@value #PINS}{@code STOREID/LEASE}: outside every store's prefix, the lowest revision an
 *       open snapshot or scan of that store reads, so no store compacts the shared history under
 *       another's reads ({@link CompactionPins}).
 * </ul>
 */
final class EtcdKeys {
  /** The cluster-wide prefix of the compaction pins of every store. */
  static final String PINS = "ankusa.compaction-pins/";

  private final byte[] prefix;
  private final ByteSequence meta;
  private final ByteSequence owner;
  private final ByteSequence pinsOfStore;

  EtcdKeys(String prefix, String storeId) {
    this.prefix = prefix.getBytes(StandardCharsets.US_ASCII);
    this.meta = ByteSequence.from(concat(this.prefix, ascii("meta")));
    this.owner = ByteSequence.from(concat(this.prefix, ascii("owner")));
    this.pinsOfStore = ByteSequence.from(ascii(PINS + storeId + "/"));
  }

  ByteSequence meta() {
    return meta;
  }

  ByteSequence owner() {
    return owner;
  }

  /** The ledger slot {@code slot} of the owner holding fencing token {@code token}. */
  ByteSequence ledger(long token, int slot) {
    return ByteSequence.from(
        concat(prefix, ascii("ledger/" + Long.toHexString(token) + "/" + slot)));
  }

  /** The first key of the ledger of the owner holding {@code token}. */
  ByteSequence ledgerStart(long token) {
    return ByteSequence.from(concat(prefix, ascii("ledger/" + Long.toHexString(token) + "/")));
  }

  /** The first key past the ledger of the owner holding {@code token}. */
  ByteSequence ledgerEnd(long token) {
    return ByteSequence.from(concat(prefix, ascii("ledger/" + Long.toHexString(token) + "0")));
  }

  /** The fencing token a ledger key {@code P ledger/TOKEN/SLOT} names. */
  static long ledgerToken(ByteSequence key) {
    String k = key.toString(StandardCharsets.US_ASCII);
    int from = k.lastIndexOf("ledger/") + "ledger/".length();
    return Long.parseUnsignedLong(k.substring(from, k.indexOf('/', from)), 16);
  }

  /** The first key of every owner's ledger. */
  ByteSequence ledgersStart() {
    return ByteSequence.from(concat(prefix, ascii("ledger/")));
  }

  /** The first key past every owner's ledger ('/' + 1 = '0'). */
  ByteSequence ledgersEnd() {
    return ByteSequence.from(concat(prefix, ascii("ledger0")));
  }

  /** The pin of the open holding {@code leaseId}. */
  ByteSequence pin(long leaseId) {
    return pinsOfStore.concat(ByteSequence.from(ascii(Long.toHexString(leaseId))));
  }

  static ByteSequence allPins() {
    return ByteSequence.from(ascii(PINS));
  }

  static ByteSequence allPinsEnd() {
    return ByteSequence.from(ascii(PINS.substring(0, PINS.length() - 1) + "0"));
  }

  /** The first key of family {@code family}: every key of it starts with these bytes. */
  byte[] familyStart(String family) {
    byte[] name = ascii("f/" + family);
    byte[] out = Arrays.copyOf(concat(prefix, name), prefix.length + name.length + 1);
    out[out.length - 1] = 0;
    return out;
  }

  /** The first key past family {@code family}. */
  byte[] familyEnd(String family) {
    byte[] out = familyStart(family);
    out[out.length - 1] = 1;
    return out;
  }

  /** The whole store: every key under the prefix. */
  ByteSequence storeStart() {
    return ByteSequence.from(prefix);
  }

  /** The first key past the store's prefix ('/' + 1 = '0'). */
  ByteSequence storeEnd() {
    byte[] end = prefix.clone();
    end[end.length - 1]++;
    return ByteSequence.from(end);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The key right after {@code key} in etcd's order: {@code key 0x00}. */
  static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
