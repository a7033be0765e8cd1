package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Issue 37 item 2 (requests and schemas read strictly) and issue 38 item 5 (no request field that
 * constrains the output is silently ignored).
 */
class RequestStrictnessTest {
    static Grammar grammar(String request) { return RequestSpec.parse(request).grammar(JsonSchemaOptions.defaults()).grammar(); }

    /** The request is refused with a one-line message naming {@code pointer}, free of parser internals. */
    static RequestSpecException refused(String request, String pointer) {
        Throwable t = catchThrowable(() -> grammar(request));
        assertThat(t).as(request).isInstanceOf(RequestSpecException.class);
        RequestSpecException e = (RequestSpecException) t;
        assertThat(e.pointer()).as(e.getMessage()).isEqualTo(pointer);
        assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("[Source").doesNotContain("com.fasterxml");
        return e;
    }

    @Test void trailingContentIsRefused() {
        assertThat(refused("{\"regex\": \"a\"} {\"regex\": \"b\"}", "").getMessage()).contains("trailing");
        assertThat(refused("{\"json\": \"{\\\"type\\\":\\\"string\\\"} garbage\"}", "/json").getMessage()).contains("not valid JSON");
    }

    @Test void duplicateKeysAreRefused() {
        assertThat(refused("{\"regex\": \"a\", \"regex\": \"b\"}", "/regex").getMessage()).contains("duplicate key 'regex'");
        refused("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"schema\": {\"type\": \"string\", \"type\": \"integer\"}}}}",
                "/response_format/json_schema/schema/type");
        assertThatThrownBy(() -> JsonSchemaGrammar.from("{\"type\": \"string\", \"type\": \"integer\"}"))
                .isInstanceOf(GrammarException.class).hasMessageContaining("duplicate key 'type'").hasMessageNotContaining("[Source");
        assertThatThrownBy(() -> JsonSchemaGrammar.from("{\"type\": \"string\"} x")).isInstanceOf(GrammarException.class).hasMessageContaining("trailing");
    }

    @Test void loneSurrogatesAreRefusedWhereverTheyBecomeText() {
        assertThat(refused("{\"choice\": [\"a\\ud800b\", \"c\"]}", "/choice/0").getMessage()).contains("lone surrogate U+D800");
        refused("{\"structural_tag\": {\"type\": \"const_string\", \"value\": \"x\\udc00\"}}", "/structural_tag/value");
        refused("{\"structural_tag\": {\"type\": \"tag\", \"begin\": \"<\\ud800>\", \"content\": {\"type\": \"any_text\"}, \"end\": \"</f>\"}}",
                "/structural_tag/begin");
        assertThat(refused("{\"regex\": \"a\\ud800\"}", "/regex").getMessage()).contains("U+D800");
        refused("{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"schema\": {\"type\": \"string\", \"pattern\": \"\\ud800\"}}}}",
                "/response_format/json_schema/schema/pattern");
        refused("{\"structured_outputs\": {\"choice\": [\"\\udfff\"]}}", "/structured_outputs/choice/0");
        refused("{\"json\": \"{\\\"const\\\": \\\"\\\\ud800\\\"}\"}", "/json/const");
        // a pair is one character, and text outside the constraint (messages) is the server's business
        assertThat(ExprMatcher.matches(grammar("{\"choice\": [\"\\ud83d\\ude00\"]}"), "\uD83D\uDE00")).isTrue();
        grammar("{\"messages\": [{\"role\": \"user\", \"content\": \"\\ud800\"}], \"regex\": \"a\"}");
    }

    @Test void messagesQuoteTheInputPrintably() {
        // a raw lone surrogate in a key, and a raw control character in a string: quoted as escapes
        for (String request : new String[] {"{\"regex\": \"a\", \"k\uDC00\" 1}", "{\"regex\": \"a\u0001\"}"}) {
            Throwable t = catchThrowable(() -> grammar(request));
            assertThat(t).isInstanceOf(RequestSpecException.class);
            assertThat(t.getMessage()).doesNotContain("\uDC00").doesNotContain("\u0001").doesNotContain("[Source");
            assertThat(((RequestSpecException) t).pointer()).doesNotContain("\uDC00");
        }
    }

    @Test void deepRequestsAreRefusedNamingTheLimit() {
        String deep = "{\"regex\": \"a\", \"x\": " + "[".repeat(2000) + "]".repeat(2000) + "}";
        assertThat(refused(deep, "").getMessage()).contains("nesting-depth");
        ObjectNode root = JsonNodeFactory.instance.objectNode().put("regex", "a");
        JsonNode n = root.putArray("x");
        for (int i = 0; i < 2000; i++) n = ((com.fasterxml.jackson.databind.node.ArrayNode) n).addArray();
        assertThatThrownBy(() -> RequestSpec.of(root)).isInstanceOf(RequestSpecException.class).hasMessageContaining("nesting-depth");
    }

    // ---------------------------------------------------------------- issue 38 item 5: fields honoured or refused

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},\"required\":[\"a\"]}";

    @Test void disableAnyWhitespaceMeansNoWhitespaceAtAll() {
        for (String r : new String[] {"{\"json\": " + SCHEMA + ", \"disable_any_whitespace\": true}",
                "{\"structured_outputs\": {\"json\": " + SCHEMA + ", \"disable_any_whitespace\": true}}"}) {
            Grammar g = grammar(r);
            assertThat(ExprMatcher.matches(g, "{\"a\":1}")).isTrue();
            assertThat(ExprMatcher.matches(g, "{\"a\": 1}")).isFalse();
            assertThat(ExprMatcher.matches(g, "{ \"a\":1}")).isFalse();
        }
        assertThat(RequestSpec.parse("{\"json\": " + SCHEMA + ", \"disable_any_whitespace\": true}").key())
                .isNotEqualTo(RequestSpec.parse("{\"json\": " + SCHEMA + "}").key());
        assertThat(ExprMatcher.matches(grammar("{\"json\": " + SCHEMA + "}"), "{\"a\": 1}")).isTrue();
    }

    @Test void disableAdditionalPropertiesClosesObjects() {
        Grammar open = grammar("{\"json\": " + SCHEMA + "}");
        Grammar closed = grammar("{\"json\": " + SCHEMA + ", \"disable_additional_properties\": true}");
        assertThat(ExprMatcher.matches(open, "{\"a\": 1, \"b\": 2}")).isTrue();
        assertThat(ExprMatcher.matches(closed, "{\"a\": 1, \"b\": 2}")).isFalse();
        assertThat(ExprMatcher.matches(closed, "{\"a\": 1}")).isTrue();
        Grammar tools = grammar("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":" + SCHEMA + "}}],"
                + "\"tool_choice\":\"required\",\"disable_additional_properties\":true}");
        assertThat(ExprMatcher.matches(tools, "[{\"name\": \"f\", \"parameters\": {\"a\": 1, \"b\": 2}}]")).isFalse();
        assertThat(ExprMatcher.matches(tools, "[{\"name\": \"f\", \"parameters\": {\"a\": 1}}]")).isTrue();
        refused("{\"json\": {\"allOf\": [" + SCHEMA + "]}, \"disable_additional_properties\": true}", "/disable_additional_properties");
    }

    /** XGrammar compiles a structural tag's schemas closed; the flag gives that reading to every schema in the tag. */
    @Test void disableAdditionalPropertiesClosesTheSchemasOfAStructuralTag() {
        String tag = "{\"type\": \"structural_tag\", \"format\": {\"type\": \"tag\", \"begin\": \"<f>\", "
                + "\"content\": {\"type\": \"json_schema\", \"json_schema\": " + SCHEMA + "}, \"end\": \"</f>\"}}";
        Grammar open = grammar("{\"response_format\": " + tag + "}");
        Grammar closed = grammar("{\"response_format\": " + tag + ", \"disable_additional_properties\": true}");
        assertThat(ExprMatcher.matches(open, "<f>{\"a\": 1, \"b\": 2}</f>")).isTrue();
        assertThat(ExprMatcher.matches(closed, "<f>{\"a\": 1, \"b\": 2}</f>")).isFalse();
        assertThat(ExprMatcher.matches(closed, "<f>{\"a\": 1}</f>")).isTrue();
        // the older form's structures, and vLLM's structured_outputs field
        String legacy = "{\"type\": \"structural_tag\", \"structures\": [{\"begin\": \"<f>\", \"schema\": " + SCHEMA
                + ", \"end\": \"</f>\"}], \"triggers\": [\"<f>\"]}";
        // (its triggers make lazy text, which ExprMatcher does not read: the closing shows as the refusal of a combination)
        refused("{\"response_format\": " + legacy.replace(SCHEMA, "{\"allOf\": [" + SCHEMA + "]}")
                + ", \"disable_additional_properties\": true}", "/disable_additional_properties");
        grammar("{\"response_format\": " + legacy.replace(SCHEMA, "{\"allOf\": [" + SCHEMA + "]}") + "}");
        Grammar vllm = grammar("{\"structured_outputs\": {\"structural_tag\": " + tag + "}, \"disable_additional_properties\": true}");
        assertThat(ExprMatcher.matches(vllm, "<f>{\"a\": 1, \"b\": 2}</f>")).isFalse();
        // a schema inside a combination still cannot be closed without changing its meaning: refused with its place
        refused("{\"response_format\": " + tag.replace(SCHEMA, "{\"allOf\": [" + SCHEMA + "]}")
                + ", \"disable_additional_properties\": true}", "/disable_additional_properties");
    }

    @Test void vendorAliasesAreHonoured() {
        assertThat(ExprMatcher.matches(grammar("{\"guided_json\": " + SCHEMA + "}"), "{\"a\": 1}")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"guided_regex\": \"ab+\"}"), "abb")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"guided_choice\": [\"x\", \"y\"]}"), "y")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"guided_grammar\": \"root ::= \\\"hi\\\"\"}"), "hi")).isTrue();
        assertThat(ExprMatcher.matches(grammar("{\"json_schema\": " + SCHEMA + "}"), "{\"a\": 1}")).isTrue(); // llama.cpp
        Grammar llama = grammar("{\"response_format\": {\"type\": \"json_object\", \"schema\": " + SCHEMA + "}}"); // llama.cpp
        assertThat(ExprMatcher.matches(llama, "{\"a\": 1}")).isTrue();
        assertThat(ExprMatcher.matches(llama, "{\"b\": 1}")).isFalse();
        Grammar llama2 = grammar("{\"response_format\": {\"type\": \"json_schema\", \"schema\": " + SCHEMA + "}}");
        assertThat(ExprMatcher.matches(llama2, "{\"b\": 1}")).isFalse();
        // two names for one constraint: two constraints
        refused("{\"guided_regex\": \"a\", \"regex\": \"b\"}", "");
        // sampling fields do not constrain the output's language
        grammar("{\"regex\": \"a\", \"temperature\": 0.7, \"top_p\": 0.9, \"max_tokens\": 5, \"stop\": [\"x\"], \"seed\": 1, "
                + "\"logit_bias\": {\"5\": -100}, \"guided_decoding_backend\": \"xgrammar\", \"stream\": true}");
    }

    @Test void unsupportedFieldsAreRefusedByName() {
        refused("{\"json\": " + SCHEMA + ", \"whitespace_pattern\": \"[ ]?\"}", "/whitespace_pattern");
        refused("{\"json\": " + SCHEMA + ", \"guided_whitespace_pattern\": \"[ ]?\"}", "/guided_whitespace_pattern");
        refused("{\"structured_outputs\": {\"json\": " + SCHEMA + ", \"whitespace_pattern\": \" \"}}", "/structured_outputs/whitespace_pattern");
        refused("{\"structured_outputs\": {\"json\": " + SCHEMA + ", \"lark\": \"x\"}}", "/structured_outputs/lark");
        refused("{\"guided_foo\": 1, \"regex\": \"a\"}", "/guided_foo");
        refused("{\"grammar\": \"root ::= \\\"a\\\"\", \"grammar_lazy\": true}", "/grammar_lazy");
        refused("{\"grammar\": \"root ::= \\\"a\\\"\", \"grammar_triggers\": [{\"type\": \"word\", \"value\": \"<tool>\"}]}", "/grammar_triggers");
        refused("{\"functions\": [{\"name\": \"f\"}], \"function_call\": {\"name\": \"f\"}}", "/functions");
        refused("{\"json\": " + SCHEMA + ", \"disable_any_whitespace\": \"yes\"}", "/disable_any_whitespace");
        assertThatThrownBy(() -> grammar("{\"json\": {\"type\": \"string\", \"x-guidance\": {\"whitespace_flexible\": false}}}"))
                .isInstanceOf(GrammarException.class).hasMessageContaining("x-guidance");
    }
}
