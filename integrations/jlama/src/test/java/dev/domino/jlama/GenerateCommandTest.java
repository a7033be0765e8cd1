package dev.domino.jlama;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI end to end: tiny-model writes a model, generate prints one JSON line per output and a summary. */
class GenerateCommandTest {
    @TempDir Path dir;

    @Test
    void generatePrintsOneLinePerOutputAndASummary() throws Exception {
        Path tokenizer = dir.resolve("tokenizer.json");
        SmallTokenizer.write(tokenizer);
        Path model = dir.resolve("model");
        assertThat(Main.run("tiny-model", "--tokenizer", tokenizer.toString(), "-o", model.toString(), "--seed", "3")).isZero();
        Path artifact = dir.resolve("toolcall.domino");
        TestModels.compile("toolcall", TestModels.vocabulary(model.resolve("tokenizer.json"))).save(artifact);

        List<String> lines = captureOut(() -> Main.run("generate", "--model", model.toString(), "--artifact", artifact.toString(),
                "--prompt", "Call a tool:", "-n", "3", "--seed", "5", "--max-tokens", "800", "--json"));
        assertThat(lines).hasSize(4);
        ObjectMapper json = new ObjectMapper();
        for (String line : lines.subList(0, 3)) {
            JsonNode n = json.readTree(line);
            assertThat(n.get("stop").asText()).isEqualTo("eos");
            assertThat(json.readTree(n.get("output").asText()).get("name").asText()).isIn("get_weather", "search_web", "send_email");
            assertThat(n.get("forward_ms").size()).isEqualTo(n.get("mask_ms").size()); // prompt pass + one per step but the last
            assertThat(n.get("tokens").asInt()).isPositive();
        }
        JsonNode summary = json.readTree(lines.get(3)).get("summary");
        assertThat(summary.get("outputs").asInt()).isEqualTo(3);
        assertThat(summary.get("eos").asInt()).isEqualTo(3);
        assertThat(summary.get("mask_over_forward").asDouble()).isPositive();
    }

    @Test
    void generateFromARequestSpec() throws Exception {
        Path tokenizer = dir.resolve("tokenizer.json");
        SmallTokenizer.write(tokenizer);
        Path model = dir.resolve("model");
        assertThat(Main.run("tiny-model", "--tokenizer", tokenizer.toString(), "-o", model.toString())).isZero();
        Path spec = dir.resolve("request.json");
        Files.writeString(spec, "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"person\", \"schema\": "
                + TestModels.schemaText("person") + "}}}");
        List<String> lines = captureOut(() -> Main.run("generate", "--model", model.toString(), "--spec", spec.toString(),
                "--prompt", "A person:", "-n", "2", "--max-tokens", "800", "--json"));
        assertThat(lines).hasSize(3);
        ObjectMapper json = new ObjectMapper();
        for (String line : lines.subList(0, 2)) {
            JsonNode n = json.readTree(line);
            assertThat(n.get("stop").asText()).isEqualTo("eos");
            assertThat(json.readTree(n.get("output").asText()).has("name")).isTrue();
        }
    }

    @Test
    void clearErrorsForAMissingModelOrAMismatchedArtifact() throws Exception {
        Path artifact = dir.resolve("a.domino");
        Files.writeString(artifact, "not an artifact");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run("generate", "--model", dir.resolve("none").toString(), "--artifact", artifact.toString(), "--prompt", "x")).isEqualTo(2);
            // options are checked before anything loads: a bad temperature is reported, not the missing model
            assertThat(Main.run("generate", "--model", dir.resolve("none").toString(), "--artifact", artifact.toString(), "--prompt", "x",
                    "--temperature", "-1")).isEqualTo(2);
        } finally {
            System.setErr(old);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no config.json").contains("temperature must be in [0, 100], got -1.0");

        // an artifact compiled for another vocabulary (o200k_base) than the model's tokenizer.json
        Path tokenizer = dir.resolve("tokenizer.json");
        SmallTokenizer.write(tokenizer);
        Path model = dir.resolve("model");
        assertThat(Main.run("tiny-model", "--tokenizer", tokenizer.toString(), "-o", model.toString())).isZero();
        err.reset();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run("generate", "--model", model.toString(), "--artifact", artifact.toString(), "--prompt", "x")).isEqualTo(3);
        } finally {
            System.setErr(old);
        }
        TestModels.compile("person", TestModels.vocabulary(Path.of("o200k_base"))).save(artifact);
        err.reset();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run("generate", "--model", model.toString(), "--artifact", artifact.toString(), "--prompt", "x")).isEqualTo(2);
        } finally {
            System.setErr(old);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("recompile it with --vocab");
    }

    private static List<String> captureOut(java.util.function.IntSupplier run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int rc;
        try {
            rc = run.getAsInt();
        } finally {
            System.setOut(old);
        }
        assertThat(rc).isZero();
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
