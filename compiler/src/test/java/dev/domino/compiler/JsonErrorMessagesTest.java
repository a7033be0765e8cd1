package dev.domino.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.request.RequestSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/**
 * Every front door that reads JSON (a schema file, a request, JSON carried in a request's string fields,
 * structural tags, Lark's {@code %json}, {@code %regex} and {@code %llguidance}) reports broken JSON in
 * one line of its own words: a line and column or a JSON pointer, never the JSON parser's internals
 * ({@code [Source: ...]}, its {@code line: 1, column: 5]} locations, exception class names, stack frames).
 */
class JsonErrorMessagesTest {
    private static final ObjectMapper M = new ObjectMapper();

    /** Broken or out-of-limit JSON texts, each a different parser complaint. */
    static List<String> brokenJson() {
        List<String> out = new ArrayList<>(List.of(
            "", " ", "{", "[", "{\"a\":", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\":1}}", "{\"a\":1} x",
            "{'a':1}", "{a:1}", "NaN", "01", "1.", "-", "tru", "nul", "\"\\x\"", "\"abc", "\"\u0001\"", "{\"a\":[1,2}",
            "{\"a\":1,\"a\":2}", "[\"\\ud800\"]", "{\"\\udc00\":1}", "/* c */ {}", "\uFEFF{}", "{\"a\":\"b\nc\"}",
            "{\"type\":\"string\",}", "{\"a\":{\"b\":[{\"c\":}]}}", "[1e99999999999999999999]", "{\"a\":-}", "\"\\u12\""));
        out.add("[".repeat(5000) + "]".repeat(5000));
        out.add("{\"a\":".repeat(3000) + "1" + "}".repeat(3000));
        return out;
    }

    /** Front door name -> what it does with a JSON text. */
    static Map<String, Consumer<String>> frontDoors() {
        Map<String, Consumer<String>> doors = new LinkedHashMap<>();
        doors.put("JSON schema text", JsonSchemaGrammar::from);
        doors.put("grammar source json-schema", t -> GrammarSources.parse(t, SourceFormat.JSON_SCHEMA, CompileOptions.defaults()));
        doors.put("request", RequestSpec::parse);
        doors.put("request json as string", t -> RequestSpec.parse(object("json", t)));
        doors.put("request guided_json as string", t -> RequestSpec.parse(object("guided_json", t)));
        doors.put("request structural_tag as string", t -> RequestSpec.parse(object("structural_tag", t)));
        doors.put("request response_format schema as string", t -> RequestSpec.parse(
            "{\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"schema\":" + quote(t) + "}}}"));
        doors.put("request json_object schema as string", t -> RequestSpec.parse(
            "{\"response_format\":{\"type\":\"json_object\",\"schema\":" + quote(t) + "}}"));
        doors.put("request tool parameters as string", t -> RequestSpec.parse(
            "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":" + quote(t) + "}}],\"tool_choice\":\"required\"}"));
        doors.put("lark %json", t -> LarkParser.parse("start: %json " + t));
        doors.put("lark %regex", t -> LarkParser.parse("start: %regex " + t));
        doors.put("lark %llguidance", t -> LarkParser.parse("%llguidance " + t + "\nstart: \"a\""));
        return doors;
    }

    static String object(String field, String value) { return "{" + quote(field) + ":" + quote(value) + "}"; }

    static String quote(String s) {
        try {
            return M.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What is wrong with the error for {@code input} at {@code door}, or null when it is in our own words on one line. */
    static String violation(Throwable t) {
        if (t == null) return null; // some texts are fine for some doors
        if (!(t instanceof dev.domino.compiler.ir.GrammarException || t instanceof IllegalArgumentException)) return "thrown " + t;
        String m = t.getMessage();
        if (m == null || m.isBlank()) return "no message";
        if (m.length() > 600) return "longer than 600 characters";
        for (String bad : List.of("\n", "\r", "\t", "Source:", "REDACTED", "line: ", "column: ", "com.fasterxml", "jackson",
                "Exception", "marker at", "(code ", "at [")) {
            if (m.contains(bad)) return "contains '" + bad.replace("\n", "\\n") + "'";
        }
        return null;
    }

    @Test
    void brokenJsonAtEveryFrontDoor() {
        int refused = 0;
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Consumer<String>> door : frontDoors().entrySet()) {
            for (String input : brokenJson()) {
                Throwable t = catchThrowable(() -> door.getValue().accept(input));
                String v = violation(t);
                if (v != null) {
                    wrong.add(door.getKey() + " <- " + (input.length() > 40 ? input.substring(0, 40) + "..." : input) + ": " + v + ": " + t.getMessage());
                }
                if (t != null) refused++;
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(refused).isGreaterThan(frontDoors().size() * 30);
    }

    @Test
    void locationsAndWordsAreOurs() {
        assertThat(catchThrowable(() -> JsonSchemaGrammar.from("{\n  \"type\": \"string\",\n  \"x\": }")).getMessage())
            .isEqualTo("invalid JSON schema document: unexpected character '}': expected a JSON value (line 3, column 8)");
        assertThat(catchThrowable(() -> JsonSchemaGrammar.from("{\"a\": [1, 2}")).getMessage())
            .isEqualTo("invalid JSON schema document: unexpected '}': expected ']' to close the array opened at line 1, column 7 (line 1, column 12)");
        assertThat(catchThrowable(() -> RequestSpec.parse("{\"json\": {\"type\": \"object\"")).getMessage())
            .isEqualTo("request: not valid JSON: the text ends inside the object opened at line 1, column 10 (line 1, column 27)");
        assertThat(catchThrowable(() -> RequestSpec.parse(object("guided_json", "{\"a\":1,\"a\":2}"))).getMessage())
            .isEqualTo("/guided_json/a: not valid JSON: duplicate key 'a' in an object (line 1, column 11)");
        // in a Lark file: the JSON's place counted from where the JSON starts, on the grammar's lines
        assertThat(catchThrowable(() -> LarkParser.parse("start: %json {\"type\": }")).getMessage())
            .isEqualTo("line 1, column 23: %json: invalid JSON: unexpected character '}': expected a JSON value");
        assertThat(catchThrowable(() -> LarkParser.parse("start: x\nx: %json {\n  \"type\": \"string\",\n  \"x\" 1 }")).getMessage())
            .isEqualTo("line 4, column 7: %json: invalid JSON: unexpected character '1': expected ':' after the key");
    }
}
