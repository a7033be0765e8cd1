package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.accepts;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link JsonSchemaOptions.FormatMode}: format asserts by default, asserts nothing as an annotation. */
class JsonSchemaFormatModeTest {
    static final JsonSchemaOptions ANNOTATION = JsonSchemaOptions.defaults().withFormatMode(JsonSchemaOptions.FormatMode.ANNOTATION);

    @Test void assertedByDefault() {
        Grammar g = JsonSchemaGrammar.from(j("{'type':'string','format':'date'}")).grammar();
        assertThat(accepts(g, "\"2020-01-31\"")).isTrue();
        assertThat(accepts(g, "\"06/19/1963\"")).isFalse();
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j("{'format':'regex'}"))).isInstanceOf(GrammarException.class);
    }

    @Test void annotationAssertsNothing() {
        Grammar g = JsonSchemaGrammar.from(j("{'type':'string','format':'date','maxLength':12}"), ANNOTATION).grammar();
        assertThat(accepts(g, "\"06/19/1963\"")).isTrue();
        assertThat(accepts(g, "\"much too long for it\"")).isFalse();
        // formats no automaton expresses compile too; in a const/enum and under not, the same annotation
        assertThat(accepts(JsonSchemaGrammar.from(j("{'format':'regex'}"), ANNOTATION).grammar(), "\"(\"")).isTrue();
        Grammar e = JsonSchemaGrammar.from(j("{'enum':['x','2020-01-01'],'format':'date'}"), ANNOTATION).grammar();
        assertThat(accepts(e, "\"x\"")).isTrue();
        Grammar n = JsonSchemaGrammar.from(j("{'type':'string','not':{'format':'date'}}"), ANNOTATION).grammar();
        assertThat(accepts(n, "\"x\"")).isFalse(); // not (any string): no string is left
        assertThat(ANNOTATION.recorded()).containsEntry("json.formats", "annotation");
        assertThat(JsonSchemaOptions.defaults().recorded()).doesNotContainKey("json.formats");
    }

    /** On keys (propertyNames) a format is the keys' language when asserted, and nothing as an annotation. */
    @Test void formatOnKeys() {
        String schema = j("{'type':'object','propertyNames':{'format':'ipv4'}}");
        var asserted = JsonSchemaGrammar.from(schema).grammar();
        assertThat(accepts(asserted, j("{'1.2.3.4':1}"))).isTrue();
        assertThat(accepts(asserted, j("{'x':1}"))).isFalse();
        assertThat(accepts(JsonSchemaGrammar.from(schema, ANNOTATION).grammar(), j("{'x':1}"))).isTrue();
    }

    /**
     * format 'regex' asserted: valid ECMA-262 patterns are no regular language (nested groups), and strings are
     * compiled as regular languages, so it is refused in one line naming the format and the pointer; as an
     * annotation it asserts nothing.
     */
    @Test void regexRefusedByNameWhenAsserted() {
        String schema = j("{'properties':{'p':{'type':'string','format':'regex'}}}");
        assertThatThrownBy(() -> JsonSchemaGrammar.from(schema)).hasMessageStartingWith("unsupported keyword 'format' at /properties/p (format 'regex'")
            .hasMessageNotContaining("\n");
        assertThat(accepts(JsonSchemaGrammar.from(schema, ANNOTATION).grammar(), j("{'p':'(a'}"))).isTrue();
    }
}
