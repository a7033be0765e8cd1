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
                    cmd.getErr().println("error: " + (e.getMessage() != null ? e.getMessage() : e.toString()).replaceAll("\\s*\\R\\s*", " "));
                    return exitCode(e);
                })
                .execute(args);
    }

    /** As the core CLI: 2 bad input (options, files, grammar, schema), 3 bad artifact (unreadable, or a dead end), 1 else. */
    public static int exitCode(Throwable e) {
        if (e instanceof dev.domino.runtime.ArtifactFormatException || e instanceof GenerateCommand.DeadEndException) return 3;
        if (e instanceof IllegalArgumentException || e instanceof dev.domino.compiler.ir.GrammarException
                || e instanceof java.nio.file.FileSystemException) return 2;
        if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) return exitCode(u.getCause());
        return 1;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
