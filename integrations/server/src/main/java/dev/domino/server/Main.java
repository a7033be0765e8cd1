package dev.domino.server;

import dev.domino.jlama.GenerateCommand;
import dev.domino.jlama.TinyModelCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java --add-modules jdk.incubator.vector -jar domino-server.jar serve|generate|tiny-model ...} */
@Command(name = "domino", mixinStandardHelpOptions = true,
        description = "Domino on jlama (JDK 21+): an OpenAI-compatible server, constrained generation, a tiny test model.",
        subcommands = {ServeCommand.class, GenerateCommand.class, TinyModelCommand.class})
public final class Main implements Runnable {
    public static void main(String[] args) {
        int rc = run(args);
        if (rc != 0 || args.length == 0 || !args[0].equals("serve")) System.exit(rc);
    }

    /** Runs without exiting (tests). Exit codes as the core CLI's: 2 bad input, 3 bad artifact, 1 else. */
    public static int run(String... args) {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("error: " + (e.getMessage() != null ? e.getMessage() : e.toString()).replaceAll("\\s*\\R\\s*", " "));
                    return e instanceof Engine.BadArtifactException ? 3 : dev.domino.jlama.Main.exitCode(e);
                })
                .execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
