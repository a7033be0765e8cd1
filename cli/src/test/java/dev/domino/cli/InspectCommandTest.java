package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.TokenTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Text and --json output of every inspect command, and the CLI's error conventions for them. */
class InspectCommandTest {
    static final ObjectMapper MAPPER = new ObjectMapper();

    record Run(int code, String out, String err) {
        JsonNode json() throws Exception {
            assertThat(out.strip().lines().count()).as("one JSON document on one line").isEqualTo(1);
            return MAPPER.readTree(out);
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    static String file() { return TestArtifacts.file().toString(); }

    /** Scanner state just after the opening quote of a string: "inside a string". */
    static int insideString(Artifact a) {
        for (int t = 0; t < RuntimeAccess.of(a).terminalCount(); t++) {
            if (RuntimeAccess.of(a).terminal(t).name().equals("str")) {
                ByteDfa dfa = RuntimeAccess.of(a).terminal(t).dfa();
                return RuntimeAccess.of(a).stateOffset(t) + dfa.step(dfa.start(), '"');
            }
        }
        throw new AssertionError("no terminal str");
    }

    // ------------------------------------------------------------------ artifact

    @Test void artifactText() {
        Run r = run("inspect", "artifact", file());
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("format version " + dev.domino.runtime.internal.format.ArtifactFormat.FORMAT_VERSION, "pairs.gbnf (gbnf), sha256 ", "o200k_base: 200,019 tokens",
                "fingerprint " + TestArtifacts.artifact().vocabulary().fingerprint(), "EOS", "scanner states",
                "trees", "token entries", "dynamic tokens  0 (cap", "bytes by section", "vocabulary", "token_sets",
                "tree_index", "ignored keywords none");
        assertThat(r.out()).contains("str").contains("\":\"");
    }

    @Test void artifactJson() throws Exception {
        JsonNode j = run("inspect", "artifact", file(), "--json").json();
        Artifact a = TestArtifacts.artifact();
        assertThat(j.get("format_version").asInt()).isEqualTo(dev.domino.runtime.internal.format.ArtifactFormat.FORMAT_VERSION);
        assertThat(j.get("grammar").get("name").asText()).isEqualTo("pairs.gbnf");
        assertThat(j.get("grammar").get("sha256").asText()).hasSize(64);
        assertThat(j.get("vocabulary").get("size").asInt()).isEqualTo(a.vocabulary().size());
        assertThat(j.get("vocabulary").get("eos").size()).isEqualTo(a.vocabulary().eosIds().length);
        assertThat(j.get("terminals").size()).isEqualTo(RuntimeAccess.of(a).terminalCount());
        assertThat(j.get("terminals").get(0).get("automaton_states").asInt()).isPositive();
        assertThat(j.get("scanner_states").asInt()).isEqualTo(RuntimeAccess.of(a).scannerStateCount());
        long sum = 0;
        for (JsonNode n : j.get("bytes_by_section")) sum += n.asLong();
        assertThat(sum).as("sections add up to the file").isEqualTo(Files.size(TestArtifacts.file()));
        assertThat(j.get("ignored_keywords").isArray()).isTrue();
        assertThat(j.get("options").isObject()).isTrue();
    }

    // ------------------------------------------------------------------ terminals

    @Test void terminalsTextAndJson() throws Exception {
        Artifact a = TestArtifacts.artifact();
        Run r = run("inspect", "terminals", file());
        assertThat(r.code()).isZero();
        for (int q = 1; q < RuntimeAccess.of(a).scannerStateCount(); q++) assertThat(r.out()).contains(" " + RuntimeAccess.of(a).stateName(q) + " ");
        assertThat(r.out()).contains("regex", "accepting", "start");

        JsonNode j = run("inspect", "terminals", file(), "--json").json();
        assertThat(j.get("terminals").size()).isEqualTo(RuntimeAccess.of(a).terminalCount());
        int states = 1;
        for (JsonNode t : j.get("terminals")) {
            states += t.get("scanner_states").size();
            assertThat(t.get("description").asText()).isNotEmpty();
        }
        assertThat(states).isEqualTo(RuntimeAccess.of(a).scannerStateCount());
    }

    // ------------------------------------------------------------------ tree

    @Test void treeTextShowsKindsCountsAndSamples() {
        Artifact a = TestArtifacts.artifact();
        int q = insideString(a);
        Run r = run("inspect", "tree", file(), "--state", RuntimeAccess.of(a).stateName(q));
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("tree of scanner state " + q + " (" + RuntimeAccess.of(a).stateName(q) + ")");
        assertThat(r.out()).contains("tokens in str [continuation]", "edge str [end]", "[start]", "e.g. ");
        // the same state by number gives the same tree
        assertThat(run("inspect", "tree", file(), "--state", String.valueOf(q)).out()).isEqualTo(r.out());
        // bridge tokens like '":' hang below the str [end] edge
        assertThat(r.out()).contains("'\":'");
        // deeper edges are full subterminals
        assertThat(r.out()).contains("[full]");
        // depth 0: no edge expanded
        Run shallow = run("inspect", "tree", file(), "--state", RuntimeAccess.of(a).stateName(q), "--depth", "0");
        assertThat(shallow.out()).contains("raise --depth").doesNotContain("[full]");
    }

    @Test void treeJsonCountsAddUp() throws Exception {
        Artifact a = TestArtifacts.artifact();
        int q = insideString(a);
        JsonNode j = run("inspect", "tree", file(), "--state", String.valueOf(q), "--json").json();
        assertThat(j.get("state").asInt()).isEqualTo(q);
        assertThat(j.get("nodes").asInt()).isEqualTo(RuntimeAccess.of(a).treeOfState(q).nodeCount());
        assertThat(checkNode(j.get("root"))).isEqualTo(j.get("tokens").asLong());
        assertThat(j.get("root").get("groups").get(0).get("kind").asText()).isEqualTo("continuation");
        assertThat(j.get("root").get("edges").get(0).get("kind").asText()).isEqualTo("end");

        JsonNode between = run("inspect", "tree", file(), "--state", "between", "--json").json();
        assertThat(between.get("state").asInt()).isZero();
        assertThat(between.get("root").get("groups").get(0).get("kind").asText()).isEqualTo("start");
    }

    /** Returns the subtree's token count after checking it equals own groups + children. */
    private static long checkNode(JsonNode n) {
        long sum = 0;
        for (JsonNode g : n.get("groups")) {
            sum += g.get("tokens").asLong();
            assertThat(g.get("sample").size()).isLessThanOrEqualTo(6);
        }
        assertThat(n.get("tokens_here").asLong()).isEqualTo(sum);
        for (JsonNode e : n.get("edges")) sum += checkNode(e.get("child"));
        assertThat(n.get("tokens_subtree").asLong()).isEqualTo(sum);
        return sum;
    }

    @Test void treeDot(@TempDir Path dir) throws Exception {
        Artifact a = TestArtifacts.artifact();
        int q = insideString(a);
        Run r = run("inspect", "tree", file(), "--state", RuntimeAccess.of(a).stateName(q), "--format", "dot");
        assertThat(r.code()).isZero();
        String dot = r.out();
        assertThat(dot).startsWith("digraph tree {").contains("n0 -> n1", "[end]", "[continuation]", "shape=box");
        assertThat(dot.strip()).endsWith("}");
        // every label is a properly closed string: an even number of unescaped quotes per line
        for (String line : dot.lines().toList()) {
            assertThat(line.replace("\\\\", "").replace("\\\"", "").chars().filter(c -> c == '"').count() % 2).as(line).isZero();
        }
        Path out = dir.resolve("t.dot");
        assertThat(run("inspect", "tree", file(), "--state", RuntimeAccess.of(a).stateName(q), "--format", "dot", "-o", out.toString()).code()).isZero();
        assertThat(Files.readString(out)).isEqualTo(dot);
    }

    @Test void treeSvgNeedsGraphviz() {
        Run r = run("inspect", "tree", file(), "--state", "between", "--format", "svg");
        if (r.code() == 0) {
            assertThat(r.out()).contains("<svg");
        } else {
            assertThat(r.err().strip()).startsWith("error: --format svg needs Graphviz").doesNotContain("\n");
        }
    }

    @Test void treeBadStateIsOneLineError() {
        Run r = run("inspect", "tree", file(), "--state", "nosuch:1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("error: no terminal named 'nosuch'").doesNotContain("\n");
        assertThat(run("inspect", "tree", file(), "--state", "99999").err()).startsWith("error: scanner state 99999 does not exist");
        assertThat(run("inspect", "tree", file(), "--state", "str:77").err()).startsWith("error: terminal str has automaton states");
        assertThat(run("inspect", "tree", file(), "--state", "between", "--format", "png").err()).startsWith("error: unknown --format");
        assertThat(run("inspect", "tree", file()).err()).startsWith("error: Missing required option: '--state=S'");
    }

    // ------------------------------------------------------------------ align

    @Test void alignValidText() {
        Run r = run("inspect", "align", file(), "--text", "{\"ab\": 12, \"c d\": {\"x\": true}}");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("allowed", "subterminals", "'{\"'", "\"{\"[full] str[start]", "<bridge>",
                "str[continuation]", "EOS allowed");
        assertThat(r.out()).doesNotContain("NO ");
    }

    @Test void alignJson() throws Exception {
        Tokenizer tok = TestArtifacts.tokenizer();
        String text = "{\"ab\": 12, \"c d\": true}";
        JsonNode j = run("inspect", "align", file(), "--text", text, "--json").json();
        assertThat(j.get("viable").asBoolean()).isTrue();
        assertThat(j.get("eos_allowed").asBoolean()).isTrue();
        assertThat(j.get("tokens").size()).isEqualTo(tok.encode(text).length);
        StringBuilder rebuilt = new StringBuilder();
        for (JsonNode t : j.get("tokens")) {
            assertThat(t.get("allowed").asBoolean()).isTrue();
            assertThat(t.get("mask_size").asInt()).isPositive();
            assertThat(t.get("live_configurations").asInt()).isPositive();
            JsonNode segs = t.get("subterminals").get(0);
            assertThat(t.get("bridge").asBoolean()).isEqualTo(segs.size() > 1);
            // the segments tile the token's bytes
            int at = 0;
            for (JsonNode s : segs) {
                assertThat(s.get("from").asInt()).isEqualTo(at);
                at = s.get("to").asInt();
                assertThat(s.get("kind").asText()).isIn("full", "start", "end", "continuation");
            }
            rebuilt.append(t.get("bytes").asText());
        }
        assertThat(rebuilt.toString()).isEqualTo(text);
        assertThat(j.get("tokens").get(0).get("subterminals").get(0).get(0).get("kind").asText()).isEqualTo("full");
    }

    @Test void alignFlagsFirstRejectedTokenWithReason() throws Exception {
        Run r = run("inspect", "align", file(), "--text", "{\"ab\": 12, \"c d\" x}");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("REJECTED token", "' x'",
                "no terminal the parser expects (expected: \":\") can start with byte 'x'", "the grammar could continue with");
        JsonNode j = run("inspect", "align", file(), "--text", "{\"ab\": 12, \"c d\" x}", "--json").json();
        assertThat(j.get("viable").asBoolean()).isFalse();
        int at = j.get("rejected_at").asInt();
        JsonNode bad = j.get("tokens").get(at);
        assertThat(bad.get("allowed").asBoolean()).isFalse();
        assertThat(bad.get("bytes").asText()).isEqualTo(" x");
        assertThat(bad.get("reason").asText()).contains("can start with byte 'x'");
        assertThat(j.get("tokens").size()).isEqualTo(at + 1);

        // a terminal that cannot end: "tru" then "}"
        Run r2 = run("inspect", "align", file(), "--text", "{\"a\": tru}");
        assertThat(r2.out()).contains("cannot end here (incomplete)");
    }

    @Test void alignFromFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("in.txt");
        Files.writeString(f, "{\"a\": false}");
        Run r = run("inspect", "align", file(), "--file", f.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("EOS allowed");
        Run both = run("inspect", "align", file());
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err().strip()).isEqualTo("error: give exactly one of --text TEXT or --file FILE");
    }

    /** The trace's verdict is the matcher's, token by token over a vocabulary sample, at several positions. */
    @Test void traceAgreesWithMatcher() {
        Artifact a = TestArtifacts.artifact();
        Tokenizer tok = TestArtifacts.tokenizer();
        Random rnd = new Random(7);
        for (String prefix : new String[] {"", "{", "{\"a", "{\"a\"", "{\"a\": 1", "{\"a\": {\"b\": tr", "{\"a\": 1}"}) {
            Matcher m = a.newMatcher();
            assertThat(m.acceptString(prefix)).isTrue();
            for (int i = 0; i < 3000; i++) {
                int id = i < 1000 ? i : rnd.nextInt(a.vocabulary().size());
                TokenTrace.Result r = TokenTrace.explainToken(m, id);
                assertThat(r.viable()).as("token %d after '%s'", id, prefix).isEqualTo(m.isAllowed(id));
                if (!r.viable()) assertThat(r.reason()).isNotBlank();
                else if (!a.vocabulary().isEos(id)) assertThat(r.traces()).isNotEmpty();
            }
        }
    }

    // ------------------------------------------------------------------ errors

    @Test void errorsAreOneLineUnlessVerbose(@TempDir Path dir) throws Exception {
        Run missing = run("inspect", "artifact", dir.resolve("nope.domino").toString());
        assertThat(missing.code()).isNotZero();
        assertThat(missing.err().strip()).startsWith("error: file not found:").doesNotContain("\n");

        Path junk = dir.resolve("junk.domino");
        Files.writeString(junk, "this is not an artifact at all, just some text that is long enough");
        for (String cmd : new String[] {"artifact", "terminals"}) {
            Run r = run("inspect", cmd, junk.toString());
            assertThat(r.code()).isEqualTo(3);
            assertThat(r.err().strip()).startsWith("error: ").contains("not a Domino artifact").doesNotContain("\n");
            assertThat(r.out()).isEmpty();
        }
        Run verbose = run("inspect", "artifact", junk.toString(), "--verbose");
        assertThat(verbose.err()).startsWith("error: ").contains("ArtifactFormatException", "\tat ");

        Run unknown = run("inspect", "nosuch");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err().strip()).startsWith("error: ").doesNotContain("\n");
    }
}
