package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.Grammar;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.accepts;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.check;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.l;
import static org.assertj.core.api.Assertions.assertThat;

/** One test per difference between the dialects, read from {@code $schema} or {@link JsonSchemaOptions#withDefaultDialect}. */
class JsonSchemaDialectsTest {
    static final String D4 = "'$schema':'http://json-schema.org/draft-04/schema#',";
    static final String D7 = "'$schema':'http://json-schema.org/draft-07/schema#',";
    static final String D2019 = "'$schema':'https://json-schema.org/draft/2019-09/schema',";
    static final String D2020 = "'$schema':'https://json-schema.org/draft/2020-12/schema',";

    /** Up to draft 7 the keywords beside $ref are ignored (the example); from 2019-09 they apply. */
    @Test void refSiblings() {
        String defs = "'definitions':{'p':{'type':'string'}},'$ref':'#/definitions/p','enum':['key','sas']";
        check("{" + D7 + defs + "}", l("'key'", "'other'"), l("1"));
        check("{" + D2020 + defs + "}", l("'key'"), l("'other'", "1"));
    }

    /** definitions (up to draft 7) and $defs (2019-09 on) are both places a JSON pointer reaches. */
    @Test void definitionsAndDefs() {
        check("{" + D7 + "'definitions':{'n':{'type':'integer'}},'properties':{'a':{'$ref':'#/definitions/n'}}}", l("{'a':1}"), l("{'a':'x'}"));
        check("{" + D2020 + "'$defs':{'n':{'type':'integer'}},'properties':{'a':{'$ref':'#/$defs/n'}}}", l("{'a':1}"), l("{'a':'x'}"));
    }

    /** Array form of items with additionalItems up to 2019-09; prefixItems with items in 2020-12, unknown before. */
    @Test void itemsForms() {
        check("{" + D7 + "'items':[{'type':'integer'},{'type':'string'}],'additionalItems':false}", l("[1,'a']", "[1]"), l("[1,'a',2]", "['a']"));
        check("{" + D7 + "'type':'array','prefixItems':[{'type':'integer'}]}", l("['a']", "[1]"), l("{}"));
        check("{" + D2020 + "'prefixItems':[{'type':'integer'}],'items':false}", l("[1]", "[]"), l("[1,2]", "['a']"));
    }

    /** dependencies up to draft 7 (both forms); dependentRequired/dependentSchemas from 2019-09, unknown before. */
    @Test void dependencies() {
        check("{" + D7 + "'dependencies':{'a':['b'],'c':{'required':['d']}}}", l("{'a':1,'b':2}", "{'c':1,'d':2}", "{}"), l("{'a':1}", "{'c':1}"));
        check("{" + D7 + "'dependentRequired':{'a':['b']}}", l("{'a':1}"), l());
        check("{" + D2020 + "'dependentRequired':{'a':['b']},'dependentSchemas':{'c':{'required':['d']}}}",
            l("{'a':1,'b':2}", "{'c':1,'d':2}"), l("{'a':1}", "{'c':1}"));
    }

    /**
     * The schemas the compiler builds itself keep 2020-12 keywords in every dialect: under draft 4 the difference
     * of overlapping oneOf branches excludes a key by propertyNames, which a draft 4 document could not write
     * (Github_easy---o78062 accepted an object holding both branches' required keys).
     */
    @Test void builtSchemasKeepTheirKeywords() {
        String oneOf = "'definitions':{'c':{'type':'object','required':['n'],'oneOf':[{'properties':{'c':{'type':'array','items':{'$ref':'#/definitions/c'}}},"
            + "'required':['c']},{'properties':{'a':{'type':'array','items':{'type':'integer'}}},'required':['a']}]}},'allOf':[{'$ref':'#/definitions/c'}]";
        for (String dialect : new String[] {D4, D7, D2020}) {
            check("{" + dialect + oneOf + "}", l("{'n':'x','c':[{'n':'y','a':[1]}]}", "{'n':'x','a':[]}"),
                l("{'n':'x','c':[{'n':'y','a':[1],'c':[]}]}", "{'n':'x','a':[1],'c':[]}"));
        }
        // draft 4's own const stays unknown (it asserts nothing there)
        check("{" + D4 + "'const':1,'type':'integer'}", l("1", "2"), l("'a'"));
    }

    /** Integers written 1.0: behind the option, from draft 6 on (draft 4's integer has no fraction); off by default. */
    @Test void zeroFractionIntegers() {
        JsonSchemaOptions on = JsonSchemaOptions.defaults().withZeroFractionIntegers(true);
        Grammar g = JsonSchemaGrammar.from(j("{" + D7 + "'type':'integer','minimum':1,'maximum':3}"), on).grammar();
        assertThat(accepts(g, "2.0")).isTrue();
        assertThat(accepts(g, "3.00")).isTrue();
        assertThat(accepts(g, "2")).isTrue();
        assertThat(accepts(g, "2.5")).isFalse();
        assertThat(accepts(g, "4.0")).isFalse();
        Grammar e = JsonSchemaGrammar.from(j("{" + D2020 + "'type':'integer','enum':[1,'a',2.5]}"), on).grammar();
        assertThat(accepts(e, "1.0")).isTrue();
        assertThat(accepts(e, "2.5")).isFalse();
        assertThat(accepts(JsonSchemaGrammar.from(j("{" + D4 + "'type':'integer'}"), on).grammar(), "1.0")).isFalse();
        assertThat(accepts(JsonSchemaGrammar.from(j("{" + D7 + "'type':'integer'}")).grammar(), "1.0")).isFalse();
        assertThat(on.recorded()).containsEntry("json.zero_fraction_integers", "true");
    }

    /** Boolean exclusiveMinimum/exclusiveMaximum (draft 4) beside minimum/maximum; numbers from draft 6. */
    @Test void exclusiveBounds() {
        check("{" + D4 + "'type':'number','minimum':1,'exclusiveMinimum':true,'maximum':3,'exclusiveMaximum':true}", l("2", "1.5"), l("1", "3"));
        check("{" + D7 + "'type':'number','exclusiveMinimum':1,'exclusiveMaximum':3}", l("2"), l("1", "3"));
    }

    /** Draft 4's id names a subschema; from draft 6 $id does. */
    @Test void idAndDollarId() {
        check("{" + D4 + "'definitions':{'n':{'id':'#num','type':'integer'}},'properties':{'a':{'$ref':'#num'}}}", l("{'a':1}"), l("{'a':'x'}"));
        check("{" + D7 + "'definitions':{'n':{'$id':'#num','type':'integer'}},'properties':{'a':{'$ref':'#num'}}}", l("{'a':1}"), l("{'a':'x'}"));
    }

    /** Keywords later drafts added are unknown (assert nothing) earlier: const and contains before draft 6, minContains before 2019-09. */
    @Test void laterKeywordsUnknownEarlier() {
        check("{" + D4 + "'const':1}", l("2", "'x'"), l());
        check("{" + D4 + "'type':'array','contains':{'type':'string'}}", l("[1]", "[]"), l("{}"));
        check("{" + D7 + "'type':'array','contains':{'type':'string'},'minContains':2}", l("['a']"), l("[1]"));
        check("{" + D2020 + "'type':'array','contains':{'type':'string'},'minContains':2}", l("['a','b']"), l("['a']"));
    }

    /** Without $schema the option's dialect applies: draft 7 ignores the keywords beside $ref. */
    @Test void defaultDialectOption() {
        String s = j("{'definitions':{'p':{'type':'string'}},'$ref':'#/definitions/p','enum':['key']}");
        Grammar d7 = JsonSchemaGrammar.from(s, JsonSchemaOptions.defaults().withDefaultDialect(JsonSchemaOptions.Dialect.DRAFT_07)).grammar();
        Grammar d2020 = JsonSchemaGrammar.from(s).grammar();
        assertThat(accepts(d7, "\"other\"")).isTrue();
        assertThat(accepts(d2020, "\"other\"")).isFalse();
        assertThat(accepts(d2020, "\"key\"")).isTrue();
        // $schema wins over the option
        Grammar explicit = JsonSchemaGrammar.from(j("{" + D2020 + "'definitions':{'p':{'type':'string'}},'$ref':'#/definitions/p','enum':['key']}"),
            JsonSchemaOptions.defaults().withDefaultDialect(JsonSchemaOptions.Dialect.DRAFT_07)).grammar();
        assertThat(accepts(explicit, "\"other\"")).isFalse();
        assertThat(JsonSchemaOptions.Dialect.named("draft-07")).isEqualTo(JsonSchemaOptions.Dialect.DRAFT_07);
        assertThat(JsonSchemaOptions.Dialect.named("2020-12")).isEqualTo(JsonSchemaOptions.Dialect.DRAFT_2020_12);
        assertThat(JsonSchemaOptions.Dialect.named("5")).isNull();
    }

    /**
     * Schemas the compiler writes itself (complements, merges, constants in any member order) are read in the
     * document's dialect: they use its keywords (no const or contains in draft 4, no prefixItems before 2020-12).
     */
    @Test void rewritesUseTheDialectsKeywords() {
        check("{" + D4 + "'type':'array','not':{'items':{'type':'integer'}}}", l("['a']", "[1,'a']"), l("[1]", "[]"));
        check("{" + D4 + "'type':'object','not':{'enum':[{'a':1}]}}", l("{'a':2}", "{}"), l("{'a':1}"));
        check("{" + D4 + "'enum':[{'a':1,'b':2}]}", l("{'a':1,'b':2}", "{'b':2,'a':1}"), l("{'a':1,'b':3}", "{'a':1}"));
        check("{" + D7 + "'type':'array','not':{'const':[1,2]}}", l("[1]", "[1,3]", "[1,2,3]"), l("[1,2]"));
        check("{" + D2019 + "'items':[{'type':'string'}],'unevaluatedItems':false}", l("['foo']", "[]"), l("['a','b']", "[1]"));
        check("{" + D2019 + "'allOf':[{'items':[{'type':'string'}]},{'items':[true,{'type':'integer'}]}]}", l("['a',1,null]"), l("['a','b']", "[1]"));
    }

    /** 2019-09: contains evaluates no item for unevaluatedItems (2020-12 made it an annotation that does). */
    @Test void containsEvaluatesItemsFrom2020() {
        check("{" + D2019 + "'contains':{'type':'string'},'unevaluatedItems':{'type':'integer'}}", l("1", "'a'"), l("['a']", "['a',1]", "[1]", "[]"));
        check("{" + D2020 + "'contains':{'type':'string'},'unevaluatedItems':{'type':'integer'}}", l("['a']", "['a',1]"), l("[1]", "[]"));
    }

    /** Unevaluated keywords inside not: expanded over the branches there too (the suite's not.json). */
    @Test void unevaluatedInsideNot() {
        check("{" + D2020 + "'not':{'anyOf':[true,{'properties':{'foo':true}}],'unevaluatedProperties':false}}", l("{'bar':1}", "{'foo':1,'bar':2}"), l("{'foo':1}", "{}", "1"));
    }
}
