package dev.domino.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code domino bench ...}: measurement modes. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks.",
        subcommands = {BenchMaskbenchCommand.class})
final class BenchCommand implements Runnable {
    @Override public void run() { new CommandLine(this).usage(System.out); }
}
