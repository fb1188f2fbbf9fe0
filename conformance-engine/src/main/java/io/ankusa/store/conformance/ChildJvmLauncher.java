package io.ankusa.store.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starting another JVM from this one: the one place the project does it (the suite's crash, lock,
 * durability and migration children, the backends' kill tests, the CLI tests' holder process, the
 * archive's kill test, the damage table). A tool of tests, not of backends: it lives in the suite's
 * engine module, as {@link FileTrees} does, which every module that starts a child JVM has on its
 * (test) classpath.
 *
 * <p>Each child gets a temporary directory of its own as its {@code java.io.tmpdir}, deleted when
 * the child ends. RocksJava and lmdbjava copy their native library into the temporary directory
 * when they load and delete the copy at a normal exit. A child that is killed (the durability and
 * crash tests kill theirs with SIGKILL) cannot, and each kill used to leave a copy (17 MB for
 * RocksDB) in the machine's shared temporary directory. Whatever else a child leaves in its
 * temporary directory goes too: a child's output meant to outlive it belongs in a path its parent
 * names. A child still running when this JVM exits keeps its directory (the JDK runs nothing for it
 * then).
 */
public final class ChildJvmLauncher {
  /** The prefix of a child's temporary directory, made in this JVM's {@code java.io.tmpdir}. */
  static final String TEMP_PREFIX = "ankusa-child-";

  private ChildJvmLauncher() {}

  /** The {@code java} launcher of this JVM's installation: what a child's command starts with. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * Starts {@code builder}'s command with a temporary directory of the child's own added as its
   * first JVM option, and deletes the directory when the child ends (on the JDK's process reaper
   * thread, as the child's exit is seen). {@code builder}'s command is left as it was.
   *
   * <p>REQUIRES: the command starts with {@link #java()}.
   *
   * @throws IllegalArgumentException if the command does not start with {@link #java()}
   * @throws IOException if the directory cannot be made or the process cannot start (the directory
   *     is deleted)
   */
  public static Process start(ProcessBuilder builder) throws IOException {
    List<String> command = builder.command();
    if (command.isEmpty() || !command.get(0).equals(java())) {
      throw new IllegalArgumentException(
          "a child JVM's command starts with ChildJvmLauncher.java() ("
              + java()
              + "); this one is "
              + command);
    }
    Path temp = Files.createTempDirectory(TEMP_PREFIX);
    List<String> withTemp = new ArrayList<>(command);
    withTemp.add(1, "-Djava.io.tmpdir=" + temp);
    Process child;
    try {
      child = builder.command(withTemp).start();
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    } finally {
      builder.command(command);
    }
    child.onExit().whenComplete((ended, failure) -> deleteQuietly(temp));
    return child;
  }

  /**
   * Deletes a child's temporary directory. A failure is dropped: the directory holds nothing anyone
   * reads, and the thread that sees a child end (the JDK's process reaper) has nobody to tell.
   */
  private static void deleteQuietly(Path temp) {
    try {
      FileTrees.deleteRecursively(temp);
    } catch (UncheckedIOException e) {
      // Nothing lost: see the method's comment.
    }
  }
}
