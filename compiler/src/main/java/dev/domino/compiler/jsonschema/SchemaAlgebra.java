package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The conjunction of schemas ({@code allOf}, {@code $ref} with siblings): the parts are flattened
 * (nested {@code allOf} and {@code $ref} inlined), then merged keyword by keyword into one schema object:
 * types intersect, {@code required} unions, bounds take the tighter value, enums intersect, per-property
 * schemas and {@code items} become an {@code allOf} of both, {@code not}s become one {@code not anyOf},
 * and two {@code anyOf}s distribute into their product (up to 64 branches). A keyword whose two values
 * cannot be merged exactly is an unsupported {@code allOf}.
 */
final class SchemaAlgebra {
    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private final SchemaCompiler sc;

    SchemaAlgebra(SchemaCompiler sc) { this.sc = sc; }

    static ArrayNode intersectEnums(ArrayNode a, ArrayNode b) {
        ArrayNode out = NF.arrayNode();
        for (JsonNode x : a) for (JsonNode y : b) if (jsonEquals(x, y)) { out.add(x); break; }
        return out;
    }

    static boolean jsonEquals(JsonNode x, JsonNode y) {
        if (x.isNumber() && y.isNumber()) return x.decimalValue().compareTo(y.decimalValue()) == 0;
        if (x.isArray() && y.isArray()) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!jsonEquals(x.get(i), y.get(i))) return false;
            return true;
        }
        if (x.isObject() && y.isObject()) {
            if (x.size() != y.size()) return false;
            for (Iterator<String> it = x.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!y.has(k) || !jsonEquals(x.get(k), y.get(k))) return false;
            }
            return true;
        }
        return x.equals(y);
    }

    /** Merges schemas (conjunction) into one schema object; refs at the top level are inlined. */
    JsonNode merge(List<JsonNode> parts, String ptr) {
        List<ObjectNode> flat = new ArrayList<>();
        if (!flatten(parts, ptr, flat, 0)) return BooleanNode.FALSE;
        ObjectNode out = NF.objectNode();
        for (ObjectNode p : flat) {
            for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String k = f.getKey();
                JsonNode v = f.getValue();
                JsonNode e = out.get(k);
                if (e == null) { out.set(k, v.deepCopy()); continue; }
                if (e.equals(v)) continue;
                switch (k) {
                    case "type" -> {
                        EnumSet<JsonType> a = SchemaNormalizer.parseTypes(e, ptr), b = SchemaNormalizer.parseTypes(v, ptr);
                        a.retainAll(b);
                        ArrayNode t = NF.arrayNode();
                        if (a.contains(JsonType.NUMBER)) t.add("number"); else if (a.contains(JsonType.INTEGER)) t.add("integer");
                        for (JsonType x : a) if (x != JsonType.NUMBER && x != JsonType.INTEGER) t.add(x.name().toLowerCase());
                        out.set(k, t);
                    }
                    case "properties", "patternProperties" -> {
                        ObjectNode m = ((ObjectNode) e);
                        v.fields().forEachRemaining(pf -> {
                            JsonNode old = m.get(pf.getKey());
                            m.set(pf.getKey(), old == null ? pf.getValue() : NF.objectNode().set("allOf", NF.arrayNode().add(old).add(pf.getValue())));
                        });
                    }
                    case "required" -> {
                        Set<String> all = new LinkedHashSet<>();
                        e.forEach(x -> all.add(x.asText()));
                        v.forEach(x -> all.add(x.asText()));
                        ArrayNode r = NF.arrayNode();
                        all.forEach(r::add);
                        out.set(k, r);
                    }
                    case "enum" -> out.set(k, intersectEnums((ArrayNode) e, (ArrayNode) v));
                    case "minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum" ->
                        out.set(k, e.decimalValue().compareTo(v.decimalValue()) >= 0 ? e : v);
                    case "maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum" ->
                        out.set(k, e.decimalValue().compareTo(v.decimalValue()) <= 0 ? e : v);
                    case "items", "additionalItems", "propertyNames" -> out.set(k, NF.objectNode().set("allOf", NF.arrayNode().add(e).add(v)));
                    case "nullable" -> out.set(k, BooleanNode.valueOf(e.asBoolean() && v.asBoolean()));
                    case "not" -> out.set(k, NF.objectNode().set("anyOf", NF.arrayNode().add(e).add(v)));
                    case "anyOf" -> {
                        if ((long) e.size() * v.size() > 64) sc.unsupported(ptr, "allOf", "too many anyOf combinations");
                        ArrayNode prod = NF.arrayNode();
                        for (JsonNode x : e) for (JsonNode y : v) prod.add(NF.objectNode().set("allOf", NF.arrayNode().add(x).add(y)));
                        out.set(k, prod);
                    }
                    default -> sc.unsupported(ptr, "allOf", "cannot merge differing '" + k + "'");
                }
            }
        }
        // additionalProperties only sees the properties of its own schema object
        for (ObjectNode p : flat) {
            if (!p.has("additionalProperties") || SchemaNormalizer.isTrivial(p.get("additionalProperties"))) continue;
            for (ObjectNode q : flat) {
                if (q == p) continue;
                if (q.has("patternProperties") && !q.get("patternProperties").equals(p.get("patternProperties")))
                    sc.unsupported(ptr, "allOf", "cannot merge additionalProperties with other patternProperties");
                if (q.has("properties")) {
                    for (Iterator<String> it = q.get("properties").fieldNames(); it.hasNext(); ) {
                        String name = it.next();
                        if (!p.path("properties").has(name))
                            sc.unsupported(ptr, "allOf", "property '" + name + "' is not allowed by additionalProperties of another allOf branch");
                    }
                }
            }
        }
        if (out.has("enum") && out.get("enum").isEmpty()) return BooleanNode.FALSE;
        return out;
    }

    boolean flatten(List<JsonNode> parts, String ptr, List<ObjectNode> out, int level) {
        if (level > 32) throw new GrammarException("allOf/$ref nesting too deep at " + SchemaCompiler.showPointer(ptr));
        for (JsonNode raw : parts) {
            JsonNode c = sc.norm.clean(raw, ptr);
            if (c.isBoolean()) { if (!c.asBoolean()) return false; continue; }
            ObjectNode n = ((ObjectNode) c).deepCopy();
            List<JsonNode> more = new ArrayList<>();
            if (n.has("$ref")) {
                JsonNode target = sc.refs.resolve(n.remove("$ref").asText(), ptr);
                if (sc.refSiblingsIgnored) n.removeAll();
                if (target != null) more.add(target);
            }
            if (n.has("allOf")) n.remove("allOf").forEach(more::add);
            out.add(n);
            if (!more.isEmpty() && !flatten(more, ptr, out, level + 1)) return false;
        }
        return true;
    }
}
