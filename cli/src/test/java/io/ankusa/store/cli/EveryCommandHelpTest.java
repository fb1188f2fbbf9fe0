package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * What a newcomer types first, for every command and subcommand of the picocli model (enumerated
 * from it, so a command added later is in the table without being listed here): {@code -h}, {@code
 * --help} and {@code help COMMAND…} print the command's usage, naming it, on stdout with exit 0 and
 * nothing on stderr; a command with subcommands lists them; {@code -V} and {@code --version} print
 * the project's version. A mistyped option is still bad input (exit 2, one line on stderr), and the
 * {@code --help} that line points at works. {@code completion bash} prints a script bash accepts
 * and that registers the completion.
 */
class EveryCommandHelpTest {
  private static final Pattern SEE = Pattern.compile("\\(see (ankusa-store[^()]*) --help\\)$");

  private static final List<List<String>> PATHS =
      List.copyOf(
          collect(
              AnkusaStore.commandLine(
                  new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false),
              List.of(),
              new ArrayList<>()));

  /** Every command's path below the root, the root's own (empty) first, from the model. */
  static List<List<String>> commandPaths() {
    return PATHS;
  }

  private static List<List<String>> collect(
      CommandLine at, List<String> path, List<List<String>> into) {
    into.add(path);
    at.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandName().equals(name)) { // an alias names a command already listed
                List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, List.copyOf(next), into);
              }
            });
    return into;
  }

  @Test
  void theModelHoldsEveryCommandTheDocsName() {
    assertThat(commandPaths())
        .contains(
            List.of(),
            List.of("demo"),
            List.of("verify"),
            List.of("inspect"),
            List.of("migrate"),
            List.of("archive"),
            List.of("archive", "drain"),
            List.of("archive", "replay"),
            List.of("fixture"),
            List.of("conformance"),
            List.of("replay"),
            List.of("bench"),
            List.of("bench", "gate"),
            List.of("bench", "jmh"),
            List.of("help"),
            List.of("completion"));
  }

  @TestFactory
  Stream<DynamicTest> everyCommandAnswersHelpAndVersion() {
    return commandPaths().stream()
        .flatMap(
            path -> {
              String name =
                  String.join(
                      " ", Stream.concat(Stream.of("ankusa-store"), path.stream()).toList());
              return Stream.of(
                  DynamicTest.dynamicTest(name + " -h", () -> usage(path, run(path, "-h"))),
                  DynamicTest.dynamicTest(name + " --help", () -> usage(path, run(path, "--help"))),
                  DynamicTest.dynamicTest(
                      "ankusa-store help " + String.join(" ", path),
                      () -> usage(path, CommandRun.run(concat(List.of("help"), path)))),
                  DynamicTest.dynamicTest(name + " -V", () -> version(run(path, "-V"))),
                  DynamicTest.dynamicTest(
                      name + " --version", () -> version(run(path, "--version"))),
                  DynamicTest.dynamicTest(
                      name + " --no-such-option", () -> badOption(run(path, "--no-such-option"))));
            });
  }

  @Test
  void helpOfSomethingThatIsNoCommandIsBadInputNamingTheCommands() {
    CommandRun run = CommandRun.run("help", "archive", "frob");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .hasLineCount(1)
        .contains("'frob' is not a command of ankusa-store archive")
        .contains("drain, replay")
        .contains("(see ankusa-store help --help)");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aMistypedSubcommandOrOptionIsMetWithWhatWasMeant() {
    CommandRun bench = CommandRun.run("bench", "gaet");
    assertThat(bench.code()).isEqualTo(2);
    assertThat(bench.err())
        .hasLineCount(1)
        .contains("'gaet'")
        .contains("did you mean gate?")
        .endsWith("(see ankusa-store bench --help)" + System.lineSeparator());
    CommandRun demo = CommandRun.run("demo", "--tenant", "5");
    assertThat(demo.code()).isEqualTo(2);
    assertThat(demo.err())
        .hasLineCount(1)
        .contains("Unknown options: '--tenant'")
        .contains("did you mean --tenants?");
  }

  @Test
  void completionBashPrintsAScriptBashAcceptsAndThatCompletesTheCommand() throws Exception {
    for (String[] args :
        new String[][] {{"completion", "bash"}, {"completion"}, {"completion", "zsh"}}) {
      CommandRun run = CommandRun.run(args);
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.err()).isEmpty();
      assertThat(run.out()).contains("demo").contains("archive").contains("--archive-dir");
      assertThat(bash(run.out(), "-n")).as("bash -n accepts the script").isEqualTo("");
      assertThat(bash(run.out() + "\ncomplete -p ankusa-store\n"))
          .contains("-F _complete_ankusa-store ankusa-store");
    }
    CommandRun fish = CommandRun.run("completion", "fish");
    assertThat(fish.code()).isEqualTo(2);
    assertThat(fish.err()).hasLineCount(1).contains("bash or zsh, not 'fish'");
  }

  /**
   * Runs {@code script} in bash with {@code options}; returns stdout, or fails with what bash said.
   */
  private static String bash(String script, String... options)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", "--noprofile", "--norc"));
    command.addAll(List.of(options));
    command.add("-s");
    Process bash = new ProcessBuilder(command).start();
    try (var in = bash.getOutputStream()) {
      in.write(script.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(bash.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as("bash: " + err).isZero();
    assertThat(err).as("bash's stderr").isEmpty();
    return out;
  }

  private static CommandRun run(List<String> path, String option) {
    return CommandRun.run(concat(path, List.of(option)));
  }

  private static void usage(List<String> path, CommandRun run) {
    String what = "exit " + run.code() + "\nstdout: " + run.out() + "\nstderr: " + run.err();
    assertThat(run.code()).as(what).isZero();
    assertThat(run.err()).as(what).isEmpty();
    String usage =
        String.join(" ", Stream.concat(Stream.of("Usage: ankusa-store"), path.stream()).toList());
    assertThat(run.out())
        .as(what)
        .startsWith(usage + " ")
        .contains("-h, --help")
        .contains("-V, --version");
    List<String> subcommands =
        commandPaths().stream()
            .filter(p -> p.size() == path.size() + 1 && p.subList(0, path.size()).equals(path))
            .map(p -> p.get(path.size()))
            .toList();
    for (String sub : subcommands) {
      assertThat(run.out())
          .as("the usage lists the subcommand " + sub + ": " + what)
          .containsPattern("\\n  " + sub + "\\b");
    }
  }

  private static void version(CommandRun run) {
    String what = "exit " + run.code() + "\nstdout: " + run.out() + "\nstderr: " + run.err();
    assertThat(run.code()).as(what).isZero();
    assertThat(run.err()).as(what).isEmpty();
    assertThat(run.out().lines().findFirst().orElse(""))
        .as(what)
        .isEqualTo(
            "ankusa-store "
                + System.getProperty("ankusa.project.version", AnkusaStoreVersion.projectVersion()))
        .matches("ankusa-store [0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)?");
  }

  /** Bad input, one line; the {@code --help} it points at, if any, works. */
  private static void badOption(CommandRun run) {
    String what = "exit " + run.code() + "\nstdout: " + run.out() + "\nstderr: " + run.err();
    assertThat(run.code()).as(what).isEqualTo(2);
    assertThat(run.err().lines().toList()).as(what).hasSize(1);
    assertThat(run.err()).as(what).startsWith("ankusa-store").doesNotContain("\tat ");
    Matcher see = SEE.matcher(run.err().strip());
    if (see.find()) {
      List<String> hint =
          new ArrayList<>(
              List.of(see.group(1).split(" ")).subList(1, see.group(1).split(" ").length));
      hint.add("--help");
      CommandRun help = CommandRun.run(hint.toArray(String[]::new));
      assertThat(help.code()).as("the hint's command works: " + hint + "\n" + help.err()).isZero();
      assertThat(help.out()).startsWith("Usage: " + see.group(1));
    }
  }

  private static String[] concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}
