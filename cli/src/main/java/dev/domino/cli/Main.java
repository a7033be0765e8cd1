package dev.domino.cli;

import dev.domino.cli.bench.BenchCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** Entry point of {@code domino.jar}. Errors are one clear line; {@code --verbose} adds the trace. */
@Command(name = "domino", mixinStandardHelpOptions = true, version = "domino 0.1.0",
        description = "DOMINO-style constrained decoding: compile grammars into artifacts, inspect them, compute masks.",
        subcommands = {CompileCommand.class, MaskCommand.class, InspectCommand.class, TrainCommand.class,
                BenchCommand.class, SampleCommand.class})
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line with the given streams; returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new Main());
        cmd.setCaseInsensitiveEnumValuesAllowed(true); // --json-whitespace compact, as the help writes it
        SystemPropertyDefaults.runtimeLimits().applyToProcess(); // -Ddomino.cache.*, -Ddomino.dfa.*, -Ddomino.batch.*
        cmd.setOut(out);
        cmd.setErr(err);
        boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("error: " + Errors.describe(ex));
            if (verbose) ex.printStackTrace(commandLine.getErr());
            commandLine.getErr().flush();
            return Errors.exitCode(ex);
        });
        cmd.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("error: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName() + " --help')");
            c.getErr().flush();
            return 2;
        });
        try {
            return cmd.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // picocli's handler only sees Exceptions: an Error escaping a command still gets one line
            err.println("error: " + Errors.describe(e));
            if (verbose) e.printStackTrace(err);
            err.flush();
            return Errors.exitCode(e);
        }
    }

    @Override public void run() {
        new CommandLine(this).usage(System.out);
    }
}
