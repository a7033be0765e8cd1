package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.objects.ObjectSchemas;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.domino.compiler.jsonschema.JsonSchemaComplementTest.check;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * "Some member whose key is in K and whose value matches V" ({@link KeyQuantifiers#EXISTS}) and "every member
 * whose key is in K" ({@link KeyQuantifiers#FORALL}): the complements of patternProperties, additionalProperties
 * and propertyNames, allOf of additionalProperties with other patternProperties, and how {@link ObjectSchemas}
 * witnesses them (a declared property, an undeclared key, one member for several, counts).
 */
class JsonSchemaKeyQuantifiersTest {
    @Test void notPatternPropertiesNeedsAKeyOfThePatternWithAnotherValue() {
        check("{'type':'object','not':{'patternProperties':{'^a':{'type':'integer'}}}}",
            List.of("{'a':'x'}", "{'ab':null,'b':1}", "{'b':1,'ax':[],'ay':2}"),
            List.of("{}", "{'a':1}", "{'b':'x'}", "{'a':1,'ab':2}", "1"));
    }

    @Test void aDeclaredPropertyMayBeTheWitness() {
        check("{'type':'object','properties':{'ab':{'type':['integer','string']}},'additionalProperties':false,"
                + "'not':{'patternProperties':{'^a':{'type':'integer'}}}}",
            List.of("{'ab':'s'}"),
            List.of("{'ab':1}", "{}", "{'ac':'s'}"));
        // a required-only name gets additionalProperties; patterns of the object and of the witness overlap
        check("{'type':'object','required':['k1'],'patternProperties':{'1$':{'maximum':3}},"
                + "'not':{'patternProperties':{'^k':{'type':'string'}}},'additionalProperties':{'type':['string','integer']}}",
            List.of("{'k1':2}", "{'k1':'s','k2':3}", "{'k1':'s','k1x':0}"),
            List.of("{'k1':'s'}", "{'k1':5,'k2':3}", "{'k2':3}", "{'k1':'s','k3':'t'}", "{'k1':'s','x1':1}", "{'k1':'s','k1x':true}"));
    }

    @Test void notAdditionalPropertiesNeedsAnAdditionalKeyWithAnotherValue() {
        check("{'type':'object','properties':{'x':{}},'not':{'properties':{'x':{}},'patternProperties':{'^p':true},"
                + "'additionalProperties':{'type':'integer'}}}",
            List.of("{'y':'s'}", "{'x':1,'y':true}", "{'p':1,'q':null}"),
            List.of("{'x':'s'}", "{'y':1}", "{}", "{'p':'s'}", "{'x':'s','px':'t','z':0}"));
    }

    @Test void notPropertyNamesNeedsAKeyOutsideTheNames() {
        check("{'type':'object','not':{'propertyNames':{'pattern':'^[a-z]+$'}}}",
            List.of("{'A':1}", "{'a':1,'1':2}", "{'':0}"),
            List.of("{'a':1}", "{}", "{'ab':1,'c':[]}"));
        check("{'type':'object','not':{'propertyNames':false}}", List.of("{'a':1}"), List.of("{}"));
    }

    @Test void oneMemberMayWitnessSeveralEntriesOrEachItsOwn() {
        String both = "{'type':'object','allOf':[{'not':{'propertyNames':{'not':{'pattern':'a'}}}},"
            + "{'not':{'propertyNames':{'not':{'pattern':'b'}}}}],'maxProperties':%d}";
        check(String.format(both, 1), List.of("{'ab':1}", "{'xbya':0}"), List.of("{'a':1}", "{'a':1,'b':2}", "{}", "{'b':1}"));
        check(String.format(both, 2), List.of("{'ab':1}", "{'a':1,'b':2}", "{'ab':1,'c':2}"),
            List.of("{'a':1,'c':2}", "{'a':1,'b':2,'c':3}"));
    }

    @Test void theWitnessCountsAsAMember() {
        check("{'type':'object','properties':{'k':{'type':'integer'}},'not':{'patternProperties':{'^x':{'type':'integer'}}},'maxProperties':1}",
            List.of("{'x':'s'}", "{'xy':null}"),
            List.of("{'k':1,'x':'s'}", "{'k':1}", "{}"));
        check("{'type':'object','not':{'patternProperties':{'^x':{'type':'integer'}}},'minProperties':2,'additionalProperties':{'type':'string'}}",
            List.of("{'x':'s','y':'t'}", "{'x':'s','xx':'t'}"),
            List.of("{'x':'s'}", "{'y':'s','z':'t'}"));
    }

    @Test void additionalPropertiesMergesWithOtherPatternsAsAQuantifier() {
        // part 2 forbids keys without 'b'; 'ab' is integer (part 1's pattern) and >= 3; 'b' is a string (additional for part 1)
        check("{'allOf':[{'type':'object','patternProperties':{'^a':{'type':'integer'}},'additionalProperties':{'type':'string'}},"
                + "{'patternProperties':{'b':{'minimum':3}},'additionalProperties':false}]}",
            List.of("{'ab':5}", "{'b':'s'}", "{'cb':'s','ab':3}", "{}"),
            List.of("{'a':1}", "{'ab':2}", "{'ab':'s'}", "{'b':1}", "{'c':'s'}"));
        // a property declared by another part is additional for this one
        check("{'allOf':[{'type':'object','patternProperties':{'^a':{'type':'integer'}},'additionalProperties':{'type':'string'}},"
                + "{'properties':{'q':{'maxLength':2}},'patternProperties':{'^z':true}}]}",
            List.of("{'q':'ab','a':1,'z':'s'}"),
            List.of("{'q':1}", "{'q':'abc'}", "{'z':1}"));
    }

    @Test void oneOfOfPatternPropertiesIsExact() {
        check("{'oneOf':[{'type':'object','patternProperties':{'^x':{'type':'integer'}}},{'type':'object','patternProperties':{'y':{'type':'string'}}}]}",
            List.of("{'x':1,'y':1}", "{'y':'s','x':'s'}", "{'xy':1}", "{'xy':'s'}"),
            List.of("{}", "{'x':1}", "{'x':1,'y':'s'}", "{'q':null}"));
    }

    @Test void doubleComplementsGiveTheQuantifierBack() {
        check("{'type':'object','not':{'not':{'patternProperties':{'^a':{'type':'integer'}}}}}",
            List.of("{'a':1}", "{}", "{'b':'s'}"), List.of("{'a':'x'}", "{'a':1,'ab':'y'}"));
        check("{'type':'object','not':{'anyOf':[{'not':{'patternProperties':{'^a':{'type':'integer'}}}},{'required':['z']}]}}",
            List.of("{'a':1}", "{}", "{'b':'s'}"), List.of("{'a':'s'}", "{'z':1}", "{'a':1,'ab':null}"));
    }

    @Test void theComplementOfAnExistsIsAForall() {
        // the oneOf's branches carry the exists (merged siblings), so each difference complements it
        check("{'type':'object','not':{'patternProperties':{'^a':{'type':'integer'}}},"
                + "'oneOf':[{'properties':{'x':{'type':'integer'}}},{'properties':{'x':{'minimum':0}}}]}",
            List.of("{'a':'s','x':-1}", "{'a':'s','x':'t'}", "{'x':-2,'ab':[]}"),
            List.of("{'a':'s'}", "{'a':'s','x':5}", "{'a':1,'x':-1}", "{'x':-1}"));
    }

    @Test void tooManyWaysToWitnessIsACompileError() {
        StringBuilder all = new StringBuilder();
        for (char c = 'a'; c <= 'g'; c++)
            all.append(all.length() == 0 ? "" : ",").append("{'not':{'propertyNames':{'not':{'pattern':'").append(c).append("'}}}}");
        String schema = "{'type':'object','allOf':[" + all + "]}";
        assertThatThrownBy(() -> JsonSchemaComplementTest.grammar(schema)).isInstanceOf(GrammarException.class)
            .hasMessageContaining("unsupported keyword 'not' at /").hasMessageContaining("ways to witness");
    }

    @Test void constantsAreCheckedAgainstQuantifiers() {
        ConstValidator v = new ConstValidator(ref -> null, (ptr, kw, detail) -> { throw new AssertionError(kw); });
        var exists = KeyQuantifiers.object(KeyQuantifiers.EXISTS, KeyQuantifiers.patternKeys("^a"), KeyQuantifiers.not(
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("type", "integer")), "not");
        var forall = KeyQuantifiers.object(KeyQuantifiers.FORALL, KeyQuantifiers.patternKeys("^a"),
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("type", "integer"), "allOf");
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        try {
            assertThat(v.valid(exists, m.readTree("{\"a\":\"s\",\"b\":1}"), "")).isTrue();
            assertThat(v.valid(exists, m.readTree("{\"a\":1,\"b\":\"s\"}"), "")).isFalse();
            assertThat(v.valid(forall, m.readTree("{\"a\":1,\"b\":\"s\"}"), "")).isTrue();
            assertThat(v.valid(forall, m.readTree("{\"a\":1,\"ab\":\"s\"}"), "")).isFalse();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
