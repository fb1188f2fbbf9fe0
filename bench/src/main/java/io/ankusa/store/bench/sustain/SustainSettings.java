package io.ankusa.store.bench.sustain;

import io.ankusa.store.bench.BenchStores;
import java.nio.file.Path;
import java.util.List;

/**
 * What the sustained-throughput bench runs.
 *
 * @param backends the backends, each measured in turn in the same run
 * @param rate hooks a second for a single run per backend; 0 for flat out; null to search for the
 *     highest sustainable rate instead
 * @param seconds the length of every run
 * @param tenants tenants of the workload
 * @param producers producer threads
 * @param probes runs at a fixed rate the search may make per backend
 * @param out where the table, the JSON and the charts go
 */
public record SustainSettings(
    List<String> backends,
    Long rate,
    int seconds,
    int tenants,
    int producers,
    int probes,
    Path out) {
  public static final String USAGE =
      "bench sustain [--backend rocksdb,lmdb,memory] [--rate HOOKS_PER_S|max] [--seconds 60]"
          + " [--tenants 200] [--producers 4] [--probes 4] [--out bench-results/sustain]";

  public SustainSettings {
    backends.forEach(BenchStores::requireBackend);
    if (rate != null && rate < 0) {
      throw new IllegalArgumentException("--rate must be at least 1 hook a second, or max");
    }
    if (seconds < 1
        || seconds > 86_400
        || tenants < 1
        || tenants > 1_000_000
        || producers < 1
        || producers > 256
        || probes < 1
        || probes > 20) {
      throw new IllegalArgumentException(
          "--seconds must be 1..86400, --tenants 1..1000000, --producers 1..256,"
              + " --probes 1..20");
    }
  }

  /** Whether the run searches for each backend's highest sustainable rate. */
  boolean searches() {
    return rate == null;
  }

  /**
   * Parses the bench's arguments.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  public static SustainSettings parse(String... args) {
    List<String> backends = List.of("rocksdb", "lmdb", "memory");
    Long rate = null;
    int seconds = 60;
    int tenants = 200;
    int producers = 4;
    int probes = 4;
    Path out = Path.of("bench-results", "sustain");
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      String v = args[++i];
      try {
        switch (name) {
          case "--backend" -> backends = List.of(v.split(","));
          case "--rate" -> rate = v.equals("max") ? 0L : Long.parseLong(v);
          case "--seconds" -> seconds = Integer.parseInt(v);
          case "--tenants" -> tenants = Integer.parseInt(v);
          case "--producers" -> producers = Integer.parseInt(v);
          case "--probes" -> probes = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          default -> throw new IllegalArgumentException("unknown option " + name);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " takes a number, not '" + v + "'");
      }
      if (rate != null && rate == 0 && !v.equals("max") && name.equals("--rate")) {
        throw new IllegalArgumentException("--rate must be at least 1 hook a second, or max");
      }
    }
    return new SustainSettings(backends, rate, seconds, tenants, producers, probes, out);
  }
}
