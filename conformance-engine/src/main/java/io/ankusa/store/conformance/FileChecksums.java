package io.ankusa.store.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Every entry under a directory with its size and SHA-256 (directories and symlinks listed by
 * kind): what the suite compares before and after an open that must change no file.
 *
 * @param root the directory listed
 * @param entries relative path to {@code "size sha256"}, {@code "dir"} or {@code "link -> target"}
 */
public record FileChecksums(Path root, SortedMap<String, String> entries) {

  /** Lists {@code root} now; a missing {@code root} lists as {@code <missing>}. */
  public static FileChecksums of(Path root) {
    SortedMap<String, String> entries = new TreeMap<>();
    if (!Files.exists(root)) {
      entries.put(".", "<missing>");
      return new FileChecksums(root, entries);
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.toList()) {
        String name = root.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          entries.put(name, "link -> " + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p)) {
          entries.put(name.isEmpty() ? "." : name, "dir");
        } else {
          entries.put(name, Files.size(p) + " " + sha256(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    return new FileChecksums(root, entries);
  }

  /** How {@code after} differs from this listing, one line per entry; empty when they are equal. */
  public List<String> differences(FileChecksums after) {
    List<String> out = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(entries.keySet());
    names.addAll(after.entries.keySet());
    for (String n : names) {
      String was = entries.get(n);
      String now = after.entries.get(n);
      if (was == null) {
        out.add("created " + n + " (" + now + ")");
      } else if (now == null) {
        out.add("removed " + n);
      } else if (!was.equals(now)) {
        out.add("changed " + n + " (" + was + " -> " + now + ")");
      }
    }
    return out;
  }

  /** The number of regular files listed. */
  public long fileCount() {
    return entries.values().stream()
        .filter(v -> !v.equals("dir") && !v.startsWith("link") && !v.startsWith("<"))
        .count();
  }

  private static String sha256(Path file) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        digest.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
