package dev.domino.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code domino bench ...}: workload benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Workload benchmarks.",
        subcommands = {BenchMaskbenchCommand.class, BenchSpeculateCommand.class, BenchSoakCommand.class, BenchCacheSoakCommand.class, BenchKCommand.class,
                BenchToolsCommand.class, BenchFuzzCommand.class})
public final class BenchCommand implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
