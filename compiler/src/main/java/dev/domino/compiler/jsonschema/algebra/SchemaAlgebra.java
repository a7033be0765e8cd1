package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.refs.Dialects;

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
 * {@code multipleOf}s become their least common multiple,
 * and two {@code anyOf}s distribute into their product ({@link #distributeAnyOfs}: pruned, up to 64 branches). A part's
 * {@code additionalProperties} next to another part's different {@code patternProperties} becomes a
 * quantifier over its own additional keys ({@link KeyQuantifiers#FORALL}). A keyword whose two values
 * cannot be merged exactly is an unsupported {@code allOf}.
 */
public final class SchemaAlgebra {
    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private final SchemaCompiler sc;

    public SchemaAlgebra(SchemaCompiler sc) { this.sc = sc; }

    public static ArrayNode intersectEnums(ArrayNode a, ArrayNode b) {
        ArrayNode out = NF.arrayNode();
        for (JsonNode x : a) for (JsonNode y : b) if (jsonEquals(x, y)) { out.add(x); break; }
        return out;
    }

    public static boolean jsonEquals(JsonNode x, JsonNode y) {
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

    private static final Set<String> ARRAY_ITEMS = Set.of("items", "prefixItems", "additionalItems");

    /**
     * Items of several parts: each part is read as positional schemas and a rest schema (2020-12
     * {@code prefixItems}/{@code items}, draft-04 array-form {@code items}/{@code additionalItems}, or one
     * {@code items} schema for every element); element i of the conjunction gets the allOf of every part's
     * schema for position i, the rest the allOf of the rest schemas. Written as prefixItems/items, or up to
     * 2019-09 ({@code arrayForm}, where prefixItems is no keyword) as array-form items/additionalItems.
     */
    private static void mergeItems(List<ObjectNode> flat, ObjectNode out, boolean arrayForm) {
        List<JsonNode[]> positional = new ArrayList<>();
        List<JsonNode> rests = new ArrayList<>();
        int length = 0;
        for (ObjectNode p : flat) {
            JsonNode[] pos;
            JsonNode rest;
            if (p.has("prefixItems") && !arrayForm) {
                pos = toArray(p.get("prefixItems"));
                rest = p.get("items");
            } else if (p.path("items").isArray()) {
                pos = toArray(p.get("items"));
                rest = p.get("additionalItems");
            } else {
                pos = new JsonNode[0];
                rest = p.get("items");
            }
            positional.add(pos);
            rests.add(rest == null ? BooleanNode.TRUE : rest);
            length = Math.max(length, pos.length);
        }
        ArrayNode prefix = NF.arrayNode();
        for (int i = 0; i < length; i++) {
            ArrayNode all = NF.arrayNode();
            for (int p = 0; p < flat.size(); p++) {
                JsonNode[] pos = positional.get(p);
                JsonNode s = i < pos.length ? pos[i] : rests.get(p);
                if (!SchemaNormalizer.isTrivial(s)) all.add(s);
            }
            prefix.add(all.isEmpty() ? BooleanNode.TRUE : all.size() == 1 ? all.get(0) : NF.objectNode().set("allOf", all));
        }
        ArrayNode restAll = NF.arrayNode();
        for (JsonNode r : rests) if (!SchemaNormalizer.isTrivial(r)) restAll.add(r);
        String restKey = arrayForm && length > 0 ? "additionalItems" : "items";
        if (length > 0) out.set(arrayForm ? "items" : "prefixItems", prefix);
        if (!restAll.isEmpty()) out.set(restKey, restAll.size() == 1 ? restAll.get(0) : NF.objectNode().set("allOf", restAll));
    }

    /**
     * The least common multiple of two positive decimals: the multiples of both are the multiples of it
     * (over the common scale 10^s, a = A/10^s and b = B/10^s with A, B integers: lcm(A, B)/10^s).
     */
    public static java.math.BigDecimal lcm(java.math.BigDecimal a, java.math.BigDecimal b) {
        int s = Math.max(Math.max(a.stripTrailingZeros().scale(), b.stripTrailingZeros().scale()), 0);
        java.math.BigInteger x = a.movePointRight(s).toBigIntegerExact(), y = b.movePointRight(s).toBigIntegerExact();
        java.math.BigInteger l = x.divide(x.gcd(y)).multiply(y);
        return new java.math.BigDecimal(l, s).stripTrailingZeros();
    }

    private static JsonNode[] toArray(JsonNode a) {
        JsonNode[] out = new JsonNode[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = a.get(i);
        return out;
    }

    private static boolean containsValue(ArrayNode a, JsonNode x) {
        for (JsonNode y : a) if (jsonEquals(x, y)) return true;
        return false;
    }

    /** Whether a merged schema obviously admits nothing (false, an empty enum or an empty type list). */
    public boolean isEmpty(JsonNode m, String ptr) {
        if (m.isBoolean()) return !m.asBoolean();
        if (m.has("enum") && m.get("enum").isEmpty()) return true;
        return m.has("type") && SchemaNormalizer.parseTypes(m.get("type"), ptr).isEmpty();
    }

    /** Merges schemas (conjunction) into one schema object; refs at the top level are inlined. */
    public JsonNode merge(List<JsonNode> parts, String ptr) {
        List<ObjectNode> flat = new ArrayList<>();
        if (!flatten(parts, ptr, flat, 0)) return BooleanNode.FALSE;
        additionalAsForall(flat);
        ObjectNode out = NF.objectNode();
        List<JsonNode> moreAnyOfs = new ArrayList<>(); // anyOf branch lists beyond out's first
        int arrayParts = 0;
        for (ObjectNode p : flat) if (p.has("items") || p.has("prefixItems") || p.has("additionalItems")) arrayParts++;
        if (arrayParts > 1) mergeItems(flat, out, Dialects.draft2019OrEarlier(sc.draft));
        for (ObjectNode p : flat) {
            for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String k = f.getKey();
                JsonNode v = f.getValue();
                if (ARRAY_ITEMS.contains(k) && arrayParts > 1) continue; // mergeItems below
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
                    case "pattern" -> {
                        ArrayNode all = out.has(SchemaComplement.ALL_PATTERNS) ? (ArrayNode) out.get(SchemaComplement.ALL_PATTERNS) : NF.arrayNode();
                        if (!containsValue(all, v)) all.add(v);
                        out.set(SchemaComplement.ALL_PATTERNS, all);
                    }
                    case "multipleOf" -> out.set(k, NF.numberNode(lcm(e.decimalValue(), v.decimalValue())));
                    case SchemaComplement.NOT_STRINGS, SchemaComplement.NOT_PATTERNS, SchemaComplement.NOT_FORMATS, SchemaComplement.ALL_PATTERNS, StringLanguages.KEYWORD,
                         NumberMultiples.NOT_MULTIPLES, KeyQuantifiers.EXISTS, KeyQuantifiers.FORALL -> {
                        ArrayNode u = ((ArrayNode) e).deepCopy();
                        for (JsonNode x : v) if (!containsValue(u, x)) u.add(x);
                        out.set(k, u);
                    }
                    case "minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum" ->
                        out.set(k, e.decimalValue().compareTo(v.decimalValue()) >= 0 ? e : v);
                    case "maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum" ->
                        out.set(k, e.decimalValue().compareTo(v.decimalValue()) <= 0 ? e : v);
                    case "items", "additionalItems", "propertyNames" -> out.set(k, NF.objectNode().set("allOf", NF.arrayNode().add(e).add(v)));
                    case "additionalProperties" -> out.set(k, SchemaNormalizer.isTrivial(e) ? v : SchemaNormalizer.isTrivial(v) ? e
                        : e.isBoolean() ? e : v.isBoolean() ? v // false: nothing more to intersect
                        : NF.objectNode().set("allOf", NF.arrayNode().add(e).add(v)));
                    case "nullable" -> out.set(k, BooleanNode.valueOf(e.asBoolean() && v.asBoolean()));
                    case "not" -> out.set(k, NF.objectNode().set("anyOf", NF.arrayNode().add(e).add(v)));
                    case "contains" -> {
                        // every part's contains must match some element (maybe the same one)
                        if (out.has("minContains") || out.has("maxContains") || p.has("minContains") || p.has("maxContains"))
                            sc.unsupported(ptr, "allOf", "cannot merge differing 'contains' with minContains/maxContains");
                        ArrayNode all = out.has(ArraySchemas.CONTAINS_ALL) ? (ArrayNode) out.get(ArraySchemas.CONTAINS_ALL) : NF.arrayNode();
                        all.add(v);
                        out.set(ArraySchemas.CONTAINS_ALL, all);
                    }
                    case ArraySchemas.CONTAINS_ALL -> ((ArrayNode) e).addAll((ArrayNode) v.deepCopy());
                    case "oneOf" -> {
                        // a second oneOf joins as the anyOf of its branches, each minus the branches it may overlap
                        JsonNode any = sc.oneOf.asAnyOf(v, ptr);
                        if (!out.has("anyOf")) { out.set("anyOf", any); continue; }
                        moreAnyOfs.add(any);
                    }
                    case "anyOf" -> moreAnyOfs.add(v); // multiplied below, once the rest is known
                    default -> sc.unsupported(ptr, "allOf", "cannot merge differing '" + k + "'");
                }
            }
        }
        // additionalProperties only sees the properties of its own schema object: a property another part
        // declares is, for this part, an additional one, so its merged schema also gets this part's
        // additionalProperties (unless one of this part's patterns matches it: then the merged
        // patternProperties apply to it as they did)
        for (ObjectNode p : flat) {
            if (!p.has("additionalProperties") || SchemaNormalizer.isTrivial(p.get("additionalProperties"))) continue;
            if (!out.has("properties")) continue;
            ObjectNode props = (ObjectNode) out.get("properties");
            List<String> names = new ArrayList<>();
            props.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (p.path("properties").has(name) || matchesPattern(p, name, ptr)) continue;
                props.set(name, NF.objectNode().set("allOf", NF.arrayNode().add(props.get(name)).add(p.get("additionalProperties"))));
            }
        }
        if (out.has("enum") && out.get("enum").isEmpty()) return BooleanNode.FALSE;
        if (!moreAnyOfs.isEmpty() && !distributeAnyOfs(out, moreAnyOfs, ptr)) return BooleanNode.FALSE;
        return out;
    }

    /**
     * A part's additionalProperties means "the keys additional for this part", which another part's different
     * patternProperties would change once merged: such a part states it as a quantifier over its own key
     * language instead ({@link KeyQuantifiers#FORALL}: not its declared names, matching none of its patterns).
     */
    private static void additionalAsForall(List<ObjectNode> flat) {
        for (ObjectNode p : flat) {
            JsonNode additional = p.get("additionalProperties");
            if (additional == null || SchemaNormalizer.isTrivial(additional)) continue;
            boolean otherPatterns = false;
            for (ObjectNode q : flat)
                otherPatterns |= q != p && q.has("patternProperties") && !q.get("patternProperties").equals(p.get("patternProperties"));
            if (!otherPatterns) continue;
            ArrayNode all = p.has(KeyQuantifiers.FORALL) ? (ArrayNode) p.get(KeyQuantifiers.FORALL) : p.putArray(KeyQuantifiers.FORALL);
            all.add(KeyQuantifiers.entry(KeyQuantifiers.additionalKeys(p), additional, "allOf"));
            p.remove("additionalProperties");
        }
    }

    /** The most anyOf combinations one allOf may keep (after pruning). */
    static final int MAX_COMBINATIONS = 64;

    /**
     * Several anyOfs in one conjunction become one: the product of their branches ({@link UnionProduct},
     * pruned against the rest of the merged schema, so that combinations empty next to it, or empty by
     * themselves, never count). False when no combination is left (the conjunction is empty).
     */
    private boolean distributeAnyOfs(ObjectNode out, List<JsonNode> more, String ptr) {
        List<List<JsonNode>> unions = new ArrayList<>();
        List<JsonNode> first = new ArrayList<>();
        out.get("anyOf").forEach(first::add);
        unions.add(first);
        for (JsonNode a : more) {
            List<JsonNode> u = new ArrayList<>();
            a.forEach(u::add);
            unions.add(u);
        }
        ObjectNode context = out.deepCopy();
        context.remove("anyOf");
        List<JsonNode> prod = sc.products.product(unions, context, MAX_COMBINATIONS, ptr);
        ArrayNode branches = NF.arrayNode();
        if (prod == null) {
            sc.unsupported(ptr, "allOf", "too many anyOf combinations (more than " + MAX_COMBINATIONS + " after pruning empty ones)");
            // ignored by the options: the whole product, as written
            List<JsonNode> acc = List.of(NF.objectNode());
            for (List<JsonNode> u : unions) {
                List<JsonNode> next = new ArrayList<>();
                for (JsonNode x : acc) for (JsonNode y : u) next.add(NF.objectNode().set("allOf", NF.arrayNode().add(x).add(y)));
                acc = next;
            }
            acc.forEach(branches::add);
        } else {
            prod.forEach(branches::add);
        }
        if (branches.isEmpty()) return false;
        out.set("anyOf", branches);
        return true;
    }

    private boolean matchesPattern(ObjectNode p, String name, String ptr) {
        for (Iterator<String> it = p.path("patternProperties").fieldNames(); it.hasNext(); ) {
            String pattern = it.next();
            try {
                if (ExprLanguage.matches(RegexParser.parseSearch(pattern, RegexParser.Flavor.ECMA).expr(), name)) return true;
            } catch (GrammarException e) {
                sc.unsupported(ptr, "patternProperties", e.getMessage());
            }
        }
        return false;
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
