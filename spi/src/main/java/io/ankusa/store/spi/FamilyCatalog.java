package io.ankusa.store.spi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The families of one open store and the argument checks of the contract, in one place so every
 * backend refuses bad input the same way, with the same messages, before touching its engine.
 * A backend builds one at open and calls {@link #validate(Batch)} at the top of {@code write} and
 * the {@code require…}/{@code check…} methods at the top of each read.
 */
public final class FamilyCatalog {
  private final Map<String, FamilySpec> byName = new LinkedHashMap<>();
  private final int maxKeyBytes;
  private final int maxValueBytes;

  /**
   * @throws StoreArgumentException if two specs share a name
   */
  public FamilyCatalog(List<FamilySpec> families, int maxKeyBytes, int maxValueBytes) {
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

  /** The specs in the order given at open. */
  public List<FamilySpec> specs() {
    return List.copyOf(byName.values());
  }

  public boolean contains(String family) {
    return byName.containsKey(family);
  }

  /** The spec of {@code family}, or {@link StoreArgumentException} naming the families there are. */
  public FamilySpec require(String family) {
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
          "family '" + family + "' is not a counters family: open it with FamilySpec.counters(…) to"
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
          "key " + Bytes.hex(key) + " in family '" + family + "' is " + key.length
              + " bytes; keys must be 1.." + maxKeyBytes + " bytes");
    }
  }

  /** {@code lo} may be empty; {@code hi} may be null (unbounded); {@code lo <= hi}. */
  public void checkRange(String family, byte[] lo, byte[] hi) {
    if (lo == null) {
      throw new StoreArgumentException("null lower bound in family '" + family + "'; use an empty array for the start");
    }
    if (lo.length > maxKeyBytes || (hi != null && hi.length > maxKeyBytes)) {
      throw new StoreArgumentException(
          "range bound longer than " + maxKeyBytes + " bytes in family '" + family + "'");
    }
    if (hi != null && Bytes.compare(lo, hi) > 0) {
      throw new StoreArgumentException(
          "range [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ") in family '" + family
              + "' has lo > hi; swap the bounds or use Direction.REVERSE");
    }
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
            "batch refused, nothing written: op " + i + " of " + ops.size() + ": " + e.getMessage());
      }
    }
  }

  private void validate(Op op) {
    FamilySpec spec = require(op.family());
    if (op instanceof Op.Put p) {
      checkKey(p.family(), p.key());
      if (p.value().length > maxValueBytes) {
        throw new StoreArgumentException(
            "value at key " + Bytes.hex(p.key()) + " in family '" + p.family() + "' is "
                + p.value().length + " bytes; at most " + maxValueBytes);
      }
      if (spec.counters() && p.value().length != Int64Add.WIDTH) {
        throw new StoreArgumentException(
            "put into counters family '" + p.family() + "' at key " + Bytes.hex(p.key())
                + " has a " + p.value().length + "-byte value; counters are 8 bytes (Int64Add.encode)");
      }
    } else if (op instanceof Op.Delete d) {
      checkKey(d.family(), d.key());
    } else if (op instanceof Op.DeleteRange r) {
      checkRange(r.family(), r.lo(), r.hi());
    } else if (op instanceof Op.Merge m) {
      checkKey(m.family(), m.key());
      requireCounters(m.family());
    }
  }
}
