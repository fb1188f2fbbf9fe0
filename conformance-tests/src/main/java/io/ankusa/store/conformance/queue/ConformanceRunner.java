package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.CaseSelection;
import io.ankusa.store.conformance.ChildClasspath;
import io.ankusa.store.conformance.Seeds;
import io.ankusa.store.conformance.UnverifiedPromiseReport;
import io.ankusa.store.conformance.queue.SuiteRun.CaseResult;
import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import io.ankusa.store.spi.StoreProvider;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conformance suite as a command: {@code ConformanceRunner [--backend NAME] [--option
 * KEY=VALUE]... [--fixture CLASS] [--jar PATH]... [--layer NAME[,NAME]] [--only CASES] [--seed N]
 * [--tries N]} runs the layers of the suite against a backend through the JUnit Platform Launcher
 * and prints a summary per layer: cases run, passed, failed, unverified, each failure's property,
 * first line of message and the command that replays it, and one line {@code UNVERIFIED <property>:
 * <reason>} for every promise not checked (a capability not claimed, damage the engine does not
 * claim to detect, with what it did).
 *
 * <ul>
 *   <li>{@code --backend NAME}: the backend registered under NAME (default {@code rocksdb}), run
 *       with the generic {@link ProviderFixture};
 *   <li>{@code --option KEY=VALUE}: a store option the generic fixture opens every store with
 *       (repeatable), such as the server of a backend that needs one ({@code postgres.url=…});
 *   <li>{@code --fixture CLASS}: a {@link io.ankusa.store.conformance.BackendFixture} class instead
 *       (created with its no-arg constructor), so a backend runs with its own options and damage
 *       hooks;
 *   <li>{@code --jar PATH}: extra jars or class directories (repeatable, or joined with the path
 *       separator) loaded before the backend is looked up, so an outside backend's provider and
 *       fixture can run without being built into this classpath; the child JVMs of the durability
 *       and migration layers get them too;
 *   <li>{@code --layer}: only these layers (engine, layout, transition, dispatch, migration,
 *       durability);
 *   <li>{@code --only}: only these cases ({@link CaseSelection}: {@code method}, {@code
 *       Type#method}, {@code Type}, comma-separated); layers with none of them are not run;
 *   <li>{@code --seed N}: pins every seed ({@link Seeds}), as {@code -Dankusa.seed=N} does;
 *   <li>{@code --tries N}: tries per property (default: the system property {@code
 *       jqwik.tries.default}, else 60). The system properties {@code ankusa.seed} and {@code
 *       ankusa.conformance.only} are honoured as defaults of {@code --seed} and {@code --only}.
 * </ul>
 *
 * <p>{@code --jar} takes the backend's whole classpath: its classes and every jar they need. The
 * jars and directories load in a class loader below this launcher's own, so what both hold (the
 * SPI, the suite, JUnit, jqwik) comes from the launcher, and a backend project's full test
 * classpath may be given as it is. A class the backend needs and the classpath lacks ({@code
 * NoClassDefFoundError}, in the fixture, the provider or a case) is bad input: the run stops after
 * the layer that met it, and one line on stderr names the class and says how to give the whole
 * classpath.
 *
 * <p>Exit code 0 when nothing failed, 1 when a case failed, 2 on bad arguments (one line on stderr;
 * an unknown backend names the available ones) and on a class missing from the classpath. Layers,
 * in order: engine, layout, transition, dispatch, migration, durability. The generic fixture
 * damages no files (random bytes can abort an engine that trusts its files' structure, and the
 * launcher's JVM with it), so {@code scanNeverEndsEarlyOnCorruption} is reported unverified with
 * it; a backend's own fixture ({@code --fixture}) aims its damage at what the engine checks.
 */
public final class ConformanceRunner {
  private static final String DEFAULT_BACKEND = "rocksdb";
  private static final String USAGE =
      "usage: conformance [--backend NAME] [--option KEY=VALUE]... [--fixture CLASS]"
          + " [--jar PATH]... [--layer NAME[,NAME]] [--only CASES] [--seed N] [--tries N]";
  private static final List<String> OPTIONS =
      List.of(
          "--backend", "--option", "--fixture", "--jar", "--layer", "--only", "--seed", "--tries");

  /**
   * A class missing from the classpath, as {@link SuiteRun} describes a failure: group 1 is its
   * name.
   */
  private static final Pattern MISSING_CLASS =
      Pattern.compile(
          "(?:NoClassDefFoundError|ClassNotFoundException): ([\\w$-]+(?:[./][\\w$-]+)+)");

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
    Map<String, String> given = new LinkedHashMap<>();
    List<String> jars = new ArrayList<>();
    Map<String, String> storeOptions = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      String option = eq > 0 ? arg.substring(0, eq) : arg;
      if (!OPTIONS.contains(option) || (eq < 0 && i + 1 >= args.length)) {
        err.println("conformance: unknown or incomplete argument '" + arg + "'; " + USAGE);
        return 2;
      }
      String value = eq > 0 ? arg.substring(eq + 1) : args[++i];
      if (option.equals("--jar")) {
        jars.addAll(List.of(value.split(File.pathSeparator)));
      } else if (option.equals("--option")) {
        int at = value.indexOf('=');
        if (at <= 0) {
          err.println(
              "conformance: --option takes KEY=VALUE (a store option, e.g. postgres.url=jdbc:postgresql://HOST:PORT/DB),"
                  + " got '"
                  + value
                  + "'");
          return 2;
        }
        storeOptions.put(value.substring(0, at), value.substring(at + 1));
      } else {
        given.put(option, value);
      }
    }
    String tries = given.getOrDefault("--tries", System.getProperty("jqwik.tries.default", "60"));
    if (!tries.matches("[1-9][0-9]{0,6}")) {
      err.println(
          "conformance: --tries must be a whole number from 1 to 9999999, got '" + tries + "'");
      return 2;
    }
    String seed = given.getOrDefault("--seed", System.getProperty(Seeds.PROPERTY, "")).strip();
    if (!seed.isEmpty() && !seed.matches("-?[0-9]{1,19}")) {
      err.println(
          "conformance: --seed must be a whole number (a seed a failure printed), got '"
              + seed
              + "'");
      return 2;
    }
    Optional<CaseSelection> only;
    try {
      String text = given.getOrDefault("--only", System.getProperty(CaseSelection.PROPERTY, ""));
      only = text.isBlank() ? Optional.empty() : Optional.of(CaseSelection.parse(text));
    } catch (IllegalArgumentException e) {
      err.println("conformance: --only: " + e.getMessage());
      return 2;
    }
    Map<String, Class<?>> layers = new LinkedHashMap<>();
    for (String name :
        given.getOrDefault("--layer", String.join(",", LAYERS.keySet())).split(",")) {
      Class<?> suite = LAYERS.get(name.strip());
      if (suite == null) {
        err.println(
            "conformance: no layer named '"
                + name.strip()
                + "'; layers: "
                + String.join(", ", LAYERS.keySet()));
        return 2;
      }
      layers.put(name.strip(), suite);
    }
    if (only.isPresent()) {
      layers.values().removeIf(suite -> !only.get().matchesAnyCaseOf(suite));
      if (layers.isEmpty()) {
        err.println(
            "conformance: --only "
                + only.get()
                + " selects no case of the layers run; name a case as"
                + " method, Type#method or Type (docs/testing.md)");
        return 2;
      }
    }
    List<URL> urls = new ArrayList<>();
    for (String jar : jars) {
      Path path = Path.of(jar);
      if (!Files.exists(path)) {
        err.println("conformance: --jar " + jar + " does not exist");
        return 2;
      }
      try {
        urls.add(path.toUri().toURL());
      } catch (MalformedURLException e) {
        err.println(
            "conformance: --jar "
                + jar
                + " is not a path to a jar or a directory: "
                + e.getMessage());
        return 2;
      }
    }

    Thread thread = Thread.currentThread();
    ClassLoader previousLoader = thread.getContextClassLoader();
    URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), previousLoader);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(
        ChildClasspath.PROPERTY,
        String.join(
            File.pathSeparator,
            jars.stream().map(j -> Path.of(j).toAbsolutePath().toString()).toList()));
    properties.put(Seeds.PROPERTY, seed);
    Map<String, String> saved = new LinkedHashMap<>();
    thread.setContextClassLoader(loader);
    try {
      String fixture = given.getOrDefault("--fixture", "");
      String backend;
      if (!fixture.isEmpty()) {
        try {
          backend = ChildJvm.recreate(fixture).name();
        } catch (IllegalArgumentException | ClassCastException | LinkageError e) {
          Optional<String> missing =
              missingClass(e) // the fixture class itself missing: a mistyped --fixture
                  .filter(c -> !c.replace('/', '.').equals(fixture));
          err.println(
              missing.isPresent()
                  ? missingClassLine(missing.get(), "the fixture " + fixture)
                  : "conformance: --fixture " + fixture + ": " + e.getMessage());
          return 2;
        }
        properties.put(NamedBackendEngineSuite.FIXTURE_PROPERTY, fixture);
      } else {
        backend = given.getOrDefault("--backend", DEFAULT_BACKEND);
        List<String> available;
        try {
          available = StoreProvider.available();
        } catch (ServiceConfigurationError | LinkageError e) {
          Optional<String> missing = missingClass(e);
          err.println(
              missing.isPresent()
                  ? missingClassLine(missing.get(), "a backend's provider")
                  : "conformance: a backend's provider cannot be loaded: "
                      + e.getMessage().replace('\n', ' '));
          return 2;
        }
        if (!available.contains(backend)) {
          err.println(
              "conformance: no backend named '"
                  + backend
                  + "' on the classpath; available: "
                  + available);
          return 2;
        }
        properties.put(NamedBackendEngineSuite.BACKEND_PROPERTY, backend);
        properties.put(NamedBackendEngineSuite.FIXTURE_PROPERTY, "");
        storeOptions.forEach((k, v) -> properties.put(ProviderFixture.OPTION_PREFIX + k, v));
      }
      properties.forEach((k, v) -> saved.put(k, System.getProperty(k)));
      properties.forEach(System::setProperty);
      return runLayers(
          backend, tries, layers, only, replayArguments(given, jars, storeOptions), out, err);
    } finally {
      saved.forEach(
          (k, v) -> {
            if (v == null) {
              System.clearProperty(k);
            } else {
              System.setProperty(k, v);
            }
          });
      thread.setContextClassLoader(previousLoader);
      try {
        loader.close();
      } catch (IOException e) {
        err.println("conformance: could not close the class loader of --jar: " + e.getMessage());
      }
    }
  }

  private static int runLayers(
      String backend,
      String tries,
      Map<String, Class<?>> layers,
      Optional<CaseSelection> only,
      String replay,
      PrintStream out,
      PrintStream err) {
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

    boolean failed = false;
    try {
      out.println(
          "ankusa-store conformance: backend "
              + backend
              + ", "
              + tries
              + " tries per property"
              + only.map(o -> ", only " + o).orElse("")
              + (System.getProperty(Seeds.PROPERTY, "").isBlank()
                  ? ""
                  : ", seed " + System.getProperty(Seeds.PROPERTY)));
      for (Map.Entry<String, Class<?>> layer : layers.entrySet()) {
        SuiteRun run =
            only.isPresent()
                ? SuiteRun.run(layer.getValue(), only.get(), configuration)
                : SuiteRun.run(layer.getValue(), configuration);
        failed |= run.count(Outcome.FAILED) > 0;
        print(layer.getKey(), run, replay, out);
        Optional<String> missing =
            run.cases().stream()
                .filter(c -> c.outcome() == Outcome.FAILED)
                .map(c -> MISSING_CLASS.matcher(c.message()))
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .findFirst();
        if (missing.isPresent()) {
          out.println("RESULT: STOPPED (a class is missing from the classpath)");
          err.println(missingClassLine(missing.get(), "the backend"));
          return 2;
        }
      }
    } finally {
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

  /**
   * The class a {@code NoClassDefFoundError} or {@code ClassNotFoundException} in {@code e}'s
   * causes names.
   */
  private static Optional<String> missingClass(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth < 20; t = t.getCause(), depth++) {
      if (t instanceof NoClassDefFoundError || t instanceof ClassNotFoundException) {
        Matcher m = MISSING_CLASS.matcher(t.getClass().getSimpleName() + ": " + t.getMessage());
        return m.find()
            ? Optional.of(m.group(1))
            : Optional.empty(); // not "Could not initialize class": a bug
      }
    }
    return Optional.empty();
  }

  /**
   * The line that says {@code who} needs {@code className}, which the classpath lacks, and how to
   * give it.
   */
  private static String missingClassLine(String className, String who) {
    return "conformance: "
        + who
        + " needs the class "
        + className.replace('/', '.')
        + ", which is not on the"
        + " classpath: --jar takes the backend's whole classpath, its classes and every jar they need, joined with"
        + " '"
        + File.pathSeparator
        + "' (in its Maven project: mvn dependency:build-classpath -Dmdep.includeScope=test;"
        + " docs/writing-a-backend.md)";
  }

  /**
   * The arguments that repeat a run in a replay command: backend (and its options) or fixture, the
   * jars, the tries.
   */
  private static String replayArguments(
      Map<String, String> given, List<String> jars, Map<String, String> options) {
    StringBuilder b = new StringBuilder("conformance");
    if (given.containsKey("--fixture")) {
      b.append(" --fixture ").append(given.get("--fixture"));
    } else {
      b.append(" --backend ").append(given.getOrDefault("--backend", DEFAULT_BACKEND));
      options.forEach((k, v) -> b.append(" --option ").append(k).append('=').append(v));
    }
    jars.forEach(j -> b.append(" --jar ").append(Path.of(j).toAbsolutePath()));
    if (given.containsKey(
        "--tries")) { // the same tries: jqwik's tries follow one another from the seed
      b.append(" --tries ").append(given.get("--tries"));
    }
    return b.toString();
  }

  private static void print(String layer, SuiteRun run, String replay, PrintStream out) {
    out.printf(
        "layer %-10s cases run %3d   passed %3d   failed %3d   unverified %3d%n",
        layer,
        run.cases().size(),
        run.count(Outcome.PASSED),
        run.count(Outcome.FAILED),
        run.count(Outcome.SKIPPED));
    for (CaseResult c : run.cases()) {
      if (c.outcome() == Outcome.FAILED) {
        out.println("  FAILED  " + c.property() + ": " + c.message());
        if (c.replay() != null) {
          out.println(
              "          replay: "
                  + replay
                  + " --layer "
                  + layer
                  + " --only "
                  + c.property()
                  + (c.replay().seed() == null ? "" : " --seed " + c.replay().seed()));
        }
      }
    }
    for (CaseResult c : run.cases()) {
      if (c.outcome() == Outcome.SKIPPED) {
        out.println("  " + UnverifiedPromiseReport.line(c.property(), c.message()));
      }
    }
  }
}
