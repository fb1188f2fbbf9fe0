package io.ankusa.store.spi;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How to open a store: whether to create it, and backend-specific settings as string properties
 * named {@code <backend>.<setting>} (for example {@code lmdb.mapSizeMaxBytes}). A backend ignores
 * properties of other backends and rejects unknown ones of its own with {@link
 * StoreArgumentException}, naming the ones it knows.
 *
 * @param createIfMissing create the directory and the families when absent; when false, opening a
 *     directory that holds no store, or listing a family the store does not hold, fails with {@link
 *     StoreFormatException} naming what is missing, and creates nothing (property {@code
 *     createIfMissingFalseRefusesANewFamily})
 * @param readOnly open the existing store without changing any file under its directory (no WAL
 *     replay written back, no new manifest, no lock file created); every write through the returned
 *     store is refused with {@link StoreArgumentException} (the backend kit's {@code
 *     ReadOnlyStore}). Implies {@code createIfMissing = false}. For offline readers: verify,
 *     inspect, dry runs, archive readers
 * @param properties backend settings; copied, never null
 */
public record StoreOptions(
    boolean createIfMissing, boolean readOnly, Map<String, String> properties) {

  public StoreOptions {
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    if (readOnly) {
      createIfMissing = false;
    }
  }

  /** Read-write options. */
  public StoreOptions(boolean createIfMissing, Map<String, String> properties) {
    this(createIfMissing, false, properties);
  }

  /** Create if missing, no properties. */
  public static StoreOptions defaults() {
    return new StoreOptions(true, Map.of());
  }

  /** Open an existing store read-only, no properties. */
  public static StoreOptions readOnlyExisting() {
    return new StoreOptions(false, true, Map.of());
  }

  /** These options with one more property. */
  public StoreOptions with(String key, String value) {
    Map<String, String> copy = new TreeMap<>(properties);
    copy.put(key, value);
    return new StoreOptions(createIfMissing, readOnly, copy);
  }

  /** These options with {@code createIfMissing} set. */
  public StoreOptions createIfMissing(boolean create) {
    return new StoreOptions(create, readOnly, properties);
  }

  /** These options with {@code readOnly} set. */
  public StoreOptions readOnly(boolean ro) {
    return new StoreOptions(createIfMissing, ro, properties);
  }

  /**
   * A long property, or {@code fallback} when absent.
   *
   * @throws StoreArgumentException if present and not a whole number
   */
  public long longProperty(String key, long fallback) {
    String v = properties.get(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new StoreArgumentException("option " + key + "='" + v + "' is not a whole number");
    }
  }

  /**
   * Refuses the properties of {@code backend} ({@code backend.*}) that are not in {@code known}.
   *
   * @throws StoreArgumentException naming the first unknown one and the ones the backend knows
   */
  public void refuseUnknown(String backend, List<String> known) {
    String prefix = backend + ".";
    for (Map.Entry<String, String> e : new TreeMap<>(properties).entrySet()) {
      if (e.getKey().startsWith(prefix) && !known.contains(e.getKey())) {
        throw new StoreArgumentException(
            "unknown "
                + backend
                + " option "
                + e.getKey()
                + "='"
                + e.getValue()
                + "'; the "
                + backend
                + " backend knows "
                + (known.isEmpty() ? "no options" : known.toString())
                + " (a typo must not fall back to a default silently)");
      }
    }
  }

  /** A string property, or {@code fallback} when absent. */
  public String property(String key, String fallback) {
    return properties.getOrDefault(key, fallback);
  }
}
