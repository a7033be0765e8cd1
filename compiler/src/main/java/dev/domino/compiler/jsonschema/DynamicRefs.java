package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * 2020-12's {@code $dynamicRef}, where its target does not depend on the dynamic scope, rewritten to the {@code $ref}
 * it then is: a reference whose fragment is a JSON pointer, or whose statically resolved target has no
 * {@code $dynamicAnchor} of the fragment's name ("bookending"), is a plain {@code $ref}; and when exactly one schema
 * of the document (the registry's documents included) declares that {@code $dynamicAnchor}, every dynamic scope
 * resolves it to that schema, which is then also the static target. A {@code $dynamicRef} that the dynamic scope
 * decides (several schemas declare its anchor) is left as it is: an unsupported keyword when it is compiled.
 */
final class DynamicRefs {
    private DynamicRefs() {}

    /** The document with every scope-independent {@code $dynamicRef} rewritten (a copy; the same node if none is). */
    static JsonNode rewrite(JsonNode root, String draft, Map<String, String> remotes) {
        if (Dialects.of(draft) != JsonSchemaOptions.Dialect.DRAFT_2020_12 || !mentions(root, 0)) return root;
        JsonNode copy = root.deepCopy();
        RefResolver refs = new RefResolver(copy, draft, remotes);
        walk(copy, "", refs, 0);
        return copy;
    }

    private static boolean mentions(JsonNode n, int depth) {
        if (depth > 200) return false;
        if (n.isObject() && n.has("$dynamicRef")) return true;
        for (JsonNode c : n) if (mentions(c, depth + 1)) return true;
        return false;
    }

    private static void walk(JsonNode node, String pointer, RefResolver refs, int depth) {
        if (!node.isObject() || depth > 200) return;
        ObjectNode o = (ObjectNode) node;
        if (o.path("$dynamicRef").isTextual()) {
            String ref = o.get("$dynamicRef").asText();
            String target = refs.staticPointer(ref, pointer);
            if (target != null && !dependsOnScope(ref, target, refs)) {
                o.remove("$dynamicRef");
                String asRef = refs.absolute(target);
                if (!o.has("$ref")) o.put("$ref", asRef);
                else {
                    ArrayNode all = o.has("allOf") && o.get("allOf").isArray() ? (ArrayNode) o.get("allOf") : o.putArray("allOf");
                    all.addObject().put("$ref", asRef);
                }
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String child = SchemaCompiler.child(pointer, f.getKey());
            JsonNode v = f.getValue();
            if (RefResolver.SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = m.next();
                    walk(e.getValue(), SchemaCompiler.child(child, e.getKey()), refs, depth + 1);
                }
            } else if (RefResolver.SCHEMA_VALUES.contains(f.getKey())) {
                if (v.isArray()) for (int i = 0; i < v.size(); i++) walk(v.get(i), SchemaCompiler.child(child, String.valueOf(i)), refs, depth + 1);
                else walk(v, child, refs, depth + 1);
            }
        }
    }

    /** Whether the dynamic scope may change what {@code ref} (statically {@code target}) resolves to. */
    private static boolean dependsOnScope(String ref, String target, RefResolver refs) {
        int hash = ref.indexOf('#');
        String fragment = hash < 0 ? "" : ref.substring(hash + 1);
        if (fragment.isEmpty() || fragment.startsWith("/")) return false;
        JsonNode t = refs.staticNode(target);
        if (!t.isObject() || !t.path("$dynamicAnchor").asText("").equals(fragment)) return false; // no bookend: a $ref
        List<String> declaring = refs.dynamicAnchors().getOrDefault(fragment, List.of());
        return declaring.size() != 1;
    }
}
