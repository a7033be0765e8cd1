package dev.domino.cli;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactFormat;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.ArtifactStats;
import dev.domino.runtime.ByteDfa;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Terminal;
import dev.domino.runtime.TokenSets;
import dev.domino.runtime.TokenTrace;
import dev.domino.runtime.TokenTree;
import dev.domino.runtime.Vocabulary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code inspect artifact|terminals|tree|align}: what is in an artifact, and why a token is (not) allowed. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Inspect an artifact: summary, terminals, subterminal trees, token alignment of a text.",
        subcommands = {InspectCommand.ArtifactCmd.class, InspectCommand.TerminalsCmd.class,
                InspectCommand.TreeCmd.class, InspectCommand.AlignCmd.class})
final class InspectCommand implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: artifact, terminals, tree or align");
    }

    /** Options every inspect subcommand shares. */
    abstract static class Base implements Callable<Integer> {
        @Spec CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "ARTIFACT", description = "a compiled .domino file") Path artifactPath;
        @Option(names = "--json", description = "machine-readable output: one JSON document on one line") boolean json;
        @Option(names = "--verbose", description = "stack traces on errors") boolean verbose;

        PrintWriter out() { return spec.commandLine().getOut(); }

        Artifact load() throws IOException { return Artifact.load(artifactPath); }

        @Override public final Integer call() throws Exception {
            int code = execute();
            out().flush();
            return code;
        }

        abstract int execute() throws Exception;
    }

    // ====================================================================== artifact

    @Command(name = "artifact", mixinStandardHelpOptions = true,
            description = "Format version, grammar source, vocabulary, terminals, trees, bytes by section, compile options.")
    static final class ArtifactCmd extends Base {
        @Override int execute() throws Exception {
            long t0 = System.nanoTime();
            Artifact a = load();
            double loadMs = (System.nanoTime() - t0) / 1e6;
            long fileBytes = Files.size(artifactPath);
            ArtifactInfo info = a.info();
            Vocabulary v = a.vocabulary();
            ArtifactStats s = ArtifactStats.of(a);
            Map<String, Long> sections = ArtifactFormat.sectionSizes(a);
            PrintWriter w = out();
            if (json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("artifact", artifactPath.toString());
                o.put("format_version", ArtifactFormat.FORMAT_VERSION);
                o.put("file_bytes", fileBytes);
                o.put("load_ms", Math.round(loadMs * 10) / 10.0);
                Map<String, Object> g = new LinkedHashMap<>();
                g.put("name", info.sourceName());
                g.put("format", info.sourceFormat());
                g.put("sha256", info.sourceSha256());
                o.put("grammar", g);
                Map<String, Object> voc = new LinkedHashMap<>();
                voc.put("name", v.name());
                voc.put("fingerprint", v.fingerprint());
                voc.put("size", v.size());
                voc.put("special", v.specialIds().cardinality());
                voc.put("eos", v.eosIds());
                o.put("vocabulary", voc);
                List<Object> terms = new ArrayList<>();
                for (int t = 0; t < a.terminalCount(); t++) terms.add(terminalJson(a, t));
                o.put("terminals", terms);
                o.put("scanner_states", s.scannerStates());
                o.put("productions", s.productions());
                o.put("nonterminals", a.grammar().nonterminalCount());
                o.put("trees", s.trees());
                o.put("tree_nodes", s.treeNodes());
                o.put("token_entries", s.tokenEntries());
                o.put("token_sets", s.tokenSets());
                o.put("dynamic_tokens", s.dynamicTokens());
                o.put("dynamic_cap", info.dynamicCap());
                o.put("bytes_by_section", sections);
                o.put("options", info.options());
                o.put("ignored_keywords", info.ignoredKeywords());
                w.println(Json.write(o));
                return 0;
            }
            w.printf("artifact        %s (%,d bytes, format version %d, loaded in %.1f ms)%n", artifactPath, fileBytes,
                    ArtifactFormat.FORMAT_VERSION, loadMs);
            w.printf("grammar         %s (%s), sha256 %s%n", info.sourceName(), info.sourceFormat(), info.sourceSha256());
            w.printf("vocabulary      %s: %,d tokens (%d special), fingerprint %s%n", v.name(), v.size(),
                    v.specialIds().cardinality(), v.fingerprint());
            w.printf("EOS             %s%n", eosText(v));
            w.printf("terminals       %d%n", a.terminalCount());
            for (int t = 0; t < a.terminalCount(); t++) {
                Terminal term = a.terminal(t);
                w.printf("  %3d  %-16s %4d states%s  %s%n", t, term.name(), term.dfa().stateCount(),
                        term.ignored() ? " (ignored)" : "", term.description());
            }
            w.printf("scanner states  %d (between + automaton states)%n", s.scannerStates());
            w.printf("parser          %d productions over %d nonterminals%n", s.productions(), a.grammar().nonterminalCount());
            w.printf("trees           %d distinct, %,d nodes%n", s.trees(), s.treeNodes());
            w.printf("token entries   %,d in %d distinct sets%n", s.tokenEntries(), s.tokenSets());
            w.printf("dynamic tokens  %,d (cap %d traversals per token)%n", s.dynamicTokens(), info.dynamicCap());
            w.println("bytes by section");
            for (Map.Entry<String, Long> e : sections.entrySet()) {
                w.printf("  %-14s %,12d  %5.1f%%%n", e.getKey(), e.getValue(), 100.0 * e.getValue() / Math.max(1, fileBytes));
            }
            w.println("compile options " + (info.options().isEmpty() ? "(defaults)" : ""));
            new java.util.TreeMap<>(info.options()).forEach((k, val) -> w.printf("  %s = %s%n", k, val));
            w.println("ignored keywords " + (info.ignoredKeywords().isEmpty() ? "none" : String.join(", ", info.ignoredKeywords())));
            return 0;
        }

        private static String eosText(Vocabulary v) {
            List<String> parts = new ArrayList<>();
            for (int id : v.eosIds()) parts.add(String.valueOf(id));
            return parts.isEmpty() ? "none (EOS never allowed)" : String.join(", ", parts);
        }
    }

    static Map<String, Object> terminalJson(Artifact a, int t) {
        Terminal term = a.terminal(t);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t);
        m.put("name", term.name());
        m.put("description", term.description());
        m.put("ignored", term.ignored());
        m.put("automaton_states", term.dfa().stateCount());
        m.put("first_scanner_state", a.stateOffset(t));
        return m;
    }

    // ====================================================================== terminals

    @Command(name = "terminals", mixinStandardHelpOptions = true,
            description = "Every terminal with its regular expression and the scanner states it owns.")
    static final class TerminalsCmd extends Base {
        @Override int execute() throws Exception {
            Artifact a = load();
            PrintWriter w = out();
            if (json) {
                List<Object> list = new ArrayList<>();
                for (int t = 0; t < a.terminalCount(); t++) {
                    Map<String, Object> m = terminalJson(a, t);
                    ByteDfa dfa = a.terminal(t).dfa();
                    List<Object> states = new ArrayList<>();
                    for (int s = 0; s < dfa.stateCount(); s++) {
                        Map<String, Object> st = new LinkedHashMap<>();
                        int q = a.stateOffset(t) + s;
                        st.put("id", q);
                        st.put("name", a.stateName(q));
                        st.put("accepting", dfa.isAccepting(s));
                        st.put("start", s == dfa.start());
                        st.put("tree", a.treeIndexOfState(q));
                        states.add(st);
                    }
                    m.put("scanner_states", states);
                    list.add(m);
                }
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("between_state", Map.of("id", Artifact.BETWEEN, "name", a.stateName(Artifact.BETWEEN), "tree", a.treeIndexOfState(0)));
                o.put("terminals", list);
                w.println(Json.write(o));
                return 0;
            }
            w.printf("scanner state 0: between (tree %d)%n", a.treeIndexOfState(0));
            for (int t = 0; t < a.terminalCount(); t++) {
                Terminal term = a.terminal(t);
                ByteDfa dfa = term.dfa();
                int first = a.stateOffset(t);
                w.printf("%n%d  %s%s%n", t, term.name(), term.ignored() ? "  (ignored: allowed between any terminals)" : "");
                w.printf("   regex   %s%n", term.description());
                w.printf("   states  %d..%d (%d automaton states)%n", first, first + dfa.stateCount() - 1, dfa.stateCount());
                for (int s = 0; s < dfa.stateCount(); s++) {
                    int q = first + s;
                    w.printf("     %4d  %-20s %s%s tree %d%n", q, a.stateName(q), s == dfa.start() ? "start " : "",
                            dfa.isAccepting(s) ? "accepting" : "", a.treeIndexOfState(q));
                }
            }
            return 0;
        }
    }

    // ====================================================================== tree

    @Command(name = "tree", mixinStandardHelpOptions = true,
            description = "The subterminal prefix tree of one scanner state: kinds (full, start, end, continuation), "
                    + "token counts per node and sample tokens, as text, Graphviz DOT or SVG.")
    static final class TreeCmd extends Base {
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

    /** Numeric id, {@code between}, or {@code TERMINAL:state} (split at the last colon: names may hold one). */
    static int parseState(Artifact a, String s) {
        String spec = s.trim();
        if (spec.equalsIgnoreCase("between")) return Artifact.BETWEEN;
        if (spec.matches("\\d+")) {
            int q;
            try { q = Integer.parseInt(spec); } catch (NumberFormatException e) { q = -1; }
            if (q < 0 || q >= a.scannerStateCount()) {
                throw new IllegalArgumentException("scanner state " + spec + " does not exist: the artifact has states 0.."
                        + (a.scannerStateCount() - 1) + " (see 'inspect terminals')");
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
        for (int t = 0; t < a.terminalCount(); t++) {
            names.add(a.terminal(t).name());
            if (a.terminal(t).name().equals(name)) {
                int states = a.terminal(t).dfa().stateCount();
                if (local >= states) {
                    throw new IllegalArgumentException("terminal " + name + " has automaton states 0.." + (states - 1) + ", not " + local);
                }
                return a.stateOffset(t) + local;
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

    /** One state's tree with per-node token counts, rendered three ways. */
    static final class TreeView {
        final Artifact a;
        final int state;
        final TokenTree tree;
        final int maxDepth;
        final int samples;
        final long[] own;      // tokens in the node's groups
        final long[] subtree;  // tokens in the node's subtree
        final int[] below;     // nodes in the subtree (itself included)

        TreeView(Artifact a, int state, int maxDepth, int samples) {
            this.a = a;
            this.state = state;
            this.tree = a.treeOfState(state);
            this.maxDepth = maxDepth;
            this.samples = samples;
            int n = tree.nodeCount();
            own = new long[n];
            subtree = new long[n];
            below = new int[n];
            for (int node = n - 1; node >= 0; node--) { // children have larger ids than their parent
                for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) own[node] += tree.tokenSets().size(tree.groupSet(g));
                subtree[node] = own[node];
                below[node] = 1;
                for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
                    subtree[node] += subtree[tree.edgeChild(e)];
                    below[node] += below[tree.edgeChild(e)];
                }
            }
        }

        boolean insideTerminal() { return state != Artifact.BETWEEN; }

        String edgeKind(int node) { return node == 0 && insideTerminal() ? "end" : "full"; }

        String groupKind(int node) { return node == 0 && insideTerminal() ? "continuation" : "start"; }

        String name(int t) { return a.terminal(t).name(); }

        /** A group's terminal, or "any of {a | b | ...}" for a terminal class. */
        String groupName(int g) {
            int[] ts = tree.groupTerminals(g);
            if (ts.length == 1) return name(ts[0]);
            StringBuilder sb = new StringBuilder("any of {");
            for (int i = 0; i < ts.length; i++) sb.append(i == 0 ? "" : " | ").append(name(ts[i]));
            return sb.append('}').toString();
        }

        List<String> sample(int set) {
            TokenSets sets = tree.tokenSets();
            List<String> out = new ArrayList<>();
            if (samples == 0) return out;
            int[] ids = sets.toArray(set);
            for (int i = 0; i < ids.length && out.size() < samples; i++) out.add(a.vocabulary().display(ids[i]));
            return out;
        }

        String header() {
            return "tree of scanner state " + state + " (" + a.stateName(state) + "): tree #" + a.treeIndexOfState(state) + ", "
                    + tree.nodeCount() + " nodes, " + subtree[0] + " tokens" + (tree.dynamicTokenCount() > 0
                    ? ", " + tree.dynamicTokenCount() + " dynamic tokens (checked at run time)" : "");
        }

        String text() {
            StringBuilder sb = new StringBuilder(header()).append('\n');
            sb.append("[0] ").append(a.stateName(state)).append("  (").append(subtree[0]).append(" tokens)\n");
            textNode(sb, 0, 0, "  ");
            if (tree.dynamicTokenCount() > 0) {
                sb.append("dynamic: ");
                int[] d = tree.dynamicTokens();
                for (int i = 0; i < Math.min(samples, d.length); i++) sb.append(quote(a.vocabulary().display(d[i]))).append(' ');
                sb.append('\n');
            }
            return sb.toString();
        }

        private void textNode(StringBuilder sb, int node, int d, String indent) {
            for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
                int set = tree.groupSet(g);
                sb.append(indent).append("tokens in ").append(groupName(g)).append(" [").append(groupKind(node))
                        .append("]: ").append(tree.tokenSets().size(set));
                List<String> s = sample(set);
                if (!s.isEmpty()) {
                    sb.append("  e.g. ");
                    for (String x : s) sb.append(quote(x)).append(' ');
                    if (tree.tokenSets().size(set) > s.size()) sb.append("...");
                }
                sb.append('\n');
            }
            for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
                int c = tree.edgeChild(e);
                sb.append(indent).append("edge ").append(name(tree.edgeTerminal(e))).append(" [").append(edgeKind(node))
                        .append("] -> [").append(c).append("]  (").append(subtree[c]).append(" tokens");
                if (d + 1 > maxDepth) {
                    sb.append(", ").append(below[c]).append(" nodes below; raise --depth)\n");
                    continue;
                }
                sb.append(")\n");
                textNode(sb, c, d + 1, indent + "  ");
            }
        }

        String dot() {
            StringBuilder sb = new StringBuilder("digraph tree {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n");
            sb.append("  label=").append(dq(header())).append(";\n  labelloc=t;\n");
            dotNode(sb, 0, 0);
            sb.append("}\n");
            return sb.toString();
        }

        private void dotNode(StringBuilder sb, int node, int d) {
            String label = (node == 0 ? a.stateName(state) : "node " + node) + "\n" + subtree[node] + " tokens";
            sb.append("  n").append(node).append(" [shape=ellipse, label=").append(dq(label)).append("];\n");
            for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
                int set = tree.groupSet(g);
                StringBuilder l = new StringBuilder(groupName(g) + " [" + groupKind(node) + "]\n"
                        + tree.tokenSets().size(set) + " tokens");
                List<String> s = sample(set);
                if (!s.isEmpty()) {
                    l.append('\n');
                    for (String x : s) l.append(quote(x)).append(' ');
                }
                sb.append("  g").append(g).append(" [shape=box, style=filled, fillcolor=\"#eef5ff\", label=").append(dq(l.toString())).append("];\n");
                sb.append("  n").append(node).append(" -> g").append(g).append(" [style=dashed, arrowhead=none];\n");
            }
            for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
                int c = tree.edgeChild(e);
                String el = name(tree.edgeTerminal(e)) + " [" + edgeKind(node) + "]";
                if (d + 1 > maxDepth) {
                    sb.append("  n").append(c).append(" [shape=plaintext, label=").append(dq("... " + below[c] + " nodes, " + subtree[c] + " tokens")).append("];\n");
                } else {
                    dotNode(sb, c, d + 1);
                }
                sb.append("  n").append(node).append(" -> n").append(c).append(" [label=").append(dq(el)).append("];\n");
            }
        }

        Map<String, Object> json() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("state", state);
            o.put("state_name", a.stateName(state));
            o.put("tree", a.treeIndexOfState(state));
            o.put("nodes", tree.nodeCount());
            o.put("tokens", subtree[0]);
            o.put("dynamic_tokens", tree.dynamicTokenCount());
            o.put("root", jsonNode(0, 0));
            return o;
        }

        private Map<String, Object> jsonNode(int node, int d) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("node", node);
            o.put("tokens_here", own[node]);
            o.put("tokens_subtree", subtree[node]);
            List<Object> groups = new ArrayList<>();
            for (int g = tree.firstGroup(node); g < tree.endGroup(node); g++) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("terminal", groupName(g));
                m.put("kind", groupKind(node));
                m.put("tokens", tree.tokenSets().size(tree.groupSet(g)));
                m.put("sample", sample(tree.groupSet(g)));
                groups.add(m);
            }
            o.put("groups", groups);
            List<Object> edges = new ArrayList<>();
            for (int e = tree.firstEdge(node); e < tree.endEdge(node); e++) {
                Map<String, Object> m = new LinkedHashMap<>();
                int c = tree.edgeChild(e);
                m.put("terminal", name(tree.edgeTerminal(e)));
                m.put("kind", edgeKind(node));
                if (d + 1 > maxDepth) {
                    m.put("child", Map.of("node", c, "tokens_subtree", subtree[c], "nodes_below", below[c], "truncated", true));
                } else {
                    m.put("child", jsonNode(c, d + 1));
                }
                edges.add(m);
            }
            o.put("edges", edges);
            return o;
        }

        private static String dq(String s) {
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
        }
    }

    static String quote(String display) { return "'" + display + "'"; }

    // ====================================================================== align

    @Command(name = "align", mixinStandardHelpOptions = true,
            description = "Tokenize a text canonically and step it through the grammar token by token: bytes, "
                    + "subterminals, bridge tokens, live configurations, mask size; the first rejected token with the reason.")
    static final class AlignCmd extends Base {
        @Option(names = "--text", description = "the output text to align") String text;
        @Option(names = "--file", description = "read the text from this file (UTF-8)") Path file;
        @Option(names = "--k", description = "lookahead of the matcher (default: unlimited)") Integer lookahead;
        @Mixin VocabOptions vocab;

        @Override int execute() throws Exception {
            if ((text == null) == (file == null)) throw new IllegalArgumentException("give exactly one of --text TEXT or --file FILE");
            String input = text != null ? text : Files.readString(file, StandardCharsets.UTF_8);
            Artifact a = load();
            Tokenizer tokenizer = vocab.forArtifact(a);
            Vocabulary v = a.vocabulary();
            int[] tokens = tokenizer.encode(input);
            Matcher m = lookahead == null ? a.newMatcher() : a.newMatcher(lookahead);
            List<Map<String, Object>> rows = new ArrayList<>();
            Integer rejectedAt = null;
            String reason = null;
            for (int i = 0; i < tokens.length; i++) {
                int id = tokens[i];
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("index", i);
                r.put("id", id);
                r.put("bytes", v.display(id));
                r.put("live_configurations", m.liveConfigurations().length);
                r.put("mask_size", m.countAllowed());
                TokenTrace.Result trace = TokenTrace.explainToken(m, id);
                boolean allowed = m.acceptToken(id);
                r.put("allowed", allowed);
                r.put("bridge", trace.bridge());
                List<Object> traces = new ArrayList<>();
                for (List<TokenTrace.Segment> t : trace.traces()) {
                    List<Object> segs = new ArrayList<>();
                    for (TokenTrace.Segment s : t) {
                        Map<String, Object> sm = new LinkedHashMap<>();
                        sm.put("terminal", s.name());
                        sm.put("kind", s.kind().label());
                        sm.put("from", s.from());
                        sm.put("to", s.to());
                        segs.add(sm);
                    }
                    traces.add(segs);
                }
                r.put("subterminals", traces);
                if (allowed != trace.viable()) {
                    // never expected: the trace steps exactly like the matcher; say so rather than hide it
                    r.put("note", "trace and matcher disagree (please report)");
                }
                rows.add(r);
                if (!allowed) {
                    rejectedAt = i;
                    reason = trace.reason() != null ? trace.reason() : "rejected by the matcher";
                    r.put("reason", reason);
                    r.put("expected", TokenTrace.expectedNames(m));
                    break;
                }
            }
            boolean eos = rejectedAt == null && m.isAccepting();
            PrintWriter w = out();
            if (json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("vocabulary", v.name());
                o.put("text_bytes", input.getBytes(StandardCharsets.UTF_8).length);
                o.put("token_count", tokens.length);
                o.put("tokens", rows);
                o.put("viable", rejectedAt == null);
                o.put("rejected_at", rejectedAt);
                o.put("reason", reason);
                o.put("eos_allowed", eos);
                w.println(Json.write(o));
                return rejectedAt == null ? 0 : 1;
            }
            w.printf("%d bytes -> %d tokens (%s)%n", input.getBytes(StandardCharsets.UTF_8).length, tokens.length, v.name());
            w.printf("%4s %7s  %-16s %5s %8s  %-7s %s%n", "#", "id", "bytes", "live", "mask", "allowed", "subterminals");
            for (Map<String, Object> r : rows) {
                boolean allowed = (Boolean) r.get("allowed");
                @SuppressWarnings("unchecked") List<List<Map<String, Object>>> traces = (List<List<Map<String, Object>>>) (List<?>) r.get("subterminals");
                StringBuilder st = new StringBuilder();
                if (!traces.isEmpty()) {
                    for (Map<String, Object> s : traces.get(0)) st.append(s.get("terminal")).append('[').append(s.get("kind")).append("] ");
                    if (traces.size() > 1) st.append("(+").append(traces.size() - 1).append(" more split").append(traces.size() > 2 ? "s" : "").append(") ");
                    if ((Boolean) r.get("bridge")) st.append(" <bridge>");
                }
                w.printf("%4d %7d  %-16s %5d %8d  %-7s %s%n", r.get("index"), r.get("id"), quote((String) r.get("bytes")),
                        r.get("live_configurations"), r.get("mask_size"), allowed ? "yes" : "NO", st.toString().strip());
                if (r.containsKey("note")) w.println("       note: " + r.get("note"));
            }
            if (rejectedAt != null) {
                Map<String, Object> r = rows.get(rejectedAt);
                w.printf("REJECTED token %d %s (id %d): %s%n", rejectedAt, quote((String) r.get("bytes")), r.get("id"), reason);
                w.printf("  the grammar could continue with: %s%n", String.join(", ", castList(r.get("expected"))));
                if (rejectedAt + 1 < tokens.length) w.printf("  %d later tokens not checked%n", tokens.length - rejectedAt - 1);
            } else {
                w.printf("all %d tokens allowed; EOS %s%n", tokens.length, eos ? "allowed (the text is a complete sentence)" : "not allowed yet (the text is an incomplete prefix)");
            }
            return rejectedAt == null ? 0 : 1;
        }

        @SuppressWarnings("unchecked")
        private static List<String> castList(Object o) { return (List<String>) o; }
    }
}
