package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.algebra.UnevaluatedKeywords;
import dev.domino.compiler.jsonschema.strings.Formats;
import dev.domino.compiler.jsonschema.strings.StringSchemas;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonSchemaGrammarTest {
    static final ObjectMapper M = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Single quotes stand for double quotes, to keep the schemas readable. */
    static String j(String s) { return s.replace('\'', '"'); }

    static String ser(JsonNode n, String itemSep, String keySep, int indent, int level) {
        if (n.isArray()) {
            if (n.isEmpty()) return "[]";
            List<String> parts = new ArrayList<>();
            for (JsonNode x : n) parts.add(nl(indent, level + 1) + ser(x, itemSep, keySep, indent, level + 1));
            return "[" + String.join(itemSep, parts) + nl(indent, level) + "]";
        }
        if (n.isObject()) {
            if (n.isEmpty()) return "{}";
            List<String> parts = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                parts.add(nl(indent, level + 1) + M.getNodeFactory().textNode(f.getKey()) + keySep + ser(f.getValue(), itemSep, keySep, indent, level + 1));
            }
            return "{" + String.join(itemSep, parts) + nl(indent, level) + "}";
        }
        return n.toString();
    }

    static String nl(int indent, int level) { return indent < 0 ? "" : "\n" + " ".repeat(indent * level); }

    static boolean accepts(Grammar g, String text) { return ExprMatcher.matches(g, text); }

    /** Checks valid/invalid instances in compact, ", "/": " and indented forms under the matching modes. */
    static void check(String schema, List<String> valid, List<String> invalid) {
        check(schema, valid, invalid, JsonSchemaOptions.PropertyOrder.ANY);
    }

    /** As {@link #check(String, List, List)} with the given property order in all three whitespace modes. */
    static void check(String schema, List<String> valid, List<String> invalid, JsonSchemaOptions.PropertyOrder order) {
        String s = j(schema);
        Grammar flex = JsonSchemaGrammar.from(s, JsonSchemaOptions.defaults().withPropertyOrder(order)).grammar();
        Grammar compact = JsonSchemaGrammar.from(s, JsonSchemaOptions.compact().withPropertyOrder(order)).grammar();
        Grammar fixed = JsonSchemaGrammar.from(s, JsonSchemaOptions.fixed(", ", ": ").withPropertyOrder(order)).grammar();
        for (int pass = 0; pass < 2; pass++) {
            boolean expect = pass == 0;
            for (String inst : expect ? valid : invalid) {
                String text = j(inst);
                JsonNode node;
                try { node = M.readTree(text); } catch (Exception e) {
                    if (expect) throw new AssertionError(text, e);
                    assertThat(accepts(flex, text)).as("flexible %s on non-JSON %s", s, text).isFalse();
                    continue;
                }
                String c = ser(node, ",", ":", -1, 0);
                if (!expect && !c.equals(text)) { // re-serialization changed the text: only check it raw
                    assertThat(accepts(flex, text)).as("flexible %s on %s", s, text).isFalse();
                    continue;
                }
                String spaced = ser(node, ", ", ": ", -1, 0);
                String pretty = ser(node, ",", ": ", 2, 0);
                assertThat(accepts(flex, text)).as("flexible %s on %s", s, text).isEqualTo(expect);
                assertThat(accepts(flex, c)).as("flexible %s on %s", s, c).isEqualTo(expect);
                assertThat(accepts(flex, spaced)).as("flexible %s on %s", s, spaced).isEqualTo(expect);
                assertThat(accepts(flex, pretty)).as("flexible %s on %s", s, pretty).isEqualTo(expect);
                assertThat(accepts(flex, " " + pretty + "\n")).as("flexible %s on padded %s", s, pretty).isEqualTo(expect);
                assertThat(accepts(compact, c)).as("compact %s on %s", s, c).isEqualTo(expect);
                assertThat(accepts(fixed, spaced)).as("fixed %s on %s", s, spaced).isEqualTo(expect);
                if (expect && !c.equals(spaced)) {
                    assertThat(accepts(compact, spaced)).as("compact rejects spaces: %s", spaced).isFalse();
                    assertThat(accepts(fixed, c)).as("fixed rejects compact: %s", c).isFalse();
                }
            }
        }
    }

    static List<String> l(String... xs) { return List.of(xs); }

    @Test void types() {
        check("{'type':'string'}", l("'a'", "''", "'\\u00e9\\n\\\"'"), l("1", "null", "'a", "[]"));
        check("{'type':['integer','null']}", l("1", "-5", "null", "0"), l("1.5", "'1'", "true", "01"));
        check("{'type':'number'}", l("1", "-1.5", "1e10", "2.5E-3", "0.0"), l("'1'", ".5", "1.", "+1", "NaN"));
        check("{'type':'boolean'}", l("true", "false"), l("null", "1"));
        check("{'type':'null'}", l("null"), l("false"));
        check("{'type':'array'}", l("[]", "[1,'a',{'x':[null]}]"), l("{}", "1"));
        check("{'type':'object'}", l("{}", "{'a':{'b':[1,2,{}]}}"), l("[]", "'x'"));
    }

    @Test void trueFalseEmptyNullable() {
        check("true", l("1", "'x'", "{'a':[true,false,null]}", "[]"), l());
        check("{}", l("1.5e3", "'x'", "[[[]]]"), l());
        check("{'type':'object','properties':{'a':false}}", l("{}", "{'b':1}"), l("{'a':1}"));
        // OpenAPI 3.0's nullable is an annotation in JSON Schema: null stays out
        check("{'type':'string','nullable':true}", l("'x'"), l("1", "null"));
        assertThat(accepts(JsonSchemaGrammar.from("false").grammar(), "null")).isFalse();
    }

    @Test void enumAndConst() {
        check("{'enum':['a','b',1,null,{'k':[1,2]}]}", l("'a'", "'b'", "1", "null", "{'k':[1,2]}", "'\\u0061'"),
            l("'c'", "2", "{'k':[1]}", "{}", "'A'"));
        check("{'const':'x\\\"y'}", l("'x\\\"y'", "'x\\u0022y'"), l("'xy'"));
        check("{'type':'string','enum':['a',1,'bb'],'maxLength':1}", l("'a'"), l("1", "'bb'"));
        check("{'const':{'a':1,'b':[true]}}", l("{'a':1,'b':[true]}", "{'b':[true],'a':1}"), l("{'a':1}", "{'b':[true,true],'a':1}"));
    }

    @Test void canonicalStringsOption() {
        Grammar g = JsonSchemaGrammar.from(j("{'enum':['a\\\"b']}"), JsonSchemaOptions.defaults().withAllStringEscapes(false)).grammar();
        assertThat(accepts(g, "\"a\\\"b\"")).isTrue();
        assertThat(accepts(g, "\"a\\u0022b\"")).isFalse();
    }

    @Test void propertiesRequiredOrder() {
        var schemaOrder = JsonSchemaOptions.PropertyOrder.SCHEMA;
        String s = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'string'},'c':{'type':'boolean'}},"
            + "'required':['b'],'additionalProperties':false}";
        check(s, l("{'b':'x'}", "{'a':1,'b':'x'}", "{'b':'x','c':true}", "{'a':1,'b':'x','c':false}"),
            l("{}", "{'a':1}", "{'b':'x','d':1}", "{'b':1}", "{'a':1,'c':true}", "{'b':'x','b':'x'}",
                // properties are generated in schema order only
                "{'c':true,'b':'x'}"), schemaOrder);
        String all = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'}},'additionalProperties':false}";
        check(all, l("{}", "{'a':1}", "{'b':2}", "{'a':1,'b':2}"), l("{'a':1,'a':1}", "{'x':1}"), schemaOrder);
        String many = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'},'c':{'type':'integer'},"
            + "'d':{'type':'integer'},'e':{'type':'integer'}}}";
        check(many, l("{}", "{'a':1}", "{'c':1,'e':2}", "{'a':1,'b':2,'c':3,'d':4,'e':5}", "{'d':1,'x':2}", "{'x':2,'y':3}", "{'b':1,'c':2}"),
            l("{'e':1,'a':2}", "{'a':1,,'b':2}", "{,'a':1}", "{'a':1,}", "{'x':1,'a':2}", "{'a':'s'}"), schemaOrder);
        String midRequired = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'},'c':{'type':'integer'}},"
            + "'required':['b'],'additionalProperties':false}";
        check(midRequired, l("{'b':1}", "{'a':1,'b':2}", "{'b':1,'c':2}", "{'a':1,'b':2,'c':3}"), l("{'a':1}", "{'a':1,'c':2}", "{'a':1,,'b':2}", "{}"), schemaOrder);
    }

    @Test void additionalProperties() {
        String open = "{'type':'object','properties':{'a':{'type':'integer'}}}";
        check(open, l("{}", "{'a':1}", "{'a':1,'x':'y'}", "{'x':[1],'y':null}", "{'ab':1}", "{'':1}"),
            l("{'a':'s'}", "{'x':1,'a':'s'}", "{'a':1,'a':2}", "{'x':1,'\\u0061':'s'}"));
        String typed = "{'type':'object','properties':{'a':{'type':'integer'}},'additionalProperties':{'type':'string'}}";
        check(typed, l("{'a':1,'x':'y'}", "{'x':'y','z':'w'}"), l("{'x':1}", "{'a':1,'x':2}"));
        String requiredExtra = "{'type':'object','required':['id'],'additionalProperties':{'type':'integer'}}";
        check(requiredExtra, l("{'id':1}", "{'id':1,'z':2}"), l("{}", "{'id':'x'}", "{'z':2}"));
        check("{'type':'object','required':['id'],'additionalProperties':false}", l(), l("{}", "{'id':1}"));
    }

    @Test void patternProperties() {
        String s = "{'type':'object','patternProperties':{'^x-':{'type':'integer'}},'additionalProperties':false}";
        check(s, l("{}", "{'x-a':1}", "{'x-a':1,'x-b':2}"), l("{'y':1}", "{'x-a':'s'}"));
        String trivial = "{'type':'object','patternProperties':{'^x-':{}}}";
        check(trivial, l("{}", "{'x-a':1}", "{'y':'z'}"), l("[]"));
    }

    @Test void patternPropertiesBesideDeclaredProperties() {
        // undeclared keys matching the pattern get its schema, every other undeclared key additionalProperties
        String s = "{'type':'object','properties':{'a':{'type':'integer'}},'patternProperties':{'^x-':{'type':'string'}}}";
        check(s, l("{}", "{'a':1}", "{'x-a':'s'}", "{'b':true}", "{'a':1,'x-b':'s','c':null}", "{'x':1}"),
            l("{'x-a':1}", "{'a':'s'}", "{'a':1,'a':2}"));
        // a declared name that matches a pattern gets both schemas
        check("{'type':'object','properties':{'ab':{'type':'integer'}},'patternProperties':{'^a':{'type':'integer','maximum':5}},"
                + "'additionalProperties':{'type':'string'}}",
            l("{'ab':3}", "{'ac':5}", "{'b':'s'}", "{'ab':1,'b':'s','ax':0}"), l("{'ab':7}", "{'ac':'s'}", "{'b':1}", "{'ab':'s'}"));
        // overlapping patterns with different schemas: a key matching both gets their conjunction
        check("{'type':'object','patternProperties':{'^a':{'type':'integer'},'b$':{'type':'integer','minimum':1}},"
                + "'additionalProperties':{'type':'string'}}",
            l("{'ab':2,'ax':0,'xb':5,'zz':'s'}", "{'b':3}", "{'a':-1}"), l("{'ab':0}", "{'zz':1}", "{'xb':0}", "{'ax':'s'}", "{'ab':'s'}"));
        // several patterns with different schemas, nothing else allowed
        check("{'type':'object','patternProperties':{'^i':{'type':'integer'},'^s':{'type':'string'}},'additionalProperties':false}",
            l("{}", "{'i1':1,'s1':'x'}"), l("{'i1':'x'}", "{'s1':1}", "{'z':1}"));
        // a false pattern schema forbids its keys
        check("{'type':'object','properties':{'a':{}},'patternProperties':{'^_':false}}", l("{'a':1,'b':2}"), l("{'_a':1}"));
    }

    @Test void propertyNames() {
        check("{'type':'object','propertyNames':{'pattern':'^[a-z]+$'}}", l("{}", "{'abc':1}", "{'a':1,'b':[]}"), l("{'Abc':1}", "{'a1':1}", "{'':1}"));
        check("{'type':'object','propertyNames':{'maxLength':3}}", l("{'abc':1}", "{'':1}"), l("{'abcd':1}"));
        check("{'type':'object','properties':{'ABC':{},'abc':{}},'propertyNames':{'pattern':'^[a-z]+$'}}",
            l("{'abc':1}", "{'x':2}"), l("{'ABC':1}", "{'X':1}"));
        check("{'type':'object','required':['ABC'],'propertyNames':{'pattern':'^[a-z]+$'}}", l(), l("{}", "{'ABC':1}"));
        check("{'type':'object','propertyNames':{'not':{'enum':['x','y']}}}", l("{'z':1}", "{'xx':1}"), l("{'x':1}", "{'z':1,'y':2}"));
        check("{'type':'object','propertyNames':{'$ref':'#/$defs/n'},'$defs':{'n':{'type':'string','enum':['p','q']}}}",
            l("{'p':1,'q':2}"), l("{'r':1}"));
        check("{'type':'object','patternProperties':{'^x':{'type':'integer'}},'propertyNames':{'minLength':2}}",
            l("{'xa':1,'ab':'s'}"), l("{'x':1}", "{'xa':'s'}", "{'a':1}"));
        check("{'type':'object','propertyNames':false}", l("{}"), l("{'a':1}"));
    }

    @Test void minMaxProperties() {
        String s = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'}},'minProperties':1,'maxProperties':2}";
        check(s, l("{'a':1}", "{'b':1}", "{'a':1,'b':2}", "{'x':1}", "{'a':1,'x':1}", "{'x':1,'y':2}"),
            l("{}", "{'a':1,'b':2,'x':3}", "{'x':1,'y':2,'z':3}"));
        check("{'type':'object','minProperties':2}", l("{'a':1,'b':2}", "{'a':1,'b':2,'c':3}"), l("{}", "{'a':1}"));
        check("{'type':'object','maxProperties':0}", l("{}"), l("{'a':1}"));
    }

    @Test void arrays() {
        check("{'type':'array','items':{'type':'integer'},'minItems':1,'maxItems':3}",
            l("[1]", "[1,2]", "[1,2,3]"), l("[]", "[1,2,3,4]", "['a']", "[1,'a']"));
        check("{'type':'array','prefixItems':[{'type':'string'},{'type':'integer'}],'items':false}",
            l("[]", "['a']", "['a',1]"), l("[1]", "['a',1,2]", "['a','b']"));
        check("{'type':'array','prefixItems':[{'type':'string'}],'items':{'type':'integer'},'minItems':2}",
            l("['a',1]", "['a',1,2,3]"), l("['a']", "[]", "['a','b']"));
        check("{'type':'array','items':[{'type':'string'},{'type':'integer'}],'additionalItems':{'type':'boolean'}}",
            l("[]", "['a']", "['a',1]", "['a',1,true,false]"), l("['a',1,2]", "[1]"));
        check("{'type':'array','items':[{'type':'string'}]}", l("['a',1,null]"), l("[1]"));
        check("{'type':'array','maxItems':0}", l("[]"), l("[1]"));
        check("{'type':'array','uniqueItems':false,'minItems':3,'maxItems':2}", l(), l("[]", "[1,2]"));
    }

    @Test void unevaluatedPropertiesAndItemsWhereTheyReduce() {
        // names from allOf parts and $ref targets count as evaluated
        check("{'allOf':[{'$ref':'#/$defs/base'}],'properties':{'b':{'type':'integer'}},'unevaluatedProperties':false,"
                + "'$defs':{'base':{'properties':{'a':{'type':'string'}}}}}",
            l("{'a':'x','b':1}", "{'b':1}", "{}", "1"), l("{'c':1}", "{'a':'x','z':null}", "{'a':1}"));
        check("{'allOf':[{'patternProperties':{'^x-':{'type':'string'}}}],'unevaluatedProperties':{'type':'integer'}}",
            l("{'x-a':'s','k':1}", "{}"), l("{'k':'s'}", "{'x-a':1}"));
        // a branch that names only keys the always-evaluated parts name
        check("{'properties':{'a':{},'b':{}},'anyOf':[{'properties':{'a':{'const':1}}},{'required':['b']}],'unevaluatedProperties':false}",
            l("{'a':1}", "{'b':2}", "{'a':1,'b':2}"), l("{'a':2}", "{'a':1,'c':3}"));
        // additionalProperties in a part evaluates every key
        check("{'allOf':[{'additionalProperties':{'type':'integer'}}],'unevaluatedProperties':false}", l("{'z':1}"), l("{'z':'s'}"));
        check("{'unevaluatedProperties':false}", l("{}", "1", "[]"), l("{'a':1}"));
        check("{'type':'array','prefixItems':[{'type':'string'}],'unevaluatedItems':{'type':'integer'}}",
            l("['a',1,2]", "[]", "['a']"), l("['a','b']", "[1]"));
        check("{'type':'array','allOf':[{'prefixItems':[{},{'type':'boolean'}]}],'unevaluatedItems':false}",
            l("[1,true]", "[null]"), l("[1,true,3]", "[1,2]"));
        check("{'type':'array','items':{'type':'integer'},'unevaluatedItems':false}", l("[1,2,3]"), l("['a']"));
        // before 2019-09 they are unknown keywords (no assertion)
        check("{'$schema':'http://json-schema.org/draft-07/schema#','properties':{'a':{}},'unevaluatedProperties':false}",
            l("{'a':1,'b':2}"), l());
    }

    /** const/enum objects are JSON values: any member order (the schema's order with PropertyOrder.SCHEMA). */
    @Test void constObjectsInAnyMemberOrder() {
        check("{'const':{'a':1,'b':[1,{'c':null,'d':'x'}]}}",
            l("{'a':1,'b':[1,{'c':null,'d':'x'}]}", "{'b':[1,{'d':'x','c':null}],'a':1}", "{'a':1.0,'b':[1,{'c':null,'d':'x'}]}"),
            l("{'a':1}", "{'a':1,'b':[1,{'c':null,'d':'x'}],'e':0}", "{'b':[{'c':null,'d':'x'},1],'a':1}", "{'a':1,'a':1,'b':[1,{'c':null,'d':'x'}]}"));
        check("{'enum':[{'a':1,'b':2},{'c':3}]}", l("{'b':2,'a':1}", "{'c':3}"), l("{'a':1}", "{'b':2,'c':3}"));
        check("{'const':{'a':1,'b':2}}", l("{'a':1,'b':2}"), l("{'b':2,'a':1}"), JsonSchemaOptions.PropertyOrder.SCHEMA);
    }

    /** Where the evaluated keys (items) depend on the branch taken: one variant per outcome (UnevaluatedKeywords.expand). */
    @Test void unevaluatedExpandedOverBranches() {
        // anyOf: every valid branch evaluates its keys
        check("{'anyOf':[{'properties':{'a':{'type':'integer'}},'required':['a']},{'properties':{'b':{'type':'string'}},'required':['b']}],'unevaluatedProperties':false}",
            l("{'a':1}", "{'b':'x'}", "{'a':1,'b':'x'}"), l("{'a':1,'c':0}", "{'a':1,'b':2}", "{'b':'x','a':'y'}", "{}"));
        // oneOf: only the one valid branch's keys
        check("{'oneOf':[{'properties':{'a':{'const':1}},'required':['a']},{'properties':{'b':{}},'required':['b']}],'unevaluatedProperties':false}",
            l("{'a':1}", "{'b':2}"), l("{'a':1,'b':2}", "{'a':2}", "{'b':1,'c':1}"));
        // if/then/else: if's keys count when it validates; else's otherwise
        check("{'if':{'properties':{'k':{'const':'n'}},'required':['k']},'then':{'properties':{'n':{'type':'number'}}},"
                + "'else':{'properties':{'s':{'type':'string'}}},'unevaluatedProperties':false}",
            l("{'k':'n','n':1}", "{'s':'x'}", "{'k':'n'}"), l("{'k':'n','s':'x'}", "{'k':'m'}", "{'n':1}"));
        // dependentSchemas: the dependency's keys count when its key is present
        check("{'properties':{'a':{}},'dependentSchemas':{'a':{'properties':{'b':{}}}},'unevaluatedProperties':false}",
            l("{'a':1,'b':2}", "{'a':1}", "{}"), l("{'b':2}", "{'a':1,'c':3}"));
        // items: the branch's prefix
        check("{'type':'array','anyOf':[{'prefixItems':[{'type':'string'}]},{'prefixItems':[true,{'type':'integer'}]}],'unevaluatedItems':false}",
            l("['a']", "['a',1]", "[null,2]", "[1]"), l("['a','b']", "[1,'a']", "['a',1,2]"));
        // an anyOf inside an allOf part is in place: hoisted and expanded the same
        check("{'allOf':[{'anyOf':[{'properties':{'a':{}}},{'properties':{'b':{}}}]}],'unevaluatedProperties':false}",
            l("{'a':1}", "{'b':1,'a':2}", "{}"), l("{'c':1}"));
        // contains evaluates the items it matches: the others must satisfy unevaluatedItems
        check("{'type':'array','prefixItems':[true],'contains':{'type':'string'},'unevaluatedItems':false}",
            l("[1,'a']", "[1,'a','b']", "['x','y']"), l("[1,2]", "[1,2,'a']", "[1]"));
        check("{'type':'array','allOf':[{'contains':{'multipleOf':2}},{'contains':{'multipleOf':3}}],'unevaluatedItems':{'multipleOf':5}}",
            l("[2,3,4,5,6]", "[6]"), l("[2,3,4,7,8]", "[2]"));
        // through a $ref (an in-place applicator), also nested: the target's branches are expanded in turn
        check("{'$defs':{'one':{'oneOf':[{'$ref':'#/$defs/two'},{'properties':{'b':true},'required':['b']}]},"
                + "'two':{'oneOf':[{'properties':{'c':true},'required':['c']},{'properties':{'d':true},'required':['d']}]}},"
                + "'allOf':[{'$ref':'#/$defs/one'}],'unevaluatedProperties':false}",
            l("{'c':1}", "{'d':1}", "{'b':1}"), l("{'c':1,'x':1}", "{'c':1,'d':1}", "{'b':1,'c':1}", "{}"));
    }

    @Test void leadingLookaheadsOfAnchoredPatterns() {
        check("{'type':'string','pattern':'^(?=.*[A-Z])(?=.*[0-9])[A-Za-z0-9]{4,}$'}",
            l("'Ab12'", "'1234X'", "'zzZ9'"), l("'ab12'", "'ABCD'", "'A1b'", "'Ab1!'"));
        check("{'type':'string','pattern':'^(?!abc)[a-z]+$'}", l("'abd'", "'ab'", "'xabc'"), l("'abc'", "'abcd'", "''"));
        check("{'type':'string','pattern':'^(?=[^)]*\\\\))(?!.*x)'}", l("'a)'", "')b'"), l("'ab'", "'a)x'"));
        check("{'type':'string','pattern':'^(?=a)','not':{'pattern':'^(?=ab)'}}", l("'a'", "'ac'"), l("'ab'", "'b'"));
    }

    @Test void uniqueItemsOverFiniteItemValues() {
        // a selection of the values in any order, each at most once
        check("{'type':'array','items':{'enum':['a','b','c']},'uniqueItems':true}",
            l("[]", "['a']", "['c','a']", "['b','c','a']", "[ 'a' , 'b' ]"), l("['a','a']", "['a','b','a']", "['d']", "['a','b','c','a']"));
        check("{'type':'array','items':{'type':'boolean'},'uniqueItems':true,'minItems':1}",
            l("[true]", "[false,true]"), l("[]", "[true,true]", "[true,false,true]"));
        check("{'type':'array','items':{'enum':[1,2,3,'x']},'uniqueItems':true,'minItems':2,'maxItems':3}",
            l("[1,2]", "[3,'x',1]"), l("[1]", "[1,1]", "[1,2,3,'x']", "[2,2,3]"));
        // values the items schema rejects are not members; equal numbers count once
        check("{'type':'array','items':{'type':'integer','enum':[1,1.0,2,'s']},'uniqueItems':true}",
            l("[1,2]", "[2]"), l("[1,1]", "['s']"));
        check("{'type':'array','items':{'type':['boolean','null']},'uniqueItems':true,'maxItems':2}",
            l("[null,true]", "[false]"), l("[null,null]", "[true,false,null]"));
        check("{'type':'array','items':false,'uniqueItems':true}", l("[]"), l("[1]"));
        check("{'type':'array','items':{'enum':['a','b']},'uniqueItems':true,'minItems':3}", l(), l("[]", "['a','b']", "['a','b','a']"));
    }

    @Test void uniqueItemsOverAnyItems() {
        // distinct by JSON equality: numbers by value, strings by decoded text, objects in any member order
        check("{'type':'array','items':{'type':'number'},'uniqueItems':true}",
            l("[]", "[1]", "[1,2]", "[1,10,1.5]", "[-0.5,0.5]"), l("[1,1]", "[1,1.0]", "[2,1e0,1]", "[0,-0]", "[10,1e1]"));
        check("{'type':'array','items':{'type':'string'},'uniqueItems':true,'minItems':2,'maxItems':3}",
            l("['a','b']", "['a','b','ab']", "['\\n','n']"), l("['a']", "['a','a']", "['a','b','a']", "['a','\\u0061']", "['a','b','c','d']"));
        check("{'type':'array','items':{'type':'object'},'uniqueItems':true}",
            l("[{},{'a':1}]", "[{'a':1},{'a':2},{'b':1}]"), l("[{},{}]", "[{'a':1,'b':2},{'b':2,'a':1}]", "[{'a':[1,2]},{'a':[1,2.0]}]"));
        check("{'type':'array','items':{'type':'array'},'uniqueItems':true}",
            l("[[],[1],[1,2],[2,1]]"), l("[[1,2],[1,2]]", "[[],[]]"));
        check("{'type':'array','items':{},'uniqueItems':true}",
            l("[1,'1',true,null,{},[]]", "[false,true]"), l("[null,null]", "[true,true]", "['x',1,'x']"));
        // positional schemas, then the rest (or none)
        check("{'type':'array','prefixItems':[{'type':'integer'},{'type':'number'}],'items':{'type':'string'},'uniqueItems':true}",
            l("[1]", "[1,2]", "[1,2.5,'a','b']"), l("[1,1]", "[1,1.0]", "[1,2,'a','a']", "['a']"));
        check("{'type':'array','prefixItems':[{'type':'integer'},{'type':'integer'}],'items':false,'uniqueItems':true}",
            l("[1,2]", "[3]"), l("[1,1]", "[1,2,3]"));
        check("{'$schema':'http://json-schema.org/draft-04/schema#','type':'array','items':[{'type':'boolean'},{'type':'boolean'}],"
            + "'additionalItems':false,'uniqueItems':true}", l("[true,false]", "[false]"), l("[true,true]", "[false,false]"));
    }

    @Test void stringLengthCountsDecodedCodePoints() {
        String s = "{'type':'string','minLength':2,'maxLength':3}";
        check(s, l("'ab'", "'abc'", "'\\u00e9\\u00e9'", "'\\ud83d\\ude00x'", "'\\n\\t'", "'\uD83D\uDE00\uD83D\uDE00'"),
            l("'a'", "'abcd'", "'\\ud83d\\ude00'", "'\uD83D\uDE00'", "''"));
        Grammar g = JsonSchemaGrammar.from(j(s)).grammar();
        assertThat(accepts(g, "\"a\\x\"")).isFalse(); // invalid escape
        assertThat(accepts(g, "\"a\u0001\"")).isFalse(); // raw control character
        assertThat(accepts(g, "\"\\ud83d\"")).isFalse(); // lone surrogate
    }

    @Test void patternSearchSemanticsOnDecodedString() {
        check("{'type':'string','pattern':'^a+$'}", l("'a'", "'aaa'", "'\\u0061a'"), l("''", "'ab'", "'ba'"));
        check("{'type':'string','pattern':'b'}", l("'b'", "'abc'", "'x\\u0062'"), l("'ac'", "''"));
        check("{'type':'string','pattern':'^\\\\d{3}-\\\\d{4}$'}", l("'555-1234'"), l("'5551234'", "'555-12345'"));
        check("{'type':'string','pattern':'^[\\\"\\\\\\\\/]$'}", l("'\\\"'", "'\\\\'", "'/'", "'\\/'", "'\\u005c'"), l("'a'"));
        check("{'type':'string','pattern':'^.{2}$','maxLength':2,'minLength':1}", l("'ab'"), l("'abc'", "'a'"));
        check("{'type':'string','pattern':'^[a-z]+$','maxLength':3}", l("'a'", "'abc'"), l("''", "'abcd'", "'A'"));
        check("{'type':'string','pattern':'^x','minLength':3,'maxLength':4}", l("'xab'", "'x\u00e9\u00e9\u00e9'"), l("'xa'", "'xabcd'", "'abc'"));
        check("{'type':'string','pattern':'^(ab)*$','minLength':3,'maxLength':6}", l("'abab'", "'ababab'"), l("'ab'", "'abababab'"));
        check("{'type':'string','pattern':'^a$|^b+$','maxLength':2}", l("'a'", "'bb'"), l("'bbb'"));
        check("{'type':'string','format':'date','maxLength':9}", l(), l("'2024-01-01'"));
        // infinite patterns under maxLength: one counted terminal (StringSchemas.countedFits)
        String letter = "'" + "1".repeat(63) + "a'";
        check("{'type':'string','pattern':'[A-z]+','minLength':3,'maxLength':64}", l("'abc'", "'12a'", "'--Z--'", "'1_2'", letter),
            l("'123'", "'ab'", "''", "'" + "1".repeat(64) + "a'", "'1\u00e92'"));
        check("{'type':'string','pattern':'[a-z]','maxLength':5}", l("'a'", "'1a2'", "'\u0061'", "'1234z'"), l("''", "'12345'", "'abcdef'", "'A'"));
        // a slug: unrolled, a long repeat between characters it shares (StringSchemas.holdsInnerLongRepeat): counted instead
        String slug = "'a" + "/".repeat(38) + "b'";
        check("{'type':'string','pattern':'^([\\\\w\\\\/-]|[\\\\w-][\\\\w\\\\/-]*[\\\\w-])$','maxLength':40}",
            l("'a'", "'/'", "'ab'", "'a/b'", "'a-/-b'", "'a\\/b'", slug), l("''", "'/a'", "'a/'", "'a b'", "'a" + "/".repeat(39) + "b'"));
        // a long repeat before a character it shares, without maxLength (InnerCounts): the two counted as one terminal
        check("{'type':'string','format':'email'}", l("'a@" + "b".repeat(63) + ".c'", "'a@b-c.d'", "'a@b'", "'a@b\\u002dc'", "'a@b--c'"),
            l("'a@" + "b".repeat(64) + ".c'", "'a@b-.c'", "'a@-b.c'", "'a@b.c-'", "'a@b\\u002d'"));
        check("{'type':'string','pattern':'^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$'}", l("'a'", "'ab'", "'a-b'", "'a" + "-".repeat(20) + "b'", "'a1'"),
            l("'a-'", "'a" + "-".repeat(21) + "b'", "''", "'1a'", "'ab-'"));
    }

    /** Second 60 only at 23:59:60 UTC, after the offset (the JSON-Schema-Test-Suite's time.json and date-time.json cases). */
    @Test void leapSecondsOnlyAtTheLastMinuteOfTheUtcDay() {
        check("{'type':'string','format':'time'}",
            l("'23:59:60Z'", "'23:59:60z'", "'23:59:60+00:00'", "'23:59:60-00:00'", "'01:29:60+01:30'", "'23:29:60+23:30'",
                "'15:59:60-08:00'", "'00:29:60-23:30'", "'00:00:60+00:01'", "'23:58:60-00:01'", "'23:59:60.25Z'", "'10:20:59Z'"),
            l("'22:59:60Z'", "'23:58:60Z'", "'22:59:60+00:00'", "'23:58:60+00:00'", "'23:59:60+01:00'", "'23:59:60+00:30'",
                "'23:59:60-01:00'", "'23:59:60-00:30'", "'00:00:61Z'", "'11:02:60Z'", "'23:59:60+24:00'"));
        // date-time: offsets up to 18:00, no -00:00, leap seconds only on the days that had one (local date after the offset)
        check("{'type':'string','format':'date-time'}",
            l("'1998-12-31T23:59:60Z'", "'1998-12-31T15:59:60.123-08:00'", "'1963-06-19t08:30:06.283185z'",
                "'2016-12-31T23:59:60+00:00'", "'1972-06-30T05:59:60-18:00'", "'2020-03-22T11:02:59+18:00'", "'1985-04-12T00:59:59.999999999999999Z'"),
            l("'1998-12-31T23:59:61Z'", "'1998-12-31T23:58:60Z'", "'1998-12-31T22:59:60Z'", "'2016-12-31T24:59:60+01:00'",
                "'2020-03-22T11:02:60Z'", "'2020-12-31T23:59:60Z'", "'2016-12-31T00:29:60+00:30'", "'2017-01-01T00:29:60+00:30'", "'2017-01-01T23:29:60-00:30'",
                "'2020-03-22T11:02:59+18:01'", "'2020-03-22T11:02:59-00:00'", "'2016-12-31T23:59:60-00:00'"));
    }

    @Test void formats() {
        check("{'type':'string','format':'date'}", l("'2024-02-29'", "'2000-02-29'", "'1999-12-31'", "'2023-04-30'"),
            l("'2024-13-01'", "'24-01-01'", "'2024-01-01x'", "'2023-02-29'", "'1900-02-29'", "'2023-04-31'", "'2023-02-30'"));
        check("{'type':'string','format':'date-time'}", l("'2024-01-01T10:20:30Z'", "'2024-01-01T10:20:30.5+02:00'"), l("'2024-01-01'", "'2024-01-01T25:00:00Z'"));
        check("{'type':'string','format':'time'}", l("'10:20:30Z'"), l("'10:20'"));
        check("{'type':'string','format':'uuid'}", l("'123e4567-e89b-12d3-a456-426614174000'"), l("'123e4567'"));
        check("{'type':'string','format':'ipv4'}", l("'192.168.0.1'", "'0.0.0.0'"), l("'256.1.1.1'", "'1.2.3'", "'01.2.3.4'"));
        check("{'type':'string','format':'ipv6'}", l("'::1'", "'2001:db8::8a2e:370:7334'", "'::'", "'1:2:3:4:5:6:7:8'"), l("'1:2:3'", "':::'"));
        check("{'type':'string','format':'email'}", l("'a.b@example.com'", "'\\\"joe bloggs\\\"@example.com'", "'\\\"a\\\\\\\"b\\\"@c.d'",
                "'a@[127.0.0.1]'", "'a@[IPv6:::1]'", "'a@[IPv6:2001:db8::1]'"),
            l("'a@'", "'@b.c'", "'a b@c.d'", "'a..b@c.d'", "'.a@c.d'", "'\\\"a\\\"b@c.d'", "'a@[1.2.3]'", "'a@[IPv6:1.2.3.4]'", "'a@[::1]'"));
        check("{'type':'string','format':'hostname'}", l("'example.com'", "'a'", "'a--b.com'", "'ab-c'", "'abc-d.e'",
                "'" + "a".repeat(63) + ".com'", "'" + "abc.".repeat(63) + "a'"),
            l("'-a.com'", "'a..b'", "'xn--X'", "'XN--aa---o47jg78q'", "'ab--'", "'ab--c'", "'a-'", "'" + "a".repeat(64) + ".com'",
                "'" + "abc.".repeat(63) + "ab'"));
        check("{'type':'string','format':'duration'}", l("'P1Y2M3D'", "'P1Y2M'", "'PT1H2M3S'", "'PT2M3S'", "'P1M2D'"),
            l("'P1Y2D'", "'PT1H2S'", "'P1W2D'"));
        check("{'type':'string','format':'uri'}", l("'https://example.com/x?y=1#z'", "'urn:isbn:123'", "'a:'", "'a:?q#f'", "'a:x#f'"),
            l("'example.com'", "'http://a b'", "'a:#f'"));
        check("{'type':'string','format':'duration'}", l("'P1D'", "'PT1H30M'", "'P1Y2M3DT4H5M6S'", "'P2W'"), l("'P'", "'PT'", "'1D'"));
    }

    /** RFC 3986 appendix A, with the examples of its sections 1.1.2 and 5.4 and the JSON-Schema-Test-Suite's. */
    @Test void uriFormats() {
        check("{'type':'string','format':'uri'}",
            l("'ftp://ftp.is.co.za/rfc/rfc1808.txt'", "'ldap://[2001:db8::7]/c=GB?objectClass?one'", "'mailto:John.Doe@example.com'",
                "'news:comp.infosystems.www.servers.unix'", "'tel:+1-816-555-1212'", "'telnet://192.0.2.16:80/'",
                "'urn:oasis:names:specification:docbook:dtd:xml:4.1.2'", "'a:'", "'http://'", "'a://[v1.x]/'",
                "'http://u:p@h:8080/p/a%2Fb?q=1&r=2#f/?'", "'file:///etc/hosts'", "'a:b:c'", "'http://h:/'"),
            l("'//foo.bar/?baz=qux#quux'", "'/abc'", "'e:/]'", "'a:%zz'", "'a:b#c#d'", "'http://a b'", "'http://[::1/'",
                "'http://h:8a/'", "'1a:b'", "'http://a/b\\\\c'", "'a:^'", "'http://[1::2::3]/'", "'a:{x}'",
                "'a:#f'")); // RFC 3986 allows a:#f; left out where java.net.URI (networknt) refuses it (Formats.uri)
        check("{'type':'string','format':'uri-reference'}",
            l("'g'", "'./g'", "'g/'", "'/g'", "'//g'", "'?y'", "'g?y'", "'#s'", "'g;x=1/../y'", "''", "'../../g'", "'http://a/b/c/d;p?q'", "'a:b'"),
            l("'\\\\WINDOWS\\\\fileshare'", "'#frag#'", "'%zz'", "'a b'", "'//[v1]/'"));
        check("{'type':'string','format':'iri'}", l("'http://\u00e9x.com/\u00e9?\uE000'", "'http://\u00e9.com'"),
            l("'http://\u00e9x.com/#\uE000'", "'\u00e9:x'", "'http://x/\u0080'"));
        check("{'type':'string','format':'iri-reference'}", l("'\u00e9'", "'//\u00e9/\u00e9'", "''"), l("'#\u00e9#'", "'\u00e9 x'"));
    }

    @Test void integerBounds() {
        check("{'type':'integer','minimum':-3,'maximum':12}", l("-3", "0", "-0", "12", "7"), l("-4", "13", "1.0", "100"));
        check("{'type':'integer','exclusiveMinimum':0,'exclusiveMaximum':10}", l("1", "9"), l("0", "-0", "10"));
        check("{'type':'integer','minimum':0,'exclusiveMinimum':true}", l("1", "1000000"), l("0"));
        check("{'type':'integer','maximum':5,'exclusiveMaximum':true}", l("4", "-1000"), l("5"));
        check("{'type':'integer','minimum':1.5,'maximum':3.5}", l("2", "3"), l("1", "4"));
        check("{'type':'integer','multipleOf':1}", l("5"), l("5.5"));
        check("{'type':'integer','minimum':10,'maximum':5}", l(), l("7"));
    }

    @Test void numberBoundsAtZero() {
        check("{'type':'number','minimum':0}", l("0", "-0", "-0.0", "1.5", "0.001", "3e-5", "0e5"), l("-1", "-0.1", "-1e-9"));
        check("{'type':'number','exclusiveMinimum':0}", l("0.1", "5", "1e-3"), l("0", "0.0", "-0", "-5", "0e3"));
        check("{'type':'number','maximum':0}", l("0", "-1.5", "-0.0"), l("1", "0.5"));
        check("{'type':'number','exclusiveMaximum':0}", l("-1.5", "-0.01"), l("0", "-0", "1"));
    }

    @Test void anyOfOneOfAllOf() {
        check("{'anyOf':[{'type':'string','maxLength':1},{'type':'integer','minimum':5}]}", l("'a'", "5"), l("'ab'", "4", "null"));
        check("{'oneOf':[{'type':'string'},{'type':'integer'}]}", l("'a'", "5"), l("null", "1.5"));
        check("{'oneOf':[{'type':'object','properties':{'kind':{'const':'a'},'x':{'type':'integer'}},'required':['kind']},"
            + "{'type':'object','properties':{'kind':{'const':'b'},'y':{'type':'string'}},'required':['kind']}]}",
            l("{'kind':'a','x':1}", "{'kind':'b','y':'s'}", "{'kind':'a'}"), l("{'kind':'c'}", "{'kind':'a','x':'s'}", "{}"));
        check("{'allOf':[{'type':'object','properties':{'a':{'type':'integer'}},'required':['a']},"
            + "{'properties':{'b':{'type':'string'}},'required':['b']}]}",
            l("{'a':1,'b':'x'}", "{'a':1,'b':'x','c':null}"), l("{'a':1}", "{'b':'x'}", "{'a':'s','b':'x'}"));
        check("{'allOf':[{'type':['integer','string']},{'type':['integer','null']},{'minimum':2}]}", l("2", "7"), l("1", "'a'", "null"));
        check("{'type':'object','properties':{'a':{'type':'integer'}},'anyOf':[{'required':['a']},{'required':['b']}]}",
            l("{'a':1}", "{'b':2}", "{'a':1,'b':2}"), l("{}", "{'a':'x'}"));
        check("{'allOf':[{'properties':{'n':{'type':'integer','minimum':0}}},{'properties':{'n':{'maximum':3}}}],'type':'object'}",
            l("{'n':0}", "{'n':3}", "{}"), l("{'n':4}", "{'n':-1}"));
    }

    @Test void refsAndRecursion() {
        String s = "{'$defs':{'node':{'type':'object','properties':{'v':{'type':'integer'},'next':{'anyOf':[{'$ref':'#/$defs/node'},{'type':'null'}]}},"
            + "'required':['v','next'],'additionalProperties':false}},'$ref':'#/$defs/node'}";
        check(s, l("{'v':1,'next':null}", "{'v':1,'next':{'v':2,'next':null}}"), l("{'v':1}", "{'v':1,'next':{'v':'x','next':null}}"));
        String tree = "{'type':'object','properties':{'kids':{'type':'array','items':{'$ref':'#'}}},'additionalProperties':false}";
        check(tree, l("{}", "{'kids':[]}", "{'kids':[{'kids':[{}]}]}"), l("{'kids':[1]}", "{'x':1}"));
        String defs = "{'definitions':{'a b':{'type':'integer'}},'type':'array','items':{'$ref':'#/definitions/a%20b'}}";
        check(defs, l("[1,2]"), l("['x']"));
        Grammar g = JsonSchemaGrammar.from(j(s)).grammar();
        assertThat(g.start()).isEqualTo("root");
        assertThat(g.rules()).containsKey("def_node");
        String siblings = "{'$defs':{'i':{'type':'integer'}},'$ref':'#/$defs/i','minimum':3}";
        check(siblings, l("3"), l("2"));
        String draft7 = "{'$schema':'http://json-schema.org/draft-07/schema#','$defs':{'i':{'type':'integer'}},'$ref':'#/$defs/i','minimum':3}";
        check(draft7, l("3", "2"), l("'x'"));
    }

    @Test void oneOfRewrites() {
        String req = "{'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'}},'oneOf':[{'required':['a']},{'required':['b']}]}";
        check(req, l("{'a':1}", "{'b':2}", "{'a':1,'x':3}"), l("{}", "{'a':1,'b':2}", "{'x':1}", "{'a':'s'}", "1"));
        check("{'oneOf':[{'required':['a']},{'required':['a','b']}]}", l("{'a':1}", "{'a':1,'c':2}"), l("{'a':1,'b':2}", "{}", "'x'"));
        String en = "{'$defs':{'E':{'enum':['red','orange',6,null]}},'oneOf':[{'$ref':'#/$defs/E'},{'enum':['blue','orange',6,3]}]}";
        check(en, l("'red'", "null", "'blue'", "3"), l("'orange'", "6", "'green'"));
    }

    @Test void notWithTypes() {
        check("{'allOf':[{'not':{'type':'string'}},{'not':{'type':'null'}}]}", l("1", "[]"), l("'a'", "null"));
        check("{'not':{'anyOf':[{'type':'object'},{'type':'array'}]}}", l("1", "'x'", "null"), l("{}", "[]"));
        check("{'enum':[1,'a',[1]],'not':{'type':'integer'}}", l("'a'", "[1]"), l("1"));
        // under type integer, number constants are spelled as integers (draft-04 rejects 0.0 as an integer)
        check("{'type':'integer','enum':[0, 2.0, 1.5]}", l("0", "2"), l("0.0", "2.0", "1.5", "-0.0"));
        check("{'type':['integer','string'],'enum':[3,'x']}", l("3", "'x'"), l("3.0"));
        check("{'enum':[0]}", l("0", "0.0"), l("1"));
        check("{'not':{'type':'string'}}", l("1", "null", "[]"), l("'a'"));
        check("{'type':['string','null'],'not':{'type':'null'}}", l("'a'"), l("null"));
    }

    @Test void complementsPerType() {
        check("{'type':'object','not':{'required':['a','b']}}", l("{}", "{'a':1}", "{'b':1,'c':2}"), l("{'a':1,'b':2}", "{'b':1,'a':2,'c':3}"));
        check("{'not':{'type':'object','properties':{'a':{'type':'string'}}}}", l("1", "{'a':1}", "[]"), l("{}", "{'a':'x'}", "{'b':1}"));
        check("{'type':'string','not':{'enum':['ab','a']}}", l("''", "'b'", "'abc'", "'aa'"), l("'a'", "'ab'", "'\\u0061'"));
        check("{'type':'string','maxLength':2,'not':{'const':'ab'}}", l("''", "'ba'", "'a'"), l("'ab'", "'abc'", "1"));
        check("{'type':'integer','not':{'enum':[3,5]}}", l("2", "4", "-3", "6"), l("3", "5", "'x'"));
        check("{'type':'array','not':{'minItems':2}}", l("[]", "[1]"), l("[1,2]"));
        check("{'type':'array','not':{'prefixItems':[{'type':'string'}]}}", l("[1]", "[1,'a']"), l("[]", "['a']", "['a',1]"));
        check("{'not':{'not':{'type':'object','required':['a']}}}", l("{'a':1}"), l("{}", "1"));
        check("{'type':'object','not':{'propertyNames':{'not':{'enum':['a','b']}}}}", l("{'a':1}", "{'c':1,'b':2}"), l("{}", "{'c':1}"));
        check("{'type':'object','not':{'propertyNames':{'not':{'const':'0'}}}}", l("{'0':1}"), l("{}", "{'1':1}"));
    }

    @Test void oneOfBranchesMinusTheOthers() {
        String s = "{'type':'object','oneOf':[{'properties':{'t':{'enum':['x']},'v':{'type':'string'}}},"
            + "{'properties':{'t':{'enum':['y']},'v':{'type':['string','null']}}}]}";
        check(s, l("{'t':'x'}", "{'t':'y','v':null}", "{'v':null}", "{'t':'y','v':'s'}"), l("{}", "{'v':'s'}", "{'t':'z'}", "{'t':'x','v':null}"));
        check("{'oneOf':[{'type':'integer','maximum':5},{'type':'integer','minimum':3}]}", l("1", "2", "6", "100"), l("3", "4", "5", "'x'"));
    }

    @Test void containsAndItsComplement() {
        check("{'type':'array','items':{'type':['integer','string']},'contains':{'type':'string'}}", l("['a']", "[1,'a',2]", "['a','b']"), l("[]", "[1,2]", "[null,'a']"));
        check("{'type':'array','contains':{'const':1},'minItems':3}", l("[1,2,3]", "[2,3,1]", "[2,1,3,4]"), l("[1,2]", "[2,3,4]"));
        check("{'type':'array','not':{'items':{'type':'string'}}}", l("[1]", "['a',null]"), l("[]", "['a','b']"));
        check("{'type':'object','properties':{'a':{},'b':{}},'additionalProperties':false,'not':{'properties':{'a':{}},'additionalProperties':false}}",
            l("{'b':1}", "{'a':1,'b':2}"), l("{}", "{'a':1}", "{'c':1}"));
        check("{'allOf':[{'oneOf':[{'type':'integer'},{'type':'string'}]},{'oneOf':[{'minimum':3},{'maxLength':1}]}]}",
            l("2", "'ab'"), l("'a'", "''", "4", "null")); // minimum holds for strings, maxLength for numbers
    }

    @Test void numbersThatAreNotIntegers() {
        check("{'oneOf':[{'type':'integer'},{'type':'number'}]}", l("1.5", "-0.25", "1e-7", "0.5E-2", "15e-1", "2.50001"), l("1", "1.0", "1e2", "-3", "'x'"));
        check("{'type':'number','not':{'type':'integer'}}", l("0.1"), l("0", "-0.0"));
    }

    @Test void severalContainsAndNotOneOf() {
        check("{'type':'array','allOf':[{'contains':{'const':1}},{'contains':{'const':2}}]}", l("[1,2]", "[2,1]", "[3,2,4,1,5]"), l("[1]", "[2,2]", "[]"));
        check("{'type':'array','allOf':[{'contains':{'type':'integer'}},{'contains':{'type':'integer','minimum':2}}]}", l("[2]", "[1,'a',5]"), l("[1]", "['a']"));
        check("{'type':'integer','not':{'oneOf':[{'minimum':3},{'maximum':5}]}}", l("3", "4", "5"), l("2", "6"));
    }

    @Test void stringAlgebra() {
        check("{'type':'string','not':{'pattern':'^a'}}", l("''", "'ba'", "'b'"), l("'a'", "'abc'"));
        check("{'type':'string','allOf':[{'pattern':'a'},{'pattern':'b'}],'maxLength':3}", l("'ab'", "'bxa'"), l("'a'", "'b'", "'abxx'"));
        check("{'oneOf':[{'type':'string','pattern':'^[a-z]+$'},{'type':'string','maxLength':2}]}", l("'abc'", "'A'", "'1'", "''"), l("'ab'", "'ABC'"));
        check("{'type':'string','format':'date','not':{'pattern':'^2000'}}", l("'1999-01-01'"), l("'2000-01-01'", "'x'"));
        check("{'type':'string','pattern':'^[a-z]+$','not':{'enum':['ab','c']}}", l("'a'", "'abc'"), l("'ab'", "'c'", "''"));
    }

    @Test void conditionals() {
        check("{'dependencies':{'a':['b'],'c':{'required':['d']}}}", l("{}", "{'b':1}", "{'a':1,'b':2}", "{'c':1,'d':2}", "1"),
            l("{'a':1}", "{'c':1}", "{'a':1,'c':2,'d':3}"));
        check("{'type':'object','required':['a'],'dependentRequired':{'a':['b']},'dependentSchemas':{'b':{'maxProperties':2}}}",
            l("{'a':1,'b':2}"), l("{'a':1}", "{'a':1,'b':2,'c':3}"));
        check("{'if':{'type':'string'},'then':{'maxLength':2},'else':{'type':'integer'}}", l("'ab'", "3"), l("'abc'", "null", "[]"));
        check("{'if':{'type':'string'},'then':{'maxLength':2}}", l("'a'", "1", "null"), l("'abc'"));
        check("{'if':{'type':'string'},'else':{'type':'null'}}", l("'s'", "null"), l("1", "[]"));
    }

    @Test void unsupportedKeywordsNameKeywordAndPointer() {
        String[][] cases = {
            {"{'type':'object','properties':{'tags':{'type':'array','contains':{'const':'a'},'uniqueItems':true}}}", "unsupported keyword 'uniqueItems' at /properties/tags"},
            {"{'anyOf':[" + "{'properties':{'a':{'type':'integer'}}},".repeat(6) + "{'type':'string'}],'unevaluatedProperties':false}",
                "unsupported keyword 'unevaluatedProperties' at / (expanding 'anyOf' over its branches needs 127 variants, above the limit MAX_UNEVALUATED_BRANCHES 64)"},
            {"{'type':'string','pattern':'a(?=b)'}", "unsupported keyword 'pattern' at / (line 1, column 2: regex /a(?=b)/ (ECMA-262): lookahead is only supported in the shape ^(?=A)(?!B)R"},
            {"{'type':'string','pattern':'^(?=a)b|c'}", "lookahead is only supported in the shape"},
            {"{'type':'array','items':{'type':'string'},'contains':{'const':'a'},'uniqueItems':true}", "unsupported keyword 'uniqueItems' at / (only without contains"},
            {"{'type':'array','items':{'enum':[1,2]},'not':{'uniqueItems':true}}", "unsupported keyword 'not' at /not (of 'uniqueItems'"},
            {"{'if':{'type':'array','prefixItems':[true],'items':{'type':'integer'}},'then':{'minItems':3}}", "unsupported keyword 'not' at /"},
            {"{'type':'array','contains':{'type':'integer'},'minContains':5000}", "unsupported keyword 'contains' at /"},
            {"{'type':'array','contains':{'type':'string'},'maxContains':5000}", "unsupported keyword 'contains' at / (more than 4096 positions times maxContains)"},
            {"{'dependencies':{'a':{'properties':{'b':{'not':{'multipleOf':10007}}}}}}", "unsupported keyword 'not' at /"},
            {"{'type':'number','multipleOf':100.03}", "unsupported keyword 'multipleOf' at /"},
            {"{'type':'integer','multipleOf':10007}", "unsupported keyword 'multipleOf' at / (multipleOf 10007 needs residues modulo 10007, above the limit 10000)"},
            {"{'type':'number','exclusiveMaximum':1.5e500}", "unsupported keyword 'exclusiveMaximum' at /"},
            {"{'$ref':'http://example.com/s.json'}", "unsupported keyword '$ref' at /"},
            {"{'type':'string','format':'jsonschema'}", "unsupported keyword 'format' at /"},
            {"{'oneOf':[{'type':'integer','multipleOf':2},{'type':'integer','multipleOf':10007}]}", "unsupported keyword 'oneOf' at /"},
            {"{'type':'object','properties':{'p':{'type':'string','pattern':'(?=a)'}}}", "unsupported keyword 'pattern' at /properties/p"},
            {"{'type':'string','format':'email','minLength':1000}", "unsupported keyword 'minLength' at / (combined with 'format')"},
            {"{'allOf':[{'multipleOf':101},{'multipleOf':103}]}", "unsupported keyword 'multipleOf' at / (multipleOf 10403 needs residues"},
            {"{'not':{'multipleOf':10007}}", "unsupported keyword 'not' at / (multipleOf 10007 needs residues"},
            {"{'type':'object','propertyNames':{'format':'regex'}}", "unsupported keyword 'propertyNames' at /"},
            {"{'type':'object','properties':{'p':{'type':'object','propertyNames':{'maxLength':100000}}}}",
                "unsupported keyword 'propertyNames' at /properties/p"},
            {"{'$defs':{'x~y/z':{'type':'array','items':{'type':'string'},'contains':{'const':'a'},'minContains':2,'uniqueItems':true}},'$ref':'#/$defs/x~0y~1z'}", "unsupported keyword 'uniqueItems' at /$defs/x~0y~1z"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> JsonSchemaGrammar.from(j(c[0]))).as(c[0])
                .isInstanceOf(GrammarException.class).hasMessageContaining(c[1]);
        }
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j("{'$ref':'#/$defs/missing'}"))).hasMessageContaining("unresolvable $ref");
        assertThatThrownBy(() -> JsonSchemaGrammar.from("{not json")).isInstanceOf(GrammarException.class);
    }

    @Test void ignoredKeywordsAreReported() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults().withIgnoredKeywords(Set.of("uniqueItems", "format", "multipleOf"));
        JsonSchemaGrammar r = JsonSchemaGrammar.from(j("{'type':'object','properties':{'t':{'type':'array','contains':{'type':'integer'},'uniqueItems':true},"
            + "'f':{'type':'string','format':'weird'},'n':{'type':'number','multipleOf':100.03}},'x-custom':1}"), o);
        assertThat(r.ignoredKeywords()).extracting(Object::toString)
            .containsExactly("'uniqueItems' at /properties/t", "'format' at /properties/f", "'multipleOf' at /properties/n");
        assertThat(r.unknownKeywords()).extracting(Object::toString).containsExactly("'x-custom' at /");
        assertThat(accepts(r.grammar(), j("{'t':[1,1],'f':'zz','n':-5}"))).isTrue();
        // annotations are silently fine
        JsonSchemaGrammar a = JsonSchemaGrammar.from(j("{'title':'t','description':'d','examples':[1],'default':1,'$comment':'c','type':'integer'}"));
        assertThat(a.ignoredKeywords()).isEmpty();
        assertThat(a.unknownKeywords()).isEmpty();
    }
}
