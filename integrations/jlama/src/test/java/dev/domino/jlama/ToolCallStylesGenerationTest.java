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
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tiny random-weight model writes tool calls in two model styles through {@code generate --spec}:
 * Llama 3.1's {@code [<|python_tag|>]{"name", "parameters"}<|eom_id|>} (the tag and the end are special
 * tokens of its tokenizer) and Hermes/Qwen's {@code <tool_call>\n{"name", "arguments"}\n</tool_call>};
 * every output parses and its arguments follow the function's schema.
 */
class ToolCallStylesGenerationTest {
    static final String TOOLS = "\"tools\": ["
            + "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\", \"properties\": {"
            + "\"city\": {\"enum\": [\"Paris\", \"London\"]}, \"unit\": {\"enum\": [\"celsius\", \"fahrenheit\"]}}, "
            + "\"required\": [\"city\"], \"additionalProperties\": false}}},"
            + "{\"type\": \"function\", \"function\": {\"name\": \"send_email\", \"parameters\": {\"type\": \"object\", \"properties\": {"
            + "\"urgent\": {\"type\": \"boolean\"}, \"count\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 9}}, "
            + "\"required\": [\"urgent\", \"count\"], \"additionalProperties\": false}}}]";

    @TempDir Path dir;

    @Test
    void tinyModelWritesLlamaAndHermesToolCalls() throws Exception {
        Path tokenizer = dir.resolve("tokenizer.json");
        SmallTokenizer.write(tokenizer, List.of("<|python_tag|>", "<|eom_id|>"));
        Path model = dir.resolve("model");
        assertThat(Main.run("tiny-model", "--tokenizer", tokenizer.toString(), "-o", model.toString(), "--seed", "7")).isZero();
        ObjectMapper json = new ObjectMapper();
        int tagged = 0, endedByEom = 0;
        for (String style : List.of("llama3_json", "hermes")) {
            Path spec = dir.resolve(style + ".json");
            Files.writeString(spec, "{" + TOOLS + ", \"tool_choice\": \"required\", \"parallel_tool_calls\": false, \"tool_call_style\": \"" + style + "\"}");
            List<String> lines = captureOut(() -> Main.run("generate", "--model", model.toString(), "--spec", spec.toString(),
                    "--prompt", "Call a tool:", "-n", "8", "--seed", "11", "--max-tokens", "300", "--json"));
            assertThat(lines).hasSize(9);
            for (String line : lines.subList(0, 8)) {
                JsonNode n = json.readTree(line);
                assertThat(n.get("stop").asText()).as(style + ": " + line).isEqualTo("eos");
                String out = n.get("output").asText();
                String body;
                String argumentsKey;
                if (style.equals("llama3_json")) {
                    // <|python_tag|> may be left out at the start; the call ends with <|eom_id|>, or with <|eot_id|>, an EOS of
                    // the model, which the output leaves out
                    int start = out.startsWith("<|python_tag|>") ? "<|python_tag|>".length() : 0;
                    if (start > 0) tagged++;
                    if (out.endsWith("<|eom_id|>")) endedByEom++;
                    body = out.substring(start, out.endsWith("<|eom_id|>") ? out.length() - "<|eom_id|>".length() : out.length());
                    assertThat(body).as(out).startsWith("{");
                    assertThat(body).as(out).endsWith("}");
                    argumentsKey = "parameters";
                } else {
                    assertThat(out).startsWith("<tool_call>\n{").endsWith("}\n</tool_call>");
                    body = out.substring("<tool_call>\n".length(), out.length() - "\n</tool_call>".length());
                    argumentsKey = "arguments";
                }
                JsonNode call = json.readTree(body);
                assertThat(call.get("name").asText()).isIn("get_weather", "send_email");
                JsonNode args = call.get(argumentsKey);
                assertThat(args.isObject()).as(out).isTrue();
                if (call.get("name").asText().equals("get_weather")) {
                    assertThat(args.get("city").asText()).isIn("Paris", "London");
                    if (args.has("unit")) assertThat(args.get("unit").asText()).isIn("celsius", "fahrenheit");
                    assertThat(Set.of("city", "unit")).containsAll(iterable(args));
                } else {
                    assertThat(args.get("urgent").isBoolean()).isTrue();
                    assertThat(args.get("count").isInt() && args.get("count").asInt() >= 0 && args.get("count").asInt() <= 9).isTrue();
                    assertThat(Set.of("urgent", "count")).containsAll(iterable(args));
                }
            }
        }
        // this random model starts its calls bare (the tag is one token against many '{' tokens), and ends most with the
        // <|eom_id|> token (seed 11: 6 of 8; the others with <|eot_id|>)
        assertThat(tagged + endedByEom).as("Llama outputs framed by special tokens").isPositive();
    }

    private static List<String> iterable(JsonNode o) {
        List<String> names = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
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
