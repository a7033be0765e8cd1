package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.algebra.OneOfRewrites;
import dev.domino.compiler.jsonschema.algebra.SchemaComplement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SchemaComplement} and the oneOf differences ({@link OneOfRewrites}) on the shapes real schemas use:
 * constants that are objects or arrays under {@code not}/{@code oneOf}, branches whose types only show
 * through {@code $ref}/{@code oneOf}, and {@code additionalProperties: false} branches next to a branch that
 * requires a key they do not declare.
 */
class JsonSchemaComplementTest {
    static Grammar grammar(String schema) { return JsonSchemaGrammar.from(schema.replace('\'', '"')).grammar(); }

    static void check(String schema, List<String> valid, List<String> invalid) {
        Grammar g = grammar(schema);
        for (String v : valid) assertThat(ExprMatcher.matches(g, v.replace('\'', '"'))).as("%s valid under %s", v, schema).isTrue();
        for (String v : invalid) assertThat(ExprMatcher.matches(g, v.replace('\'', '"'))).as("%s invalid under %s", v, schema).isFalse();
    }

    /**
     * A string outside a large format (date-time: leap seconds remember the local time, thousands of states) in a
     * oneOf difference: refused before as "more than 2000 automaton states" (Github_trivial---o9817).
     */
    @Test void aLargeFormatIsComplemented() {
        check("{'oneOf':[{'type':'object','properties':{'d':{'type':'string','format':'date-time'}}},{'type':'object','required':['x']}]}",
            List.of("{'d':'2020-01-01T00:00:00Z'}", "{'x':1,'d':'nope'}", "{'x':1,'d':'2020-01-01T00:00:60Z'}"),
            List.of("{'x':1,'d':'2020-01-01T00:00:00Z'}", "{'x':1}", "{'d':'x'}"));
    }

    /**
     * Branches that are oneOfs themselves are disjoint when each of their branches is; a key a branch requires is
     * forbidden by another whose keys must match patternProperties it does not match (Github_easy o37787: the
     * difference was refused as more than 256 alternatives).
     */
    @Test void disjointThroughNestedBranchesAndPatternProperties() {
        String def = "{'oneOf':[{'type':'object','properties':{'size':{'type':'number'},'style':{'enum':['a','b']}},'required':['size'],'additionalProperties':false},"
            + "{'type':'string','pattern':'^[0-9]+px$'}]}";
        String sel = "{'oneOf':[{'type':'object','required':['ref'],'properties':{'ref':{'type':'string'}},'additionalProperties':false},"
            + "{'type':'object','patternProperties':{'^[0-9]x$':{'type':'integer'}},'additionalProperties':false,'minProperties':1},"
            + "{'type':'object','patternProperties':{'^[a-z][a-z]$':{'type':'integer'}},'additionalProperties':false,'minProperties':1}]}";
        check("{'oneOf':[" + def + "," + sel + "]}",
            List.of("{'size':1}", "{'size':1,'style':'a'}", "'12px'", "{'ref':'x'}", "{'2x':1}", "{'en':1}"),
            List.of("{}", "{'size':'x'}", "{'ref':1}", "{'2x':'a'}", "{'size':1,'en':1}", "'px'"));
        // a key the pattern does match keeps the branches overlapping, and the difference exact
        check("{'oneOf':[{'type':'object','required':['ab']},{'type':'object','patternProperties':{'^[a-z]+$':{'type':'integer'}},'additionalProperties':false}]}",
            List.of("{'ab':'x'}", "{'cd':1}", "{}"), List.of("{'ab':1}", "{'cd':'x'}"));
    }

    @Test void objectConstantsAreExcludedExactly() {
        check("{'not':{'const':{'a':1,'b':[1,2]}}}",
            List.of("{'a':1,'b':[1,3]}", "{'a':1}", "{'b':[1,2]}", "{'a':1,'b':[1,2],'c':0}", "{'a':2,'b':[1,2]}", "{}", "5", "[1,2]", "null"),
            List.of("{'a':1,'b':[1,2]}", "{'b':[1,2],'a':1}", "{'a':1.0,'b':[1,2]}"));
        check("{'type':'object','not':{'enum':[{},{'k':null}]}}",
            List.of("{'k':0}", "{'j':null}", "{'k':null,'j':null}"),
            List.of("{}", "{'k':null}", "[]"));
    }

    @Test void arrayConstantsAreExcludedExactly() {
        check("{'type':'array','not':{'enum':[[1,2],[]]}}",
            List.of("[1]", "[2,1]", "[1,2,3]", "[1,'2']"),
            List.of("[1,2]", "[]", "[1.0,2]", "{}"));
        check("{'type':'array','items':{'type':'integer'},'oneOf':[{'const':[1]},{'minItems':1,'maxItems':1}]}",
            List.of("[2]", "[0]"), List.of("[1]", "[]", "[1,2]"));
    }

    @Test void branchTypesSeenThroughReferencesAndOneOfs() {
        String schema = "{'$defs':{'color':{'oneOf':[{'type':'array','items':{'type':'integer'},'maxItems':4},"
            + "{'type':'string','pattern':'^#[0-9a-f]{6}$'},{'enum':['red','blue']}]},"
            + "'selector':{'oneOf':[{'type':'object','properties':{'ref':{'type':'string'}},'required':['ref'],'additionalProperties':false},"
            + "{'type':'object','properties':{'ios':{'$ref':'#/$defs/res'}},'required':['ios'],'additionalProperties':false}]},"
            + "'res':{'oneOf':[{'$ref':'#/$defs/color'},{'$ref':'#/$defs/selector'}]}},'$ref':'#/$defs/res'}";
        check(schema,
            List.of("[1,2]", "'#00ff00'", "'red'", "{'ref':'x'}", "{'ios':'blue'}", "{'ios':{'ref':'y'}}"),
            List.of("'green'", "{'ref':1}", "{'ios':'green'}", "{}", "[1,2,3,4,5]", "{'ref':'x','ios':'red'}"));
    }

    @Test void aDiscriminatorDecidesTheDifferenceWithoutComplementingTheRest() {
        // no 'type': both branches admit every non-object (so those are in neither difference); among objects
        // the required 'kind' decides, whatever the rest of the other branch (additionalProperties under items)
        String schema = "{'oneOf':[{'properties':{'kind':{'const':'a'},'v':{'properties':{'x':{'type':'array',"
            + "'items':{'additionalProperties':false,'properties':{'q':{}}}}}}},'required':['kind']},"
            + "{'properties':{'kind':{'enum':['b','c']},'v':{'type':'integer'}},'additionalProperties':false,'required':['kind']}]}";
        check(schema,
            List.of("{'kind':'a','v':{'x':[{'q':1}]}}", "{'kind':'a','w':1}", "{'kind':'b','v':1}", "{'kind':'c'}"),
            List.of("{'kind':'b','v':'s'}", "'str'", "3", "{'kind':'d'}", "{'kind':'a','v':{'x':[{'r':1}]}}", "{'kind':'b','w':1}", "{}"));
    }

    @Test void aRequiredKeyTheOtherBranchForbidsDecidesTheDifference() {
        check("{'type':'object','oneOf':[{'properties':{'first':{'type':'string'},'sport':{'type':'string'}},'required':['first']},"
                + "{'properties':{'vehicle':{'type':'string'},'price':{'type':'integer'}},'additionalProperties':false}]}",
            List.of("{'first':'a'}", "{'first':'a','price':3}", "{'vehicle':'v'}", "{}", "{'price':1}"),
            List.of("{'first':1}", "{'sport':'x'}", "{'vehicle':'v','extra':1}"));
    }
}
