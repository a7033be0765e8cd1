package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Masks of residue automata ({@code multipleOf 7}, {@code not multipleOf}: one grammar rule per residue,
 * digits as parser-level terminals) against the byte-level Earley oracle, eager and lazy trees.
 */
class JsonSchemaMultiplesMaskTest {
    @BeforeAll static void load() { OracleMaskTest.load(); }

    @Test void residueRulesMaskExactly() {
        Grammar g = JsonSchemaGrammar.from("""
                {"type": "object", "properties": {
                   "a": {"type": "integer", "multipleOf": 7, "minimum": -30, "maximum": 5000},
                   "b": {"type": "number", "multipleOf": 1.5, "not": {"multipleOf": 2}},
                   "c": {"type": "array", "items": {"type": "integer", "not": {"multipleOf": 3}}, "maxItems": 4}},
                 "required": ["a", "b", "c"], "additionalProperties": false}""").grammar();
        OracleMaskTest.check(g, 6, 91, false);
        OracleMaskTest.check(g, 4, 92, true);
    }
}
