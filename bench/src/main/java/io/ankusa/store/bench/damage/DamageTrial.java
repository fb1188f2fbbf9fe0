package io.ankusa.store.bench.damage;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * One trial of {@link DamageTable}, in a child JVM so that a process crash inside a native engine
 * is counted instead of ending the run: opens the damaged store in {@code args[1]} with backend
 * {@code args[0]} (options {@code args[2]}, "-" for none), reads it every way the SPI offers (get
 * of every key, one multiGet, forward and reverse scans) and prints one line, {@code OUTCOME
 * <outcome> <detail>}:
 *
 * <ul>
 *   <li>{@code REFUSED} — a {@link StoreCorruptionException} at open: the store was not opened;
 *   <li>{@code DETECTED} — a {@link StoreCorruptionException} on a read;
 *   <li>{@code OTHER_ERROR} — another exception (a {@link io.ankusa.store.spi.StoreException} or
 *       worse): reported, but not as corruption;
 *   <li>{@code SILENT_WRONG} — no exception, but a read returned a wrong value, null for a present
 *       key, or an entry never written;
 *   <li>{@code CLEAN} — every read right: the damage had no visible effect (it hit unused bytes,
 *       or, for a torn log tail, recovery kept every complete batch, as it should).
 * </ul>
 *
 * <p>The first {@code args[3]} batches must be present; later batches may be missing (a torn log
 * tail loses the batch it cut) but, if present, must be right. Also holds the workload both sides
 * agree on: {@value #KEYS} keys in batches of {@value #BATCH}.
 */
public final class DamageTrial {
  static final String FAMILY = "rows";

  /** Uncompressed, so the harness can find keys and values in the data files. */
  static final List<FamilySpec> FAMILIES = List.of(new FamilySpec(FAMILY, false, 0, false));

  static final int KEYS = 2000;
  static final int BATCH = 10;
  static final int BATCHES = KEYS / BATCH;

  private DamageTrial() {}

  static byte[] key(int i) {
    return ByteBuffer.allocate(8).putInt(0x6b65793a).putInt(i * 7919 + 13).array();
  }

  static byte[] value(int i) {
    byte[] v = new byte[48];
    new Random(i).nextBytes(v);
    return v;
  }

  static StoreOptions options(String spec, boolean create) {
    StoreOptions o = StoreOptions.defaults().createIfMissing(create);
    if (!spec.equals("-")) {
      for (String kv : spec.split(",")) {
        String[] p = kv.split("=", 2);
        o = o.with(p[0], p[1]);
      }
    }
    return o;
  }

  /** Writes the workload: {@link #BATCHES} SYNC batches, or one batch when {@code oneBatch}. */
  static void write(Store store, boolean oneBatch) {
    Batch b = new Batch();
    for (int i = 0; i < KEYS; i++) {
      b.put(FAMILY, key(i), value(i));
      if (!oneBatch && (i + 1) % BATCH == 0) {
        store.write(b, Durability.SYNC);
        b = new Batch();
      }
    }
    if (!b.isEmpty()) {
      store.write(b, Durability.SYNC);
    }
  }

  public static void main(String[] args) {
    String backend = args[0];
    Path dir = Path.of(args[1]);
    int required = Integer.parseInt(args[3]) * BATCH;
    System.out.println("OUTCOME " + outcome(backend, dir, args[2], required));
  }

  private static String outcome(String backend, Path dir, String options, int required) {
    Store store;
    try {
      store = StoreProvider.named(backend).open(dir, options(options, false), FAMILIES);
    } catch (StoreCorruptionException e) {
      return "REFUSED " + oneLine(e);
    } catch (RuntimeException | Error e) {
      return "OTHER_ERROR at open, " + e.getClass().getSimpleName() + ": " + oneLine(e);
    }
    try (store) {
      return check(store, required);
    } catch (StoreCorruptionException e) {
      return "DETECTED " + oneLine(e);
    } catch (RuntimeException | Error e) {
      return "OTHER_ERROR " + e.getClass().getSimpleName() + ": " + oneLine(e);
    }
  }

  /** CLEAN or SILENT_WRONG with what was wrong; exceptions propagate. */
  private static String check(Store store, int required) {
    List<String> wrong = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      keys.add(key(i));
      expect(wrong, "get", i, required, store.get(FAMILY, key(i)));
    }
    List<byte[]> got = store.multiGet(FAMILY, keys);
    for (int i = 0; i < KEYS; i++) {
      expect(wrong, "multiGet", i, required, got.get(i));
    }
    for (Direction d : Direction.values()) {
      int seen = 0;
      try (Scan scan = store.scan(FAMILY, new byte[0], null, d)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          int i = indexOf(e.key());
          if (i < 0 || !Arrays.equals(e.value(), value(i))) {
            wrong.add(d + " scan returned a bogus entry");
          }
          seen += i >= 0 && i < required ? 1 : 0;
        }
      }
      if (seen < required) {
        wrong.add(d + " scan missed " + (required - seen) + " keys");
      }
    }
    return wrong.isEmpty()
        ? "CLEAN"
        : "SILENT_WRONG " + wrong.size() + " wrong reads, first: " + wrong.get(0);
  }

  private static void expect(List<String> wrong, String read, int i, int required, byte[] v) {
    if (v == null ? i < required : !Arrays.equals(v, value(i))) {
      wrong.add(read + " of key " + i + (v == null ? " returned null" : " returned a wrong value"));
    }
  }

  private static int indexOf(byte[] key) {
    if (key.length != 8 || ByteBuffer.wrap(key).getInt() != 0x6b65793a) {
      return -1;
    }
    int x = ByteBuffer.wrap(key).getInt(4) - 13;
    if (x % 7919 != 0) {
      return -1;
    }
    int i = x / 7919;
    return i >= 0 && i < KEYS ? i : -1;
  }

  private static String oneLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl);
    return m.length() > 160 ? m.substring(0, 160) + "…" : m;
  }
}
