package dev.domino.compiler.jsonschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.compiler.ir.GrammarException;

import org.junit.jupiter.api.Test;

/** An unsatisfiable schema's error names the JSON pointer of the innermost part no value satisfies. */
class EmptySchemaDiagnosisTest {

    private static String error(String schema) {
        JsonSchemaGrammar g = JsonSchemaGrammar.from(schema);
        // the grammar itself has the empty language; the front door refuses it with the reason
        assertThat(dev.domino.compiler.ExprMatcher.matches(g.grammar(), "null")).isFalse();
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(
            () -> dev.domino.compiler.GrammarSources.parse(schema, dev.domino.compiler.SourceFormat.JSON_SCHEMA, dev.domino.compiler.CompileOptions.defaults()));
        assertThat(t).isInstanceOf(GrammarException.class);
        String m = t.getMessage();
        assertThat(m).startsWith(EmptySchemaDiagnosis.PREFIX).doesNotContain("\n");
        return m;
    }

    @Test
    void requiredPropertyWithCrossedLengthBounds() {
        assertThat(error("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"minLength\":3,\"maxLength\":2}},\"required\":[\"a\"]}"))
            .contains("the schema at /properties/a (needed by /)").contains("minLength 3 is above maxLength 2");
    }

    @Test
    void optionalEmptyPropertyIsNoError() {
        // the property may be left out: the object stays satisfiable
        assertThat(JsonSchemaGrammar.from("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"minLength\":3,\"maxLength\":2}}}").emptyLanguage()).isNull();
    }

    @Test
    void arrayWhoseNeededItemsAreEmpty() {
        assertThat(error("{\"type\":\"array\",\"minItems\":1,\"items\":false}"))
            .contains("the schema at /items (needed by /)").contains("it is false");
        assertThat(error("{\"type\":\"array\",\"minItems\":2,\"items\":{\"type\":\"string\",\"format\":\"date\",\"maxLength\":3}}"))
            .contains("the schema at /items (needed by /)");
        assertThat(error("{\"type\":\"array\",\"prefixItems\":[{\"type\":\"integer\"},{\"allOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}],\"minItems\":2}"))
            .contains("the schema at /prefixItems/1 (needed by /)").contains("allOf");
    }

    @Test
    void allOfConflictIsTheSchemaItself() {
        assertThat(error("{\"allOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}"))
            .contains("the schema at /:").contains("its allOf parts");
        assertThat(error("{\"type\":\"object\",\"properties\":{\"p\":{\"allOf\":[{\"minimum\":5,\"type\":\"integer\"},{\"maximum\":1}]}},\"required\":[\"p\"]}"))
            .contains("the schema at /properties/p (needed by /)");
    }

    @Test
    void refRecursionWithoutBaseCase() {
        assertThat(error("{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":{\"type\":\"array\",\"minItems\":1,\"items\":{\"$ref\":\"#/$defs/a\"}}}}"))
            .contains("the schema at /$defs/a (needed by /)").contains("needs itself again at /$defs/a/items");
        assertThat(error("{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/n\"}},\"required\":[\"x\"],"
                + "\"$defs\":{\"n\":{\"type\":\"object\",\"properties\":{\"k\":{\"$ref\":\"#/$defs/n\"}},\"required\":[\"k\"]}}}"))
            .contains("the schema at /$defs/n (needed by /properties/x, /)").contains("needs itself again at /$defs/n/properties/k");
    }

    @Test
    void recursionWithABaseCaseIsNoError() {
        assertThat(JsonSchemaGrammar.from("{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/a\"}}}}").emptyLanguage()).isNull();
    }

    @Test
    void nestedUnderDefs() {
        assertThat(error("{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/n\"}},\"required\":[\"x\"],"
                + "\"$defs\":{\"n\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\",\"minLength\":3,\"maxLength\":2}},\"required\":[\"k\"]}}}"))
            .contains("the schema at /$defs/n/properties/k (needed by /$defs/n, /properties/x, /)");
    }

    @Test
    void branchesAllEmpty() {
        assertThat(error("{\"anyOf\":[{\"type\":\"string\",\"minLength\":3,\"maxLength\":2},{\"type\":\"integer\",\"minimum\":5,\"maximum\":1}]}"))
            .contains("the schema at /:").contains("none of its anyOf branches");
        assertThat(error("{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"string\"}]}"))
            .contains("the schema at /:").contains("exactly one of its oneOf branches");
    }

    @Test
    void wholeSchemaEmpty() {
        assertThat(error("false")).contains("the schema at /: it is false");
        assertThat(error("{\"enum\":[]}")).contains("its enum is empty");
        assertThat(error("{\"not\":{}}")).contains("its 'not' excludes every value");
        assertThat(error("{\"type\":\"object\",\"required\":[\"a\",\"b\",\"c\"],\"maxProperties\":2}"))
            .contains("3 required properties are more than maxProperties 2");
        assertThat(error("{\"type\":\"object\",\"properties\":{\"a\":{\"enum\":[1,2],\"type\":\"string\"}},\"required\":[\"a\"]}"))
            .contains("the schema at /properties/a (needed by /)").contains("no value of its enum");
    }

    @Test
    void deepPathShowsTheNearestNeeders() {
        // without "type": "object" each level also admits every non-object: only objects all the way down are empty
        String o = "\"type\":\"object\",";
        assertThat(error("{" + o + "\"properties\":{\"a\":{" + o + "\"properties\":{\"b\":{" + o + "\"properties\":{\"c\":{" + o + "\"properties\":{\"d\":false},"
                + "\"required\":[\"d\"]}},\"required\":[\"c\"]}},\"required\":[\"b\"]}},\"required\":[\"a\"]}"))
            .contains("the schema at /properties/a/properties/b/properties/c/properties/d (needed by /properties/a/properties/b/properties/c, "
                + "/properties/a/properties/b, /properties/a, ...): it is false");
    }
}
