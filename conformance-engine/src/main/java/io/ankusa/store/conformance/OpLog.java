package io.ankusa.store.conformance;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The model property's rounds as a text file a person can read and edit, and a parser that reads it
 * back: what {@code modelBasedRandomBatches} writes when it fails and {@code ankusa-store replay}
 * re-runs against any backend ({@link ModelReplay}). One line per step and one per op:
 *
 * <pre>
 * # comment
 * options tiny-write-buffer rocksdb.writeBufferBytes=65536
 * step snapshot=no scan=00..ff probes=00,7f80
 * put plain 00 ab
 * delete plain 7f
 * deleteRange plain 00 80
 * merge counters 00 -5
 * step snapshot=yes scan=-..- probes=00 perturb=flush
 * ...
 * </pre>
 *
 * Bytes are lower-case hex, never cut; {@code -} is the empty array. {@code scan=LO..HI} is the
 * reverse scan checked after the batch, {@code probes} the keys of the multiGet and counter checks,
 * {@code snapshot=yes} a snapshot taken before the batch and compared after it, {@code perturb=}
 * the {@link Perturbation} done to the store before the batch ({@code flush}, {@code compact},
 * {@code reopen}; absent: none). The optional {@code options NAME KEY=VALUE…} line, before the
 * first step, names the {@link NamedOptions option set} the log was written under and its store
 * properties (absent: the default set, no properties). Step {@code i} (from 0) is written with
 * {@code NO_SYNC} when {@code i} is even and {@code SYNC} when odd, as the property does. A line
 * the parser does not understand is refused with its line number.
 */
public final class OpLog {
  private static final String EMPTY = "-";

  private OpLog() {}

  /**
   * An op log as read: the option set it was written under ({@link NamedOptions#DEFAULT} with no
   * properties when the file has no {@code options} line) and its rounds.
   */
  public record Log(NamedOptions optionSet, List<ModelRound> rounds) {}

  /** The text of {@code rounds}, with {@code header} as comment lines first. */
  public static String format(List<ModelRound> rounds, String header) {
    return format(rounds, null, header);
  }

  /**
   * The text of {@code rounds} written under {@code set} (null: no {@code options} line), with
   * {@code header} as comment lines first.
   */
  public static String format(List<ModelRound> rounds, NamedOptions set, String header) {
    StringBuilder sb = new StringBuilder();
    header.lines().forEach(l -> sb.append("# ").append(l).append('\n'));
    if (set != null) {
      sb.append("options ").append(set.name());
      set.options().properties().entrySet().stream()
          .sorted(java.util.Map.Entry.comparingByKey())
          .forEach(
              e -> {
                if (e.getKey().isEmpty()
                    || e.getKey().matches(".*[\\s=].*")
                    || e.getValue().matches(".*\\s.*")) {
                  throw new IllegalArgumentException(
                      "option "
                          + e.getKey()
                          + "='"
                          + e.getValue()
                          + "' cannot be written to an op log: keys hold no '=' or space, values no space");
                }
                sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
              });
      sb.append('\n');
    }
    for (ModelRound round : rounds) {
      sb.append("step snapshot=")
          .append(round.underSnapshot() ? "yes" : "no")
          .append(" scan=")
          .append(hex(round.lo()))
          .append("..")
          .append(hex(round.hi()))
          .append(" probes=")
          .append(String.join(",", round.probes().stream().map(OpLog::hex).toList()));
      if (round.before() != Perturbation.NONE) {
        sb.append(" perturb=").append(round.before().word());
      }
      sb.append('\n');
      round.ops().forEach(op -> sb.append(line(op)).append('\n'));
    }
    return sb.toString();
  }

  /** One op as its line. */
  public static String line(Op op) {
    return op.accept(
        new Op.Visitor<String>() {
          @Override
          public String put(Op.Put p) {
            return "put " + p.family() + " " + hex(p.key()) + " " + hex(p.value());
          }

          @Override
          public String delete(Op.Delete d) {
            return "delete " + d.family() + " " + hex(d.key());
          }

          @Override
          public String deleteRange(Op.DeleteRange r) {
            return "deleteRange " + r.family() + " " + hex(r.lo()) + " " + hex(r.hi());
          }

          @Override
          public String merge(Op.Merge m) {
            return "merge " + m.family() + " " + hex(m.key()) + " " + m.delta();
          }
        });
  }

  /** Writes {@code rounds} to {@code file} (its directory is created), replacing what was there. */
  public static Path write(Path file, List<ModelRound> rounds, String header) {
    return write(file, rounds, null, header);
  }

  /**
   * Writes {@code rounds}, written under {@code set} (null: no {@code options} line), to {@code
   * file} (its directory is created), replacing what was there.
   */
  public static Path write(Path file, List<ModelRound> rounds, NamedOptions set, String header) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, format(rounds, set, header), StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the op log " + file, e);
    }
  }

  /** Reads an op log file; a bad line is refused with {@link StoreArgumentException} naming it. */
  public static List<ModelRound> read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /** Reads an op log file with its option set; a bad line is refused as {@link #read} does. */
  public static Log readLog(Path file) throws IOException {
    return parseLog(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /** Parses op log text; {@code source} names it in errors. */
  public static List<ModelRound> parse(String text, String source) {
    return parseLog(text, source).rounds();
  }

  /** Parses op log text with its option set; {@code source} names it in errors. */
  public static Log parseLog(String text, String source) {
    NamedOptions set = null;
    List<ModelRound> rounds = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    StepHeader step = null;
    List<Op> ops = new ArrayList<>();
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] w = line.split("\\s+");
      String where = source + " line " + (n + 1) + " ('" + line + "')";
      try {
        if (w[0].equals("options")) {
          if (set != null || step != null) {
            throw new IllegalArgumentException("one 'options' line, before the first 'step'");
          }
          set = optionSet(w);
        } else if (w[0].equals("step")) {
          if (step != null) {
            rounds.add(step.round(ops, where));
          }
          step = StepHeader.parse(w);
          ops = new ArrayList<>();
        } else if (step == null) {
          throw new IllegalArgumentException("an op before the first 'step' line");
        } else {
          ops.add(op(w));
        }
      } catch (RuntimeException e) {
        throw new StoreArgumentException(
            "bad op log: " + where + ": " + e.getMessage() + "; see the format in docs/testing.md");
      }
    }
    if (step != null) {
      rounds.add(step.round(ops, source + " at its end"));
    }
    if (rounds.isEmpty()) {
      throw new StoreArgumentException("bad op log: " + source + " holds no 'step' line");
    }
    return new Log(
        set != null ? set : new NamedOptions(NamedOptions.DEFAULT, StoreOptions.defaults()),
        rounds);
  }

  private static NamedOptions optionSet(String[] w) {
    if (w.length < 2) {
      throw new IllegalArgumentException(
          "'options' takes the set's name, then KEY=VALUE properties");
    }
    StoreOptions options = StoreOptions.defaults();
    for (String property : Arrays.copyOfRange(w, 2, w.length)) {
      int eq = property.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("an option is KEY=VALUE, got '" + property + "'");
      }
      options = options.with(property.substring(0, eq), property.substring(eq + 1));
    }
    return new NamedOptions(w[1], options);
  }

  private static Op op(String[] w) {
    if (w.length > 1 && !ModelReplay.FAMILIES.contains(w[1])) {
      throw new IllegalArgumentException(
          "unknown family '" + w[1] + "'; an op log writes " + ModelReplay.FAMILIES);
    }
    switch (w[0]) {
      case "put":
        arity(w, 4);
        return new Op.Put(w[1], bytes(w[2]), bytes(w[3]));
      case "delete":
        arity(w, 3);
        return new Op.Delete(w[1], bytes(w[2]));
      case "deleteRange":
        arity(w, 4);
        return new Op.DeleteRange(w[1], bytes(w[2]), bytes(w[3]));
      case "merge":
        arity(w, 4);
        return new Op.Merge(w[1], bytes(w[2]), Long.parseLong(w[3]));
      default:
        throw new IllegalArgumentException(
            "unknown op '" + w[0] + "'; ops are put, delete, deleteRange, merge");
    }
  }

  private static void arity(String[] w, int words) {
    if (w.length != words) {
      throw new IllegalArgumentException(
          "'" + w[0] + "' takes " + (words - 1) + " arguments, got " + (w.length - 1));
    }
  }

  /** A step line's checks, waiting for its ops. */
  private record StepHeader(
      boolean snapshot, byte[] lo, byte[] hi, List<byte[]> probes, Perturbation before) {
    static StepHeader parse(String[] w) {
      Perturbation before = Perturbation.NONE;
      Boolean snapshot = null;
      byte[] lo = null;
      byte[] hi = null;
      List<byte[]> probes = null;
      for (String field : Arrays.copyOfRange(w, 1, w.length)) {
        int eq = field.indexOf('=');
        String name = eq < 0 ? field : field.substring(0, eq);
        String value = eq < 0 ? "" : field.substring(eq + 1);
        switch (name) {
          case "snapshot" ->
              snapshot =
                  switch (value) {
                    case "yes" -> true;
                    case "no" -> false;
                    default ->
                        throw new IllegalArgumentException(
                            "snapshot= is yes or no, got '" + value + "'");
                  };
          case "scan" -> {
            int dots = value.indexOf("..");
            if (dots < 0) {
              throw new IllegalArgumentException("scan= is LO..HI, got '" + value + "'");
            }
            lo = bytes(value.substring(0, dots));
            hi = bytes(value.substring(dots + 2));
          }
          case "probes" -> probes = Arrays.stream(value.split(",")).map(OpLog::bytes).toList();
          case "perturb" -> before = Perturbation.ofWord(value);
          default ->
              throw new IllegalArgumentException(
                  "unknown field '"
                      + name
                      + "'; a step has snapshot=, scan=, probes= and perhaps perturb=");
        }
      }
      if (snapshot == null || lo == null || probes == null) {
        throw new IllegalArgumentException("a step line needs snapshot=, scan= and probes=");
      }
      if (Bytes.compare(lo, hi) > 0) {
        throw new IllegalArgumentException("scan= has lo > hi");
      }
      return new StepHeader(snapshot, lo, hi, probes, before);
    }

    ModelRound round(List<Op> ops, String where) {
      if (ops.isEmpty()) {
        throw new StoreArgumentException("bad op log: the step before " + where + " has no op");
      }
      return new ModelRound(List.copyOf(ops), snapshot, lo, hi, probes, before);
    }
  }

  static String hex(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : Bytes.fullHex(bytes);
  }

  static byte[] bytes(String word) {
    return word.equals(EMPTY) ? new byte[0] : Bytes.fromHex(word);
  }
}
