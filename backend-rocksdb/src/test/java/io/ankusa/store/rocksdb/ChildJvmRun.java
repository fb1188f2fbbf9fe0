package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.ChildJvmLauncher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test's {@code main} class in a child JVM of its own, on this JVM's class path, and hands
 * back what it printed: for tests whose JVM must be set up apart (capped direct memory, a fixed
 * heap) or must not carry what earlier test classes left behind.
 */
final class ChildJvmRun {
  private ChildJvmRun() {}

  /**
   * Runs {@code main} with the JVM flags {@code jvmFlags} and the program arguments {@code args};
   * asserts it finished within {@code timeoutSeconds} with exit code 0, and returns its standard
   * output and error, merged.
   */
  static String output(Class<?> main, List<String> jvmFlags, int timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ChildJvmLauncher.java());
    command.addAll(jvmFlags);
    command.addAll(
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "-XX:+IgnoreUnrecognizedVMOptions",
            "-cp",
            System.getProperty("java.class.path"),
            main.getName()));
    command.addAll(List.of(args));
    Process child = ChildJvmLauncher.start(new ProcessBuilder(command).redirectErrorStream(true));
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(timeoutSeconds, TimeUnit.SECONDS)).as("the child finished").isTrue();
    assertThat(child.exitValue()).as("the child's exit code; its output:%n%s", output).isZero();
    return output;
  }
}
