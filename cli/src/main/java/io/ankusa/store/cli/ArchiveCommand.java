package io.ankusa.store.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store archive}: the queue's archive (docs/archive.md) from the command line —
 * {@code drain} copies a stopped store's archive obligations into a Chronicle archive, {@code
 * replay} reads an archive back. Without a subcommand it prints its usage.
 */
@Command(
    name = "archive",
    description =
        "Drain a store's archive obligations into a Chronicle archive, or replay an archive.",
    subcommands = {ArchiveDrainCommand.class, ArchiveReplayCommand.class})
final class ArchiveCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
