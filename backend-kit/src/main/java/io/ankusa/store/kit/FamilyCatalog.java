package io.ankusa.store.kit;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.EntryVisitor;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The families of one open store and the argument checks of the contract, in one place so every
 * backend refuses bad input the same way, with the same messages, before touching its engine. A
 * backend builds one at open and calls {@link #validate(Batch, Durability)} at the top of {@code
 * write} and the {@code require…}/{@code check…} methods at the top of each read.
 *
 * <p>Null arguments — a null family, key, key list, bound (other than an unbounded {@code hi}),
 * direction, batch, durability or cause — are refused here with {@link StoreArgumentException},
 * never a {@link NullPointerException} (property {@code nullArgumentsAreRefused}).
 */
public final class FamilyCatalog {
  private final Map<String, FamilySpec> byName = new LinkedHashMap<>();
  private final int maxKeyBytes;
  private final int maxValueBytes;

  /**
   * @throws StoreArgumentException if the list or a spec is null, or two specs share a name
   */
  public FamilyCatalog(List<FamilySpec> families, int maxKeyBytes, int maxValueBytes) {
    if (families == null || families.stream().anyMatch(f -> f == null)) {
      throw new StoreArgumentException(
          "null "
              + (families == null ? "list of families" : "family in " + families)
              + "; list the families with FamilySpec.plain(…) or FamilySpec.counters(…)");
    }
    if (families.isEmpty()) {
      throw new StoreArgumentException("a store needs at least one family");
    }
    for (FamilySpec f : families) {
      if (byName.putIfAbsent(f.name(), f) != null) {
        throw new StoreArgumentException("family '" + f.name() + "' is listed twice");
      }
    }
    this.maxKeyBytes = maxKeyBytes;
    this.maxValueBytes = maxValueBytes;
  }

  /**
   * Refuses null arguments of {@link io.ankusa.store.spi.StoreProvider#open}, before a provider
   * touches anything.
   *
   * @throws StoreArgumentException naming the null argument
   */
  public static void checkOpenArguments(Path dir, StoreOptions options, List<FamilySpec> families) {
    if (dir == null || options == null || families == null) {
      throw new StoreArgumentException(
          "null "
              + (dir == null ? "directory" : options == null ? "options" : "families")
              + " passed to StoreProvider.open; use StoreOptions.defaults() for the default options");
    }
  }

  /** The specs in the order given at open. */
  public List<FamilySpec> specs() {
    return List.copyOf(byName.values());
  }

  public boolean contains(String family) {
    return byName.containsKey(family);
  }

  /**
   * The spec of {@code family}, or {@link StoreArgumentException} naming the families there are.
   */
  public FamilySpec require(String family) {
    if (family == null) {
      throw new StoreArgumentException(
          "null family; this store was opened with " + byName.keySet());
    }
    FamilySpec spec = byName.get(family);
    if (spec == null) {
      throw new StoreArgumentException(
          "unknown family '" + family + "'; this store was opened with " + byName.keySet());
    }
    return spec;
  }

  /** {@link #require} plus: the family holds counters. */
  public FamilySpec requireCounters(String family) {
    FamilySpec spec = require(family);
    if (!spec.counters()) {
      throw new StoreArgumentException(
          "family '"
              + family
              + "' is not a counters family: open it with FamilySpec.counters(…) to"
              + " merge into it or read counters from it");
    }
    return spec;
  }

  /** A key is 1..maxKeyBytes bytes. */
  public void checkKey(String family, byte[] key) {
    if (key == null) {
      throw new StoreArgumentException("null key in family '" + family + "'");
    }
    if (key.length == 0 || key.length > maxKeyBytes) {
      throw new StoreArgumentException(
          "key "
              + Bytes.hex(key)
              + " in family '"
              + family
              + "' is "
              + key.length
              + " bytes; keys must be 1.."
              + maxKeyBytes
              + " bytes");
    }
  }

  /** Every key of a multiGet: the list and each key non-null, each key 1..maxKeyBytes bytes. */
  public void checkKeys(String family, List<byte[]> keys) {
    if (keys == null) {
      throw new StoreArgumentException(
          "null list of keys for a multiGet of family '" + family + "'");
    }
    for (byte[] k : keys) {
      checkKey(family, k);
    }
  }

  /**
   * The arguments of a scan: a known family, a good range ({@link #checkRange}) and a direction.
   */
  public void checkScan(String family, byte[] lo, byte[] hi, Direction direction) {
    require(family);
    checkRange(family, lo, hi);
    if (direction == null) {
      throw new StoreArgumentException(
          "null direction for a scan of family '"
              + family
              + "'; use Direction.FORWARD or Direction.REVERSE");
    }
  }

  /** Refuses a null visitor of {@link io.ankusa.store.spi.ReadView#visit}. */
  public static void checkVisitor(String family, EntryVisitor visitor) {
    if (visitor == null) {
      throw new StoreArgumentException(
          "null visitor passed to visit of family '" + family + "'; nothing read");
    }
  }

  /** A cause for {@link io.ankusa.store.spi.Store#reportWriteFailure}: never null. */
  public static void checkCause(Throwable cause) {
    if (cause == null) {
      throw new StoreArgumentException(
          "reportWriteFailure(null): pass the exception the failed write or sync threw");
    }
  }

  /** {@code lo} may be empty; {@code hi} may be null (unbounded); {@code lo <= hi}. */
  public void checkRange(String family, byte[] lo, byte[] hi) {
    if (lo == null) {
      throw new StoreArgumentException(
          "null lower bound in family '" + family + "'; use an empty array for the start");
    }
    if (lo.length > maxKeyBytes || (hi != null && hi.length > maxKeyBytes)) {
      throw new StoreArgumentException(
          "range bound longer than " + maxKeyBytes + " bytes in family '" + family + "'");
    }
    if (hi != null && Bytes.compare(lo, hi) > 0) {
      throw new StoreArgumentException(
          "range ["
              + Bytes.hex(lo)
              + ", "
              + Bytes.hex(hi)
              + ") in family '"
              + family
              + "' has lo > hi; swap the bounds or use Direction.REVERSE");
    }
  }

  /** {@link #validate(Batch)}, after refusing a null batch or durability. */
  public void validate(Batch batch, Durability durability) {
    if (batch == null || durability == null) {
      throw new StoreArgumentException(
          "null "
              + (batch == null ? "batch" : "durability")
              + " passed to write;"
              + " nothing written (use Durability.SYNC or Durability.NO_SYNC)");
    }
    validate(batch);
  }

  /** Checks every op of {@code batch}; throws on the first bad one, before anything is applied. */
  public void validate(Batch batch) {
    List<Op> ops = batch.ops();
    for (int i = 0; i < ops.size(); i++) {
      Op op = ops.get(i);
      try {
        validate(op);
      } catch (StoreArgumentException e) {
        throw new StoreArgumentException(
            "batch refused, nothing written: op "
                + i
                + " of "
                + ops.size()
                + ": "
                + e.getMessage());
      }
    }
  }

  private void validate(Op op) {
    require(op.family());
    op.handle(opChecks);
  }

  /** The per-kind checks of {@link #validate(Op)}, after the family is known. */
  private final OpHandler<RuntimeException> opChecks =
      new OpHandler<>() {
        @Override
        public void put(Op.Put p) {
          checkKey(p.family(), p.key());
          if (p.value() == null) {
            throw new StoreArgumentException(
                "null value at key " + Bytes.hex(p.key()) + " in family '" + p.family() + "'");
          }
          if (p.value().length > maxValueBytes) {
            throw new StoreArgumentException(
                "value at key "
                    + Bytes.hex(p.key())
                    + " in family '"
                    + p.family()
                    + "' is "
                    + p.value().length
                    + " bytes; at most "
                    + maxValueBytes);
          }
          if (require(p.family()).counters() && p.value().length != Int64Add.WIDTH) {
            throw new StoreArgumentException(
                "put into counters family '"
                    + p.family()
                    + "' at key "
                    + Bytes.hex(p.key())
                    + " has a "
                    + p.value().length
                    + "-byte value; counters are 8 bytes (Int64Add.encode)");
          }
        }

        @Override
        public void delete(Op.Delete d) {
          checkKey(d.family(), d.key());
        }

        @Override
        public void deleteRange(Op.DeleteRange r) {
          if (r.hi() == null) {
            throw new StoreArgumentException(
                "null upper bound of a deleteRange in family '" + r.family() + "'");
          }
          checkRange(r.family(), r.lo(), r.hi());
        }

        @Override
        public void merge(Op.Merge m) {
          checkKey(m.family(), m.key());
          requireCounters(m.family());
        }
      };
}
