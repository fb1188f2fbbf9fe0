package io.ankusa.store.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A directory this process may read but not write, made so in a way root cannot bypass: {@code
 * chattr +i} (immutable: no file created, removed or renamed in it) when running as root, mode
 * {@code r-x} otherwise. {@link #restore()} undoes it so the test's temporary directory can be
 * deleted. Where neither works (not root and no POSIX modes, or no {@code chattr} on the file
 * system) the test is aborted with the reason.
 */
final class ReadOnlyDirectory {
  private static final List<ReadOnlyDirectory> ACTIVE = new ArrayList<>();
  private final Path dir;
  private final boolean immutable;
  private final Set<PosixFilePermission> mode;

  private ReadOnlyDirectory(Path dir, boolean immutable, Set<PosixFilePermission> mode) {
    this.dir = dir;
    this.immutable = immutable;
    this.mode = mode;
  }

  static ReadOnlyDirectory deny(Path dir) throws IOException {
    boolean root = "root".equals(System.getProperty("user.name"));
    ReadOnlyDirectory d;
    if (root) {
      Assumptions.assumeTrue(
          chattr("+i", dir),
          "cannot make "
              + dir
              + " immutable (chattr +i failed): as root, no"
              + " other way to deny writes that root cannot bypass");
      d = new ReadOnlyDirectory(dir, true, null);
    } else {
      Set<PosixFilePermission> was = Files.getPosixFilePermissions(dir);
      Files.setPosixFilePermissions(
          dir, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
      d = new ReadOnlyDirectory(dir, false, was);
    }
    synchronized (ACTIVE) {
      ACTIVE.add(d);
    }
    return d;
  }

  void restore() throws IOException {
    if (immutable) {
      chattr("-i", dir);
    } else {
      Files.setPosixFilePermissions(dir, mode);
    }
    synchronized (ACTIVE) {
      ACTIVE.remove(this);
    }
  }

  static void restoreAll() {
    List<ReadOnlyDirectory> all;
    synchronized (ACTIVE) {
      all = new ArrayList<>(ACTIVE);
    }
    for (ReadOnlyDirectory d : all) {
      try {
        d.restore();
      } catch (IOException e) {
        // best effort: the temporary directory's deletion reports what is left
      }
    }
  }

  private static boolean chattr(String flag, Path dir) {
    try {
      Process p =
          new ProcessBuilder("chattr", flag, dir.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
