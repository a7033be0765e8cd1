package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.ConstValidator;
import dev.domino.compiler.jsonschema.ConstantSchemas;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.SchemaCompiler;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * {@code oneOf}: exact rewrites of two common shapes (all branches enums/consts: keep the values valid
 * under exactly one branch; all branches bare {@code required} lists: each branch becomes "these keys
 * present and, for every other branch, one of its keys absent"), otherwise an {@code anyOf} of the
 * branches, each minus the branches it is not provably disjoint from (different types, disjoint enums,
 * or an object property that one requires and the other forbids or pins to a disjoint constant):
 * {@code allOf [b_i, not b_j, ...]}, exact through {@link SchemaComplement} or an unsupported oneOf.
 */
public final class OneOfRewrites {
    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private final SchemaCompiler sc;

    public OneOfRewrites(SchemaCompiler sc) { this.sc = sc; }

    /**
     * Exact rewrites of two common oneOf shapes: all branches are enums/consts (keep the values
     * valid under exactly one branch), or all branches are bare {@code required} lists (each
     * branch becomes "object with these keys and, for every other branch, one of its keys absent").
     */
    public Expr oneOfSpecial(ObjectNode n, ObjectNode rest, JsonNode branches, String ptr) {
        List<JsonNode> resolved = new ArrayList<>();
        for (JsonNode b : branches) resolved.add(resolveTop(b, ptr));
        if (!resolved.isEmpty() && resolved.stream().allMatch(r -> r.isObject() && r.has("enum"))) {
            ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), sc::unsupported).formats(sc.formatsAsserted()).languages(sc.languages);
            List<JsonNode> values = new ArrayList<>();
            for (JsonNode r : resolved) for (JsonNode v : r.get("enum")) if (values.stream().noneMatch(x -> SchemaAlgebra.jsonEquals(x, v))) values.add(v);
            List<Expr> alts = new ArrayList<>();
            for (JsonNode v : values) {
                if (!validator.valid(n, v, ptr)) continue;
                // spelled as the branch that admits it spells it (an integer under type integer:
                // {"oneOf":[{"type":"integer","enum":[1]},...]} admitted 1.000 in draft 4; Github_medium---o39484)
                boolean integerSpelling = ConstantSchemas.integerOnly(n)
                    || resolved.stream().anyMatch(r -> ConstantSchemas.integerOnly(r) && validator.valid(r, v, ptr));
                Expr spelled = sc.constants.spell(v, integerSpelling, ptr);
                if (spelled != null) alts.add(spelled);
            }
            return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
        }
        if (resolved.size() >= 2 && resolved.stream().allMatch(r -> r.isObject() && r.has("required")
            && (r.size() == 1 || (r.size() == 2 && r.path("type").asText("").equals("object"))))) {
            long combos = 1;
            for (JsonNode r : resolved) combos *= Math.max(1, r.get("required").size());
            if (combos > 64) return null;
            ArrayNode anyOf = NF.arrayNode();
            for (int i = 0; i < resolved.size(); i++) {
                List<ArrayNode> partial = new ArrayList<>();
                ArrayNode start = NF.arrayNode();
                if (!rest.isEmpty()) start.add(rest); // first, so that its property order wins
                partial.add(start.add(NF.objectNode().put("type", "object").set("required", resolved.get(i).get("required"))));
                for (int j = 0; j < resolved.size(); j++) {
                    if (j == i) continue;
                    List<ArrayNode> next = new ArrayList<>();
                    for (ArrayNode p : partial) {
                        for (JsonNode key : resolved.get(j).get("required")) {
                            ArrayNode q = p.deepCopy();
                            q.add(NF.objectNode().set("properties", NF.objectNode().set(key.asText(), BooleanNode.FALSE)));
                            next.add(q);
                        }
                    }
                    partial = next;
                }
                for (ArrayNode p : partial) anyOf.add(NF.objectNode().set("allOf", p));
            }
            return sc.compile(NF.objectNode().set("anyOf", anyOf), ptr);
        }
        return null;
    }

    /**
     * The branches of a oneOf (siblings already merged in), each minus the branches it may overlap:
     * branch i becomes {@code allOf [b_i, not b_j, ...]} for every j not provably disjoint from i, which
     * {@link SchemaComplement} makes exact or refuses (then the error names the oneOf).
     */
    public List<Expr> exclusiveBranches(List<JsonNode> branches, String ptr) {
        List<JsonNode> resolved = new ArrayList<>();
        for (JsonNode b : branches) resolved.add(resolveTop(b, ptr));
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            String bptr = SchemaCompiler.child(SchemaCompiler.child(ptr, "oneOf"), String.valueOf(i));
            ArrayNode parts = NF.arrayNode().add(branches.get(i));
            List<Integer> overlapping = new ArrayList<>();
            for (int j = 0; j < branches.size(); j++) {
                if (j == i || disjoint(resolved.get(i), resolved.get(j), ptr)) continue;
                overlapping.add(j);
                parts.add(NF.objectNode().set("not", branches.get(j)));
            }
            if (overlapping.isEmpty()) { out.add(sc.compile(branches.get(i), bptr)); continue; }
            try {
                out.add(sc.compile(NF.objectNode().set("allOf", parts), bptr));
            } catch (GrammarException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("unsupported keyword 'not'")) throw e;
                throw new GrammarException("unsupported keyword 'oneOf' at " + SchemaCompiler.showPointer(ptr) + " (branch " + i
                    + " overlaps branches " + overlapping + " and their difference is not exact: " + e.getMessage() + ")");
            }
        }
        return out;
    }

    /** oneOf branches as equivalent anyOf branches: each one minus the branches it may overlap. */
    ArrayNode asAnyOf(JsonNode branches, String ptr) {
        List<JsonNode> resolved = new ArrayList<>();
        for (JsonNode b : branches) resolved.add(resolveTop(b, ptr));
        ArrayNode out = NF.arrayNode();
        for (int i = 0; i < branches.size(); i++) {
            ArrayNode parts = NF.arrayNode().add(branches.get(i));
            for (int j = 0; j < branches.size(); j++)
                if (j != i && !disjoint(resolved.get(i), resolved.get(j), ptr)) parts.add(NF.objectNode().set("not", branches.get(j)));
            out.add(parts.size() == 1 ? branches.get(i) : NF.objectNode().set("allOf", parts));
        }
        return out;
    }

    public JsonNode resolveTop(JsonNode b, String ptr) {
        JsonNode c = sc.norm.clean(b, ptr);
        for (int k = 0; k < 32 && c.isObject() && c.has("$ref") && c.size() == 1; k++) {
            JsonNode t = sc.refs.resolve(c.get("$ref").asText(), ptr);
            if (t == null) return BooleanNode.TRUE;
            c = sc.norm.clean(t, ptr);
        }
        if (c.isObject() && (c.has("$ref") || c.has("allOf"))) c = sc.algebra.merge(List.of(c), ptr);
        return c;
    }

    /** Schema objects {@link #possibleTypes} may look into for one question ($ref chains, nested anyOf/oneOf). */
    static final int TYPE_BUDGET = 400;

    /**
     * A superset of the JSON types a schema admits: its own {@code type}, an enum's values' types, narrowed by
     * {@code $ref} targets and {@code allOf} parts (intersection) and by {@code anyOf}/{@code oneOf} (the union
     * of the branches). Looks at most {@link #TYPE_BUDGET} schema objects (beyond: every type).
     */
    EnumSet<JsonType> possibleTypes(JsonNode s, String ptr) {
        return possibleTypes(s, ptr, new int[] {TYPE_BUDGET});
    }

    private EnumSet<JsonType> possibleTypes(JsonNode s, String ptr, int[] budget) {
        if (s.isBoolean()) return s.asBoolean() ? EnumSet.allOf(JsonType.class) : EnumSet.noneOf(JsonType.class);
        if (--budget[0] < 0) return EnumSet.allOf(JsonType.class);
        if (s.has("enum")) {
            EnumSet<JsonType> t = EnumSet.noneOf(JsonType.class);
            for (JsonNode v : s.get("enum")) { JsonType x = ConstantSchemas.typeOf(v); t.add(x); if (x == JsonType.INTEGER) t.add(JsonType.NUMBER); }
            return t;
        }
        ObjectNode o = ((ObjectNode) s).deepCopy();
        List<JsonNode> narrowing = new ArrayList<>(); // each a superset of the values: intersect
        List<JsonNode> unions = new ArrayList<>();     // anyOf/oneOf branch lists
        if (o.has("$ref")) narrowing.add(o.remove("$ref"));
        if (o.has("allOf")) o.remove("allOf").forEach(narrowing::add);
        for (String kw : new String[] {"anyOf", "oneOf"}) if (o.has(kw)) unions.add(o.remove(kw));
        if (sc.complementedNot(o, ptr)) o.remove("not"); // a superset is enough here
        EnumSet<JsonType> t = sc.norm.types(o, ptr);
        try {
            for (JsonNode part : narrowing) {
                if (t.isEmpty()) return t;
                JsonNode target = part.isTextual() ? sc.refs.resolve(part.asText(), ptr) : part;
                if (target == null) continue;
                t.retainAll(possibleTypes(sc.norm.clean(target, ptr), ptr, budget));
            }
            for (JsonNode branches : unions) {
                if (t.isEmpty()) return t;
                EnumSet<JsonType> any = EnumSet.noneOf(JsonType.class);
                for (JsonNode b : branches) any.addAll(possibleTypes(sc.norm.clean(b, ptr), ptr, budget));
                t.retainAll(any);
            }
        } catch (GrammarException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("unsupported keyword")) throw e;
            // a part this superset cannot look into: its own type stays the bound (the error surfaces when compiled)
        }
        return t;
    }

    /** Branch pairs {@link #disjoint} may look into through anyOf/oneOf for one question. */
    static final int DISJOINT_BUDGET = 400;

    boolean disjoint(JsonNode a, JsonNode b, String ptr) {
        return disjoint(a, b, ptr, new int[] {DISJOINT_BUDGET});
    }

    /**
     * A schema with anyOf/oneOf admits only what one of its branches admits: it is disjoint from b when every
     * branch is (fontResource = oneOf [definition, selector], each selector a oneOf of objects whose keys the
     * definition's required key never matches: Github_easy o37787).
     */
    private boolean disjoint(JsonNode a, JsonNode b, String ptr, int[] budget) {
        if (--budget[0] < 0) return false;
        if (disjointHere(a, b, ptr)) return true;
        for (JsonNode[] pair : new JsonNode[][] {{a, b}, {b, a}}) {
            for (String kw : new String[] {"anyOf", "oneOf"}) {
                if (!pair[0].isObject() || !pair[0].path(kw).isArray()) continue;
                boolean all = true;
                for (JsonNode branch : pair[0].get(kw)) {
                    if (!disjoint(resolveTop(branch, ptr), pair[1], ptr, budget)) { all = false; break; }
                }
                if (all) return true;
            }
        }
        return false;
    }

    private boolean disjointHere(JsonNode a, JsonNode b, String ptr) {
        EnumSet<JsonType> ta = possibleTypes(a, ptr), tb = possibleTypes(b, ptr);
        EnumSet<JsonType> both = EnumSet.copyOf(ta);
        both.retainAll(tb);
        if (both.isEmpty()) return true;
        if (a.has("enum") && b.has("enum") && SchemaAlgebra.intersectEnums((ArrayNode) a.get("enum"), (ArrayNode) b.get("enum")).isEmpty()) return true;
        if (both.equals(EnumSet.of(JsonType.OBJECT))) return objectsDisjoint(a, b, ptr) || objectsDisjoint(b, a, ptr);
        return false;
    }

    /** Whether a key may match one of the schema's patternProperties (true when a pattern cannot be read). */
    private static boolean matchesAPatternProperty(JsonNode schema, String key) {
        if (!schema.has("patternProperties")) return false;
        for (java.util.Iterator<String> it = schema.get("patternProperties").fieldNames(); it.hasNext(); ) {
            String pattern = it.next();
            try {
                Expr e = dev.domino.compiler.frontend.RegexParser.parseSearch(pattern, dev.domino.compiler.frontend.RegexParser.Flavor.ECMA).expr();
                if (CodePointDfa.of(e).accepts(key)) return true;
            } catch (RuntimeException unreadable) {
                return true;
            }
        }
        return false;
    }

    /** a requires a property that b forbids, or both require p with disjoint constant values. */
    boolean objectsDisjoint(JsonNode a, JsonNode b, String ptr) {
        if (a.has("anyOf") || a.has("oneOf") || b.has("anyOf") || b.has("oneOf")) return false;
        for (JsonNode r : a.path("required")) {
            String p = r.asText();
            boolean bForbids = !b.path("properties").has(p) && !matchesAPatternProperty(b, p)
                && b.path("additionalProperties").isBoolean() && !b.get("additionalProperties").asBoolean();
            if (bForbids) return true;
            boolean bRequires = false;
            for (JsonNode x : b.path("required")) bRequires |= x.asText().equals(p);
            if (!bRequires) continue;
            JsonNode pa = a.path("properties").get(p), pb = b.path("properties").get(p);
            if (pa == null || pb == null) continue;
            JsonNode ca = resolveTop(pa, ptr), cb = resolveTop(pb, ptr);
            if (ca.isObject() && cb.isObject() && ca.has("enum") && cb.has("enum")
                && SchemaAlgebra.intersectEnums((ArrayNode) ca.get("enum"), (ArrayNode) cb.get("enum")).isEmpty()) return true;
        }
        return false;
    }
}
