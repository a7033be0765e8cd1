package dev.domino.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}'s options and {@code --artifacts}: checked before the model loads, exit codes as the core CLI's. */
class ServeCommandTest {
    @TempDir Path dir;

    static final String REQUEST = "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"person\", \"schema\": "
            + TinyServer.PERSON_SCHEMA + "}}}";

    @Test
    void badOptionsExit2BeforeAnythingLoads() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            // the model directory does not exist: the bad option is still the error reported
            assertThat(Main.run("serve", "--model", dir.resolve("none").toString(), "--workers", "0")).isEqualTo(2);
            assertThat(Main.run("serve", "--model", dir.resolve("none").toString(), "--json-whitespace", "wide")).isEqualTo(2);
            assertThat(Main.run("serve", "--model", dir.resolve("none").toString(), "--background-threads", "-1")).isEqualTo(2);
            assertThat(Main.run("serve", "--model", dir.resolve("none").toString())).isEqualTo(2);
        } finally {
            System.setErr(old);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("workers must be in [1, 256], got 0")
                .contains("JSON whitespace must be compact or flexible").contains("--background-threads must be in [0, 256], got -1")
                .contains("no config.json");
    }

    @Test
    void prebuiltArtifactsServeTheirRequestsAndAForeignOneExits3() throws Exception {
        Path model = TinyServer.modelDir();
        Vocabulary vocabulary = VocabularyLoader.load(model.resolve("tokenizer.json").toString(), null).vocabulary();
        Path artifacts = Files.createDirectories(dir.resolve("artifacts"));
        Constraints.compile(REQUEST, vocabulary, Engine.constraintOptions("compact", 1)).save(artifacts.resolve("person.domino"));
        try (Engine engine = Engine.open(model, artifacts, new Engine.Config("tiny", 1, 4, 200, TinyServer.REQUEST_TIMEOUT, "compact", 1))) {
            JsonNode body = TinyServer.parse("{\"model\": \"tiny\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"seed\": 1, "
                    + REQUEST.substring(1));
            try (Engine.Admission a = engine.admit()) {
                ChatResult r = engine.run(engine.prepare(ChatRequest.chat(body)), null, () -> false);
                assertThat(TinyServer.validate(TinyServer.parse(TinyServer.PERSON_SCHEMA), TinyServer.parse(r.choices().get(0).content()))).isEmpty();
            }
            assertThat(engine.cacheStats().hits()).isEqualTo(1);
            assertThat(engine.cacheStats().compiles()).isZero();
        }

        // compiled for another vocabulary (the small tokenizer with one more special token): refused at start, exit code 3
        var tokenizer = (com.fasterxml.jackson.databind.node.ObjectNode) TinyServer.JSON.readTree(model.resolve("tokenizer.json").toFile());
        var added = (com.fasterxml.jackson.databind.node.ArrayNode) tokenizer.get("added_tokens");
        added.addObject().put("id", vocabulary.size()).put("content", "<|extra|>").put("special", true).put("single_word", false)
                .put("lstrip", false).put("rstrip", false).put("normalized", false);
        Path otherTokenizer = dir.resolve("other-tokenizer.json");
        TinyServer.JSON.writeValue(otherTokenizer.toFile(), tokenizer);
        Vocabulary other = VocabularyLoader.load(otherTokenizer.toString(), null).vocabulary();
        assertThat(other.fingerprint()).isNotEqualTo(vocabulary.fingerprint());
        Constraints.compile(REQUEST, other, Engine.constraintOptions("compact", 1)).save(artifacts.resolve("person.domino"));
        assertThatThrownBy(() -> Engine.open(model, artifacts, Engine.Config.defaults("tiny")))
                .isInstanceOf(Engine.BadArtifactException.class).hasMessageContaining("recompile it with --vocab");
        PrintStream old = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run("serve", "--model", model.toString(), "--artifacts", artifacts.toString())).isEqualTo(3);
        } finally {
            System.setErr(old);
        }
    }

    /** With background threads (serving mode) and without, a per-request schema compiles and its outputs validate. */
    @Test
    void perRequestSchemasWithAndWithoutBackgroundThreads() throws Exception {
        String schema = "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 999}, \"tags\": {\"type\": \"array\", "
                + "\"items\": {\"type\": \"string\", \"maxLength\": 8}, \"maxItems\": 3}}, \"required\": [\"id\", \"tags\"], \"additionalProperties\": false}";
        for (int threads : new int[] {1, 0}) {
            try (Engine engine = Engine.open(TinyServer.modelDir(), null, new Engine.Config("tiny", 1, 4, 200, TinyServer.REQUEST_TIMEOUT, "compact", threads))) {
                assertThat(engine.constraintSummary()).isEqualTo(threads == 1 ? "lazy trees, 0 ms prebuilt, 1 background tree thread"
                        : "lazy trees, 1000 ms prebuilt, 0 background tree threads");
                for (int seed = 1; seed <= 3; seed++) {
                    JsonNode body = TinyServer.parse("{\"model\": \"tiny\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"seed\": " + seed
                            + ", \"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"t\", \"schema\": " + schema + "}}}");
                    try (Engine.Admission a = engine.admit()) {
                        ChatResult r = engine.run(engine.prepare(ChatRequest.chat(body)), null, () -> false);
                        assertThat(TinyServer.validate(TinyServer.parse(schema), TinyServer.parse(r.choices().get(0).content()))).isEmpty();
                    }
                }
                assertThat(engine.cacheStats().compiles()).isEqualTo(1);
            }
        }
    }
}
