package dev.domino.compiler;

import dev.domino.compiler.ir.GrammarException;

/** Adapter to the JSON Schema front-end (wired when it lands). */
final class JsonSchemaSource {
    private JsonSchemaSource() {}

    static GrammarSources.Parsed parse(String text, FrontEndOptions options) {
        throw new GrammarException("JSON Schema front-end not available yet");
    }
}
