package io.ankusa.store.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code ankusa-store} command. Exit codes: 0 success, 1 the command ran and found a problem
 * (verify found breaches, conformance found failures, a damaged store, a failed write), 2 bad input
 * (a missing argument or path, a file for a directory, a directory holding no store the command may
 * use, a locked store, permission denied, an unknown backend, a number out of range). Every failure
 * is one line on stderr, sorted by {@link CommandFailure} — the stack trace only with {@code
 * --verbose}; a usage error ends with the {@code --help} of the command it concerns.
 *
 * <p>Every command and subcommand answers {@code -h}/{@code --help} with its usage and {@code
 * -V}/{@code --version} with the version, on stdout with exit 0: the root's standard help options
 * and version provider are inherited ({@code scope = INHERIT}), so a command added later has them
 * too, which {@code EveryCommandHelpTest} checks for every command of the model. {@code help
 * COMMAND [SUBCOMMAND]} prints the same usage, and {@code completion bash} a completion script.
 */
@Command(
    name = "ankusa-store",
    scope = CommandLine.ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = AnkusaStoreVersion.class,
    description = "Tools for ankusa-store: the tenant-keyed webhook queue's storage engines.",
    subcommands = {
      DemoCommand.class,
      VerifyCommand.class,
      InspectCommand.class,
      MigrateCommand.class,
      ArchiveCommand.class,
      FixtureCommand.class,
      ConformanceCommand.class,
      ReplayCommand.class,
      BenchCommand.class,
      HelpCommand.class,
      CompletionCommand.class
    })
public final class AnkusaStore implements Runnable {
  /** Exit code: the input was bad; nothing was done. */
  public static final int BAD_INPUT = 2;

  /** Exit code: the command ran and found a problem. */
  public static final int FOUND_PROBLEMS = 1;

  @Option(
      names = "--verbose",
      description = "print stack traces and debug logs",
      scope = CommandLine.ScopeType.INHERIT)
  boolean verbose;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(
        execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line and returns its exit code (what tests call). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "debug" : "warn");
    }
    return commandLine(out, err, verbose).execute(args);
  }

  /**
   * The command line with every command, printing to {@code out} and {@code err} as {@link
   * #execute} does.
   */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean verbose) {
    CommandLine cmd = new CommandLine(new AnkusaStore());
    cmd.setOut(out);
    cmd.setErr(err);
    cmd.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (verbose) {
            e.printStackTrace(err);
          }
          CommandFailure failure = CommandFailure.of(e);
          err.println(commandLine.getCommandSpec().qualifiedName() + ": " + failure.line());
          err.flush();
          return failure.exitCode();
        });
    cmd.setParameterExceptionHandler(
        (e, args1) -> {
          CommandLine at = e.getCommandLine();
          if (verbose) {
            e.printStackTrace(err);
          }
          err.println(
              at.getCommandSpec().qualifiedName()
                  + ": "
                  + e.getMessage().replace('\n', ' ')
                  + suggestions(e)
                  + " (see "
                  + at.getCommandSpec().qualifiedName()
                  + " --help)");
          err.flush();
          return BAD_INPUT;
        });
    return cmd;
  }

  /** For a mistyped option or subcommand, what picocli thinks was meant; else nothing. */
  private static String suggestions(CommandLine.ParameterException e) {
    if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
      return "; did you mean " + String.join(" or ", u.getSuggestions()) + "?";
    }
    return "";
  }
}
