package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;

import java.util.List;

/** Adapter from the JSON Schema front-end to {@link GrammarSources.Parsed}: the grammar plus the options it records. */
final class JsonSchemaSource {
    private JsonSchemaSource() {}

    static GrammarSources.Parsed parse(String text, JsonSchemaOptions options) {
        JsonSchemaGrammar g = JsonSchemaGrammar.from(text, options);
        List<String> ignored = g.ignoredKeywords().stream().map(Object::toString).toList();
        return new GrammarSources.Parsed(g.satisfiableGrammar(), options.recorded(), ignored, true);
    }
}
