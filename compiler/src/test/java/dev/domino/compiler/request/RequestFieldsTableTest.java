package dev.domino.compiler.request;

import static dev.domino.compiler.request.RequestStrictnessTest.grammar;
import static dev.domino.compiler.request.RequestStrictnessTest.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;

import org.junit.jupiter.api.Test;

/**
 * The rows of docs/request-fields.md that no other test shows: each field honoured as written there,
 * accepted because it does not change which outputs are valid, or refused with its JSON pointer.
 */
class RequestFieldsTableTest {
    private static final String SCHEMA = "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}, \"required\": [\"a\"]}";

    /** JSON text as a JSON string (a field that carries JSON as text). */
    private static String quote(String s) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test void vllmConstraintsInEveryForm() {
        // json as an object, a boolean or JSON text
        assertThat(ExprMatcher.matches(grammar("{\"json\": " + SCHEMA + "}"), "{\"a\": 1}")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"json\": " + quote(SCHEMA) + "}"), "{\"a\": 1}")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"json\": " + quote(SCHEMA) + "}"), "{\"b\": 1}")).isFalse();
        assertThat(ExprMatcher.matches(grammar("{\"json\": true}"), "[1, \"x\"]")).isTrue();
        // json_object: true is any JSON object
        Grammar object = grammar("{\"json_object\": true}");
        assertThat(ExprMatcher.matches(object, "{\"k\": [1]}")).isTrue();
        assertThat(ExprMatcher.matches(object, "[1]")).isFalse();
        // structural_tag as JSON text
        Grammar tag = grammar("{\"structural_tag\": " + quote(
            "{\"type\": \"structural_tag\", \"format\": {\"type\": \"const_string\", \"value\": \"ok\"}}") + "}");
        assertThat(ExprMatcher.matches(tag, "ok")).isTrue();
        assertThat(ExprMatcher.matches(tag, "no")).isFalse();
        // regex is the whole output
        assertThat(ExprMatcher.matches(grammar("{\"regex\": \"ab+\"}"), "xabb")).isFalse();
    }

    @Test void fieldsThatChooseAnEngineOrSampleAreAccepted() {
        grammar("{\"regex\": \"a\", \"disable_fallback\": true, \"guided_decoding_backend\": \"xgrammar\"}");
        grammar("{\"structured_outputs\": {\"regex\": \"a\", \"backend\": \"guidance\", \"_backend_was_auto\": true}}");
        // OpenAI sampling and metadata
        grammar("{\"regex\": \"a\", \"model\": \"m\", \"messages\": [], \"temperature\": 1, \"top_p\": 1, \"n\": 1, \"max_tokens\": 3, "
            + "\"max_completion_tokens\": 3, \"stop\": \"x\", \"seed\": 1, \"stream\": false, \"logprobs\": true, \"top_logprobs\": 2, "
            + "\"presence_penalty\": 0, \"frequency_penalty\": 0, \"user\": \"u\", \"metadata\": {}}");
        // llama.cpp server
        grammar("{\"grammar\": \"root ::= \\\"a\\\"\", \"n_probs\": 2, \"samplers\": [\"top_k\"], \"cache_prompt\": true, \"n_predict\": 5, "
            + "\"preserved_tokens\": [\"<x>\"]}");
        // an unknown top-level field that looks like no constraint
        grammar("{\"regex\": \"a\", \"some_new_sampling_knob\": 0.5}");
    }

    @Test void constraintLikeFieldsOutsideTheTableAreRefused() {
        refused("{\"regex\": \"a\", \"parallel_tool_calls\": \"yes\", \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\"}}]}",
            "/parallel_tool_calls");
        refused("{\"response_format\": {\"type\": \"xml\"}}", "/response_format/type");
        refused("{\"guided_json_object\": true}", "/guided_json_object");
        refused("{\"structured_outputs\": {\"regex\": \"a\", \"grammar_lazy\": true}}", "/structured_outputs/grammar_lazy");
    }
}
