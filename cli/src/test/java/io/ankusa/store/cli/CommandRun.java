package io.ankusa.store.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of the {@code ankusa-store} command line in-process: its exit code and what it printed.
 */
record CommandRun(int code, String out, String err) {

  /**
   * Runs {@code ankusa-store args…} through {@link AnkusaStore#execute}, capturing both streams.
   */
  static CommandRun run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = AnkusaStore.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CommandRun(code, out.toString(), err.toString());
  }
}
