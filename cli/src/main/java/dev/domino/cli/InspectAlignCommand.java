package dev.domino.cli;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.TokenTrace;
import dev.domino.runtime.Vocabulary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@Command(name = "align", mixinStandardHelpOptions = true,
        description = "Tokenize a text canonically and step it through the grammar token by token: bytes, "
                + "subterminals, bridge tokens, live configurations, mask size; the first rejected token with the reason.")
final class InspectAlignCommand extends InspectSubcommand {
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
            r.put("live_configurations", RuntimeAccess.get().liveConfigurations(m).length);
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
