package io.ankusa.store.etcd;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The store's meta key: its id, the backend's format, and each family with its counters setting, as
 * a properties text ({@code store=ID}, {@code format=N}, {@code family.NAME=plain|counters}).
 *
 * @param storeId the store's id, also in the directory's {@link EtcdTarget}
 * @param format the backend's storage format
 * @param families family name → counters
 */
record StoreMeta(String storeId, int format, Map<String, Boolean> families) {
  /** The backend's storage format, in the store marker and the meta key. */
  static final int FORMAT = 1;

  StoreMeta {
    families = Map.copyOf(families);
  }

  static StoreMeta parse(byte[] bytes, String where) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
    } catch (IOException | IllegalArgumentException e) {
      throw new StoreFormatException(
          where
              + " is not a properties text: the store's meta key is damaged or was"
              + " written by something else; nothing was changed");
    }
    String id = p.getProperty("store");
    String format = p.getProperty("format");
    if (id == null || format == null) {
      throw new StoreFormatException(
          where
              + " lacks store= or format=: it is no ankusa store's meta key; nothing"
              + " was changed. Check etcd.prefix");
    }
    int f;
    try {
      f = Integer.parseInt(format);
    } catch (NumberFormatException e) {
      throw new StoreFormatException(
          where + " has format=" + format + ", which is not a number; nothing was changed");
    }
    if (f > FORMAT) {
      throw new StoreFormatException(
          where
              + " holds an etcd store of format "
              + f
              + ", newer than format "
              + FORMAT
              + " this release reads; open it with the release that wrote it");
    }
    Map<String, Boolean> families = new LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("family.")) {
        families.put(name.substring("family.".length()), "counters".equals(p.getProperty(name)));
      }
    }
    return new StoreMeta(id, f, families);
  }

  byte[] bytes() {
    StringBuilder text = new StringBuilder("store=" + storeId + "\nformat=" + format + "\n");
    new TreeMap<>(families)
        .forEach(
            (name, counters) ->
                text.append("family.")
                    .append(name)
                    .append('=')
                    .append(counters ? "counters" : "plain")
                    .append('\n'));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Checks {@code asked} against the families this store holds: one it holds but {@code asked} does
   * not list, or one listed with another counters setting, is refused.
   *
   * @return this meta with the families of {@code asked} it lacks added (itself when it lacks none)
   */
  StoreMeta checkedWith(List<FamilySpec> asked, String where) {
    for (String name : families.keySet()) {
      if (asked.stream().noneMatch(f -> f.name().equals(name))) {
        throw new StoreFormatException(
            "the etcd store "
                + where
                + " holds family '"
                + name
                + "' that the caller did"
                + " not list "
                + asked.stream().map(FamilySpec::name).toList()
                + ": it was written by a newer release;"
                + " open it with that release");
      }
    }
    Map<String, Boolean> all = new LinkedHashMap<>(families);
    for (FamilySpec f : asked) {
      Boolean had = families.get(f.name());
      if (had != null && had != f.counters()) {
        throw new StoreFormatException(
            "the etcd store "
                + where
                + ": family '"
                + f.name()
                + "' was created with"
                + " counters="
                + had
                + " but is opened with counters="
                + f.counters());
      }
      all.putIfAbsent(f.name(), f.counters());
    }
    return all.size() == families.size() ? this : new StoreMeta(storeId, format, all);
  }
}
