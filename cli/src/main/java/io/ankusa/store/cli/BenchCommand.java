package io.ankusa.store.cli;

import picocli.CommandLine.Command;

/**
 * {@code ankusa-store bench SUB-BENCH …}: the benches, one subcommand each — {@link
 * BenchGateCommand} (the self-asserting gate benches), {@link BenchJmhCommand} (JMH) and {@link
 * BenchSustainCommand} (the sustained-throughput bench). A sub-bench takes its own arguments
 * through unchanged and checks them before anything runs (bad ones are bad input, exit 2). Adding a
 * bench is a class like those and one entry in {@code subcommands} below; its {@code --help},
 * {@code --version}, {@code help bench NAME} and completion come with it. Without a sub-bench the
 * command is a usage error. See docs/testing.md.
 */
@Command(
    name = "bench",
    description =
        "Run the benches: the self-asserting gate benches, JMH, or the sustained-throughput bench; see docs/testing.md.",
    subcommands = {BenchGateCommand.class, BenchJmhCommand.class, BenchSustainCommand.class})
final class BenchCommand {}
