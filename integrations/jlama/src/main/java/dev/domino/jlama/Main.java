package dev.domino.jlama;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java --add-modules jdk.incubator.vector -jar domino-jlama.jar generate|tiny-model ...} */
@Command(name = "domino-jlama", mixinStandardHelpOptions = true,
        description = "Grammar-constrained generation with a jlama model (JDK 21+, --add-modules jdk.incubator.vector).",
        subcommands = {GenerateCommand.class, TinyModelCommand.class})
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs without exiting (tests). */
    public static int run(String... args) {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("error: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
                    return 1;
                })
                .execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
