package dev.domino.compiler.jsonschema.refs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaRegistry;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
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
public final class RefResolver {
    /** The base URI of a document without an id: any absolute hierarchical URI works, it is never fetched. */
    private static final URI DEFAULT_BASE = URI.create(SchemaRegistry.DEFAULT_FOLDER + "schema.json");
    static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions",
        "dependentSchemas", "dependencies", RemoteSchemas.KEYWORD, DynamicRefs.KEYWORD);
    static final Set<String> SCHEMA_VALUES = Set.of("items", "prefixItems", "allOf", "anyOf", "oneOf",
        "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties");

    /** A resolved reference: the schema and its JSON pointer in the document. */
    public record Target(JsonNode node, String pointer) {}

    private final SchemaCompiler sc;
    private final JsonNode root;
    private final boolean legacyId;
    /** Documents of the schema registry embedded in the root: retrieval URI -> pointer ({@link RemoteSchemas}). */
    private final Map<String, String> remotes;
    private Map<String, String> identified; // absolute URI (resources without fragment, anchors with) -> pointer
    /** Each {@code $dynamicAnchor} name -> the pointers of the schemas that declare it, collected by the index's walk. */
    private final Map<String, List<String>> dynamicAnchors = new HashMap<>();
    /** The pointers of the schema resources (the root and every schema with an {@code $id} that is not an anchor). */
    private final Set<String> resources = new java.util.HashSet<>(Set.of(""));
    /** The documents (absolute URIs without fragment) that $refs name, collected by the index's walk. */
    private final Set<String> referenced = new java.util.LinkedHashSet<>();

    public RefResolver(SchemaCompiler sc) {
        this(sc, sc.root, sc.draft, sc.remotes);
    }

    /** A resolver over a document alone, for {@link RemoteSchemas}' walk. */
    public RefResolver(JsonNode root, String draft, Map<String, String> remotes) {
        this(null, root, draft, remotes);
    }

    private RefResolver(SchemaCompiler sc, JsonNode root, String draft, Map<String, String> remotes) {
        this.sc = sc;
        this.root = root;
        this.remotes = remotes;
        this.legacyId = draft.isEmpty() || Dialects.draft4OrEarlier(draft);
    }

    /** The absolute URIs (without fragment) that references name and no resource of the document has. */
    Set<String> unresolvedDocuments() {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String uri : referencedDocuments()) if (!index().containsKey(uri)) out.add(uri);
        return out;
    }

    private Set<String> referencedDocuments() {
        index();
        return referenced;
    }

    /** The pointers of the schema resources of the document ("" the root). */
    Set<String> resourcePointers() {
        index();
        return resources;
    }

    /** The schemas declaring each {@code $dynamicAnchor} name. */
    Map<String, List<String>> dynamicAnchors() {
        index();
        return dynamicAnchors;
    }

    /** The pointer of what a reference at {@code ptr} names as a {@code $ref}, null if it names nothing (never throws). */
    String staticPointer(String ref, String ptr) {
        String p = pointer(ref, ptr, false);
        return p == null || root.at(p).isMissingNode() ? null : p;
    }

    /** The node at a pointer of the document (as written, references not made absolute). */
    JsonNode staticNode(String pointer) { return root.at(pointer); }

    /** A reference to a pointer of the document that means the same wherever it is written. */
    String absolute(String pointer) { return rootUri() + "#" + encode(pointer); }

    public JsonNode resolve(String ref, String ptr) {
        Target t = target(ref, ptr);
        return t == null ? null : t.node();
    }

    public Target target(String ref, String ptr) {
        String pointer = pointer(ref, ptr, true);
        if (pointer == null) return null;
        if (root.at(pointer).isMissingNode()) throw new GrammarException("unresolvable $ref '" + ref + "' at " + SchemaCompiler.showPointer(ptr));
        return new Target(relocated(pointer), pointer);
    }

    /**
     * The JSON pointer a reference at {@code ptr} names; null for a reference that cannot be resolved (reported as
     * an unsupported {@code $ref} when {@code report}, which may throw). The pointer may name a missing node.
     */
    private String pointer(String ref, String ptr, boolean report) {
        if (ref.startsWith("#")) {
            String fragment = ref.substring(1);
            if (fragment.isEmpty() || fragment.startsWith("/")) {
                // relative to the enclosing resource; documents whose ids do not follow that read from the root
                URI base = baseAt(ptr);
                String resource = resourcePointer(base);
                String decoded = decode(fragment);
                if (decoded == null) return invalid(ref, ptr, report);
                if (!resource.isEmpty() && !base.toString().startsWith(JsonSchemaGrammar.EMBEDDED_BASE)
                        && !resource.startsWith(RemoteSchemas.POINTER) && root.at(resource + decoded).isMissingNode()) resource = "";
                return resource + decoded;
            }
        }
        URI target;
        try {
            target = resolve(baseAt(ptr), new URI(ref));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return invalid(ref, ptr, report);
        }
        String fragment = target.getRawFragment() == null ? "" : decode(target.getRawFragment());
        if (fragment == null) return invalid(ref, ptr, report);
        String resource = index().get(withoutFragment(target));
        if (resource == null) {
            if (report) sc.unsupported(ptr, "$ref", "remote reference '" + ref + "'" + (ref.equals(withoutFragment(target)) ? "" : " = '" + withoutFragment(target) + "'")
                + ": not in the schema registry (nothing is fetched)");
            return null;
        }
        if (fragment.isEmpty() || fragment.startsWith("/")) return resource + fragment;
        String anchor = index().get(withoutFragment(target) + "#" + fragment);
        if (anchor == null && report) sc.unsupported(ptr, "$ref", "unknown anchor in '" + ref + "'");
        return anchor;
    }

    private String invalid(String ref, String ptr, boolean report) {
        if (report) sc.unsupported(ptr, "$ref", "invalid reference '" + ref + "'");
        return null;
    }

    /**
     * The schema at a pointer with every {@code $ref} inside it made absolute (the root's URI and the pointer it
     * names), so that the schema means the same wherever it is compiled: merged into a conjunction at the
     * referencing location, its references still name what they name in its own resource.
     */
    private JsonNode relocated(String pointer) {
        JsonNode cached = relocatedNodes.get(pointer);
        if (cached != null) return cached;
        JsonNode original = root.at(pointer);
        JsonNode out = original;
        if (containsRef(original, 0)) {
            out = original.deepCopy();
            absolutize(out, pointer, 0);
        }
        relocatedNodes.put(pointer, out);
        return out;
    }

    private final Map<String, JsonNode> relocatedNodes = new HashMap<>();

    private static boolean containsRef(JsonNode n, int depth) {
        if (depth > 200) return false;
        if (n.isObject() && n.path("$ref").isTextual()) return true;
        for (JsonNode c : n) if (containsRef(c, depth + 1)) return true;
        return false;
    }

    private void absolutize(JsonNode node, String pointer, int depth) {
        if (!node.isObject() || depth > 200) return;
        if (node.path("$ref").isTextual()) {
            String target = pointer(node.get("$ref").asText(), pointer, false);
            if (target != null && !root.at(target).isMissingNode())
                ((com.fasterxml.jackson.databind.node.ObjectNode) node).put("$ref", absolute(target));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String child = SchemaCompiler.child(pointer, f.getKey());
            JsonNode v = f.getValue();
            if (SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = m.next();
                    absolutize(e.getValue(), SchemaCompiler.child(child, e.getKey()), depth + 1);
                }
            } else if (SCHEMA_VALUES.contains(f.getKey())) {
                if (v.isArray()) for (int i = 0; i < v.size(); i++) absolutize(v.get(i), SchemaCompiler.child(child, String.valueOf(i)), depth + 1);
                else absolutize(v, child, depth + 1);
            }
        }
    }

    /** The URI of the document itself (its pointers are fragments of it). */
    private String rootUri() { return withoutFragment(apply(DEFAULT_BASE, root)); }

    /** A JSON pointer as a URI fragment: what a fragment may hold stays, every other byte is percent-encoded. */
    private static String encode(String pointer) {
        StringBuilder sb = new StringBuilder();
        for (byte b : pointer.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~!$&'()*+,;=:@/".indexOf(c) >= 0) sb.append(c);
            else sb.append('%').append(String.format("%02X", (int) c));
        }
        return sb.toString();
    }

    /** A percent-decoded fragment, null if it is not valid percent-encoding. */
    private static String decode(String fragment) {
        try {
            return URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * A reference resolved against a base; a fragment alone against an opaque base ({@code urn:uuid:...}) names
     * that fragment of the base (java.net.URI leaves it unresolved).
     */
    static URI resolve(URI base, URI ref) throws URISyntaxException {
        if (base.isOpaque() && ref.getScheme() == null && ref.getRawSchemeSpecificPart().isEmpty()) {
            return new URI(base.getScheme(), base.getSchemeSpecificPart(), ref.getFragment());
        }
        return base.resolve(ref);
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
        URI base = apply(DEFAULT_BASE, root);
        JsonNode node = root;
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
            URI u = resolve(base, new URI(id));
            return u.getRawFragment() != null && id.startsWith("#") ? base : u;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return base;
        }
    }

    private Map<String, String> index() {
        if (identified == null) {
            identified = new HashMap<>();
            identified.put(withoutFragment(apply(DEFAULT_BASE, root)), "");
            walk(root, "", apply(DEFAULT_BASE, root), 0);
            remotes.forEach(identified::putIfAbsent);
        }
        return identified;
    }

    private void walk(JsonNode node, String pointer, URI base, int depth) {
        if (!node.isObject() || depth > 200) return;
        String id = idOf(node);
        if (id != null) {
            try {
                URI u = resolve(base, new URI(id));
                if (!id.startsWith("#")) {
                    base = u;
                    resources.add(pointer);
                    identified.putIfAbsent(withoutFragment(u), pointer);
                }
                if (u.getRawFragment() != null && !u.getRawFragment().startsWith("/"))
                    identified.putIfAbsent(withoutFragment(u) + "#" + decode(u.getRawFragment()), pointer);
            } catch (URISyntaxException | IllegalArgumentException ignored) {
                // not a URI: no identifier
            }
        }
        for (String kw : List.of("$ref", "$dynamicRef")) {
            if (!node.path(kw).isTextual()) continue;
            try {
                referenced.add(withoutFragment(resolve(base, new URI(node.get(kw).asText()))));
            } catch (URISyntaxException | IllegalArgumentException ignored) {
                // an invalid reference: its error comes when it is compiled
            }
        }
        if (node.path("$anchor").isTextual()) identified.putIfAbsent(withoutFragment(base) + "#" + node.get("$anchor").asText(), pointer);
        if (node.path("$dynamicAnchor").isTextual()) {
            // also a plain anchor of its resource ($ref reaches it as it reaches an $anchor)
            identified.putIfAbsent(withoutFragment(base) + "#" + node.get("$dynamicAnchor").asText(), pointer);
            dynamicAnchors.computeIfAbsent(node.get("$dynamicAnchor").asText(), k -> new java.util.ArrayList<>()).add(pointer);
        }
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
