package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;

import java.util.List;

/**
 * Compiles a JSON Schema into a grammar whose language is the JSON texts valid under the schema.
 *
 * <p>Every keyword is either enforced exactly, is an annotation (ignored), is listed in
 * {@link JsonSchemaOptions#ignoredKeywords()} (skipped and reported in {@link #ignoredKeywords()}),
 * or raises a {@link GrammarException} "unsupported keyword 'k' at /json/pointer". Keywords that
 * are not part of any JSON Schema vocabulary have no meaning per the spec; they are skipped and
 * reported in {@link #unknownKeywords()}.
 *
 * @param grammar         the grammar; start rule {@code root}
 * @param ignoredKeywords keywords that were present and skipped because the options listed them
 * @param unknownKeywords non-standard keywords that were skipped
 */
public record JsonSchemaGrammar(Grammar grammar, List<KeywordLocation> ignoredKeywords,
                                List<KeywordLocation> unknownKeywords) {

    /** A keyword occurrence: JSON pointer of the schema object holding it, and the keyword. */
    public record KeywordLocation(String pointer, String keyword) {
        @Override public String toString() { return "'" + keyword + "' at " + SchemaCompiler.showPointer(pointer); }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    public static JsonSchemaGrammar from(String schemaJson) { return from(schemaJson, JsonSchemaOptions.defaults()); }

    public static JsonSchemaGrammar from(String schemaJson, JsonSchemaOptions options) {
        JsonNode root;
        try {
            root = MAPPER.readTree(schemaJson);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // the parser's own message without its source dump ("[Source: REDACTED ...]"): line and column instead
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
            throw new GrammarException("invalid JSON schema document: " + where + e.getOriginalMessage());
        } catch (Exception e) {
            throw new GrammarException("invalid JSON schema document: " + e.getMessage());
        }
        return from(root, options);
    }

    public static JsonSchemaGrammar from(JsonNode schema, JsonSchemaOptions options) {
        SchemaCompiler c = new SchemaCompiler(schema, options);
        Grammar g = c.compileRoot();
        return new JsonSchemaGrammar(g, List.copyOf(c.ignored), List.copyOf(c.unknown));
    }
}
