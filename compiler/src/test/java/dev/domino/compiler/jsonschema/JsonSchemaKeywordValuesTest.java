package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 20, "silent wrong results": keyword values are validated, never truncated or coerced. */
class JsonSchemaKeywordValuesTest {
    static String j(String s) { return s.replace('\'', '"'); }

    static void rejects(String schema, String... messageParts) {
        var t = assertThatThrownBy(() -> JsonSchemaGrammar.from(j(schema))).isInstanceOf(GrammarException.class);
        for (String p : messageParts) t.hasMessageContaining(p);
    }

    @Test void countsBeyondIntAreErrorsNotTruncated() {
        rejects("{'type':'string','maxLength':4294967296}", "'maxLength'", "at /", "4294967296", "largest supported count");
        rejects("{'type':'string','maxLength':4294967299}", "'maxLength'", "4294967299");
        rejects("{'type':'string','maxLength':2147483648}", "'maxLength'");
        rejects("{'type':'array','maxItems':4294967298}", "'maxItems'");
        rejects("{'type':'array','minItems':4294967297}", "'minItems'");
        rejects("{'type':'object','maxProperties':4294967296}", "'maxProperties'");
        rejects("{'type':'object','minProperties':1e30}", "'minProperties'");
    }

    @Test void nonIntegerCountsAreErrors() {
        rejects("{'type':'string','maxLength':'abc'}", "'maxLength'", "a string");
        rejects("{'type':'string','maxLength':1.5}", "'maxLength'", "1.5");
        rejects("{'type':'string','minLength':-1}", "'minLength'", "-1");
        rejects("{'type':'array','maxItems':null}", "'maxItems'");
        rejects("{'type':'array','minContains':true,'contains':{}}", "'minContains'");
    }

    @Test void pointerNamesTheSchemaObject() {
        rejects("{'properties':{'a':{'type':'string','maxLength':4294967296}}}", "'maxLength' at /properties/a");
        rejects("{'$defs':{'s':{'maxLength':'x'}},'$ref':'#/$defs/s'}", "'maxLength' at /$defs/s");
        rejects("{'enum':['a','bb'],'maxLength':1.5}", "'maxLength'");
    }

    @Test void integralDecimalsAreCounts() {
        Grammar g = JsonSchemaGrammar.from(j("{'type':'string','maxLength':2.0}")).grammar();
        assertThat(ExprMatcher.matches(g, j("'ab'"))).isTrue();
        assertThat(ExprMatcher.matches(g, j("'abc'"))).isFalse();
    }

    @Test void boundsAndOtherValuesAreTyped() {
        rejects("{'type':'integer','minimum':'5'}", "'minimum'", "a string");
        rejects("{'type':'number','multipleOf':0}", "'multipleOf'");
        rejects("{'type':'number','multipleOf':-2}", "'multipleOf'");
        rejects("{'type':'integer','exclusiveMaximum':'3'}", "'exclusiveMaximum'");
        rejects("{'type':'string','pattern':5}", "'pattern'");
        rejects("{'type':'object','required':'a'}", "'required'");
        rejects("{'type':'object','required':[1]}", "'required'");
        rejects("{'type':5}", "'type'");
        rejects("{'enum':'a'}", "'enum'");
        rejects("{'anyOf':[]}", "'anyOf'");
        rejects("{'properties':[]}", "'properties'");
    }

    @Test void loneSurrogatesAreErrors() {
        // refused as the document is read (StrictJson), naming the JSON pointer of the string
        rejects("{'type':'object','properties':{'a\\ud800':{'type':'string'}}}", "/properties/a", "lone surrogate U+D800");
        rejects("{'type':'object','required':['\\udc00x']}", "/required/0", "lone surrogate U+DC00");
        rejects("{'enum':['ok','\\ud800']}", "/enum/1", "lone surrogate");
        rejects("{'const':{'k\\udbff':1}}", "/const/k", "lone surrogate");
        // a proper pair is fine
        Grammar g = JsonSchemaGrammar.from(j("{'type':'object','properties':{'\\ud83d\\ude00':{'type':'integer'}},'required':['\\ud83d\\ude00'],'additionalProperties':false}")).grammar();
        assertThat(ExprMatcher.matches(g, "{\"\uD83D\uDE00\": 1}")).isTrue();
    }
}
