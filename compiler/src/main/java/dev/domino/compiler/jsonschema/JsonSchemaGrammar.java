package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param emptyLanguage   null when some JSON value satisfies the schema; else why none does, naming the JSON
 *                        pointer of the innermost part to blame (the grammar's language is then empty)
 */
public record JsonSchemaGrammar(Grammar grammar, List<KeywordLocation> ignoredKeywords,
                                List<KeywordLocation> unknownKeywords, String emptyLanguage) {

    public JsonSchemaGrammar(Grammar grammar, List<KeywordLocation> ignoredKeywords, List<KeywordLocation> unknownKeywords) {
        this(grammar, ignoredKeywords, unknownKeywords, null);
    }

    /** The grammar; a schema no value satisfies is a {@link GrammarException} naming the part to blame. */
    public Grammar satisfiableGrammar() {
        if (emptyLanguage != null) throw new GrammarException(emptyLanguage);
        return grammar;
    }

    /** A keyword occurrence: JSON pointer of the schema object holding it, and the keyword. */
    public record KeywordLocation(String pointer, String keyword) {
        @Override public String toString() { return "'" + keyword + "' at " + SchemaCompiler.showPointer(pointer); }
    }

    /**
     * Base of the {@code $id}s Domino gives schemas it embeds in a generated one (tool parameters):
     * such a resource is a document of its own, so a pointer that is missing inside it is an
     * unresolvable reference (it never falls back to the generated document's root).
     */
    public static final String EMBEDDED_BASE = "https://domino.invalid/embedded/";

    public static JsonSchemaGrammar from(String schemaJson) { return from(schemaJson, JsonSchemaOptions.defaults()); }

    public static JsonSchemaGrammar from(String schemaJson, JsonSchemaOptions options) {
        JsonNode root;
        try {
            root = dev.domino.compiler.StrictJson.parse(schemaJson);
        } catch (dev.domino.compiler.StrictJson.Invalid e) {
            throw new GrammarException("invalid JSON schema document: " + e.getMessage());
        }
        return from(root, options);
    }

    public static JsonSchemaGrammar from(JsonNode schema, JsonSchemaOptions options) {
        try {
            dev.domino.compiler.StrictJson.checkTree(schema);
        } catch (dev.domino.compiler.StrictJson.Invalid e) {
            throw new GrammarException("invalid JSON schema document: " + e.getMessage());
        }
        if (schema.isObject() && schema.has("x-guidance")) {
            throw new GrammarException("unsupported keyword 'x-guidance' at / (llguidance's options: set JSON whitespace with the "
                    + "front-end options or the request's disable_any_whitespace)");
        }
        SchemaCompiler c = new SchemaCompiler(schema, options);
        Grammar g = c.compileRoot();
        return new JsonSchemaGrammar(g, List.copyOf(c.ignored), List.copyOf(c.unknown), c.emptyLanguage);
    }
}
