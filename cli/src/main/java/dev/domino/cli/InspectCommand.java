package dev.domino.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code inspect artifact|terminals|tree|align}: what is in an artifact, and why a token is (not) allowed. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Inspect an artifact: summary, terminals, subterminal trees, token alignment of a text.",
        subcommands = {InspectArtifactCommand.class, InspectTerminalsCommand.class,
                InspectTreeCommand.class, InspectAlignCommand.class})
final class InspectCommand implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: artifact, terminals, tree or align");
    }
}
