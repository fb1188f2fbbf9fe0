package io.ankusa.store.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ankusa-store bench jmh [JMH-OPTION…]}: JMH's own command line on the project's benches.
 * The options are JMH's, checked by JMH's parser before anything runs (its {@code Main} would exit
 * the JVM on a bad one); a bad one is bad input (exit 2). {@code -h} and {@code --help} are this
 * command's; JMH's own help is {@code bench jmh -- -h}.
 */
@Command(
    name = "jmh",
    customSynopsis = "ankusa-store bench jmh [-hV] [--verbose] [JMH-OPTION...]",
    description = "Run JMH on the project's benches, with JMH's own options (docs/testing.md).",
    footer = {
      "JMH options: bench jmh -l lists the benches, bench jmh -- -h prints JMH's own help."
    })
final class BenchJmhCommand implements Callable<Integer> {
  @Unmatched List<String> jmhOptions = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    String[] args = jmhOptions.toArray(String[]::new);
    try {
      new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      throw new CommandInputException(FailureCause.BAD_ARGUMENT, e.getMessage(), e);
    }
    org.openjdk.jmh.Main.main(args);
    return 0;
  }
}
