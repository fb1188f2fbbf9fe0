package io.ankusa.store.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store completion [bash|zsh]}: prints the completion script picocli generates from
 * the command model ({@link AutoComplete#bash}), so it completes every command, subcommand and
 * option there is. One script serves bash and zsh (zsh through its {@code bashcompinit}). It
 * completes the command word {@code ankusa-store}, also when typed as a path ({@code
 * ./ankusa-store}).
 */
@Command(
    name = "completion",
    description = {
      "Print a shell completion script for ankusa-store.",
      "bash: source <(./ankusa-store completion bash), or put that line in ~/.bashrc with the launcher's path.",
      "zsh: autoload -U +X compinit && compinit; autoload -U +X bashcompinit && bashcompinit; then the same."
    })
final class CompletionCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SHELL",
      defaultValue = "bash",
      description = "bash or zsh: one script serves both (default: ${DEFAULT-VALUE})")
  String shell;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT,
          "the completion script is for bash or zsh, not '" + shell + "'");
    }
    spec.commandLine()
        .getOut()
        .print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
