package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.ConstraintCache;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code compile --spec REQUEST.json} and {@code mask --tokens}: the same output as {@code --prefix}. */
class RequestSpecCommandTest {
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test void compileSpecThenMaskByTokens(@TempDir Path dir) throws Exception {
        Path request = dir.resolve("request.json");
        Files.writeString(request, """
                {"model": "any", "messages": [{"role": "user", "content": "weather?"}],
                 "tools": [{"type": "function", "function": {"name": "get_weather",
                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
                 "tool_choice": "required"}""");
        Path artifact = dir.resolve("tools.domino");
        Run compiled = run("compile", "--spec", request.toString(), "-o", artifact.toString(), "--json");
        assertThat(compiled.code()).as(compiled.err()).isZero();
        assertThat(compiled.out()).contains("\"artifact\"");

        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        String prefix = "[{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Os";
        String ids = Arrays.stream(tok.encode(prefix)).mapToObj(Integer::toString).collect(Collectors.joining(","));
        Run byText = run("mask", artifact.toString(), "--prefix", prefix, "--json");
        Run byIds = run("mask", artifact.toString(), "--tokens", ids, "--json");
        assertThat(byText.code()).as(byText.err()).isZero();
        assertThat(byIds.out()).isEqualTo(byText.out());
        JsonNode shown = new ObjectMapper().readTree(byIds.out());
        assertThat(shown.get("viable").asBoolean()).isTrue();
        assertThat(shown.get("allowed").asInt()).isGreaterThan(1000);

        // the forced text after the first call's opening
        Run start = run("mask", artifact.toString(), "--tokens", Integer.toString(tok.encode("[")[0]), "--json");
        assertThat(new ObjectMapper().readTree(start.out()).get("forced").asText()).isEmpty(); // whitespace or '{' may come

        // an id outside the vocabulary: rejected with the matcher's reason, not a crash; bad input, exit 2
        Run bad = run("mask", artifact.toString(), "--tokens", "-5");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.out()).contains("outside the vocabulary");
        assertThat(bad.err().strip()).startsWith("error: ").contains("outside the vocabulary").doesNotContain("\n");

        // the artifact serves the same request from a cache without compiling
        try (ConstraintCache cache = ConstraintCache.builder().options(ConstraintOptions.defaults()).build()) {
            cache.addPrebuilt(Artifact.load(artifact));
            cache.artifact(Files.readString(request), tok.vocabulary());
            assertThat(cache.stats().compiles()).isZero();
            assertThat(cache.stats().hits()).isEqualTo(1);
        }
    }

    @Test void clearErrors(@TempDir Path dir) throws Exception {
        Path request = dir.resolve("bad.json");
        Files.writeString(request, "{\"response_format\": {\"type\": \"yaml\"}}");
        Run r = run("compile", "--spec", request.toString());
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).startsWith("error: /response_format/type: unknown type 'yaml'");
        Run neither = run("compile");
        assertThat(neither.err()).contains("GRAMMAR_FILE or --spec");
    }
}
