package io.ankusa.store.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A directory whose power the suite can cut: {@code cutfs}, a FUSE file system that passes every
 * call through to real files and keeps apart what a power cut would leave of them — each file's
 * content as of its last {@code fsync}/{@code fdatasync}/{@code msync} (or write through an {@code
 * O_SYNC}, {@code O_DSYNC} or {@code O_DIRECT} descriptor), each directory's entries as of its last
 * {@code fsync}. {@link #cut()} replaces the live tree by that state and drops the rest, file by
 * file (docs/testing.md, "Power cuts", has the semantics and why a FUSE file system).
 *
 * <p>The program ships as C source with the suite ({@value #SOURCE}) and is compiled with {@code
 * gcc} against libfuse3 on first use, into {@code target/powercut/bin} of the module under test; it
 * is mounted under {@code target/powercut/} too. REQUIRES: Linux, {@code /dev/fuse}, root (to
 * mount), gcc and the libfuse3 headers (Debian: {@code fuse3 libfuse3-dev}). {@link #unavailable()}
 * says which is missing; the power-cut case then ends unverified with that reason.
 *
 * <p>Ownership: the caller that {@link #mount mounted} it closes it, which unmounts it and deletes
 * its files; a mount left by a JVM that died is unmounted by the program itself (it exits when its
 * parent does) and by the next {@link #mount} under the same directory (lazily, as {@code umount
 * -l}). A JVM shutdown hook unmounts what is still mounted at exit. Not thread-safe: one case
 * drives it; a cut REQUIRES that no process still has a file under {@link #root()} open (a
 * descriptor opened before the cut fails with EIO after it).
 */
public final class PowerCutFileSystem implements AutoCloseable {
  /** The C source of the file system, a resource beside this class. */
  static final String SOURCE = "cutfs.c";

  /** The file under the mount point that takes commands and reports counters. */
  private static final String CONTROL = ".cutfs";

  private static final long MOUNT_SECONDS = 20;
  private static final Set<PowerCutFileSystem> MOUNTED = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> List.copyOf(MOUNTED).forEach(PowerCutFileSystem::close),
                "ankusa-powercut-unmount"));
  }

  /**
   * What {@code cutfs} counted: {@code cuts} so far, syncs it saw since it was mounted, and what
   * the last cut dropped (bytes of pages written since their file's last sync, files no synced
   * directory entry reached) and kept.
   */
  public record Counters(
      long cuts,
      long fsyncs,
      long directoryFsyncs,
      long syncWrites,
      long lastCutDroppedBytes,
      long lastCutVanishedFiles,
      long lastCutKeptFiles) {
    static Counters parse(String text) {
      Map<String, Long> values = new HashMap<>();
      for (String line : text.split("\n")) {
        String[] f = line.strip().split(" ");
        if (f.length == 2) {
          values.put(f[0], Long.parseLong(f[1]));
        }
      }
      return new Counters(
          values.getOrDefault("cuts", 0L),
          values.getOrDefault("fsyncs", 0L),
          values.getOrDefault("directory_fsyncs", 0L),
          values.getOrDefault("sync_writes", 0L),
          values.getOrDefault("last_cut_dropped_bytes", 0L),
          values.getOrDefault("last_cut_vanished_files", 0L),
          values.getOrDefault("last_cut_kept_files", 0L));
    }
  }

  private final Path run;
  private final Path mountPoint;
  private final Process daemon;

  private PowerCutFileSystem(Path run, Path mountPoint, Process daemon) {
    this.run = run;
    this.mountPoint = mountPoint;
    this.daemon = daemon;
  }

  /** Where the suite mounts and builds it: {@code target/powercut} of the module under test. */
  public static Path workDirectory() {
    return Path.of(System.getProperty("basedir", "."))
        .toAbsolutePath()
        .normalize()
        .resolve("target")
        .resolve("powercut");
  }

  /**
   * Why a power cut cannot run on this machine, or empty when it can (the mount may still fail).
   */
  public static Optional<String> unavailable() {
    if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
      return Optional.of("power cuts need Linux's FUSE; this is " + System.getProperty("os.name"));
    }
    if (!Files.exists(Path.of("/dev/fuse"))) {
      return Optional.of(
          "there is no /dev/fuse (a container without the FUSE device, or a kernel without FUSE)");
    }
    try {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      if (!Integer.valueOf(0).equals(uid)) {
        return Optional.of(
            "mounting the power-cut file system needs root; this JVM runs as uid " + uid);
      }
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of("cannot tell whether this JVM runs as root: " + e);
    }
    if (onPath("gcc").isEmpty()) {
      return Optional.of(
          "gcc is not installed; it compiles the power-cut file system (apt-get install gcc)");
    }
    if (!Files.exists(Path.of("/usr/include/fuse3/fuse.h"))) {
      return Optional.of(
          "the libfuse3 headers are not installed (apt-get install fuse3 libfuse3-dev)");
    }
    return Optional.empty();
  }

  /**
   * Compiles {@code cutfs} when needed and mounts a new, empty instance under {@code work}, after
   * unmounting what a dead JVM left there. What the returned root holds counts as durable until the
   * first write.
   *
   * @throws IllegalStateException if it cannot be compiled or mounted; the message has the
   *     compiler's or the program's output
   */
  public static PowerCutFileSystem mount(Path work) {
    try {
      Files.createDirectories(work);
      clearStaleMounts(work);
      Path binary = compile(work.resolve("bin"));
      Path run = Files.createTempDirectory(work, "run-");
      Path state = Files.createDirectory(run.resolve("state"));
      Path mountPoint = Files.createDirectory(run.resolve("mnt"));
      Path log = run.resolve("cutfs.log");
      Process daemon =
          new ProcessBuilder(
                  binary.toString(),
                  state.toString(),
                  mountPoint.toString(),
                  "-f",
                  "-s",
                  "-o",
                  "allow_other,fsname=cutfs,subtype=ankusa")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      PowerCutFileSystem fs = new PowerCutFileSystem(run, mountPoint, daemon);
      MOUNTED.add(fs);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MOUNT_SECONDS);
      while (!Files.exists(mountPoint.resolve(CONTROL))) {
        if (!daemon.isAlive() || System.nanoTime() > deadline) {
          String said = Files.exists(log) ? Files.readString(log).strip() : "";
          fs.close();
          throw new IllegalStateException(
              "cannot mount the power-cut file system on "
                  + mountPoint
                  + ": "
                  + (daemon.isAlive()
                      ? "not mounted within " + MOUNT_SECONDS + " s"
                      : "cutfs exited with " + daemon.exitValue())
                  + (said.isEmpty() ? "" : "; it said: " + said));
        }
        Thread.sleep(5);
      }
      return fs;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot mount the power-cut file system under " + work, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while mounting the power-cut file system", e);
    }
  }

  /** The mount point: what is written below it can be lost at a {@link #cut()}. */
  public Path root() {
    return mountPoint;
  }

  /**
   * Cuts the power: below {@link #root()}, every file holds what it held at its last sync and every
   * directory the entries it had at its last sync; the rest is gone. REQUIRES: no process has a
   * file below the root open (kill the writers first).
   */
  public Counters cut() {
    command("cut");
    return counters();
  }

  /**
   * Makes everything below the root durable, as a sync of the whole machine would (set-up, not a
   * test).
   */
  public void syncAll() {
    command("syncall");
  }

  /** What the file system counted so far. */
  public Counters counters() {
    try {
      return Counters.parse(Files.readString(mountPoint.resolve(CONTROL)));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the counters of the power-cut file system on " + mountPoint, e);
    }
  }

  /**
   * Syncs the directory {@code dir} (its entries), as an application that created something in it
   * would.
   */
  public static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot sync the directory " + dir, e);
    }
  }

  private void command(String command) {
    try {
      Files.writeString(mountPoint.resolve(CONTROL), command, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalStateException(
          "the power-cut file system on "
              + mountPoint
              + " refused '"
              + command
              + "': "
              + e
              + "; its log: "
              + logTail(),
          e);
    }
  }

  /**
   * What the last cut did, file by file (lost files, unsynced pages dropped), at most {@code max}
   * lines: for the message of a case that failed after it.
   */
  public String lastCutLog(int max) {
    try {
      String prefix = "cut " + counters().cuts() + ": ";
      List<String> lines =
          Files.readAllLines(run.resolve("cutfs.log")).stream()
              .filter(l -> l.startsWith(prefix))
              .map(l -> l.substring(prefix.length()))
              .toList();
      String shown = String.join("; ", lines.subList(0, Math.min(max, lines.size())));
      return lines.size() > max ? shown + "; and " + (lines.size() - max) + " more" : shown;
    } catch (IOException | RuntimeException e) {
      return "(the log of the cut is unreadable: " + e + ")";
    }
  }

  private String logTail() {
    try {
      String log = Files.readString(run.resolve("cutfs.log")).strip();
      return log.isEmpty() ? "(empty)" : log.substring(Math.max(0, log.length() - 2000));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /**
   * Unmounts (the program unmounts as it exits; a lazy unmount if it did not) and deletes its
   * files. Idempotent.
   */
  @Override
  public void close() {
    if (!MOUNTED.remove(this)) {
      return;
    }
    daemon.destroy();
    try {
      if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
        daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (mounted().contains(mountPoint.toString())) {
      lazyUnmount(mountPoint);
    }
    FileTrees.deleteRecursively(run);
  }

  // ---------------------------------------------------------------- building and mounting

  /**
   * Lazily unmounts every mount under {@code work} (left by a JVM that died) and deletes their
   * runs.
   */
  private static void clearStaleMounts(Path work) throws IOException {
    Set<PowerCutFileSystem> ours = Set.copyOf(MOUNTED);
    for (String point : mounted()) {
      if (point.startsWith(work + "/")
          && ours.stream().noneMatch(m -> m.mountPoint.toString().equals(point))) {
        lazyUnmount(Path.of(point));
      }
    }
    try (var runs = Files.list(work)) {
      for (Path old : runs.filter(p -> p.getFileName().toString().startsWith("run-")).toList()) {
        if (ours.stream().noneMatch(m -> m.run.equals(old))) {
          FileTrees.deleteRecursively(old);
        }
      }
    }
  }

  private static void lazyUnmount(Path mountPoint) {
    for (List<String> command :
        List.of(
            List.of("fusermount3", "-u", "-z", mountPoint.toString()),
            List.of("umount", "-l", mountPoint.toString()))) {
      try {
        Process p =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return;
        }
      } catch (IOException e) {
        // that tool is not installed: try the next
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The mount points of this machine's mount namespace, from {@code /proc/self/mountinfo}. */
  private static List<String> mounted() {
    List<String> points = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        String[] f = line.split(" ");
        if (f.length > 4) {
          points.add(f[4].replace("\\040", " "));
        }
      }
    } catch (IOException e) {
      // no mountinfo: nothing we can unmount either
    }
    return points;
  }

  /** The binary of the shipped source, compiled once per content into {@code bin}. */
  private static Path compile(Path bin) throws IOException, InterruptedException {
    byte[] source;
    try (InputStream in = PowerCutFileSystem.class.getResourceAsStream(SOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            SOURCE + " is missing beside " + PowerCutFileSystem.class.getName());
      }
      source = in.readAllBytes();
    }
    Path binary = bin.resolve("cutfs-" + sha256(source).substring(0, 16));
    if (Files.isExecutable(binary)) {
      return binary;
    }
    Files.createDirectories(bin);
    Path src = Files.createTempFile(bin, "cutfs-", ".c");
    Path out = Files.createTempFile(bin, "cutfs-", ".out");
    try {
      Files.write(src, source);
      List<String> command =
          new ArrayList<>(List.of("gcc", "-O2", "-Wall", "-o", out.toString(), src.toString()));
      command.addAll(fuseFlags());
      Process gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
      String said = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!gcc.waitFor(120, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
        throw new IllegalStateException(
            "cannot compile the power-cut file system ("
                + String.join(" ", command)
                + "): "
                + said);
      }
      Files.move(out, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return binary;
    } finally {
      Files.deleteIfExists(src);
      Files.deleteIfExists(out);
    }
  }

  /** libfuse3's compiler flags: from pkg-config when installed, else Debian's paths. */
  private static List<String> fuseFlags() {
    try {
      Process p =
          new ProcessBuilder("pkg-config", "--cflags", "--libs", "fuse3")
              .redirectErrorStream(true)
              .start();
      String flags = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && !flags.isEmpty()) {
        return List.of(flags.split("\\s+"));
      }
    } catch (IOException e) {
      // no pkg-config
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return List.of("-I/usr/include/fuse3", "-lfuse3", "-lpthread");
  }

  private static Optional<Path> onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir, program);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
