package dev.domino.compiler.jsonschema.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar.KeywordLocation;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaRegistry;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code $vocabulary} of a custom meta-schema (2019-09 and 2020-12): when the root's {@code $schema} names a
 * document of the registry (or a bundled meta-schema) that declares {@code $vocabulary}, the keywords of the
 * standard vocabularies it leaves out are no keywords of the schema: they assert nothing (removed from the
 * document before compiling, reported as unknown keywords). A required vocabulary ({@code true}) the compiler
 * does not know is a one-line error naming it; an optional one ({@code false}) is ignored, as the specification says.
 * The dialect is the meta-schema's own {@code $schema}.
 */
public final class Vocabularies {
    private Vocabularies() {}

    /** Keywords of each standard vocabulary that assert or apply (core, meta-data and content only annotate or identify). */
    private static final Map<String, Set<String>> KEYWORDS = Map.of(
        "applicator", Set.of("prefixItems", "items", "additionalItems", "contains", "additionalProperties", "properties",
            "patternProperties", "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"),
        "unevaluated", Set.of("unevaluatedItems", "unevaluatedProperties"),
        "validation", Set.of("type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
            "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
            "maxProperties", "minProperties", "required", "dependentRequired"),
        "format", Set.of("format"), "format-annotation", Set.of("format"), "format-assertion", Set.of("format"),
        "core", Set.of(), "meta-data", Set.of(), "content", Set.of());

    private static final List<String> PREFIXES = List.of("https://json-schema.org/draft/2020-12/vocab/", "https://json-schema.org/draft/2019-09/vocab/");

    /** The meta-schema a {@code $schema} names, from the registry or the bundled ones; null if none. */
    public static JsonNode metaSchema(String schemaUri, SchemaRegistry registry) {
        if (schemaUri.isEmpty()) return null;
        JsonNode d = registry.document(schemaUri);
        return d != null ? d : MetaSchemas.document(schemaUri);
    }

    /** The dialect of a custom meta-schema's schemas: its own {@code $schema} when the document names a registered meta-schema. */
    public static String dialect(String schemaUri, SchemaRegistry registry) {
        JsonNode meta = metaSchema(schemaUri, registry);
        if (meta == null || MetaSchemas.document(schemaUri) != null || !meta.path("$schema").isTextual()) return schemaUri;
        return meta.get("$schema").asText();
    }

    /**
     * The document without the keywords of the vocabularies its meta-schema leaves out (the same node when
     * nothing is left out); each removal is added to {@code removed}.
     */
    public static JsonNode apply(JsonNode root, String schemaUri, SchemaRegistry registry, Set<KeywordLocation> removed) {
        if (MetaSchemas.document(schemaUri) != null) return root; // a standard dialect: every vocabulary
        JsonNode meta = metaSchema(schemaUri, registry);
        if (meta == null || !meta.path("$vocabulary").isObject()) return root;
        Set<String> listed = new HashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = meta.get("$vocabulary").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> v = it.next();
            String name = standardName(v.getKey());
            if (name != null) {
                listed.add(name);
                // 2019-09's applicator vocabulary holds the unevaluated keywords (2020-12 split them out)
                if (name.equals("applicator") && v.getKey().startsWith(PREFIXES.get(1))) listed.add("unevaluated");
            }
            else if (v.getValue().asBoolean(false)) {
                throw new GrammarException("unsupported keyword '$schema' (meta-schema '" + schemaUri + "' requires the vocabulary '"
                    + v.getKey() + "', which the compiler does not know)");
            }
        }
        Set<String> dropped = new HashSet<>();
        KEYWORDS.forEach((vocab, kws) -> { if (!listed.contains(vocab)) dropped.addAll(kws); });
        for (String vocab : listed) dropped.removeAll(KEYWORDS.get(vocab)); // format sits in several
        if (dropped.isEmpty()) return root;
        JsonNode copy = root.deepCopy();
        strip(copy, "", dropped, removed, 0);
        return copy;
    }

    private static String standardName(String uri) {
        for (String p : PREFIXES) {
            if (uri.startsWith(p) && KEYWORDS.containsKey(uri.substring(p.length()))) return uri.substring(p.length());
        }
        return null;
    }

    private static void strip(JsonNode node, String pointer, Set<String> dropped, Set<KeywordLocation> removed, int depth) {
        if (!node.isObject() || depth > 200) return;
        ObjectNode o = (ObjectNode) node;
        for (String k : dropped) {
            if (o.has(k)) {
                o.remove(k);
                removed.add(new KeywordLocation(pointer, k));
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String child = SchemaCompiler.child(pointer, f.getKey());
            JsonNode v = f.getValue();
            if (RefResolver.SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                if (f.getKey().equals(RemoteSchemas.KEYWORD)) continue; // other documents, other meta-schemas
                for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = m.next();
                    strip(e.getValue(), SchemaCompiler.child(child, e.getKey()), dropped, removed, depth + 1);
                }
            } else if (RefResolver.SCHEMA_VALUES.contains(f.getKey())) {
                if (v.isArray()) for (int i = 0; i < v.size(); i++) strip(v.get(i), SchemaCompiler.child(child, String.valueOf(i)), dropped, removed, depth + 1);
                else strip(v, child, dropped, removed, depth + 1);
            }
        }
    }
}
