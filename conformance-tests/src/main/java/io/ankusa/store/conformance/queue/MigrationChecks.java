package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.migration.FormatTwo;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The checks the migration layer holds a migrated store to ({@link MigrationConformance}): the
 * format stamp, no format-2 key left, the layout invariants, and counters equal to a fold of the
 * format-2 rows; and the comparison of a resumed migration with an uninterrupted one, family by
 * family.
 */
final class MigrationChecks {
  private MigrationChecks() {}

  static void assertUpgraded(Store store, Map<String, long[]> expected) {
    assertThat(FormatStamp.stamp(store))
        .as("format stamp after the migration")
        .isEqualTo(Format3.FORMAT);
    assertThat(store.get(Format3.DEFAULT, Keys.migrating(3)))
        .as("m:migrating:3 after the migration")
        .isNull();
    assertThat(QueueVerifier.verify(store)).as("layout invariants after the migration").isEmpty();
    assertCountersEqualExpected(store, expected);
    KeyRange d = FormatTwo.dueWholeRange();
    KeyRange f = FormatTwo.inflightWholeRange();
    assertThat(count(store, d)).as("format-2 'd' keys left").isZero();
    assertThat(count(store, f)).as("format-2 'f' keys left").isZero();
  }

  /**
   * Each tenant's counters equal the format-2 fold, the aggregate their sum, and the store's
   * counters a format-3 fold.
   */
  static void assertCountersEqualExpected(Store store, Map<String, long[]> expected) {
    Counters counters = new Counters(QueueConfig.defaults());
    long[] total = new long[6];
    for (Map.Entry<String, long[]> e : expected.entrySet()) {
      OptionalLong ord = Tenants.ord(store, TenantId.of(e.getKey()));
      assertThat(ord).as("ordinal of tenant %s", e.getKey()).isPresent();
      assertThat(counters.read(store, ord.getAsLong()))
          .as("counters of tenant %s", e.getKey())
          .isEqualTo(counts(e.getValue()));
      for (int i = 0; i < 6; i++) {
        total[i] += e.getValue()[i];
      }
    }
    assertThat(counters.aggregate(store)).as("the node aggregate (ord 0)").isEqualTo(counts(total));
    assertThat(Counters.readAll(store))
        .as("stored counters equal a fold of the format-3 rows")
        .isEqualTo(CounterFold.fold(store));
  }

  /**
   * The counters a format-2 store should migrate to, per tenant name, in first-sight order (due
   * rows in key order, then inflight, dead, archive): a fold of the old rows with each row's tenant
   * read from its hook envelope (none, gone or undecodable: default). Fields in {@link
   * CounterField} order.
   */
  static Map<String, long[]> foldV2(ReadView view, long startedAt) {
    Map<String, long[]> acc = new LinkedHashMap<>();
    for (Entry e : scanAll(view, FormatTwo.dueRealKeys())) {
      FormatTwo.DueKeyV2 k = FormatTwo.DueKeyV2.decode(e.key());
      long[] c = acc.computeIfAbsent(tenantOf(view, k.seq()), t -> new long[6]);
      c[(k.at() > startedAt ? CounterField.SCHEDULED : CounterField.PENDING).code() - 1]++;
      c[CounterField.BYTES.code() - 1] += FormatTwo.decodeSize(e.key(), e.value());
    }
    for (Entry e : scanAll(view, FormatTwo.inflightRealKeys())) {
      FormatTwo.InflightKeyV2 k = FormatTwo.InflightKeyV2.decode(e.key());
      long[] c = acc.computeIfAbsent(tenantOf(view, k.seq()), t -> new long[6]);
      c[CounterField.INFLIGHT.code() - 1]++;
      c[CounterField.BYTES.code() - 1] += FormatTwo.decodeSize(e.key(), e.value());
    }
    for (Entry e : scanAll(view, Keys.realKeysOf(KeyFamily.DEAD))) {
      DeadKey k = DeadKey.decode(e.key());
      long[] c = acc.computeIfAbsent(tenantOf(view, k.seq()), t -> new long[6]);
      c[CounterField.DEAD.code() - 1]++;
      byte[] row = view.get(Format3.DELIVERIES, Keys.delivery(k.seq(), k.sink()));
      c[CounterField.BYTES.code() - 1] += row == null ? 0 : DeliveryRow.decode(row).size();
    }
    for (Entry e : scanAll(view, Keys.realKeysOf(KeyFamily.ARCHIVE))) {
      long seq = ArchiveKey.decode(e.key()).seq();
      acc.computeIfAbsent(tenantOf(view, seq), t -> new long[6])[
          CounterField.ARCHIVE_PENDING.code() - 1]++;
    }
    return acc;
  }

  static String tenantOf(ReadView view, long seq) {
    byte[] envelope = view.get(Format3.HOOKS, Keys.hook(seq));
    if (envelope == null) {
      return TenantId.DEFAULT_NAME;
    }
    try {
      String t = HookEnvelope.decode(envelope).tenantId();
      return t == null ? TenantId.DEFAULT_NAME : t;
    } catch (StoreCorruptionException e) {
      return TenantId.DEFAULT_NAME;
    }
  }

  static long rowCount(Map<String, long[]> expected) {
    long n = 0;
    for (long[] c : expected.values()) {
      n += c[0] + c[1] + c[2] + c[3] + c[5];
    }
    return n;
  }

  static TenantCounts counts(long[] c) {
    return new TenantCounts(c[0], c[1], c[2], c[3], c[4], c[5]);
  }

  /** Fails with the first difference between the two stores, family by family, key by key. */
  static void assertSameStore(ReadView actual, ReadView expected, String what) {
    List<String> families = names(Format3.families());
    Map<String, List<String>> a = dump(actual, families);
    Map<String, List<String>> e = dump(expected, families);
    for (String f : families) {
      List<String> got = a.get(f);
      List<String> want = e.get(f);
      for (int i = 0; i < Math.min(got.size(), want.size()); i++) {
        if (!got.get(i).equals(want.get(i))) {
          throw new AssertionError(
              what
                  + ": family '"
                  + f
                  + "' differs from the uninterrupted run at entry "
                  + i
                  + ": got "
                  + got.get(i)
                  + ", expected "
                  + want.get(i));
        }
      }
      assertThat(got.size())
          .as("%s: entries in family '%s' (uninterrupted run has %s)", what, f, want.size())
          .isEqualTo(want.size());
    }
  }

  /** Every entry of each family, as full hex {@code key=value}, in key order. */
  static Map<String, List<String>> dump(ReadView view, List<String> families) {
    Map<String, List<String>> out = new TreeMap<>();
    for (String f : families) {
      List<String> entries = new ArrayList<>();
      try (Scan scan = view.scan(f, new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          entries.add(Bytes.fullHex(e.key()) + "=" + Bytes.fullHex(e.value()));
        }
      }
      out.put(f, entries);
    }
    return out;
  }

  static List<String> names(List<FamilySpec> families) {
    return families.stream().map(FamilySpec::name).toList();
  }

  static List<Entry> scanAll(ReadView view, KeyRange range) {
    List<Entry> out = new ArrayList<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      scan.forEachRemaining(out::add);
    }
    return out;
  }

  static long count(ReadView view, KeyRange range) {
    return scanAll(view, range).size();
  }
}
