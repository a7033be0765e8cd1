package dev.domino.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code domino.jar}. */
@Command(name = "domino", mixinStandardHelpOptions = true, version = "domino 0.1.0",
        description = "DOMINO-style constrained decoding: compile grammars into artifacts, inspect them, compute masks.",
        subcommands = {})
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override public void run() {
        new CommandLine(this).usage(System.out);
    }
}
