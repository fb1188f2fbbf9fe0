package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A child JVM's temporary directory is its own, and goes when the child ends, killed or not. */
class ChildJvmLauncherTest {

  /**
   * The child: makes a temporary file as a native library loader does, prints its path, then waits
   * or exits.
   */
  public static final class TempFileChild {
    public static void main(String[] args) throws Exception {
      File made = File.createTempFile("native-library-", ".so");
      made.deleteOnExit();
      System.out.println(made.getAbsolutePath());
      System.out.flush();
      if (args.length > 0 && args[0].equals("wait")) {
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
      }
    }
  }

  @Test
  void aKilledChildsTemporaryFilesGoWithIt() throws Exception {
    Process child = start("wait");
    Path made = firstLine(child);
    assertThat(made).as("the child's temporary file").exists();
    assertThat(made.getParent().getFileName().toString()).startsWith(ChildJvmLauncher.TEMP_PREFIX);
    assertThat(made.getParent().getParent())
        .as("the child's temporary directory is made in this JVM's")
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
    child.destroyForcibly(); // SIGKILL: the child's deleteOnExit never runs
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
    assertGone(made.getParent());
  }

  @Test
  void aChildThatExitsLeavesNothingEither() throws Exception {
    Process child = start();
    Path made = firstLine(child);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
    assertThat(child.exitValue()).isZero();
    assertGone(made.getParent());
  }

  @Test
  void theBuildersCommandIsLeftAsItWas() throws Exception {
    ProcessBuilder builder = builder();
    List<String> before = List.copyOf(builder.command());
    Process child = ChildJvmLauncher.start(builder);
    assertThat(builder.command()).isEqualTo(before);
    Path made = firstLine(child);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    // The directory goes on the reaper thread after the child ends: wait for it, or a test that
    // counts
    // the child directories next would see this one vanish mid-count.
    assertGone(made.getParent());
  }

  @Test
  void aCommandThatIsNotThisJavaIsRefusedAndMakesNoDirectory() throws IOException {
    long before = childDirectories();
    assertThatThrownBy(() -> ChildJvmLauncher.start(new ProcessBuilder("sh", "-c", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ChildJvmLauncher.java()")
        .hasMessageContaining("[sh, -c, true]");
    assertThat(childDirectories()).isEqualTo(before);
  }

  private static ProcessBuilder builder(String... args) {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                ChildJvmLauncher.java(),
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                TempFileChild.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
  }

  private static Process start(String... args) throws IOException {
    return ChildJvmLauncher.start(builder(args));
  }

  private static Path firstLine(Process child) throws IOException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the child printed its temporary file").isNotNull();
    return Path.of(line);
  }

  /**
   * The directory is deleted by the process reaper right after the child ends: waits for it, 10 s
   * at most.
   */
  private static void assertGone(Path dir) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.exists(dir) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(dir).as("the child's temporary directory after it ended").doesNotExist();
  }

  private static long childDirectories() throws IOException {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.filter(p -> p.getFileName().toString().startsWith(ChildJvmLauncher.TEMP_PREFIX))
          .count();
    }
  }
}
