package dev.domino.cli.bench;

import dev.domino.cli.Json;
import dev.domino.cli.Main;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench maskbench} end to end on tiny MaskBench-format fixtures whose "schemas" are GBNF
 * grammars (hidden {@code --grammar-format gbnf}), against a tiny .tiktoken vocabulary.
 */
class MaskBenchCommandTest {
    static final String[] FIXTURES = {"ints.json", "numbers.json", "strings.json", "broken.json", "no-tests.json"};

    @TempDir static Path dir;
    static Path vocab;
    static Path inputs;

    @BeforeAll
    static void fixtures() throws IOException {
        // all 256 bytes, then a few merges (each a merge of two earlier tokens)
        StringBuilder sb = new StringBuilder();
        int rank = 0;
        for (int b = 0; b < 256; b++) sb.append(Base64.getEncoder().encodeToString(new byte[] {(byte) b})).append(' ').append(rank++).append('\n');
        for (String m : new String[] {"{\"", "\":", "\": ", " \"", "12", "\",", "\"}", "ab", " 1"}) {
            sb.append(Base64.getEncoder().encodeToString(m.getBytes(StandardCharsets.UTF_8))).append(' ').append(rank++).append('\n');
        }
        vocab = dir.resolve("tiny.tiktoken");
        Files.writeString(vocab, sb.toString());
        inputs = Files.createDirectories(dir.resolve("inputs"));
        for (String f : FIXTURES) {
            try (InputStream in = MaskBenchCommandTest.class.getResourceAsStream("/maskbench/" + f)) {
                Files.copy(in, inputs.resolve(f));
            }
        }
    }

    record Run(int exit, List<JsonNode> stdout, String stderr) {
        JsonNode summary() { return stdout.get(0); }
    }

    static Run run(String... args) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("bench", "maskbench", "--vocab", vocab.toString(), "--grammar-format", "gbnf"));
        all.addAll(List.of(args));
        int exit = Main.run(all.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
        List<JsonNode> lines = new ArrayList<>();
        for (String l : out.toString().split("\n")) if (!l.isBlank()) lines.add(Json.MAPPER.readTree(l));
        return new Run(exit, lines, err.toString());
    }

    static Map<String, JsonNode> rows(Path out) throws IOException {
        Map<String, JsonNode> rows = new HashMap<>();
        for (String l : Files.readAllLines(out)) rows.put(Json.MAPPER.readTree(l).get("file").asText(), Json.MAPPER.readTree(l));
        return rows;
    }

    @Test
    void directoryOfFixtures() throws IOException {
        Path out = dir.resolve("rows.jsonl");
        Run r = run(inputs.toString(), "--out", out.toString(), "--warmup", "1");
        assertThat(r.exit()).as(r.stderr()).isZero();
        JsonNode s = r.summary();
        assertThat(s.get("schemas").asInt()).isEqualTo(5);
        assertThat(s.get("compile_errors").asInt()).isEqualTo(1);
        assertThat(s.get("timeouts").asInt()).isZero();
        assertThat(s.get("passing").asInt()).isEqualTo(4);
        assertThat(s.get("valid_ok").asInt()).isEqualTo(5);
        assertThat(s.get("valid_rejected").asInt()).isZero();
        assertThat(s.get("invalid_rejected").asInt()).isEqualTo(6);
        assertThat(s.get("invalid_accepted").asInt()).isZero();
        for (String k : new String[] {"tbm_avg_us", "tbm_p50_us", "tbm_p90_us", "tbm_p99_us", "tbm_p99.9_us",
                "ttfm_p50_us", "ttfm_p90_us", "ttfm_p99_us"}) {
            assertThat(s.get(k).isNumber()).as(k).isTrue();
        }
        assertThat(r.stderr()).contains("most common errors").contains("undefined rule");

        Map<String, JsonNode> rows = rows(out);
        assertThat(rows).containsOnlyKeys(FIXTURES);
        int tokens = 0;
        for (JsonNode row : rows.values()) {
            for (String k : new String[] {"file", "ttfm_us", "mask_us", "valid_ok", "valid_rejected", "invalid_rejected", "invalid_accepted", "error"}) {
                assertThat(row.has(k)).as(k).isTrue();
            }
            tokens += row.get("mask_us").size();
        }
        assertThat(s.get("tokens").asInt()).isEqualTo(tokens);
        assertThat(rows.get("broken.json").get("error").asText()).contains("undefined rule");
        assertThat(rows.get("ints.json").get("error").isNull()).isTrue();
        assertThat(rows.get("ints.json").get("ttfm_us").asLong()).isPositive();
        assertThat(rows.get("ints.json").get("valid_ok").asInt()).isEqualTo(2);
        assertThat(rows.get("ints.json").get("invalid_rejected").asInt()).isEqualTo(2);
        // numbers.json's valid instance only passes if floats print as Python does: 2.5, 1e-05, -0.0, 1e+16
        assertThat(rows.get("numbers.json").get("valid_ok").asInt()).isEqualTo(2);
        assertThat(rows.get("strings.json").get("valid_ok").asInt()).isEqualTo(1);
        assertThat(rows.get("no-tests.json").get("mask_us").size()).isZero();
    }

    @Test
    void servingModeGivesTheSameOutcomes() throws IOException {
        Run single = run(inputs.toString(), "--warmup", "0", "--prebuild-ms", "0");
        Run serving = run(inputs.toString(), "--warmup", "0", "--prebuild-ms", "0", "--background-threads", "2", "--gap-us", "200", "--profile");
        assertThat(serving.exit()).as(serving.stderr()).isZero();
        for (String k : new String[] {"schemas", "compile_errors", "passing", "valid_ok", "valid_rejected", "invalid_rejected",
                "invalid_accepted", "tokens"}) {
            assertThat(serving.summary().get(k)).as(k).isEqualTo(single.summary().get(k));
        }
        // whether the background threads get to build a tree before the masks need it depends on scheduling (under
        // load the masks built them all: trees_built 0), so only the field's presence is checked here
        assertThat(serving.stdout().get(1).get("profile").get("work").get("trees_built").asLong()).isNotNegative();
        assertThat(run(inputs.toString(), "--background-threads", "-1").exit()).isNotZero();
    }

    @Test
    void wrongGrammarCountsRejectionsAndAcceptances(@TempDir Path tmp) throws IOException {
        // the grammar allows any digits where the schema-writer meant only 1..: {"a": 0} is "invalid" but accepted,
        // and {"a": -1} is "valid" but rejected
        Files.writeString(tmp.resolve("loose.json"), "{\"schema\": \"root ::= \\\"{\\\\\\\"a\\\\\\\": \\\" [0-9]+ \\\"}\\\"\","
                + " \"tests\": [{\"valid\": true, \"data\": {\"a\": -1}}, {\"valid\": false, \"data\": {\"a\": 0}},"
                + " {\"valid\": true, \"data\": {\"a\": 7}}]}");
        Run r = run(tmp.resolve("loose.json").toString(), "--warmup", "0");
        JsonNode s = r.summary();
        assertThat(s.get("schemas").asInt()).isEqualTo(1);
        assertThat(s.get("passing").asInt()).isZero();
        assertThat(s.get("valid_rejected").asInt()).isEqualTo(1);
        assertThat(s.get("invalid_accepted").asInt()).isEqualTo(1);
        assertThat(s.get("valid_ok").asInt()).isEqualTo(1);
    }

    @Test
    void preTokenizedInput() throws IOException {
        Tokenizer tok = VocabularyLoader.load(vocab.toString(), null);
        String grammar = "root ::= \"{\\\"a\\\": \" [0-9]+ \"}\"";
        ArrayNode tests = Json.MAPPER.createArrayNode();
        addTest(tests, true, "{\"a\": 12}", tok.encode("{\"a\": 12}"));
        // a non-canonical tokenization (byte by byte) of a valid instance is still valid
        byte[] bytes = "{\"a\": 3}".getBytes(StandardCharsets.UTF_8);
        int[] byBytes = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) byBytes[i] = bytes[i] & 0xFF; // rank = byte value in the tiny vocabulary
        addTest(tests, true, "{\"a\": 3}", byBytes);
        addTest(tests, false, "{\"a\": x}", tok.encode("{\"a\": x}"));
        addTest(tests, false, "{\"a\": ", tok.encode("{\"a\": ")); // a prefix: EOS not allowed at the end
        ObjectNode line = Json.MAPPER.createObjectNode();
        line.put("file", "pre.json");
        line.put("schema", grammar);
        line.set("tests", tests);
        ObjectNode bad = Json.MAPPER.createObjectNode();
        bad.put("file", "bad.json");
        bad.put("schema", "root ::= (");
        bad.set("tests", Json.MAPPER.createArrayNode());
        Path jsonl = dir.resolve("pre.tok.jsonl");
        Files.writeString(jsonl, Json.write(line) + "\n" + Json.write(bad) + "\n");
        Path out = dir.resolve("pre-rows.jsonl");
        Run r = run("--tokenized", jsonl.toString(), "--out", out.toString(), "--warmup", "0");
        assertThat(r.exit()).as(r.stderr()).isZero();
        JsonNode s = r.summary();
        assertThat(s.get("schemas").asInt()).isEqualTo(2);
        assertThat(s.get("compile_errors").asInt()).isEqualTo(1);
        assertThat(s.get("passing").asInt()).isEqualTo(1);
        assertThat(s.get("valid_ok").asInt()).isEqualTo(2);
        assertThat(s.get("invalid_rejected").asInt()).isEqualTo(2);
        JsonNode row = rows(out).get("pre.json");
        // every token of the two valid instances, + up to the rejecting token, + every token of the prefix
        int expected = tok.encode("{\"a\": 12}").length + byBytes.length + tok.encode("{\"a\": ").length;
        assertThat(row.get("mask_us").size()).isBetween(expected + 1, expected + tok.encode("{\"a\": x}").length);
    }

    private static void addTest(ArrayNode tests, boolean valid, String text, int[] tokens) {
        ObjectNode t = tests.addObject();
        t.put("valid", valid);
        t.put("text", text);
        ArrayNode a = t.putArray("tokens");
        for (int id : tokens) a.add(id);
    }

    @Test
    void timeLimitAbandonsAStalledSchemaAndMovesOn() throws IOException {
        Path out = dir.resolve("slow-rows.jsonl");
        long t0 = System.nanoTime();
        // ints.json stalls for 10 min ignoring interrupts; the run must go on after the time limit. The limit (wall
        // clock) applies to every schema: 10 s, not 1 s, so that a cold JVM on a loaded machine never times out the
        // four others (a few ms each alone)
        Run r = run(inputs.toString(), "--out", out.toString(), "--warmup", "0", "--time-limit", "10",
                "--debug-stall-file", "ints", "--debug-stall-ms", "600000");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds).as("went on, did not wait for the stall").isLessThan(300);
        JsonNode s = r.summary();
        assertThat(s.get("schemas").asInt()).isEqualTo(5);
        assertThat(s.get("timeouts").asInt()).isEqualTo(1);
        assertThat(s.get("compile_errors").asInt()).isEqualTo(2);
        assertThat(s.get("passing").asInt()).isEqualTo(3);
        Map<String, JsonNode> rows = rows(out);
        assertThat(rows.get("ints.json").get("error").asText()).contains("time limit exceeded (10 s, compiling)");
        assertThat(rows.get("ints.json").get("mask_us").size()).isZero();
        assertThat(rows.get("numbers.json").get("error").isNull()).isTrue();
        assertThat(r.stderr()).contains("time limit exceeded");
    }

    @Test
    void profileAndLimit() throws IOException {
        Run r = run(inputs.toString(), "--warmup", "0", "--limit", "3", "--profile", "--errors", "0");
        JsonNode s = r.summary();
        assertThat(s.get("schemas").asInt()).isEqualTo(3);
        JsonNode p = r.stdout().get(1).get("profile");
        assertThat(p.get("time").fieldNames()).toIterable().containsExactly("parse", "compile", "serialize", "load", "mask", "commit");
        assertThat(p.get("work").get("masks").asLong()).isEqualTo(s.get("tokens").asLong());
        assertThat(p.get("work").get("tree_nodes_per_mask").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(p.get("work").get("configurations_per_mask").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(p.get("slowest_masks").size()).isPositive();
        assertThat(r.stderr()).doesNotContain("most common errors");
    }

    @Test
    void errorMessagesGroupOverPointersAndNumbers() {
        assertThat(MaskBenchRunner.normalizeError("unsupported keyword 'uniqueItems' at #/properties/tags/items"))
                .isEqualTo("unsupported keyword 'uniqueItems' at <ptr>");
        assertThat(MaskBenchRunner.normalizeError("bad grammar: line 3, column 17: x"))
                .isEqualTo("bad grammar: line N, column N: x");
        assertThat(MaskBenchRunner.normalizeError("unsupported keyword 'not' at /anyOf/0/not"))
                .isEqualTo(MaskBenchRunner.normalizeError("unsupported keyword 'not' at /properties/a/not"));
    }

    @Test
    void percentilesMatchSummarizePy() {
        double[] xs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(MaskBenchRunner.pct(xs, 50)).isEqualTo(6.0);
        assertThat(MaskBenchRunner.pct(xs, 90)).isEqualTo(10.0);
        assertThat(MaskBenchRunner.pct(xs, 99.9)).isEqualTo(10.0);
        assertThat(MaskBenchRunner.pct(new double[0], 50)).isNull();
    }
}
