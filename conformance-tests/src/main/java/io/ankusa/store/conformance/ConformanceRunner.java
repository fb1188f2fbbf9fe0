package io.ankusa.store.conformance;

import io.ankusa.store.conformance.SuiteRun.CaseResult;
import io.ankusa.store.conformance.SuiteRun.Outcome;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The conformance suite as a command: {@code ConformanceRunner --backend NAME [--tries N]} runs every
 * layer of the suite against the backend registered under NAME (default {@code rocksdb}) through the
 * JUnit Platform Launcher, with a {@link ProviderFixture}, and prints a summary per layer: cases run,
 * passed, failed, unverified, each failure's property and first line of message, and one line {@code
 * UNVERIFIED <property>: <reason>} for every promise not checked (a capability not claimed, damage the
 * engine does not claim to detect, with what it did).
 *
 * <p>Exit code 0 when nothing failed, 1 when a case failed, 2 on bad arguments (one line on stderr;
 * an unknown backend names the available ones). Layers, in order: engine, layout, transition, dispatch, migration, durability. Properties run
 * {@code --tries} tries each (default: the system property {@code jqwik.tries.default}, else 60).
 * The generic fixture damages data files the generic way ({@link StoreFileDamage}), so {@code
 * scanNeverEndsEarlyOnCorruption} runs on every backend whose store lives in files; a backend's own
 * test class may aim its damage better.
 */
public final class ConformanceRunner {
  private static final String DEFAULT_BACKEND = "rocksdb";

  /** The layers, in order: name to suite class. */
  private static final Map<String, Class<?>> LAYERS = layers();

  private static Map<String, Class<?>> layers() {
    Map<String, Class<?>> layers = new LinkedHashMap<>();
    layers.put("engine", NamedBackendEngineSuite.class);
    layers.put("layout", NamedBackendLayoutSuite.class);
    layers.put("transition", NamedBackendTransitionSuite.class);
    layers.put("dispatch", NamedBackendDispatchSuite.class);
    layers.put("migration", NamedBackendMigrationSuite.class);
    layers.put("durability", NamedBackendDurabilitySuite.class);
    return Collections.unmodifiableMap(layers);
  }

  private ConformanceRunner() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the suite as {@link #main} does and returns the exit code instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    String backend = DEFAULT_BACKEND;
    String tries = System.getProperty("jqwik.tries.default", "60");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if ((arg.equals("--backend") || arg.equals("--tries")) && i + 1 < args.length) {
        if (arg.equals("--backend")) {
          backend = args[++i];
        } else {
          tries = args[++i];
        }
      } else if (arg.startsWith("--backend=")) {
        backend = arg.substring("--backend=".length());
      } else if (arg.startsWith("--tries=")) {
        tries = arg.substring("--tries=".length());
      } else {
        err.println("conformance: unknown or incomplete argument '" + arg
            + "'; usage: conformance [--backend NAME] [--tries N]");
        return 2;
      }
    }
    if (!tries.matches("[1-9][0-9]{0,6}")) {
      err.println("conformance: --tries must be a whole number from 1 to 9999999, got '" + tries + "'");
      return 2;
    }
    List<String> available = StoreProvider.available();
    if (!available.contains(backend)) {
      err.println("conformance: no backend named '" + backend + "' on the classpath; available: " + available);
      return 2;
    }

    Path jqwikDir;
    try {
      jqwikDir = Files.createTempDirectory("ankusa-conformance-jqwik-");
    } catch (IOException e) {
      err.println("conformance: cannot create a temporary file: " + e.getMessage());
      return 2;
    }
    Map<String, String> configuration = new LinkedHashMap<>();
    configuration.put("jqwik.tries.default", tries);
    Path jqwikDatabase = jqwikDir.resolve("jqwik-database");
    configuration.put("jqwik.database", jqwikDatabase.toString());
    configuration.put("jqwik.reporting.usejunitplatform", "true");

    String previous = System.getProperty(NamedBackendEngineSuite.BACKEND_PROPERTY);
    System.setProperty(NamedBackendEngineSuite.BACKEND_PROPERTY, backend);
    boolean failed = false;
    try {
      out.println("ankusa-store conformance: backend " + backend + ", " + tries + " tries per property");
      for (Map.Entry<String, Class<?>> layer : LAYERS.entrySet()) {
        SuiteRun run = SuiteRun.run(layer.getValue(), configuration);
        failed |= run.count(Outcome.FAILED) > 0;
        print(layer.getKey(), run, out);
      }
    } finally {
      if (previous == null) {
        System.clearProperty(NamedBackendEngineSuite.BACKEND_PROPERTY);
      } else {
        System.setProperty(NamedBackendEngineSuite.BACKEND_PROPERTY, previous);
      }
      try {
        Files.deleteIfExists(jqwikDatabase);
        Files.deleteIfExists(jqwikDir);
      } catch (IOException e) {
        err.println("conformance: could not delete " + jqwikDir + ": " + e.getMessage());
      }
    }
    out.println(failed ? "RESULT: FAILED" : "RESULT: PASSED");
    return failed ? 1 : 0;
  }

  private static void print(String layer, SuiteRun run, PrintStream out) {
    out.printf("layer %-10s cases run %3d   passed %3d   failed %3d   unverified %3d%n", layer,
        run.cases().size(), run.count(Outcome.PASSED), run.count(Outcome.FAILED), run.count(Outcome.SKIPPED));
    for (CaseResult c : run.cases()) {
      if (c.outcome() == Outcome.FAILED) {
        out.println("  FAILED  " + c.property() + ": " + c.message());
      }
    }
    for (CaseResult c : run.cases()) {
      if (c.outcome() == Outcome.SKIPPED) {
        out.println("  " + UnverifiedPromiseReport.line(c.property(), c.message()));
      }
    }
  }
}
