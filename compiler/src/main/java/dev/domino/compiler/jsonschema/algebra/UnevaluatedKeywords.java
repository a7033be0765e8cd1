package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.refs.Dialects;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code unevaluatedProperties} and {@code unevaluatedItems} (2019-09 and later) rewritten into
 * {@code additionalProperties} and {@code items}, where that is exact: when which keys (items) count as
 * evaluated does not depend on which branch of an {@code anyOf}/{@code oneOf}/{@code if} an instance takes.
 *
 * <p>A key is evaluated when {@code properties}, {@code patternProperties}, {@code additionalProperties} or
 * a nested {@code unevaluatedProperties} of the schema or of an in-place subschema that validates looks at
 * it. The subschemas that always validate with the schema are its {@code allOf} parts and {@code $ref}
 * targets (recursively); they give a fixed set of names E and patterns P, or "every key" when one of them
 * has {@code additionalProperties} or {@code unevaluatedProperties}. Then {@code unevaluatedProperties: U}
 * is exactly one more conjunct {@code {properties: {e: true, ...}, patternProperties: {p: true, ...},
 * additionalProperties: U}} (nothing when every key is evaluated). Branches of {@code anyOf}, {@code oneOf},
 * {@code if}/{@code then}/{@code else} and {@code dependentSchemas} evaluate keys only when they validate;
 * they are fine when they name no key beyond E and P (their names are in E, their patterns in P), else the
 * keyword is a compile error. {@code not} keeps no annotations. Items likewise: {@code prefixItems} (or
 * array-form {@code items}) evaluate the first n, {@code items}/{@code additionalItems}/a nested
 * {@code unevaluatedItems} all, and the conjunct is {@code {prefixItems: [true x n], items: U}} (2019-09:
 * {@code {items: [true x n], additionalItems: U}}); in 2020-12 a {@code contains C} evaluates exactly the items
 * it matches, so with it the items after the prefix are {@code anyOf [C, U]} (no complement needed). Where the evaluated set depends on the branch, {@link #expand}.
 */
public final class UnevaluatedKeywords {
    public static final Set<String> KEYWORDS = Set.of("unevaluatedProperties", "unevaluatedItems");

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    /** In-place applicators whose subschemas validate only sometimes. */
    private static final List<String> CONDITIONAL = List.of("anyOf", "oneOf", "if", "then", "else", "dependentSchemas", "dependencies");
    private static final int MAX_DEPTH = 64;

    private final SchemaCompiler sc;

    public UnevaluatedKeywords(SchemaCompiler sc) { this.sc = sc; }

    /** Whether the draft declared by {@code $schema} defines the keywords (2019-09 on; before, unknown keywords). */
    public static boolean defined(String draft) {
        return !Dialects.draft7OrEarlier(draft);
    }

    /** What the in-place subschemas of a schema evaluate: names, patterns, or everything; a prefix length for items. */
    private static final class Evaluated {
        final Set<String> names = new LinkedHashSet<>();
        final Set<String> patterns = new LinkedHashSet<>();
        boolean allKeys;
        int prefix;
        boolean allItems;
        /** The {@code contains} schemas: each evaluates the items it matches. */
        final List<JsonNode> contains = new java.util.ArrayList<>();
    }

    /** The most variants one schema's unevaluated keywords may be expanded into ({@link #expand}). */
    static final int MAX_UNEVALUATED_BRANCHES = 64;

    /**
     * Where the keys (items) the node's unevaluated keywords see depend on the branch an instance takes, and the
     * node itself (or an in-place allOf part of it) holds the branching applicator: the node as the union of one
     * variant per outcome, each with that outcome's subschemas as allOf parts, which always validate there, so
     * that every variant's evaluated set is fixed. Exact because what counts as evaluated only grows with the
     * subschemas that validate (an unevaluated keyword then constrains fewer keys):
     * <ul>
     *   <li>{@code anyOf [B...]}: a variant per non-empty subset T of the branches, all of T valid; the true
     *       evaluated set (every valid branch's) is the largest of them;</li>
     *   <li>{@code oneOf [B...]}: a variant per branch i, with {@code not B_j} for the others ({@code not}
     *       keeps no annotations);</li>
     *   <li>{@code if/then/else}: {@code [if, then]} or {@code [not if, else]};</li>
     *   <li>{@code dependentSchemas {a: S}}: {@code properties {a: false}} or {@code [required a, S]}.</li>
     * </ul>
     * Null when nothing is to expand (then {@link #conjuncts} decides). More than {@link #MAX_UNEVALUATED_BRANCHES}
     * variants: refused by name.
     */
    public JsonNode expand(JsonNode raw, String ptr) {
        if (!raw.isObject() || !defined(sc.draft)) return null;
        ObjectNode node = (ObjectNode) raw;
        JsonNode up = node.get("unevaluatedProperties"), ui = node.get("unevaluatedItems");
        boolean props = up != null && !SchemaNormalizer.isTrivial(up);
        boolean items = ui != null && !SchemaNormalizer.isTrivial(ui);
        if (!props && !items) return null;
        Evaluated always = new Evaluated();
        Evaluated sometimes = new Evaluated();
        collect(node, ptr, always, sometimes, false, true, 0, new java.util.IdentityHashMap<>());
        boolean dependsProps = props && !always.allKeys
            && (sometimes.allKeys || !always.names.containsAll(sometimes.names) || !always.patterns.containsAll(sometimes.patterns));
        boolean dependsItems = items && !always.allItems && itemsDependOnBranch(always, sometimes);
        if (!dependsProps && !dependsItems) return null;
        ObjectNode flat = hoisted(node, ptr);
        for (String kw : List.of("anyOf", "oneOf", "if", "dependentSchemas")) {
            if (!flat.has(kw) || (kw.equals("if") || kw.equals("dependentSchemas")) && !ConditionalSchemas.defined(kw, sc.draft)) continue;
            long count = kw.equals("anyOf") && flat.get(kw).isArray() ? (1L << Math.min(62, flat.get(kw).size())) - 1 : 0;
            if (count > MAX_UNEVALUATED_BRANCHES) {
                sc.unsupported(ptr, props ? "unevaluatedProperties" : "unevaluatedItems", "expanding '" + kw + "' over its branches needs "
                    + count + " variants, above the limit MAX_UNEVALUATED_BRANCHES " + MAX_UNEVALUATED_BRANCHES);
                return null;
            }
            List<List<JsonNode>> outcomes = outcomes(flat, kw);
            if (outcomes == null) continue;
            ArrayNode variants = NF.arrayNode();
            for (List<JsonNode> parts : outcomes) {
                ObjectNode v = flat.deepCopy();
                if (kw.equals("dependentSchemas")) {
                    // one dependency per expansion: the others stay for the next
                    ObjectNode deps = (ObjectNode) v.get(kw);
                    deps.remove(deps.fieldNames().next());
                    if (deps.isEmpty()) v.remove(kw);
                } else v.remove(kw);
                if (kw.equals("if")) { v.remove("then"); v.remove("else"); }
                ArrayNode all = v.has("allOf") && v.get("allOf").isArray() ? (ArrayNode) v.get("allOf") : v.putArray("allOf");
                parts.forEach(all::add);
                variants.add(v);
            }
            ObjectNode out = NF.objectNode();
            out.set("anyOf", variants);
            return out;
        }
        return null;
    }

    /**
     * The node with the branching applicator of one of its allOf parts moved up beside it (in place: the same
     * annotations); a part that is a {@code $ref} counts as its target (a reference is an in-place applicator).
     */
    private ObjectNode hoisted(ObjectNode node, String ptr) {
        if (!node.path("allOf").isArray() || node.has("anyOf") || node.has("oneOf") || node.has("if") || node.has("then")
                || node.has("else") || node.has("dependentSchemas")) return node;
        ObjectNode out = node.deepCopy();
        ArrayNode parts = (ArrayNode) out.get("allOf");
        for (int i = 0; i < parts.size() && i < 64; i++) {
            JsonNode p = parts.get(i);
            // a part with unevaluated keywords of its own sees its branches' annotations: they stay with it
            if (!p.isObject() || p.has("unevaluatedProperties") || p.has("unevaluatedItems")) continue;
            if (p.path("$ref").isTextual()) {
                JsonNode target = sc.refs.resolve(p.get("$ref").asText(), ptr);
                if (target != null && target.isObject() && (target.has("anyOf") || target.has("oneOf") || target.has("if"))
                        && !target.has("unevaluatedProperties") && !target.has("unevaluatedItems")) {
                    ObjectNode rest = (ObjectNode) p.deepCopy();
                    rest.remove("$ref");
                    parts.set(i, rest);
                    parts.add(target.deepCopy());
                }
                continue;
            }
            for (String kw : List.of("anyOf", "oneOf")) {
                if (p.has(kw)) {
                    ObjectNode rest = (ObjectNode) p.deepCopy();
                    out.set(kw, rest.remove(kw));
                    parts.set(i, rest);
                    return out;
                }
            }
            if (p.has("if") && ConditionalSchemas.defined("if", sc.draft) && !out.has("then") && !out.has("else")) {
                ObjectNode rest = (ObjectNode) p.deepCopy();
                for (String kw : List.of("if", "then", "else")) if (rest.has(kw)) out.set(kw, rest.remove(kw));
                parts.set(i, rest);
                return out;
            }
        }
        return node;
    }

    /** Each outcome of a branching applicator as the subschemas that then validate (null: not expandable). */
    private static List<List<JsonNode>> outcomes(ObjectNode n, String kw) {
        List<List<JsonNode>> out = new java.util.ArrayList<>();
        JsonNode v = n.get(kw);
        switch (kw) {
            case "anyOf" -> {
                if (!v.isArray() || v.isEmpty()) return null;
                for (int mask = 1; mask < 1 << v.size(); mask++) {
                    List<JsonNode> parts = new java.util.ArrayList<>();
                    for (int i = 0; i < v.size(); i++) if ((mask & 1 << i) != 0) parts.add(v.get(i));
                    out.add(parts);
                }
            }
            case "oneOf" -> {
                if (!v.isArray() || v.isEmpty()) return null;
                for (int i = 0; i < v.size(); i++) {
                    List<JsonNode> parts = new java.util.ArrayList<>();
                    parts.add(v.get(i));
                    for (int j = 0; j < v.size(); j++) if (j != i) parts.add(NF.objectNode().set("not", v.get(j)));
                    out.add(parts);
                }
            }
            case "if" -> {
                JsonNode then = n.has("then") ? n.get("then") : BooleanNode.TRUE, otherwise = n.has("else") ? n.get("else") : BooleanNode.TRUE;
                out.add(List.of(v, then));
                out.add(List.of(NF.objectNode().set("not", v), otherwise));
            }
            case "dependentSchemas" -> {
                if (!v.isObject() || v.isEmpty()) return null;
                Map.Entry<String, JsonNode> d = v.fields().next();
                out.add(List.of(NF.objectNode().set("properties", NF.objectNode().set(d.getKey(), BooleanNode.FALSE))));
                out.add(List.of(NF.objectNode().set("required", NF.arrayNode().add(d.getKey())), d.getValue()));
            }
            default -> { return null; }
        }
        return out;
    }

    /** Whether the items evaluated depend on the branch taken (a prefix, every item, or a contains only in a branch). */
    private static boolean itemsDependOnBranch(Evaluated always, Evaluated sometimes) {
        if (sometimes.allItems || sometimes.prefix > always.prefix) return true;
        for (JsonNode c : sometimes.contains) if (always.contains.stream().noneMatch(a -> a == c || a.equals(c))) return true;
        return false;
    }

    /** The conjuncts equivalent to the node's unevaluated keywords (empty when they are trivial). */
    public ArrayNode conjuncts(ObjectNode node, String ptr) {
        ArrayNode out = NF.arrayNode();
        JsonNode up = node.get("unevaluatedProperties"), ui = node.get("unevaluatedItems");
        boolean props = up != null && !SchemaNormalizer.isTrivial(up);
        boolean items = ui != null && !SchemaNormalizer.isTrivial(ui);
        if (!props && !items) return out;
        Evaluated always = new Evaluated();
        Evaluated sometimes = new Evaluated();
        collect(node, ptr, always, sometimes, false, true, 0, new java.util.IdentityHashMap<>());
        if (props && !always.allKeys) {
            if (sometimes.allKeys || !always.names.containsAll(sometimes.names) || !always.patterns.containsAll(sometimes.patterns)) {
                sc.unsupported(ptr, "unevaluatedProperties", "the keys it sees depend on which anyOf/oneOf/if branch an instance takes");
            } else {
                ObjectNode c = NF.objectNode();
                ObjectNode names = NF.objectNode();
                for (String e : always.names) names.set(e, BooleanNode.TRUE);
                ObjectNode patterns = NF.objectNode();
                for (String p : always.patterns) patterns.set(p, BooleanNode.TRUE);
                if (!names.isEmpty()) c.set("properties", names);
                if (!patterns.isEmpty()) c.set("patternProperties", patterns);
                c.set("additionalProperties", up);
                out.add(c);
            }
        }
        if (items && !always.allItems) {
            if (itemsDependOnBranch(always, sometimes)) {
                sc.unsupported(ptr, "unevaluatedItems", "the items it sees depend on which anyOf/oneOf/if branch an instance takes");
            } else {
                ObjectNode c = NF.objectNode();
                ArrayNode prefix = NF.arrayNode();
                for (int i = 0; i < always.prefix; i++) prefix.add(BooleanNode.TRUE);
                // up to 2019-09 the positional form is array-form items, the rest additionalItems
                boolean arrayForm = Dialects.draft2019OrEarlier(sc.draft);
                String restKey = arrayForm && !prefix.isEmpty() ? "additionalItems" : "items";
                if (!prefix.isEmpty()) c.set(arrayForm ? "items" : "prefixItems", prefix);
                if (always.contains.isEmpty()) c.set(restKey, ui);
                else {
                    // an item after the prefix is evaluated exactly when it matches a contains: it matches one, or U
                    ArrayNode either = NF.arrayNode();
                    always.contains.forEach(either::add);
                    either.add(ui);
                    c.set(restKey, NF.objectNode().set("anyOf", either));
                }
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Adds what {@code s} evaluates to {@code always} (it validates whenever the root does) or to
     * {@code sometimes}; {@code root}: the schema whose own unevaluated keywords are being rewritten.
     */
    private void collect(JsonNode s, String ptr, Evaluated always, Evaluated sometimes, boolean conditional, boolean root, int depth,
                         java.util.Map<JsonNode, Boolean> visited) {
        if (depth > MAX_DEPTH) throw new dev.domino.compiler.ir.GrammarException(
            "unevaluatedProperties/unevaluatedItems at " + SchemaCompiler.showPointer(ptr) + ": in-place subschemas nest more than " + MAX_DEPTH + " deep");
        if (!s.isObject()) return;
        // a subschema reached again (shared $ref targets) adds nothing new, unless it was only seen in a branch
        // and now validates always ("always" subsumes "sometimes" for the checks in conjuncts)
        Boolean seenConditional = visited.get(s);
        if (seenConditional != null && (!seenConditional || conditional)) return;
        visited.put(s, conditional);
        Evaluated into = conditional ? sometimes : always;
        if (s.has("properties")) s.get("properties").fieldNames().forEachRemaining(into.names::add);
        if (s.has("patternProperties")) s.get("patternProperties").fieldNames().forEachRemaining(into.patterns::add);
        if (s.has("additionalProperties") || (!root && s.has("unevaluatedProperties"))) into.allKeys = true;
        if (s.has("prefixItems") && Dialects.defines("prefixItems", sc.draft)) into.prefix = Math.max(into.prefix, s.get("prefixItems").size());
        JsonNode items = s.get("items");
        if (items != null) {
            if (items.isArray()) into.prefix = Math.max(into.prefix, items.size());
            else into.allItems = true;
        }
        if (s.has("additionalItems") && s.path("items").isArray()) into.allItems = true;
        if (!root && s.has("unevaluatedItems")) into.allItems = true;
        // 2020-12 made contains an annotation unevaluatedItems reads; in 2019-09 it evaluates no item
        if (s.has("contains") && !Dialects.draft2019OrEarlier(sc.draft)) into.contains.add(s.get("contains"));
        if (s.path("allOf").isArray()) {
            int i = 0;
            for (JsonNode part : s.get("allOf")) collect(part, SchemaCompiler.child(SchemaCompiler.child(ptr, "allOf"), String.valueOf(i++)), always, sometimes, conditional, false, depth + 1, visited);
        }
        if (s.path("$ref").isTextual()) {
            JsonNode target = sc.refs.resolve(s.get("$ref").asText(), ptr);
            if (target != null) collect(target, ptr, always, sometimes, conditional, false, depth + 1, visited);
        }
        for (String kw : CONDITIONAL) {
            JsonNode v = s.get(kw);
            if (v == null) continue;
            if (v.isArray()) {
                for (JsonNode b : v) collect(b, SchemaCompiler.child(ptr, kw), always, sometimes, true, false, depth + 1, visited);
            } else if (kw.startsWith("depend") && v.isObject()) {
                for (Iterator<JsonNode> it = v.elements(); it.hasNext(); ) {
                    JsonNode b = it.next();
                    if (b.isObject()) collect(b, SchemaCompiler.child(ptr, kw), always, sometimes, true, false, depth + 1, visited);
                }
            } else {
                collect(v, SchemaCompiler.child(ptr, kw), always, sometimes, true, false, depth + 1, visited);
            }
        }
    }
}
