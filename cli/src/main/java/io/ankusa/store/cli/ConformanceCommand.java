package io.ankusa.store.cli;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.conformance.queue.ConformanceRunner;
import io.ankusa.store.postgres.embedded.EmbeddedServer;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ankusa-store conformance}: the suite against any backend on the classpath, or one whose
 * classpath is given with {@code --jar}; the arguments are {@link ConformanceRunner}'s. {@code
 * --jar} takes the backend's whole classpath (its classes and every jar they need): a class missing
 * from it is bad input, named by the runner, not a failed property.
 */
@Command(
    name = "conformance",
    description = {
      "Run the conformance suite against a backend and print a per-layer summary: engine, layout, transition,"
          + " dispatch, migration, durability. A failing case prints the command that replays it"
          + " (--layer, --only, --seed).",
      "An outside backend: --jar its whole classpath (its classes and every jar they need, joined with ':') and"
          + " --backend its provider's name, or --fixture its fixture class (which also gives the suite its"
          + " options and damage hooks). What both classpaths hold (the SPI, the suite, JUnit, jqwik) comes from"
          + " this command's own; a class the backend needs and --jar lacks is bad input (exit 2), named."
    },
    footer = {
      "From the backend's Maven project:",
      "  mvn -q test-compile dependency:build-classpath \\",
      "    -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath",
      "  ankusa-store conformance --fixture CLASS \\",
      "    --jar \"target/classes:target/test-classes:$(cat target/test.classpath)\""
    })
final class ConformanceCommand implements Callable<Integer> {
  @Option(
      names = "--backend",
      description =
          "rocksdb, lmdb, postgres, memory, or any backend on the classpath or in a --jar (default: rocksdb unless --fixture is given)")
  String backend;

  @Option(
      names = "--option",
      paramLabel = "KEY=VALUE",
      description =
          "a store option the generic fixture of --backend"
              + " opens every store with (repeatable), e.g. postgres.url=jdbc:postgresql://HOST:PORT/DB; --backend postgres"
              + " without it runs on an embedded server started for the run")
  List<String> options = new ArrayList<>();

  @Option(
      names = "--fixture",
      paramLabel = "CLASS",
      description =
          "a BackendFixture class (no-arg constructor) to run instead of the generic fixture of --backend")
  String fixture;

  @Option(
      names = "--jar",
      paramLabel = "PATH",
      description =
          "the backend's classpath: its jars and class directories and every jar they need (repeatable, or joined with ':'), loaded before the backend is looked up; the durability and migration layers' child JVMs get it too")
  List<String> jars = new ArrayList<>();

  @Option(
      names = "--layer",
      paramLabel = "NAME[,NAME]",
      description =
          "only these layers: engine, layout, transition, dispatch, migration, durability (default: all)")
  String layers;

  @Option(
      names = "--only",
      paramLabel = "CASES",
      description =
          "only these cases, comma-separated: method, Type#method (EngineConformance#modelBasedRandomBatches, Engine#…) or Type (default: the system property ankusa.conformance.only, else all)")
  String only;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description =
          "pin every seed of the suite, jqwik's included, to replay a failure (default: the system property ankusa.seed, else random)")
  String seed;

  @Option(names = "--tries", paramLabel = "N", description = "tries per property (default: 60)")
  String tries;

  @Override
  public Integer call() throws IOException {
    if (fixture == null && jars.isEmpty()) {
      StoreProvider.named(
          backend == null
              ? "rocksdb"
              : backend); // an unknown backend is bad input, said on this command's stderr
    }
    List<String> args = new ArrayList<>();
    add(args, "--backend", backend);
    options.forEach(option -> add(args, "--option", option));
    add(args, "--fixture", fixture);
    jars.forEach(jar -> add(args, "--jar", jar));
    add(args, "--layer", layers);
    add(args, "--only", only);
    add(args, "--seed", seed);
    add(args, "--tries", tries);
    PrintStream out = new PrintStream(System.out, true, "UTF-8");
    PrintStream err = new PrintStream(System.err, true, "UTF-8");
    if (!"postgres".equals(backend)
        || fixture != null
        || options.stream().anyMatch(o -> o.startsWith("postgres.url="))) {
      return ConformanceRunner.run(args.toArray(String[]::new), out, err);
    }
    // The postgres backend starts no server: the run brings one, with fsync off as the backend's
    // own tests
    // do (a commit still reaches the operating system, so a killed child loses nothing committed).
    Path data = Files.createTempDirectory("ankusa-conformance-postgres-");
    out.println(
        "conformance: --backend postgres without postgres.url: an embedded server for the run, data in "
            + data);
    try (EmbeddedServer server = EmbeddedServer.start(data, 0, false)) {
      add(args, "--option", "postgres.url=" + server.url());
      add(args, "--option", "postgres.user=" + server.user());
      return ConformanceRunner.run(args.toArray(String[]::new), out, err);
    } finally {
      FileTrees.deleteRecursively(data);
    }
  }

  private static void add(List<String> args, String option, String value) {
    if (value != null) {
      args.add(option);
      args.add(value);
    }
  }
}
