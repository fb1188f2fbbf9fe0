package io.ankusa.store.bench.migration;

import io.ankusa.store.queue.internal.migration.FormatTwoWriter;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Builds the input of the migration bench: a format-2 store ({@code FormatTwoWriter}) holding about
 * {@code rows} old index rows in the mix a busy queue has when it is upgraded.
 *
 * <p>Per hook: one sink (60 %), two (30 %) or three (10 %); a payload of 100..1 500 bytes; a tenant
 * out of {@code tenants}, skewed (the first tenants own most hooks, the last ones a few each), or
 * none for {@value #UNTENANTED_PERCENT} % of hooks (they migrate to {@code "default"}); an archive
 * obligation for {@value #ARCHIVED_PERCENT} % of hooks. Per sink, a delivery row and one index row:
 * due now (50 %), retrying — due up to an hour after {@code now}, so the migration files it as kind
 * 1 (15 %) — inflight (10 %), or dead (25 %).
 *
 * <p>Written through a {@link DeferredSyncStore}: batches of about {@value #ROWS_PER_BATCH} rows,
 * {@code NO_SYNC}, and one {@code syncWal()} at the end, so the store is durable when {@link
 * #write} returns. Deterministic for a seed and a {@code now}.
 */
final class FormatTwoPopulation {
  static final int UNTENANTED_PERCENT = 10;
  static final int ARCHIVED_PERCENT = 30;
  static final int ROWS_PER_BATCH = 5_000;

  /**
   * What was written.
   *
   * @param rows old index rows: the rows the migration moves ({@code due + retrying + inflight +
   *     dead + archive})
   * @param tenantsUsed distinct tenants named by some hook (not counting {@code "default"})
   * @param payloadBytes sum of the hooks' payload sizes
   */
  record Census(
      long rows,
      long hooks,
      long untenantedHooks,
      long tenantsUsed,
      long due,
      long retrying,
      long inflight,
      long dead,
      long archive,
      long payloadBytes) {
    /** The census as an ordered map, for the JSON. */
    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rows", rows);
      m.put("hooks", hooks);
      m.put("untenantedHooks", untenantedHooks);
      m.put("tenants", tenantsUsed);
      m.put("due", due);
      m.put("retrying", retrying);
      m.put("inflight", inflight);
      m.put("dead", dead);
      m.put("archive", archive);
      m.put("payloadBytes", payloadBytes);
      return m;
    }
  }

  private FormatTwoPopulation() {}

  /**
   * Writes a format-2 store of at least {@code rows} old rows (at most three more) into {@code
   * store}.
   *
   * <p>REQUIRES: {@code store} is new and empty, opened with {@code FormatTwo.families()} or {@code
   * Format3.families()}; {@code rows >= 1}, {@code tenants >= 1}. Durable on return.
   *
   * @param now epoch ms the migration will start around: due rows are before it, retrying rows
   *     after
   */
  static Census write(Store store, long rows, int tenants, long seed, long now) {
    SplittableRandom random = new SplittableRandom(seed);
    FormatTwoWriter w = new FormatTwoWriter(new DeferredSyncStore(store)).layout();
    Set<Integer> tenantsSeen = new HashSet<>();
    long written = 0;
    long hooks = 0;
    long untenanted = 0;
    long due = 0;
    long retrying = 0;
    long inflight = 0;
    long dead = 0;
    long archive = 0;
    long payloadBytes = 0;
    long pending = 0;
    long estimatedHooks = rows / 2 + 1;
    for (long seq = 1; written < rows; seq++) {
      hooks++;
      // Older hooks first: ten milliseconds apart, the last one a minute before now.
      long receivedAt = now - 60_000 - (estimatedHooks - Math.min(seq, estimatedHooks)) * 10;
      String tenant = null;
      if (random.nextInt(100) < UNTENANTED_PERCENT) {
        untenanted++;
      } else {
        double u = random.nextDouble();
        int t = (int) (tenants * u * u * u); // skewed: a few tenants own most hooks
        tenantsSeen.add(t);
        tenant = String.format("tenant-%05d", t);
      }
      int size = 100 + random.nextInt(1_401);
      payloadBytes += size;
      List<Integer> sinks = sinks(random);
      HookEnvelope h =
          new HookEnvelope(
              seq,
              tenant,
              "source-" + (seq % 7),
              "hook-" + seq,
              null,
              receivedAt,
              sinks,
              payload(random, size));
      w.hook(h);
      for (int sink : sinks) {
        int state = random.nextInt(100);
        if (state < 50) {
          w.due(seq, sink, receivedAt, DeliveryRow.first(receivedAt, size));
          due++;
        } else if (state < 65) {
          long at = now + 60_000 + random.nextInt(3_600_000);
          w.due(
              seq,
              sink,
              at,
              new DeliveryRow(1 + random.nextInt(5), at, "503 Service Unavailable", size));
          retrying++;
        } else if (state < 75) {
          w.inflight(seq, sink, DeliveryRow.first(receivedAt, size));
          inflight++;
        } else {
          w.dead(
              receivedAt + 30_000 + random.nextInt(30_000),
              seq,
              sink,
              h.sourceId(),
              h.hookId(),
              new DeliveryRow(8, 0, "410 Gone", size));
          dead++;
        }
        written++;
        pending++;
      }
      if (random.nextInt(100) < ARCHIVED_PERCENT) {
        w.archive(seq, size);
        archive++;
        written++;
        pending++;
      }
      if (pending >= ROWS_PER_BATCH) {
        w.commit();
        pending = 0;
      }
    }
    w.commit();
    store.syncWal();
    return new Census(
        written,
        hooks,
        untenanted,
        tenantsSeen.size(),
        due,
        retrying,
        inflight,
        dead,
        archive,
        payloadBytes);
  }

  private static List<Integer> sinks(SplittableRandom random) {
    int r = random.nextInt(10);
    int n = r < 6 ? 1 : r < 9 ? 2 : 3;
    List<Integer> sinks = new ArrayList<>(n);
    int sink = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      sinks.add(sink);
      sink += 1 + random.nextInt(3);
    }
    return sinks;
  }

  /** JSON-looking ASCII of {@code size} bytes: compresses about as well as a real webhook body. */
  private static byte[] payload(SplittableRandom random, int size) {
    byte[] p = new byte[size];
    String head = "{\"event\":\"invoice.paid\",\"data\":{\"id\":\"";
    int i = 0;
    for (; i < Math.min(head.length(), size); i++) {
      p[i] = (byte) head.charAt(i);
    }
    for (; i < size; i++) {
      p[i] = (byte) (random.nextInt(4) == 0 ? '"' + (i % 3) * 14 : 'a' + random.nextInt(26));
    }
    return p;
  }
}
