package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Resolves {@code $ref}s inside the schema document: a JSON pointer ({@code #}, {@code #/$defs/x},
 * percent-decoded, {@code ~0}/{@code ~1} unescaped by Jackson's pointer), an anchor ({@code #name}:
 * 2019-09 {@code $anchor}, or a draft-06/07 {@code $id} / draft-04 {@code id} of the form {@code #name}),
 * or a URI that an embedded {@code $id}/{@code id} names (resolved against the base URI in effect where
 * the reference is, a pointer or anchor fragment then applying inside that resource). The identifiers are
 * indexed once by walking the schema-valued keywords only (so a {@code default} or {@code enum} value
 * holding an {@code "id"} is not mistaken for one). Anything else is a remote reference: an unsupported
 * {@code $ref}.
 */
final class RefResolver {
    /** The base URI of a document without an id: any absolute hierarchical URI works, it is never fetched. */
    private static final URI DEFAULT_BASE = URI.create("https://domino.invalid/schema.json");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions",
        "dependentSchemas", "dependencies");
    private static final Set<String> SCHEMA_VALUES = Set.of("items", "prefixItems", "allOf", "anyOf", "oneOf",
        "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties");

    /** A resolved reference: the schema and its JSON pointer in the document. */
    record Target(JsonNode node, String pointer) {}

    private final SchemaCompiler sc;
    private final boolean legacyId;
    private Map<String, String> identified; // absolute URI (resources without fragment, anchors with) -> pointer

    RefResolver(SchemaCompiler sc) {
        this.sc = sc;
        this.legacyId = sc.draft.isEmpty() || sc.draft.matches(".*draft-0[34].*");
    }

    JsonNode resolve(String ref, String ptr) {
        Target t = target(ref, ptr);
        return t == null ? null : t.node();
    }

    Target target(String ref, String ptr) {
        if (ref.startsWith("#")) {
            String fragment = ref.substring(1);
            if (fragment.isEmpty() || fragment.startsWith("/")) {
                // relative to the enclosing resource; documents whose ids do not follow that read from the root
                URI base = baseAt(ptr);
                String resource = resourcePointer(base);
                if (!resource.isEmpty() && !base.toString().startsWith(JsonSchemaGrammar.EMBEDDED_BASE)
                        && sc.root.at(resource + decode(fragment)).isMissingNode()) resource = "";
                return at(resource + decode(fragment), ref, ptr);
            }
        }
        URI target;
        try {
            target = baseAt(ptr).resolve(new URI(ref));
        } catch (URISyntaxException | IllegalArgumentException e) {
            sc.unsupported(ptr, "$ref", "invalid reference '" + ref + "'");
            return null;
        }
        String fragment = target.getRawFragment() == null ? "" : URLDecoder.decode(target.getRawFragment().replace("+", "%2B"), StandardCharsets.UTF_8);
        String resource = index().get(withoutFragment(target));
        if (resource == null) { sc.unsupported(ptr, "$ref", "remote reference '" + ref + "'"); return null; }
        if (fragment.isEmpty() || fragment.startsWith("/")) return at(resource + fragment, ref, ptr);
        String anchor = index().get(withoutFragment(target) + "#" + fragment);
        if (anchor == null) { sc.unsupported(ptr, "$ref", "unknown anchor in '" + ref + "'"); return null; }
        return at(anchor, ref, ptr);
    }

    private Target at(String pointer, String ref, String ptr) {
        JsonNode target = sc.root.at(pointer);
        if (target.isMissingNode()) throw new GrammarException("unresolvable $ref '" + ref + "' at " + SchemaCompiler.showPointer(ptr));
        return new Target(target, pointer);
    }

    private static String decode(String fragment) {
        return URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String withoutFragment(URI u) {
        String s = u.toString();
        int hash = s.indexOf('#');
        return hash < 0 ? s : s.substring(0, hash);
    }

    /** The pointer of the resource a base URI names ("" for the document itself). */
    private String resourcePointer(URI base) {
        String p = index().get(withoutFragment(base));
        return p == null ? "" : p;
    }

    /** The base URI in effect at a pointer: the ids of the schema objects on the way down. */
    URI baseAt(String ptr) {
        URI base = apply(DEFAULT_BASE, sc.root);
        JsonNode node = sc.root;
        if (ptr.isEmpty()) return base;
        for (String token : ptr.substring(1).split("/", -1)) {
            String key = token.replace("~1", "/").replace("~0", "~");
            node = node.isArray() && key.matches("\\d{1,9}") ? node.path(Integer.parseInt(key)) : node.path(key);
            if (node.isMissingNode()) break;
            base = apply(base, node);
        }
        return base;
    }

    private String idOf(JsonNode node) {
        if (!node.isObject()) return null;
        if (node.path("$id").isTextual()) return node.get("$id").asText();
        if (legacyId && node.path("id").isTextual()) return node.get("id").asText();
        return null;
    }

    private URI apply(URI base, JsonNode node) {
        String id = idOf(node);
        if (id == null) return base;
        try {
            URI u = base.resolve(new URI(id));
            return u.getRawFragment() != null && id.startsWith("#") ? base : u;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return base;
        }
    }

    private Map<String, String> index() {
        if (identified == null) {
            identified = new HashMap<>();
            identified.put(withoutFragment(apply(DEFAULT_BASE, sc.root)), "");
            walk(sc.root, "", apply(DEFAULT_BASE, sc.root), 0);
        }
        return identified;
    }

    private void walk(JsonNode node, String pointer, URI base, int depth) {
        if (!node.isObject() || depth > 200) return;
        String id = idOf(node);
        if (id != null) {
            try {
                URI u = base.resolve(new URI(id));
                if (!id.startsWith("#")) {
                    base = u;
                    identified.putIfAbsent(withoutFragment(u), pointer);
                }
                if (u.getRawFragment() != null && !u.getRawFragment().startsWith("/"))
                    identified.putIfAbsent(withoutFragment(u) + "#" + decode(u.getRawFragment()), pointer);
            } catch (URISyntaxException | IllegalArgumentException ignored) {
                // not a URI: no identifier
            }
        }
        if (node.path("$anchor").isTextual()) identified.putIfAbsent(withoutFragment(base) + "#" + node.get("$anchor").asText(), pointer);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String child = SchemaCompiler.child(pointer, f.getKey());
            JsonNode v = f.getValue();
            if (SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = m.next();
                    walk(e.getValue(), SchemaCompiler.child(child, e.getKey()), base, depth + 1);
                }
            } else if (SCHEMA_VALUES.contains(f.getKey())) {
                if (v.isArray()) for (int i = 0; i < v.size(); i++) walk(v.get(i), SchemaCompiler.child(child, String.valueOf(i)), base, depth + 1);
                else walk(v, child, base, depth + 1);
            }
        }
    }
}
