package io.ankusa.store.conformance;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the engine layer starts another JVM on a store of the backend under test ({@link LockProbe},
 * {@link CrashKill}) and how that child opens the store: the same provider, directory, families and
 * the fixture's {@link BackendFixture#options() options}, on this JVM's classpath plus the
 * launcher's extra jars ({@link ChildClasspath}).
 *
 * <p>The child's arguments are {@code provider dir families [key=value …]}: {@code families} is a
 * comma-separated list of names, a name ending in {@code +} being a counters family.
 */
final class StoreChildProcess {
  private StoreChildProcess() {}

  /**
   * Starts {@code main} in a new JVM on the store {@code fixture} opens in {@code dir}; its
   * standard input and output are the returned process's streams, its standard error is discarded.
   */
  static Process start(Class<?> main, BackendFixture fixture, Path dir, List<FamilySpec> families) {
    return start(main, fixture, dir, families, Map.of());
  }

  /**
   * {@link #start(Class, BackendFixture, Path, List)} with {@code properties} as the child's system
   * properties.
   */
  static Process start(
      Class<?> main,
      BackendFixture fixture,
      Path dir,
      List<FamilySpec> families,
      Map<String, String> properties) {
    String java = ChildJvmLauncher.java();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-XX:+IgnoreUnrecognizedVMOptions",
                "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto"));
    properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.addAll(
        List.of(
            "-cp",
            ChildClasspath.get(),
            main.getName(),
            fixture.provider().name(),
            dir.toString(),
            String.join(
                ",", families.stream().map(f -> f.name() + (f.counters() ? "+" : "")).toList())));
    for (Map.Entry<String, String> e : fixture.options().properties().entrySet()) {
      command.add(e.getKey() + "=" + e.getValue());
    }
    try {
      return ChildJvmLauncher.start(
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + main.getSimpleName() + " in a child process", e);
    }
  }

  /** What a child was told to open: the arguments {@link #start} passed, parsed. */
  record Target(StoreProvider provider, Path dir, List<FamilySpec> families, StoreOptions options) {
    /** Parses the child's {@code args}. */
    static Target parse(String[] args) {
      List<FamilySpec> families = new ArrayList<>();
      for (String f : args[2].split(",")) {
        families.add(
            f.endsWith("+")
                ? FamilySpec.counters(f.substring(0, f.length() - 1), 0)
                : FamilySpec.plain(f));
      }
      StoreOptions options = StoreOptions.defaults();
      for (int i = 3; i < args.length; i++) {
        int eq = args[i].indexOf('=');
        options = options.with(args[i].substring(0, eq), args[i].substring(eq + 1));
      }
      return new Target(
          StoreProvider.named(args[0]), Path.of(args[1]), List.copyOf(families), options);
    }

    /** Opens the store. */
    Store open() {
      return provider.open(dir, options, families);
    }
  }
}
