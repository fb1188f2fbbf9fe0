package io.ankusa.store.cli;

import io.ankusa.store.queue.ArchiveSinkException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code ankusa-store} command. Exit codes: 0 success, 1 the command ran and found a problem
 * (verify found breaches, conformance found failures), 2 bad input (missing, locked or newer-format
 * directory, unknown backend, bad numbers) with a one-line error — the stack trace only with
 * {@code --verbose}.
 */
@Command(
    name = "ankusa-store",
    mixinStandardHelpOptions = true,
    version = "ankusa-store 0.1.0-SNAPSHOT",
    description = "Tools for ankusa-store: the tenant-keyed webhook queue's storage engines.",
    subcommands = {DemoCommand.class, VerifyCommand.class, InspectCommand.class, MigrateCommand.class,
        ArchiveCommand.class, FixtureCommand.class, ConformanceCommand.class, BenchCommand.class})
public final class AnkusaStore implements Runnable {
  /** Exit code: the input was bad; nothing was done. */
  public static final int BAD_INPUT = 2;
  /** Exit code: the command ran and found a problem. */
  public static final int FOUND_PROBLEMS = 1;

  @Option(names = "--verbose", description = "print stack traces and debug logs", scope = CommandLine.ScopeType.INHERIT)
  boolean verbose;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line and returns its exit code (what tests call). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "debug" : "warn");
    }
    CommandLine cmd = new CommandLine(new AnkusaStore());
    cmd.setOut(out);
    cmd.setErr(err);
    cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (verbose) {
        e.printStackTrace(err);
      }
      err.println(commandLine.getCommandSpec().qualifiedName() + ": " + oneLine(e));
      err.flush();
      return exitCodeOf(e);
    });
    return cmd.execute(args);
  }

  /**
   * A failed disk (the archive's sink, a store write) is a problem found, not bad input; the rest of the
   * store's refusals (a missing directory, a newer format, a bad option) and bad arguments are bad input.
   */
  static int exitCodeOf(Exception e) {
    if (e instanceof ArchiveSinkException || e instanceof StoreWriteFailedException) {
      return FOUND_PROBLEMS;
    }
    return e instanceof StoreException || e instanceof IllegalArgumentException ? BAD_INPUT : FOUND_PROBLEMS;
  }

  private static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.replace('\n', ' ');
  }
}
