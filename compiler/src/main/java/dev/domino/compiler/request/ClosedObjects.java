package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * vLLM's {@code disable_additional_properties}: every object schema that declares {@code properties}
 * and says nothing about other keys ({@code additionalProperties}, {@code patternProperties},
 * {@code unevaluatedProperties}) gets {@code "additionalProperties": false}, as XGrammar's strict mode
 * reads such schemas. Where closing one object would change the meaning of a combination (an object
 * combined with {@code allOf}, {@code anyOf}, {@code oneOf}, {@code if}, {@code not} or a {@code $ref}
 * with siblings, or an object that is itself one part of an {@code allOf} or a conditional), the
 * request is refused with the schema's pointer instead.
 */
final class ClosedObjects {
    private ClosedObjects() {}

    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions", "dependentSchemas");
    private static final Set<String> SCHEMA_VALUES = Set.of("items", "prefixItems", "anyOf", "oneOf", "additionalItems",
            "additionalProperties", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties");
    /** Parts whose object, closed alone, would reject keys the combination allows. */
    private static final Set<String> COMBINED = Set.of("allOf", "if", "then", "else", "not");
    private static final Set<String> COMBINING = Set.of("allOf", "anyOf", "oneOf", "if", "not", "$ref", "dependentSchemas", "dependencies");
    private static final Set<String> OPEN_KEYS = Set.of("additionalProperties", "patternProperties", "unevaluatedProperties");

    /** A copy of the schema with its objects closed; {@code at} is the schema's pointer in the request. */
    static JsonNode apply(JsonNode schema, String at) {
        if (!schema.isObject()) return schema;
        JsonNode copy = schema.deepCopy();
        ArrayDeque<Object[]> todo = new ArrayDeque<>();
        todo.push(new Object[] {copy, "", false});
        while (!todo.isEmpty()) {
            Object[] t = todo.pop();
            if (!(t[0] instanceof ObjectNode n)) continue;
            String ptr = (String) t[1];
            boolean combinedPart = (Boolean) t[2];
            if (n.path("properties").isObject() && OPEN_KEYS.stream().noneMatch(n::has)) {
                String with = COMBINING.stream().filter(n::has).findFirst().orElse(null);
                if (with != null || combinedPart) {
                    throw new RequestSpecException("/disable_additional_properties", "cannot close the object at " + at + (ptr.isEmpty() ? "" : ptr)
                            + " combined with " + (with != null ? "'" + with + "'" : "a sibling schema")
                            + " without changing the combination's meaning; set additionalProperties in the schema instead");
                }
                n.put("additionalProperties", false);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String child = ptr + "/" + f.getKey().replace("~", "~0").replace("/", "~1");
                JsonNode v = f.getValue();
                boolean part = COMBINED.contains(f.getKey());
                if (SCHEMA_MAPS.contains(f.getKey()) && v.isObject()) {
                    for (Iterator<Map.Entry<String, JsonNode>> m = v.fields(); m.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = m.next();
                        todo.push(new Object[] {e.getValue(), child + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), f.getKey().equals("dependentSchemas")});
                    }
                } else if (SCHEMA_VALUES.contains(f.getKey()) || part) {
                    if (v.isArray()) for (int i = 0; i < v.size(); i++) todo.push(new Object[] {v.get(i), child + "/" + i, part});
                    else todo.push(new Object[] {v, child, part});
                }
            }
        }
        return copy;
    }

    /**
     * A copy of a structural tag with every schema in it closed as {@link #apply} does: the {@code json_schema}
     * of its formats ({@code json_schema}, {@code qwen_xml_parameter}, a tag's {@code json} or {@code qwen_xml}
     * style) and the {@code schema} of the older form's {@code structures}. Schemas are not searched inside.
     */
    static JsonNode inStructuralTag(JsonNode tag, String at) {
        JsonNode copy = tag.deepCopy();
        closeSchemasIn(copy, at, false);
        return copy;
    }

    private static void closeSchemasIn(JsonNode node, String ptr, boolean structure) {
        if (node instanceof ObjectNode n) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String child = ptr + "/" + f.getKey().replace("~", "~0").replace("/", "~1");
                if (f.getKey().equals("json_schema") || (structure && f.getKey().equals("schema"))) {
                    f.setValue(apply(f.getValue(), child));
                } else {
                    closeSchemasIn(f.getValue(), child, f.getKey().equals("structures"));
                }
            }
        } else if (node != null && node.isArray()) {
            for (int i = 0; i < node.size(); i++) closeSchemasIn(node.get(i), ptr + "/" + i, structure);
        }
    }
}
