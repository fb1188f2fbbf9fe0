package io.ankusa.store.mutation;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Prints the mutation table of a {@code -Pmutation} run: per mutated module, the mutants PIT generated
 * and what became of them, and the score over killable mutants, read from the module's
 * {@code target/pit-reports/mutations.xml}. A surviving mutant listed in docs/mutation-testing.md's
 * equivalent-mutant table (same module, class, method, line and mutator) counts as equivalent, not
 * killable; every other survivor is written, one a line, to the survivor file given as second argument.
 *
 * <p>A command-line tool run by the build, so it prints to standard output.
 */
public final class MutationTable {

  /** The modules PIT mutates, in the order of the table. */
  static final List<String> MODULES =
      List.of("backend-memory", "backend-rocksdb", "backend-lmdb-experimental", "queue");

  private static final String EQUIVALENT_HEADING = "### Equivalent mutants";

  /** One mutant of mutations.xml; {@code mutator} is PIT's short name (the class name's last part). */
  record Mutant(String status, String mutatedClass, String method, int line, String mutator, String description) {

    boolean detected() {
      return switch (status) {
        case "KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR" -> true;
        default -> false;
      };
    }

    boolean undetected() {
      return status.equals("SURVIVED") || status.equals("NO_COVERAGE");
    }

    String simpleClass() {
      return mutatedClass.substring(mutatedClass.lastIndexOf('.') + 1);
    }

    String key(String module) {
      return module + " " + simpleClass() + " " + method + " " + line + " " + mutator;
    }
  }

  /** One module's counts. */
  record Row(String module, int generated, int killed, int survived, int noCoverage, int timedOut, int errors,
      int equivalent) {

    int detected() {
      return killed + timedOut + errors;
    }

    int killable() {
      return generated - equivalent;
    }

    String score() {
      return killable() == 0 ? "-" : String.format("%.1f %%", 100.0 * detected() / killable());
    }
  }

  private MutationTable() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: MutationTable ROOT_DIR SURVIVOR_FILE");
      System.exit(2);
    }
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    Set<String> equivalent = equivalentKeys(root.resolve("docs/mutation-testing.md"));
    List<Row> rows = new ArrayList<>();
    List<String> survivors = new ArrayList<>();
    Set<String> listedAndUndetected = new TreeSet<>();
    Map<String, String> missing = new LinkedHashMap<>();
    for (String module : MODULES) {
      Path xml = root.resolve(module).resolve("target/pit-reports/mutations.xml");
      if (!Files.isRegularFile(xml)) {
        missing.put(module, "not mutated in this run (no " + root.relativize(xml) + ")");
        continue;
      }
      List<Mutant> mutants;
      try {
        mutants = read(xml);
      } catch (SAXException e) {
        // PIT writes the file as it goes: an interrupted run leaves it cut short.
        missing.put(module, "unreadable " + root.relativize(xml) + " (a run cut short?): " + e.getMessage());
        continue;
      }
      int equivalentHere = 0;
      for (Mutant m : mutants) {
        if (!m.undetected()) {
          continue;
        }
        if (equivalent.contains(m.key(module))) {
          equivalentHere++;
          listedAndUndetected.add(m.key(module));
        } else {
          survivors.add(module + " " + m.status() + " " + m.mutatedClass() + "." + m.method() + ":" + m.line()
              + " " + m.mutator() + ": " + m.description());
        }
      }
      rows.add(new Row(module, mutants.size(), count(mutants, "KILLED"), count(mutants, "SURVIVED"),
          count(mutants, "NO_COVERAGE"), count(mutants, "TIMED_OUT"),
          count(mutants, "MEMORY_ERROR") + count(mutants, "RUN_ERROR"), equivalentHere));
    }
    print(System.out, rows);
    missing.forEach((module, why) -> System.out.println(module + ": " + why));
    Set<String> stale = new TreeSet<>(equivalent);
    stale.removeAll(listedAndUndetected);
    stale.removeIf(key -> missing.containsKey(key.substring(0, key.indexOf(' '))));
    for (String key : stale) {
      System.out.println("listed as equivalent in docs/mutation-testing.md but killed or not generated: " + key);
    }
    Path survivorFile = Path.of(args[1]);
    Files.createDirectories(survivorFile.toAbsolutePath().getParent());
    Files.write(survivorFile, survivors);
    System.out.println(survivors.size() + " surviving mutants neither killed nor listed as equivalent: " + survivorFile);
    System.out.println("HTML reports: <module>/target/pit-reports/index.html");
  }

  static void print(PrintStream out, List<Row> rows) {
    String format = "%-26s %9s %7s %9s %12s %10s %7s %11s %17s%n";
    out.printf(format, "module", "generated", "killed", "survived", "no coverage", "timed out", "errors",
        "equivalent", "score (killable)");
    for (Row r : rows) {
      out.printf(format, r.module(), r.generated(), r.killed(), r.survived(), r.noCoverage(), r.timedOut(),
          r.errors(), r.equivalent(), r.score());
    }
  }

  private static int count(List<Mutant> mutants, String status) {
    return (int) mutants.stream().filter(m -> m.status().equals(status)).count();
  }

  static List<Mutant> read(Path xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    DocumentBuilder builder = factory.newDocumentBuilder();
    builder.setErrorHandler(new DefaultHandler() {
      @Override
      public void fatalError(SAXParseException e) throws SAXException {
        throw e; // reported by the caller, not printed here
      }
    });
    NodeList nodes = builder.parse(xml.toFile()).getElementsByTagName("mutation");
    List<Mutant> mutants = new ArrayList<>(nodes.getLength());
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      String mutator = text(e, "mutator");
      mutants.add(new Mutant(e.getAttribute("status"), text(e, "mutatedClass"), text(e, "mutatedMethod"),
          Integer.parseInt(text(e, "lineNumber")), mutator.substring(mutator.lastIndexOf('.') + 1),
          text(e, "description")));
    }
    return mutants;
  }

  private static String text(Element e, String tag) {
    NodeList list = e.getElementsByTagName(tag);
    return list.getLength() == 0 ? "" : list.item(0).getTextContent().trim();
  }

  /**
   * The keys ({@code module class method line mutator}) of the equivalent-mutant table in
   * docs/mutation-testing.md: the rows of the first Markdown table after the heading
   * {@value #EQUIVALENT_HEADING}, columns module, class, method, line, mutator, why.
   */
  static Set<String> equivalentKeys(Path testingDoc) throws IOException {
    List<String> lines = Files.readAllLines(testingDoc);
    int start = lines.indexOf(EQUIVALENT_HEADING);
    if (start < 0) {
      return Set.of();
    }
    Set<String> keys = new TreeSet<>();
    boolean inTable = false;
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("#")) {
        break;
      }
      if (!line.startsWith("|")) {
        if (inTable) {
          break;
        }
        continue;
      }
      inTable = true;
      List<String> cells = List.of(line.substring(1).split("\\|")).stream().map(String::trim)
          .map(c -> c.replace("`", "")).collect(Collectors.toList());
      if (cells.size() < 5 || cells.get(0).equals("module") || cells.get(0).startsWith("---")) {
        continue;
      }
      keys.add(String.join(" ", cells.subList(0, 5)));
    }
    return keys;
  }
}
