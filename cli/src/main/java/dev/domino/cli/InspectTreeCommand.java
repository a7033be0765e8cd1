package dev.domino.cli;

import dev.domino.runtime.Artifact;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

@Command(name = "tree", mixinStandardHelpOptions = true,
        description = "The subterminal prefix tree of one scanner state: kinds (full, start, end, continuation), "
                + "token counts per node and sample tokens, as text, Graphviz DOT or SVG.")
final class InspectTreeCommand extends InspectSubcommand {
    @Option(names = "--state", required = true, paramLabel = "S",
            description = "scanner state: numeric id, TERMINAL:state (e.g. string:3) or between")
    String state;
    @Option(names = "--depth", description = "edges to follow from the root (default: all)") Integer depth;
    @Option(names = "--format", description = "text (default), dot or svg") String format = "text";
    @Option(names = "--samples", description = "sample tokens per group (default: ${DEFAULT-VALUE})") int samples = 6;
    @Option(names = {"-o", "--output"}, description = "write to this file instead of standard output") Path output;

    @Override int execute() throws Exception {
        Artifact a = load();
        int q = parseState(a, state);
        if (depth != null && depth < 0) throw new IllegalArgumentException("--depth must be >= 0");
        if (samples < 0) throw new IllegalArgumentException("--samples must be >= 0");
        TreeView view = new TreeView(a, q, depth == null ? Integer.MAX_VALUE : depth, samples);
        String f = format.toLowerCase(java.util.Locale.ROOT);
        String text;
        byte[] binary = null;
        if (json) {
            text = Json.write(view.json());
        } else {
            switch (f) {
                case "text" -> text = view.text();
                case "dot" -> text = view.dot();
                case "svg" -> { text = null; binary = renderSvg(view.dot()); }
                default -> throw new IllegalArgumentException("unknown --format '" + format + "': use text, dot or svg");
            }
        }
        if (output != null) {
            Files.write(output, binary != null ? binary : text.getBytes(StandardCharsets.UTF_8));
            if (!json) out().println("wrote " + output);
        } else if (binary != null) {
            out().print(new String(binary, StandardCharsets.UTF_8));
        } else {
            out().print(text.endsWith("\n") ? text : text + "\n");
        }
        return 0;
    }
}
