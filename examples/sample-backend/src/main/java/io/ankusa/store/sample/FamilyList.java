package io.ankusa.store.sample;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The families a store holds, one {@code name plain|counters} line each in the file {@value #NAME}:
 * an open must list every one of them (else it is an older release meeting a newer store), and adds
 * the new ones it lists (read-write, {@code createIfMissing}) before anything is written to them.
 */
final class FamilyList {
  static final String NAME = "families";

  private FamilyList() {}

  static void reconcile(Path dir, List<FamilySpec> listed, boolean readOnly, boolean createIfMissing) {
    Path file = dir.resolve(NAME);
    Map<String, String> stored = new LinkedHashMap<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          String[] parts = line.split(" ");
          stored.put(parts[0], parts[1]);
        }
      }
      StringBuilder added = new StringBuilder();
      for (FamilySpec spec : listed) {
        String kind = spec.counters() ? "counters" : "plain";
        String had = stored.remove(spec.name());
        if (had == null) {
          if (readOnly || !createIfMissing) {
            throw new StoreFormatException("the store in " + dir + " has no family '" + spec.name() + "', and "
                + (readOnly ? "a read-only open" : "an open with createIfMissing false") + " does not create one");
          }
          added.append(spec.name()).append(' ').append(kind).append('\n');
        } else if (!had.equals(kind)) {
          throw new StoreFormatException("family '" + spec.name() + "' of the store in " + dir + " is " + had
              + ", not " + kind + " as listed");
        }
      }
      if (!stored.isEmpty()) {
        throw new StoreFormatException("the store in " + dir + " holds families " + stored.keySet()
            + " that this open does not list: a newer release wrote them; open it with that release");
      }
      if (added.length() > 0) {
        Files.writeString(file, added, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or write " + file, e);
    }
  }
}
