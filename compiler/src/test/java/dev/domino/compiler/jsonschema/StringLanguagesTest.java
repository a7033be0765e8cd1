package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.algebra.StringLanguages;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StringLanguages}: boolean combinations of string constraints as one automaton. The oracle is networknt
 * (a validator this project did not write), on random strings over a small alphabet and on values of every
 * other type: random combinations of patterns, length bounds, {@code enum}, {@code type} under
 * {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not}/{@code $ref}, and the MaskBench "allany" shapes
 * (nested {@code not} of {@code allOf}/{@code anyOf} of referenced definitions).
 */
class StringLanguagesTest {
    private static final String ALPHABET = "ab12zA";
    private static final String[] PATTERNS = {"a", "^a", "b$", "^[ab]+$", "1.*2", "a1", "^....$", "[12]", "^[\\w]*$", "\\d\\d", "[a|b]",
        "^(ab)*$", "z", "^[a-z]{2,3}$", "A.", "^$"};
    private static final JsonNode[] OTHERS = {num("1"), num("1.5"), JsonNodeFactory.instance.nullNode(), JsonNodeFactory.instance.booleanNode(true),
        JsonNodeFactory.instance.objectNode(), JsonNodeFactory.instance.arrayNode(), num("-7"), num("0.25")};

    private static JsonNode num(String s) {
        try {
            return JsonSchemaValidatorHarnessTest.M.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test void randomCombinationsAgreeWithNetworknt() throws Exception {
        Random r = new Random(34);
        int schemas = 0, checked = 0;
        for (int i = 0; i < 300; i++) {
            List<String> defs = new ArrayList<>();
            for (int d = 0; d < 3; d++) defs.add(schema(r, 2, defs.size()));
            String body = schema(r, 3, defs.size());
            StringBuilder s = new StringBuilder("{\"$defs\":{");
            for (int d = 0; d < defs.size(); d++) s.append(d == 0 ? "" : ",").append("\"d").append(d).append("\":").append(defs.get(d));
            s.append("},\"allOf\":[").append(body).append("]}");
            checked += agree(s.toString(), r, 150);
            schemas++;
        }
        assertThat(schemas).isEqualTo(300);
        assertThat(checked).isGreaterThan(300 * 100);
    }

    /** The MaskBench shapes (nested not of allOf/anyOf of references, allOf with length bounds), on strings near their pattern. */
    @Test void allanyShapesAgreeWithNetworknt() throws Exception {
        int total = 0;
        for (String name : List.of("allany12", "allany13", "allany14", "allany15", "allany16", "allany19", "allany20", "allany22", "allany23")) {
            Path file = Path.of("/work/shared/maskbench-dev/Handwritten---" + name + ".json");
            String schema = Files.exists(file) ? JsonSchemaValidatorHarnessTest.M.readTree(file.toFile()).get("schema").toString() : null;
            if (schema == null) continue;
            Grammar g = JsonSchemaGrammar.from(schema).grammar();
            JsonSchema v = validator(schema);
            Random r = new Random(name.hashCode());
            String[] pieces = {"a", "A", "1", "2", "b", "c", "z", "Z", "ab1", "b12", "bc1", "c12", "ca1", "a12", "ac", "a2", "_", "-", "x"};
            int accepted = 0;
            for (int k = 0; k < 3000; k++) {
                StringBuilder t = new StringBuilder();
                int len = 6 + r.nextInt(20);
                if (k % 3 == 0) {
                    // a letter, digits, a letter (allany12's and allany13's languages)
                    t.append("abcdeA".charAt(r.nextInt(6)));
                    boolean twos = r.nextBoolean();
                    while (t.length() < len) t.append(twos || r.nextInt(3) > 0 ? '2' : (char) ('0' + r.nextInt(10)));
                    t.append("xyzZ".charAt(r.nextInt(4)));
                } else {
                    t.append(r.nextBoolean() ? "a1" : r.nextBoolean() ? "A2" : "");
                    while (t.length() < len) t.append(pieces[r.nextInt(pieces.length)]);
                    if (r.nextInt(4) > 0) t.append(r.nextBoolean() ? "z" : "Z");
                }
                JsonNode value = JsonNodeFactory.instance.textNode(t.toString());
                boolean expected = v.validate(value).isEmpty();
                accepted += expected ? 1 : 0;
                assertThat(ExprMatcher.matches(g, value.toString())).as("%s under %s", value, name).isEqualTo(expected);
            }
            total += accepted;
        }
        assertThat(total).isGreaterThan(100);
    }

    /** Three anyOfs of five patterns: 125 combinations, over the product's cap of 64, as one automaton. */
    @Test void aProductOverTheCapOfStringConstraintsIsOneAutomaton() throws Exception {
        StringBuilder s = new StringBuilder("{\"type\":\"string\",\"allOf\":[");
        for (int k = 0; k < 3; k++) {
            s.append(k == 0 ? "" : ",").append("{\"anyOf\":[");
            for (int i = 0; i < 5; i++) s.append(i == 0 ? "" : ",").append("{\"pattern\":\"").append((char) ('a' + k)).append(i).append("\"}");
            s.append("]}");
        }
        s.append("]}");
        Grammar g = JsonSchemaGrammar.from(s.toString()).grammar();
        assertThat(ExprMatcher.matches(g, "\"a0b4c2\"")).isTrue();
        assertThat(ExprMatcher.matches(g, "\"c2xb1-a3\"")).isTrue();
        assertThat(ExprMatcher.matches(g, "\"a0b4c5\"")).isFalse();
        assertThat(ExprMatcher.matches(g, "7")).isFalse();
    }

    /** Returns how many values were compared. */
    private static int agree(String schema, Random r, int strings) throws Exception {
        Grammar g;
        try {
            g = JsonSchemaGrammar.from(schema).grammar();
        } catch (dev.domino.compiler.ir.GrammarException e) {
            // an empty language is an error: networknt must reject every sampled value then
            if (!e.getMessage().contains("no JSON value") && !e.getMessage().contains("empty")) throw e;
            g = null;
        }
        JsonSchema v = validator(schema);
        int n = 0;
        List<JsonNode> values = new ArrayList<>(List.of(OTHERS));
        for (int k = 0; k < strings; k++) {
            StringBuilder t = new StringBuilder();
            int len = r.nextInt(7);
            for (int c = 0; c < len; c++) t.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
            values.add(JsonNodeFactory.instance.textNode(t.toString()));
        }
        for (JsonNode value : values) {
            boolean expected = v.validate(value).isEmpty();
            boolean actual = g != null && ExprMatcher.matches(g, value.toString());
            assertThat(actual).as("%s under %s", value, schema).isEqualTo(expected);
            n++;
        }
        return n;
    }

    private static JsonSchema validator(String schema) throws Exception {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(JsonSchemaValidatorHarnessTest.M.readTree(schema), JsonSchemaValidatorHarnessTest.VALIDATOR_CONFIG);
    }

    /** A random schema of the fragment, up to depth levels of combinators; references name the definitions before it. */
    private static String schema(Random r, int depth, int defs) {
        int pick = r.nextInt(depth <= 0 ? 5 : 11);
        return switch (pick) {
            case 0 -> "{\"pattern\":" + quote(PATTERNS[r.nextInt(PATTERNS.length)]) + "}";
            case 1 -> r.nextBoolean() ? "{\"minLength\":" + r.nextInt(5) + "}" : "{\"maxLength\":" + r.nextInt(5) + "}";
            case 2 -> "{\"type\":" + List.of("\"string\"", "[\"string\",\"null\"]", "\"integer\"", "[\"number\",\"string\"]", "\"boolean\"").get(r.nextInt(5)) + "}";
            case 3 -> "{\"enum\":[\"ab\",\"\",\"12\",\"a\"]}";
            case 4 -> defs > 0 ? "{\"$ref\":\"#/$defs/d" + r.nextInt(defs) + "\"}"
                : "{\"type\":\"string\",\"pattern\":" + quote(PATTERNS[r.nextInt(PATTERNS.length)]) + ",\"maxLength\":" + (1 + r.nextInt(5)) + "}";
            case 5, 6 -> "{\"not\":" + schema(r, depth - 1, defs) + "}";
            default -> {
                String kw = List.of("allOf", "anyOf", "oneOf", "allOf").get(pick - 7);
                int n = 1 + r.nextInt(3);
                StringBuilder b = new StringBuilder("{");
                if (r.nextBoolean()) b.append("\"type\":\"string\",");
                b.append('"').append(kw).append("\":[");
                for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ",").append(schema(r, depth - 1, defs));
                yield b.append("]}").toString();
            }
        };
    }

    private static String quote(String s) { return JsonNodeFactory.instance.textNode(s).toString(); }
}
