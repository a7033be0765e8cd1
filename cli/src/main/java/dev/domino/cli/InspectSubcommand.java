package dev.domino.cli;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.internal.scan.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** Options every inspect subcommand shares, and helpers they share. */
abstract class InspectSubcommand implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;
    @Parameters(index = "0", paramLabel = "ARTIFACT", description = "a compiled .domino file") Path artifactPath;
    @Option(names = "--json", description = "machine-readable output: one JSON document on one line") boolean json;
    @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

    PrintWriter out() { return spec.commandLine().getOut(); }

    Artifact load() throws IOException { return Artifact.load(artifactPath, SystemPropertyDefaults.runtimeLimits()); }

    @Override public final Integer call() throws Exception {
        int code = execute();
        out().flush();
        return code;
    }

    abstract int execute() throws Exception;

    static Map<String, Object> terminalJson(Artifact a, int t) {
        ArtifactInternals ai = RuntimeAccess.of(a);
        Terminal term = ai.terminal(t);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t);
        m.put("name", term.name());
        m.put("description", term.description());
        m.put("ignored", term.ignored());
        m.put("automaton_states", term.dfa().stateCount());
        m.put("first_scanner_state", ai.stateOffset(t));
        return m;
    }

    /** Numeric id, {@code between}, or {@code TERMINAL:state} (split at the last colon: names may hold one). */
    static int parseState(Artifact a, String s) {
        ArtifactInternals ai = RuntimeAccess.of(a);
        String spec = s.trim();
        if (spec.equalsIgnoreCase("between")) return ScannerStates.BETWEEN;
        if (spec.matches("\\d+")) {
            int q;
            try { q = Integer.parseInt(spec); } catch (NumberFormatException e) { q = -1; }
            if (q < 0 || q >= ai.scannerStateCount()) {
                throw new IllegalArgumentException("scanner state " + spec + " does not exist: the artifact has states 0.."
                        + (ai.scannerStateCount() - 1) + " (see 'inspect terminals')");
            }
            return q;
        }
        int colon = spec.lastIndexOf(':');
        if (colon <= 0 || colon == spec.length() - 1 || !spec.substring(colon + 1).matches("\\d{1,9}")) {
            throw new IllegalArgumentException("bad --state '" + s + "': use a numeric id, TERMINAL:state (e.g. string:3) or between");
        }
        String name = spec.substring(0, colon);
        int local = Integer.parseInt(spec.substring(colon + 1));
        List<String> names = new ArrayList<>();
        for (int t = 0; t < ai.terminalCount(); t++) {
            names.add(ai.terminal(t).name());
            if (ai.terminal(t).name().equals(name)) {
                int states = ai.terminal(t).dfa().stateCount();
                if (local >= states) {
                    throw new IllegalArgumentException("terminal " + name + " has automaton states 0.." + (states - 1) + ", not " + local);
                }
                return ai.stateOffset(t) + local;
            }
        }
        throw new IllegalArgumentException("no terminal named '" + name + "'; terminals: " + String.join(" ", names));
    }

    static byte[] renderSvg(String dot) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("dot", "-Tsvg").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("--format svg needs Graphviz: 'dot' was not found on PATH; install graphviz, "
                    + "or use --format dot and render it elsewhere");
        }
        try (OutputStream os = p.getOutputStream()) { os.write(dot.getBytes(StandardCharsets.UTF_8)); }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (InputStream is = p.getInputStream()) { is.transferTo(buf); }
        if (!p.waitFor(60, TimeUnit.SECONDS)) { p.destroyForcibly(); throw new IllegalStateException("Graphviz 'dot' timed out"); }
        if (p.exitValue() != 0) throw new IllegalStateException("Graphviz 'dot' failed with exit code " + p.exitValue());
        return buf.toByteArray();
    }

    static String quote(String display) { return "'" + display + "'"; }
}
