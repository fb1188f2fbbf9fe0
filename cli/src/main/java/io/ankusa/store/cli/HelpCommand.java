package io.ankusa.store.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store help [COMMAND [SUBCOMMAND]…]}: the usage of a command, as its {@code --help}
 * prints it. Unlike picocli's {@code CommandLine.HelpCommand}, which takes one name, it follows a
 * path of names ({@code help archive drain}, {@code help bench gate}), and it has the inherited
 * {@code --help} and {@code --version} like every other command. A name that is not a command is
 * bad input, and so is an unknown option (picocli's {@code helpCommand} attribute would let both
 * through: it skips the checks of a command line that asks for help, which the root, with no
 * required option, does not need).
 */
@Command(
    name = "help",
    description =
        "Print the usage of a command or subcommand (help archive drain); the same as COMMAND --help.")
final class HelpCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "COMMAND",
      arity = "0..*",
      description =
          "a command and its subcommands, e.g. demo, archive drain (default: ankusa-store itself)")
  List<String> path = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine at = spec.parent().commandLine();
    for (String name : path) {
      CommandLine next = at.getSubcommands().get(name);
      if (next == null) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "'"
                + name
                + "' is not a command of "
                + at.getCommandSpec().qualifiedName()
                + (at.getSubcommands().isEmpty()
                    ? ", which has no subcommands"
                    : "; its commands: " + String.join(", ", at.getSubcommands().keySet())));
      }
      at = next;
    }
    at.usage(spec.commandLine().getOut());
    return 0;
  }
}
