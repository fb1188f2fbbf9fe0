package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script ({@code ./ankusa-store} at the repository root) in a copy of its own, with
 * {@code mvn} and {@code java} replaced by stubs that record what they were given, so its first-run
 * build installs nothing: the build is quiet and plain (one progress line before, one after, on
 * stderr, without an escape character; Maven's colours and its console library's colour reset
 * turned off), then the CLI runs with the arguments; a built tree is not built again; a failed
 * build runs nothing.
 */
class LauncherScriptTest {
  @TempDir Path root;
  private Path bin;

  @BeforeEach
  void copyTheLauncherBesideStubs() throws IOException {
    Path script = Path.of("..", "ankusa-store").toAbsolutePath().normalize();
    assertThat(script).as("the launcher, seen from the cli module").isRegularFile();
    Files.copy(script, root.resolve("ankusa-store"));
    executable(root.resolve("ankusa-store"));
    Files.createDirectories(root.resolve("cli/src/main/java"));
    Files.writeString(root.resolve("cli/src/main/java/A.java"), "class A {}\n");
    bin = Files.createDirectories(root.resolve("stub-bin"));
    stub("java", "echo \"java $*\"\n");
    buildingStub(0);
  }

  @Test
  void theFirstRunBuildsQuietlyAndPlainlyThenRunsTheCommand() throws Exception {
    Run first = launch("demo", "--help");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.err().lines().toList())
        .containsExactly(
            "ankusa-store: building the project first (mvn -B -q install -DskipTests; a few minutes) ...",
            "ankusa-store: built");
    assertThat(first.err() + first.out()).doesNotContain("\u001b");
    List<String> mvn = Files.readAllLines(root.resolve("mvn.log"));
    assertThat(mvn.get(0).split(" "))
        .contains(
            "-B", "-q", "--no-transfer-progress", "-Dstyle.color=never", "install", "-DskipTests");
    assertThat(mvn.get(1))
        .as("MAVEN_OPTS")
        .contains("-Djansi.noreset=true")
        .contains("-Dfrom.the.user=1");
    assertThat(first.out())
        .startsWith("java ")
        .endsWith(" io.ankusa.store.cli.AnkusaStore demo --help\n");

    Files.delete(root.resolve("mvn.log"));
    Run second = launch("--version");
    assertThat(second.code()).isZero();
    assertThat(second.err()).as("built and unchanged: no build").isEmpty();
    assertThat(root.resolve("mvn.log")).doesNotExist();
    assertThat(second.out()).endsWith(" io.ankusa.store.cli.AnkusaStore --version\n");
  }

  @Test
  void aFailedBuildRunsNothing() throws Exception {
    buildingStub(1);
    Run run = launch("demo");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .endsWith("ankusa-store: the build failed (its errors are above); nothing was run\n");
    assertThat(run.out()).isEmpty();
  }

  /**
   * A stub {@code mvn} that logs its arguments and MAVEN_OPTS, then builds (the files the launcher
   * reads) or fails.
   */
  private void buildingStub(int exit) throws IOException {
    stub(
        "mvn",
        "printf '%s\\n' \"$*\" \"${MAVEN_OPTS:-}\" > \"$PWD/mvn.log\"\n"
            + (exit == 0
                ? "mkdir -p cli/target/classes && echo /nowhere.jar > cli/target/launcher.classpath\n"
                : "echo '[ERROR] the stub build failed'\n")
            + "exit "
            + exit
            + "\n");
  }

  private void stub(String name, String body) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/usr/bin/env bash\n" + body);
    executable(file);
  }

  private static void executable(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private record Run(int code, String out, String err) {}

  private Run launch(String... args) throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(concat(root.resolve("ankusa-store").toString(), args))
            .directory(root.toFile());
    Map<String, String> env = pb.environment();
    env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("MAVEN_OPTS", "-Dfrom.the.user=1");
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out, err);
  }

  private static String[] concat(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
