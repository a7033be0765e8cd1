package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.algebra.SchemaEmptiness;
import dev.domino.compiler.jsonschema.algebra.UnionProduct;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.domino.compiler.jsonschema.JsonSchemaComplementTest.check;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SchemaEmptiness} and {@link UnionProduct}: products of alternatives (complements of anyOfs, oneOf
 * differences, allOfs of anyOfs) pruned against their context before and while multiplying, on the shapes
 * of the MaskBench schemas that were over the caps before.
 */
class JsonSchemaPruningTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode json(String s) {
        try {
            return M.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static SchemaCompiler compiler() { return new SchemaCompiler(json("{}"), JsonSchemaOptions.defaults()); }

    private static boolean empty(String schema) { return compiler().emptiness.empty(json(schema), ""); }

    @Test void emptinessIsShownOnlyWhereItHolds() {
        assertThat(empty("false")).isTrue();
        assertThat(empty("{'type':'object','required':['a'],'properties':{'a':false}}")).isTrue();
        assertThat(empty("{'type':'object','required':['a'],'properties':{'a':{'allOf':[{'type':'number'},{'not':{'type':'number'}}]}}}")).isTrue();
        assertThat(empty("{'type':'object','required':['a','b'],'maxProperties':1}")).isTrue();
        assertThat(empty("{'type':'object','required':['a'],'additionalProperties':false}")).isTrue();
        assertThat(empty("{'type':'object','required':['a'],'properties':{'a':{'const':1,'type':'string'}}}")).isTrue();
        assertThat(empty("{'type':'integer','exclusiveMinimum':1,'exclusiveMaximum':2}")).isTrue();
        assertThat(empty("{'type':'number','exclusiveMinimum':1,'exclusiveMaximum':2}")).isFalse();
        assertThat(empty("{'type':'number','multipleOf':33,'exclusiveMinimum':-300,'exclusiveMaximum':0}")).isFalse(); // -33
        assertThat(empty("{'type':'number','multipleOf':300,'exclusiveMinimum':-300,'exclusiveMaximum':0}")).isTrue();
        assertThat(empty("{'type':'number','multipleOf':12,'\\u0000notMultiples':[2]}")).isTrue();
        assertThat(empty("{'type':'number','multipleOf':12,'\\u0000notMultiples':[5]}")).isFalse();
        assertThat(empty("{'type':'string','pattern':'^a','\\u0000notPatterns':['^[ab]']}")).isTrue();
        assertThat(empty("{'type':'string','pattern':'^a','\\u0000notPatterns':['^[bc]']}")).isFalse();
        assertThat(empty("{'type':'string','pattern':'^a1111x$','maxLength':5}")).isTrue();
        assertThat(empty("{'type':'string','minLength':3,'maxLength':2}")).isTrue();
        assertThat(empty("{'type':'array','minItems':1,'prefixItems':[false]}")).isTrue();
        assertThat(empty("{'type':'array','prefixItems':[false]}")).isFalse(); // []
        assertThat(empty("{'type':['object','string'],'required':['a'],'properties':{'a':false}}")).isFalse(); // strings
        // keywords hold vacuously on other types: a number satisfies both minLengths, so it is not in 'not minLength 1' either
        assertThat(empty("{'minLength':2,'not':{'minLength':1}}")).isTrue();
        assertThat(empty("{'minLength':2,'not':{'type':'string','minLength':1}}")).isFalse(); // numbers
        assertThat(empty("{'type':'string','minLength':2,'not':{'minLength':1}}")).isTrue();
        assertThat(empty("{'type':'string','not':{'anyOf':[{'type':'number'},{'type':'string'}]}}")).isTrue();
    }

    @Test void containmentIsShownOnlyWhereItHolds() {
        SchemaEmptiness e = compiler().emptiness;
        assertThat(e.subsumes(json("{'type':['string','number']}"), json("{'type':'string','minLength':3}"))).isTrue();
        assertThat(e.subsumes(json("{'type':'string','minLength':2}"), json("{'type':'string','minLength':3}"))).isTrue();
        assertThat(e.subsumes(json("{'type':'string','minLength':3}"), json("{'type':'string','minLength':2}"))).isFalse();
        assertThat(e.subsumes(json("{'required':['a']}"), json("{'required':['b','a']}"))).isTrue();
        // additionalProperties reads properties: a larger properties is not a tighter schema
        assertThat(e.subsumes(json("{'additionalProperties':false}"), json("{'additionalProperties':false,'properties':{'x':{}}}"))).isFalse();
        assertThat(e.subsumes(json("{'type':'number'}"), json("{'type':'number','nullable':true}"))).isTrue(); // an annotation
        assertThat(e.subsumes(json("{'enum':[1,2]}"), json("{'enum':[2]}"))).isTrue();
    }

    /** 5 x 4 x 4 = 80 combinations, over the cap of 64; most are empty next to the bounds (MaskBench allany11). */
    @Test void anAllOfOfAnyOfsIsPrunedAgainstItsSiblings() {
        String schema = "{'type':'number','allOf':[{'anyOf':[{'multipleOf':33},{'multipleOf':12},{'multipleOf':4},{'multipleOf':16},{'multipleOf':77}]},"
            + "{'anyOf':[{'allOf':[{'not':{'multipleOf':6}},{'not':{'multipleOf':7}}]},{'multipleOf':25},{'multipleOf':42},{'multipleOf':51}]},"
            + "{'anyOf':[{'allOf':[{'not':{'multipleOf':3}},{'not':{'multipleOf':2}}]},{'multipleOf':101},{'multipleOf':102},{'multipleOf':103}]},"
            + "{'exclusiveMinimum':-300},{'exclusiveMaximum':0}]}";
        // -204 = 12*17 = 4*51 = 2*102; -132 = 4*33: 3 | 132 and 2 | 132 (not in any3's first branch, no 101..103 multiple)
        check(schema, List.of("-204"), List.of("-132", "-33", "0", "-100", "204", "-4"));
    }

    /** Every branch's complement within the context: keys the context requires are never "absent". */
    @Test void aOneOfDifferenceDropsAlternativesTheContextRules() {
        StringBuilder s = new StringBuilder("{'type':'object','properties':{");
        for (int i = 0; i < 4; i++) s.append(i == 0 ? "" : ",").append("'p").append(i).append("':{'type':'integer'}");
        s.append("},'oneOf':[");
        for (int i = 0; i < 4; i++) {
            // branch i: p_i at least i and q_i absent; overlapping every other branch
            s.append(i == 0 ? "" : ",").append("{'required':['p").append(i).append("'],'properties':{'p").append(i)
                .append("':{'minimum':").append(i).append("}},'not':{'required':['q").append(i).append("']}}");
        }
        s.append("]}");
        check(s.toString(), List.of("{'p0':0}", "{'p3':5}", "{'p5':5,'q5':1,'p1':1}"),
            List.of("{'p0':0,'p1':1}", "{}", "{'p2':1}", "{'p3':5,'q3':0}"));
    }

    /**
     * Seven branches, each "a_i and b_i present, c_i at most 5", under a context requiring every a and b: each
     * other branch's complement had 3 alternatives besides its type (3^6 = 729 products, over the cap of 256);
     * within the context "a_j absent" and "b_j absent" are empty, so one is left per branch.
     */
    @Test void aOneOfOverTheCapBeforePruningCompilesExactly() {
        int n = 7;
        StringBuilder s = new StringBuilder("{'type':'object','required':[");
        for (int i = 0; i < n; i++) s.append(i == 0 ? "" : ",").append("'a").append(i).append("','b").append(i).append("'");
        s.append("],'oneOf':[");
        for (int i = 0; i < n; i++)
            s.append(i == 0 ? "" : ",").append("{'required':['a").append(i).append("','b").append(i)
                .append("'],'properties':{'c").append(i).append("':{'maximum':5}}}");
        s.append("]}");
        StringBuilder base = new StringBuilder();
        for (int i = 0; i < n; i++) base.append(i == 0 ? "" : ",").append("'a").append(i).append("':0,'b").append(i).append("':0");
        StringBuilder bigCs = new StringBuilder();
        for (int i = 1; i < n; i++) bigCs.append(",'c").append(i).append("':9");
        check(s.toString(),
            List.of("{" + base + bigCs + "}", "{" + base + bigCs + ",'c0':1}"),
            List.of("{" + base + "}", "{" + base + bigCs.toString().replace("'c3':9", "'c3':1") + "}", "{'a0':0" + bigCs + "}"));
    }

    @Test void aProductStillOverTheCapAfterPruningIsAnErrorNamingKeywordPointerAndCap() {
        // the branches constrain arrays too: string constraints alone are one automaton (StringLanguagesTest)
        StringBuilder s = new StringBuilder("{'type':['string','array'],'allOf':[");
        for (int k = 0; k < 3; k++) {
            s.append(k == 0 ? "" : ",").append("{'anyOf':[");
            for (int i = 0; i < 5; i++) s.append(i == 0 ? "" : ",").append("{'pattern':'").append((char) ('a' + k)).append(i).append("','maxItems':").append(i).append("}");
            s.append("]}");
        }
        s.append("]}");
        assertThatThrownBy(() -> JsonSchemaComplementTest.grammar(s.toString()))
            .isInstanceOf(GrammarException.class)
            .hasMessageContaining("'allOf' at /").hasMessageContaining("more than 64");
    }

    @Test void pruningKeepsOnlyWhatTheContextAdmits() {
        SchemaCompiler sc = compiler();
        List<JsonNode> union = new ArrayList<>();
        union.add(json("{'type':['string','null']}"));
        union.add(json("{'type':'object','properties':{'a':false}}"));
        union.add(json("{'type':'object','required':['b'],'properties':{'b':{'not':{'type':'integer'}}}}"));
        union.add(json("{'type':'object','required':['b'],'properties':{'b':{'not':{'type':'integer'}}},'minProperties':2}"));
        List<JsonNode> kept = sc.products.prune(union,
            (com.fasterxml.jackson.databind.node.ObjectNode) json("{'type':'object','required':['a'],'properties':{'b':{'type':'integer'}}}"), "");
        assertThat(kept).isEmpty();
        kept = sc.products.prune(union, (com.fasterxml.jackson.databind.node.ObjectNode) json("{'type':'object'}"), "");
        assertThat(kept).hasSize(2); // the minProperties one is inside the one without it
    }
}
