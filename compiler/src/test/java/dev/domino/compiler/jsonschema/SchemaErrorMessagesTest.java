package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Errors a user can act on: no JSON parser internals. */
class SchemaErrorMessagesTest {
    @Test void invalidJsonNamesLineAndColumnWithoutParserInternals() {
        assertThatThrownBy(() -> JsonSchemaGrammar.from("{\"type\": \"object\",\n \"properties\": {\"a\": {\"type\": \"string\",}}}"))
                .isInstanceOf(GrammarException.class)
                .hasMessageStartingWith("invalid JSON schema document: ")
                .hasMessageContaining("line 2, column")
                .hasMessageNotContaining("Source")
                .hasMessageNotContaining("REDACTED");
    }
}
