package dev.domino.constraints;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tools} with {@code tool_choice}: canonical tool-call outputs are accepted token by token
 * (each token in the mask), a name with another function's arguments is refused.
 */
class ToolCallsTest {
    static Tokenizer tok;

    static final String TOOLS = """
            "tools": [
              {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city",
                "parameters": {"type": "object", "properties": {
                   "location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                 "required": ["location"], "additionalProperties": false}}},
              {"type": "function", "function": {"name": "book_flight",
                "parameters": {"type": "object", "properties": {
                   "from": {"type": "string"}, "to": {"type": "string"}, "seats": {"type": "integer", "minimum": 1}},
                 "required": ["from", "to"], "additionalProperties": false}}},
              {"type": "function", "function": {"name": "get_time"}}
            ]""";

    @BeforeAll static void load() { tok = VocabularyLoader.load("o200k_base", null); }

    static Artifact compile(String toolChoice) {
        return Constraints.compile("{\"model\": \"m\", \"messages\": []," + TOOLS + ", " + toolChoice + "}", tok.vocabulary());
    }

    /** Feeds the output's canonical tokens; returns the index of the first refused token, or -1 when all were accepted and EOS is allowed. */
    static int feed(Artifact a, String output) {
        Matcher m = a.newMatcher();
        int[] tokens = tok.encode(output);
        for (int i = 0; i < tokens.length; i++) {
            BitSet mask = m.nextTokenMask();
            boolean allowed = mask.get(tokens[i]);
            assertThat(m.isAllowed(tokens[i])).isEqualTo(allowed);
            if (!allowed) {
                assertThat(m.consumeToken(tokens[i])).isFalse();
                assertThat(m.isError()).isTrue();
                return i;
            }
            assertThat(m.consumeToken(tokens[i])).as("token %d of %s", i, output).isTrue();
        }
        assertThat(m.isAccepting()).as("complete: %s", output).isTrue();
        assertThat(m.consumeToken(a.vocabulary().eosIds()[0])).isTrue();
        return -1;
    }

    @Test void requiredOverThreeFunctions() {
        Artifact a = compile("\"tool_choice\": \"required\"");
        assertThat(feed(a, "[{\"name\": \"get_weather\", \"parameters\": {\"location\": \"Paris\", \"unit\": \"celsius\"}}]")).isEqualTo(-1);
        assertThat(feed(a, "[{\"name\": \"book_flight\", \"parameters\": {\"from\": \"OSL\", \"to\": \"NCE\", \"seats\": 2}}]")).isEqualTo(-1);
        assertThat(feed(a, "[{\"name\": \"get_time\", \"parameters\": {}}]")).isEqualTo(-1);
        // parallel calls
        assertThat(feed(a, "[{\"name\": \"get_time\", \"parameters\": {}}, {\"name\": \"get_weather\", \"parameters\": {\"location\": \"Oslo\"}}]"))
                .isEqualTo(-1);
        // a name with another function's arguments, an unknown name, an argument out of its enum, no call at all
        assertThat(feed(a, "[{\"name\": \"get_weather\", \"parameters\": {\"from\": \"OSL\", \"to\": \"NCE\"}}]")).isPositive();
        assertThat(feed(a, "[{\"name\": \"book_flight\", \"parameters\": {\"location\": \"Paris\"}}]")).isPositive();
        assertThat(feed(a, "[{\"name\": \"get_news\", \"parameters\": {}}]")).isPositive();
        assertThat(feed(a, "[{\"name\": \"get_weather\", \"parameters\": {\"location\": \"Paris\", \"unit\": \"kelvin\"}}]")).isPositive();
        assertThat(feed(a, "[]")).isNotNegative();
        assertThat(feed(a, "Sure, let me check.")).isZero();
    }

    @Test void oneCallWithoutParallelCalls() {
        Artifact a = compile("\"tool_choice\": \"required\", \"parallel_tool_calls\": false");
        assertThat(feed(a, "[{\"name\": \"get_time\", \"parameters\": {}}]")).isEqualTo(-1);
        assertThat(feed(a, "[{\"name\": \"get_time\", \"parameters\": {}}, {\"name\": \"get_time\", \"parameters\": {}}]")).isPositive();
    }

    @Test void namedFunctionConstrainsItsArguments() {
        Artifact a = compile("\"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"book_flight\"}}");
        assertThat(feed(a, "{\"from\": \"OSL\", \"to\": \"NCE\"}")).isEqualTo(-1);
        assertThat(feed(a, "{\"location\": \"Paris\"}")).isPositive();
    }

    @Test void autoAndNoneLeaveTheOutputFree() {
        for (String choice : new String[] {"\"tool_choice\": \"auto\"", "\"tool_choice\": \"none\""}) {
            Artifact a = compile(choice);
            assertThat(feed(a, "Sure, let me check the weather in Paris 🌦.")).isEqualTo(-1);
            assertThat(feed(a, "")).isEqualTo(-1);
        }
    }
}
