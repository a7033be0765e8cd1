package dev.domino.compiler.request;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.ir.Grammar;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 37 item 1: a schema embedded in a larger one (tool parameters under {@code tool_choice:
 * "required"}, a named tool, {@code response_format}, a structural tag's {@code json_schema}) keeps its
 * own document root: {@code #}, {@code #/$defs/…}, {@code #/definitions/…}, {@code #/properties/…}
 * and {@code $anchor} references resolve inside it, as they do when it stands alone.
 */
class EmbeddedSchemaRootsTest {
    static final String TREE = "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"integer\"},\"kids\":{\"type\":\"array\",\"items\":{\"$ref\":\"#\"}}},"
            + "\"required\":[\"v\"],\"additionalProperties\":false}";

    static Grammar grammar(String request) {
        return RequestSpec.parse(request).grammar(JsonSchemaOptions.defaults()).grammar();
    }

    static String tools(String params, String choice) {
        return "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"tree\",\"parameters\":" + params + "}}],\"tool_choice\":" + choice + "}";
    }

    static String call(String args) { return "[{\"name\": \"tree\", \"parameters\": " + args + "}]"; }

    @Test void recursiveRootRefUnderRequired() {
        Grammar g = grammar(tools(TREE, "\"required\""));
        assertThat(ExprMatcher.matches(g, call("{\"v\": 1, \"kids\": [{\"v\": 2}]}"))).isTrue();
        assertThat(ExprMatcher.matches(g, call("{\"v\": 1, \"kids\": [{\"v\": 2, \"kids\": [{\"v\": 3}]}]}"))).isTrue();
        // "#" is the parameters schema, not the array of calls
        assertThat(ExprMatcher.matches(g, call("{\"v\": 1, \"kids\": [[{\"name\": \"tree\", \"parameters\": {\"v\": 2}}]]}"))).isFalse();
    }

    @Test void recursiveRootRefUnderNamedTool() {
        Grammar g = grammar(tools(TREE, "{\"type\":\"function\",\"function\":{\"name\":\"tree\"}}"));
        assertThat(ExprMatcher.matches(g, "{\"v\": 1, \"kids\": [{\"v\": 2}]}")).isTrue();
        assertThat(ExprMatcher.matches(g, "{\"v\": 1, \"kids\": [1]}")).isFalse();
    }

    static final String[] REFS = {
        // $defs, definitions (Pydantic v1), a pointer into properties, an anchor
        "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/pos\"}},\"required\":[\"a\"],\"additionalProperties\":false,"
                + "\"$defs\":{\"pos\":{\"type\":\"integer\",\"minimum\":1}}}",
        "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/definitions/pos\"}},\"required\":[\"a\"],\"additionalProperties\":false,"
                + "\"definitions\":{\"pos\":{\"type\":\"integer\",\"minimum\":1}}}",
        "{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"integer\",\"minimum\":1},\"a\":{\"$ref\":\"#/properties/b\"}},\"required\":[\"a\"],"
                + "\"additionalProperties\":false}",
        "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#pos\"}},\"required\":[\"a\"],\"additionalProperties\":false,"
                + "\"$defs\":{\"p\":{\"$anchor\":\"pos\",\"type\":\"integer\",\"minimum\":1}}}",
    };

    @Test void pointersAndAnchorsUnderEveryEmbedding() {
        for (String params : REFS) {
            String[] requests = {
                tools(params, "\"required\""),
                tools(params, "{\"type\":\"function\",\"function\":{\"name\":\"tree\"}}"),
                "{\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"schema\":" + params + "}}}",
                "{\"structural_tag\":{\"type\":\"structural_tag\",\"format\":{\"type\":\"tag\",\"begin\":\"<f>\",\"content\":"
                        + "{\"type\":\"json_schema\",\"json_schema\":" + params + "},\"end\":\"</f>\"}}}",
            };
            String[] wraps = {call("%s"), "%s", "%s", "<f>%s</f>"};
            for (int i = 0; i < requests.length; i++) {
                Grammar g = grammar(requests[i]);
                assertThat(ExprMatcher.matches(g, String.format(wraps[i], "{\"a\": 3}"))).as("%s", requests[i]).isTrue();
                assertThat(ExprMatcher.matches(g, String.format(wraps[i], "{\"a\": 0}"))).as("%s", requests[i]).isFalse();
            }
        }
    }

    @Test void twoToolsWithTheSameDefNameKeepTheirOwn() {
        String a = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/t\"}},\"required\":[\"x\"],\"additionalProperties\":false,"
                + "\"$defs\":{\"t\":{\"type\":\"integer\"}}}";
        String b = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/t\"}},\"required\":[\"x\"],\"additionalProperties\":false,"
                + "\"$defs\":{\"t\":{\"type\":\"string\"}}}";
        Grammar g = grammar("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"a\",\"parameters\":" + a + "}},"
                + "{\"type\":\"function\",\"function\":{\"name\":\"b\",\"parameters\":" + b + "}}],\"tool_choice\":\"required\"}");
        assertThat(ExprMatcher.matches(g, "[{\"name\": \"a\", \"parameters\": {\"x\": 1}}]")).isTrue();
        assertThat(ExprMatcher.matches(g, "[{\"name\": \"b\", \"parameters\": {\"x\": \"s\"}}]")).isTrue();
        assertThat(ExprMatcher.matches(g, "[{\"name\": \"a\", \"parameters\": {\"x\": \"s\"}}]")).isFalse();
        assertThat(ExprMatcher.matches(g, "[{\"name\": \"b\", \"parameters\": {\"x\": 1}}]")).isFalse();
    }

    @Test void aRefCannotEscapeItsToolIntoTheWrapper() {
        // standalone, "#/items" in these parameters resolves to nothing: it must not reach the wrapper's items
        String params = "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/items\"}}}";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> grammar(tools(params, "\"required\"")))
                .hasMessageContaining("#/items");
    }
}
