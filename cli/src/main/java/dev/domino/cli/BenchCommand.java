package dev.domino.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code domino bench ...}: workload benchmarks. MERGE POINT: other bench subcommands (e.g.
 * {@code maskbench}) are added to {@code subcommands} here.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Workload benchmarks.",
        subcommands = {BenchSpeculateCommand.class})
final class BenchCommand implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
