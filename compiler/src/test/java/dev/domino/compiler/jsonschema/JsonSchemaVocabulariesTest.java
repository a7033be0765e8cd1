package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.refs.Vocabularies;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.accepts;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code $vocabulary} of a custom meta-schema in the registry ({@link Vocabularies}). */
class JsonSchemaVocabulariesTest {
    static SchemaRegistry registry(String vocabularies) {
        return SchemaRegistry.builder().add("https://example.com/meta", j("{'$schema':'https://json-schema.org/draft/2020-12/schema',"
            + "'$id':'https://example.com/meta','$vocabulary':{" + vocabularies + "},'$dynamicAnchor':'meta'}")).build();
    }

    static final String CORE = "'https://json-schema.org/draft/2020-12/vocab/core':true";
    static final String APPLICATOR = "'https://json-schema.org/draft/2020-12/vocab/applicator':true";
    static final String VALIDATION = "'https://json-schema.org/draft/2020-12/vocab/validation':true";

    /** Without the validation vocabulary its keywords are annotations; the applicators still apply. */
    @Test void leftOutVocabularyAssertsNothing() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults().withSchemaRegistry(registry(CORE + "," + APPLICATOR));
        var g = JsonSchemaGrammar.from(j("{'$schema':'https://example.com/meta','properties':{'bad':false,'n':{'minimum':10,'type':'string'}}}"), o);
        assertThat(accepts(g.grammar(), j("{'n':1}"))).isTrue();
        assertThat(accepts(g.grammar(), j("{'bad':1}"))).isFalse();
        assertThat(g.unknownKeywords()).extracting(JsonSchemaGrammar.KeywordLocation::keyword).contains("minimum", "type");
    }

    /** With it they assert; an unknown optional vocabulary is ignored. */
    @Test void listedVocabularyAsserts() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults().withSchemaRegistry(registry(CORE + "," + VALIDATION + ",'https://example.com/vocab/x':false"));
        var g = JsonSchemaGrammar.from(j("{'$schema':'https://example.com/meta','type':'number'}"), o).grammar();
        assertThat(accepts(g, "20")).isTrue();
        assertThat(accepts(g, j("'x'"))).isFalse();
    }

    /** An unknown required vocabulary: a one-line error naming it. */
    @Test void unknownRequiredVocabularyRefused() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults().withSchemaRegistry(registry(CORE + ",'https://example.com/vocab/x':true"));
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j("{'$schema':'https://example.com/meta','type':'number'}"), o))
            .isInstanceOf(GrammarException.class).hasMessageContaining("https://example.com/vocab/x").hasMessageNotContaining("\n");
    }
}
