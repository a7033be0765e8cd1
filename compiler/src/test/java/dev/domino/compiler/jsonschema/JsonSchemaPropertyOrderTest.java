package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions.PropertyOrder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.check;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link JsonSchemaOptions.PropertyOrder}: declared properties in any order or in schema order. */
class JsonSchemaPropertyOrderTest {

    /** Value of property {@code k} in generated instances (matching the schemas below). */
    static String value(String k) {
        return switch (k) {
            case "a" -> "1";
            case "b" -> "'x'";
            case "c" -> "true";
            case "d" -> "[1,2]";
            default -> "null";
        };
    }

    static String propSchema(String k) {
        return switch (k) {
            case "a" -> "{'type':'integer'}";
            case "b" -> "{'type':'string'}";
            case "c" -> "{'type':'boolean'}";
            case "d" -> "{'type':'array','items':{'type':'integer'}}";
            default -> "{'type':'null'}";
        };
    }

    static String schema(List<String> keys, Set<String> required, String additional) {
        List<String> props = new ArrayList<>();
        for (String k : keys) props.add("'" + k + "':" + propSchema(k));
        List<String> req = new ArrayList<>();
        for (String k : keys) if (required.contains(k)) req.add("'" + k + "'");
        return "{'type':'object','properties':{" + String.join(",", props) + "},'required':[" + String.join(",", req)
            + "]" + (additional == null ? "" : ",'additionalProperties':" + additional) + "}";
    }

    static String object(List<String> members) {
        List<String> parts = new ArrayList<>();
        for (String k : members) parts.add(k.equals("x") ? "'x':0" : "'" + k + "':" + value(k));
        return "{" + String.join(",", parts) + "}";
    }

    /** All sequences of distinct elements of {@code keys} (every permutation of every subset). */
    static List<List<String>> arrangements(List<String> keys) {
        List<List<String>> out = new ArrayList<>();
        arrange(keys, new ArrayList<>(), out);
        return out;
    }

    private static void arrange(List<String> keys, List<String> prefix, List<List<String>> out) {
        out.add(List.copyOf(prefix));
        for (String k : keys) {
            if (prefix.contains(k)) continue;
            prefix.add(k);
            arrange(keys, prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    /** Every permutation of every subset is accepted iff it has the required keys; duplicates/unknown keys rejected. */
    static void checkAllArrangements(List<String> keys, Set<String> required) {
        String schema = schema(keys, required, "false");
        List<String> valid = new ArrayList<>(), invalid = new ArrayList<>();
        for (List<String> a : arrangements(keys)) {
            boolean ok = a.containsAll(required);
            (ok ? valid : invalid).add(object(a));
            if (!ok) continue;
            // an unknown key anywhere
            for (int i = 0; i <= a.size(); i++) {
                List<String> b = new ArrayList<>(a);
                b.add(i, "x");
                invalid.add(object(b));
            }
        }
        check(schema, valid, invalid);
        // duplicates (not valid JSON for the test's strict parser, so checked raw in every mode here)
        Grammar flex = JsonSchemaGrammar.from(j(schema)).grammar();
        Grammar compact = JsonSchemaGrammar.from(j(schema), JsonSchemaOptions.compact()).grammar();
        Grammar fixed = JsonSchemaGrammar.from(j(schema), JsonSchemaOptions.fixed(", ", ": ")).grammar();
        for (List<String> a : arrangements(keys)) {
            if (a.isEmpty()) continue;
            for (int i = 0; i <= a.size(); i++) {
                for (String dup : a) {
                    List<String> b = new ArrayList<>(a);
                    b.add(i, dup);
                    String text = j(object(b));
                    assertThat(ExprMatcher.matches(flex, text)).as("flexible %s on %s", schema, text).isFalse();
                    assertThat(ExprMatcher.matches(compact, text)).as("compact %s on %s", schema, text).isFalse();
                    String spaced = text.replace(",", ", ").replace(":", ": ");
                    assertThat(ExprMatcher.matches(flex, spaced)).as("flexible %s on %s", schema, spaced).isFalse();
                    assertThat(ExprMatcher.matches(fixed, spaced)).as("fixed %s on %s", schema, spaced).isFalse();
                }
            }
        }
    }

    @Test void twoProperties() {
        checkAllArrangements(List.of("a", "b"), Set.of());
        checkAllArrangements(List.of("a", "b"), Set.of("b"));
        checkAllArrangements(List.of("a", "b"), Set.of("a", "b"));
    }

    @Test void threeProperties() {
        checkAllArrangements(List.of("a", "b", "c"), Set.of());
        checkAllArrangements(List.of("a", "b", "c"), Set.of("b"));
        checkAllArrangements(List.of("a", "b", "c"), Set.of("a", "c"));
        checkAllArrangements(List.of("a", "b", "c"), Set.of("a", "b", "c"));
    }

    @Test void fourProperties() {
        checkAllArrangements(List.of("a", "b", "c", "d"), Set.of());
        checkAllArrangements(List.of("a", "b", "c", "d"), Set.of("c"));
        checkAllArrangements(List.of("a", "b", "c", "d"), Set.of("a", "d"));
        checkAllArrangements(List.of("a", "b", "c", "d"), Set.of("a", "b", "c", "d"));
    }

    @Test void wrongValuesStillRejected() {
        String s = schema(List.of("a", "b", "c"), Set.of("a"), "false");
        check(s, List.of("{'c':false,'a':2}", "{'b':'y','a':3,'c':true}"),
            List.of("{'c':1,'a':2}", "{'b':1,'a':3}", "{'a':'s'}", "{'a':1,,'b':'x'}", "{,'a':1}", "{'a':1,}", "{'b':'x'}"));
    }

    @Test void additionalPropertiesAnywhere() {
        String open = schema(List.of("a", "b", "c"), Set.of("b"), null);
        check(open, List.of("{'c':true,'b':'x','z':1}", "{'b':'x','a':1,'y':[],'z':{}}", "{'b':'x'}", "{'z':1,'b':'x'}",
                "{'$schema':'s','b':'x','z':1,'a':1}"),
            List.of("{'c':true,'z':1}", "{'b':'x','a':'s'}", "{'b':'x','b':'x'}", "{'z':1,'b':'x','z':2,'b':'y'}"));
        String typed = schema(List.of("a", "b"), Set.of(), "{'type':'integer'}");
        check(typed, List.of("{}", "{'z':1}", "{'b':'x','a':1,'z':2}", "{'b':'x','z':2,'y':3}", "{'z':1,'a':1}"),
            List.of("{'z':'s'}", "{'b':'x','a':1,'z':null}", "{'z':1,'a':1,'a':1}"));
        // with min/maxProperties too
        String counted = "{'type':'object','properties':{'a':{'type':'integer'}},'minProperties':1}";
        check(counted, List.of("{'a':1,'z':1}", "{'z':1}", "{'z':1,'a':1}", "{'y':1,'a':1,'z':1}"), List.of("{}", "{'z':1,'a':1,'a':1}"));
        // schema order keeps additional members after the declared ones
        check(counted, List.of("{'a':1,'z':1}", "{'z':1}"), List.of("{'z':1,'a':1}", "{}"), PropertyOrder.SCHEMA);
    }

    @Test void minAndMaxProperties() {
        String s = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'string'},'c':{'type':'boolean'}},"
            + "'minProperties':2,'maxProperties':3}";
        check(s, List.of("{'c':true,'a':1}", "{'b':'x','a':1,'c':false}", "{'c':true,'z':1}", "{'z':1,'y':2}", "{'b':'x','c':true,'a':1}",
                "{'z':1,'a':1}", "{'z':1,'a':1,'y':2}"),
            List.of("{}", "{'c':true}", "{'c':true,'b':'x','a':1,'z':1}", "{'z':1,'y':2,'w':3,'v':4}", "{'z':1,'a':1,'y':2,'b':'x'}"));
        String max1 = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'string'}},'maxProperties':1,'additionalProperties':false}";
        check(max1, List.of("{}", "{'a':1}", "{'b':'x'}"), List.of("{'a':1,'b':'x'}", "{'b':'x','a':1}"));
    }

    @Test void nested() {
        String s = "{'type':'object','properties':{'p':" + schema(List.of("a", "b"), Set.of("a"), "false")
            + ",'q':{'type':'integer'}},'required':['p','q'],'additionalProperties':false}";
        check(s, List.of("{'q':1,'p':{'b':'x','a':1}}", "{'p':{'a':1},'q':2}"),
            List.of("{'q':1}", "{'q':1,'p':{'b':'x'}}", "{'p':{'a':1},'q':2,'p':{'a':1}}"));
    }

    @Test void schemaOrderRejectsOutOfOrder() {
        String s = schema(List.of("a", "b", "c"), Set.of("b"), "false");
        check(s, List.of("{'b':'x'}", "{'a':1,'b':'x'}", "{'a':1,'b':'x','c':true}"),
            List.of("{'b':'x','a':1}", "{'c':true,'b':'x'}", "{'c':true,'a':1,'b':'x'}", "{'a':1}"), PropertyOrder.SCHEMA);
    }

    /** Any order whatever the number of declared properties: one permutation, no rule per subset. */
    @Test void anyOrderForManyProperties() {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 1; i <= 300; i++) names.add("p" + i);
        String s = schema(names, Set.of("p2", "p150", "p299"), "false");
        Grammar g = JsonSchemaGrammar.from(j(s), JsonSchemaOptions.compact()).grammar();
        StringBuilder reversed = new StringBuilder("{");
        for (int i = 300; i >= 1; i--) reversed.append(i < 300 ? "," : "").append("'p").append(i).append("':null");
        assertThat(ExprMatcher.matches(g, j(reversed.append("}").toString()))).isTrue();
        assertThat(ExprMatcher.matches(g, j("{'p299':null,'p2':null,'p150':null}"))).isTrue();
        assertThat(ExprMatcher.matches(g, j("{'p299':null,'p2':null,'p7':null,'p150':null}"))).isTrue();
        assertThat(ExprMatcher.matches(g, j("{'p299':null,'p2':null}"))).isFalse();
        assertThat(ExprMatcher.matches(g, j("{'p299':null,'p2':null,'p150':null,'p2':null}"))).isFalse();
        assertThat(g.rules().size()).isLessThan(10);
    }

    /**
     * With min/maxProperties, any order for any number of declared properties, extras anywhere: the
     * shape of MaskBench's Github_medium---o38619 (12 properties, 6 required, maxProperties 12,
     * additional properties allowed), whose valid instances came in other orders.
     */
    @Test void countedAnyOrderForManyProperties() {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 1; i <= 12; i++) names.add("p" + i);
        String s = schema(names, Set.of("p1", "p2", "p3", "p4", "p5", "p6"), null).replace("'required'", "'maxProperties':12,'required'");
        List<String> reversedAll = new java.util.ArrayList<>();
        for (int i = 12; i >= 1; i--) reversedAll.add("'p" + i + "':null");
        check(s, List.of("{" + String.join(",", reversedAll) + "}",
                "{'x':1,'$schema':'s','p6':null,'p5':null,'p4':null,'p3':null,'p2':null,'p1':null}",
                "{'p6':null,'x':1,'p5':null,'p12':null,'p4':null,'p3':null,'y':2,'p2':null,'p1':null,'p7':null,'z':3,'p8':null}"),
            List.of("{'p6':null,'p5':null,'p4':null,'p3':null,'p2':null}",
                "{'x':1,'p6':null,'x2':1,'p5':null,'p4':null,'p3':null,'p2':null,'p1':null,'p7':null,'p8':null,'p9':null,'p10':null,'p11':null}",
                "{'p1':null,'p2':null,'p3':null,'p4':null,'p5':null,'p6':null,'p1':null}"));
        Grammar g = JsonSchemaGrammar.from(j(s), JsonSchemaOptions.compact()).grammar();
        assertThat(g.rules().size()).isLessThan(10); // one permutation, no rule per subset or count
    }

    /** minProperties above what the schema allows (additionalProperties false): no object at all. */
    @Test void countsThatCannotBeMet() {
        String s = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'}},'additionalProperties':false,'minProperties':3}";
        String t = "{'type':['object','integer'],'properties':{'a':{'type':'integer'}},'required':['a'],'maxProperties':0}";
        check(s, List.of(), List.of("{}", "{'a':1,'b':2}", "{'b':2,'a':1}"));
        check(t, List.of("1"), List.of("{}", "{'a':1}"));
    }

    @Test void frontEndOptionRecorded() {
        String s = j(schema(List.of("a", "b"), Set.of("a", "b"), "false"));
        var any = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        assertThat(any.options()).containsEntry("json.property_order", "any");
        assertThat(ExprMatcher.matches(any.grammar(), "{\"b\": \"x\", \"a\": 1}")).isTrue();
        var schemaOrder = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults().withPropertyOrder(JsonSchemaOptions.PropertyOrder.SCHEMA));
        assertThat(schemaOrder.options()).containsEntry("json.property_order", "schema");
        assertThat(ExprMatcher.matches(schemaOrder.grammar(), "{\"b\": \"x\", \"a\": 1}")).isFalse();
    }
}
