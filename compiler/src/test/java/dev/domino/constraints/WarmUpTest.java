package dev.domino.constraints;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's outputs are outputs of its schema, spaced or compact, so its masks reach every lexeme. */
class WarmUpTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    private static Artifact compile(ConstraintOptions options) {
        return Constraints.compile(dev.domino.compiler.request.RequestSpec.parse("{\"response_format\": {\"type\": \"json_schema\", "
                + "\"json_schema\": {\"name\": \"w\", \"schema\": " + WarmUp.SCHEMA + "}}}"), o200k.vocabulary(), options);
    }

    @Test void outputsAreTakenWholeWithSpacedAndCompactJson() {
        assertThat(WarmUp.masksAlong(compile(ConstraintOptions.defaults()))).isTrue();
        assertThat(WarmUp.masksAlong(compile(ConstraintOptions.defaults().withJsonSchema(JsonSchemaOptions.compact())))).isTrue();
    }

    @Test void cacheWarmUpRuns() {
        try (ConstraintCache cache = ConstraintCache.builder().build()) {
            assertThat(cache.warmUp(o200k.vocabulary())).isPositive();
        }
    }
}
