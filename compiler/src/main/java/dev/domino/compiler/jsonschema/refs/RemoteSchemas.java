package dev.domino.compiler.jsonschema.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.jsonschema.SchemaRegistry;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Remote {@code $ref}s through the {@link SchemaRegistry}: before compiling, every registry document that a
 * reference names (also from a document embedded before it) is copied into the root under {@link #KEYWORD}, with
 * its retrieval URI as its base, so that {@link RefResolver} resolves it as it resolves an embedded resource. The
 * caller's schema is not changed (the root is copied). A document in another dialect than the schema's is
 * refused by name: one compile has one dialect. A URI the registry does not hold may name one of the bundled
 * {@link MetaSchemas}.
 */
public final class RemoteSchemas {
    /** The member of the root holding the embedded documents (an annotation: it asserts nothing). */
    public static final String KEYWORD = "$domino:remotes";
    /** The JSON pointer of {@link #KEYWORD}. */
    static final String POINTER = "/" + KEYWORD;

    private RemoteSchemas() {}

    /**
     * The root with the documents embedded, and each document's retrieval URI -> its pointer.
     *
     * @param remotes retrieval URI (absolute, without fragment) -> pointer of the embedded document
     */
    public record Embedded(JsonNode root, Map<String, String> remotes) {}

    public static Embedded embed(JsonNode root, SchemaRegistry registry, String draft) {
        Map<String, String> remotes = new LinkedHashMap<>();
        if (!root.isObject() || registry.isEmpty() && !mentionsMetaSchema(root, 0)) return new Embedded(root, remotes);
        ObjectNode copy = null;
        JsonNode doc = root;
        while (true) {
            Set<String> missing = new RefResolver(doc, draft, remotes).unresolvedDocuments();
            missing.removeIf(uri -> document(registry, uri) == null);
            if (missing.isEmpty()) break;
            if (copy == null) {
                copy = root.deepCopy();
                copy.putObject(KEYWORD);
                doc = copy;
            }
            for (String uri : missing) {
                JsonNode d = document(registry, uri);
                checkDialect(d, uri, draft);
                String key = Integer.toString(remotes.size());
                ((ObjectNode) copy.get(KEYWORD)).set(key, withBase(d, uri, draft));
                remotes.put(uri, POINTER + "/" + key);
            }
        }
        return new Embedded(doc, remotes);
    }

    /** The registry's document of a URI, else the bundled meta-schema of it, else null. */
    private static JsonNode document(SchemaRegistry registry, String uri) {
        JsonNode d = registry.document(uri);
        return d != null ? d : MetaSchemas.document(uri);
    }

    /** Whether some reference of the document may name a bundled meta-schema (a cheap test before resolving references). */
    private static boolean mentionsMetaSchema(JsonNode n, int depth) {
        if (depth > 200) return false;
        if (n.isObject()) {
            for (String kw : new String[] {"$ref", "$dynamicRef", "$recursiveRef"}) {
                if (n.path(kw).asText("").contains("json-schema.org/")) return true;
            }
        }
        for (JsonNode c : n) if (mentionsMetaSchema(c, depth + 1)) return true;
        return false;
    }

    /** The document with an absolute id: its own resolved against the retrieval URI, else the retrieval URI. */
    private static JsonNode withBase(JsonNode d, String uri, String draft) {
        if (!d.isObject()) return d;
        ObjectNode c = (ObjectNode) d.deepCopy();
        boolean legacy = draft.isEmpty() || Dialects.draft4OrEarlier(draft);
        String idKey = c.path("$id").isTextual() ? "$id" : legacy && c.path("id").isTextual() ? "id" : null;
        String id = idKey == null ? null : c.get(idKey).asText();
        if (id != null && id.startsWith("#")) return c; // an anchor-like id: the document keeps it (rare; the base is the parent's)
        try {
            c.put(idKey == null ? "$id" : idKey, id == null ? uri : new URI(uri).resolve(new URI(id)).toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            c.put(idKey, uri);
        }
        return c;
    }

    private static void checkDialect(JsonNode d, String uri, String draft) {
        if (!d.isObject() || !d.path("$schema").isTextual()) return;
        String theirs = d.get("$schema").asText();
        if (Dialects.of(theirs) != Dialects.of(draft)) {
            throw new GrammarException("unsupported keyword '$ref' (remote document '" + uri + "' is in dialect '" + theirs
                + "', the schema in '" + (draft.isEmpty() ? JsonSchemaOptions.Dialect.DRAFT_2020_12.uri() : draft)
                + "': one compile has one dialect)");
        }
    }
}
