package dev.domino.compiler.jsonschema.arrays;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.ConstValidator;
import dev.domino.compiler.jsonschema.ConstantSchemas;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.KeywordValues;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.algebra.SchemaAlgebra;
import dev.domino.compiler.jsonschema.algebra.SchemaComplement;

import java.util.ArrayList;
import java.util.List;

/**
 * Arrays: {@code prefixItems} (or draft-04 array-form {@code items}) element by element, then the rest
 * schema ({@code items} / {@code additionalItems}) repeated, with {@code minItems}/{@code maxItems}
 * counted over the whole array: after i elements the tail allows {@code max(0, min - i)} to
 * {@code max - i} more.
 */
public final class ArraySchemas {
    private final SchemaCompiler sc;
    private int arrCounter;

    public ArraySchemas(SchemaCompiler sc) { this.sc = sc; }

    public Expr arrayExpr(ObjectNode n, String ptr) {
        if (n.path("uniqueItems").asBoolean(false)) return uniqueExpr(n, ptr);
        if (n.has(CONTAINS_ALL)) return containsAllExpr(n, ptr);
        if (n.has("contains") && (n.path("minContains").asLong(1) > 0 || n.has("maxContains"))) return containsExpr(n, ptr);
        List<Expr> prefix = new ArrayList<>();
        JsonNode restSchema = null;
        String restPtr = null;
        if (n.has("prefixItems")) {
            int i = 0;
            for (JsonNode p : n.get("prefixItems")) prefix.add(sc.compile(p, SchemaCompiler.child(SchemaCompiler.child(ptr, "prefixItems"), String.valueOf(i++))));
            if (n.has("items")) { restSchema = n.get("items"); restPtr = SchemaCompiler.child(ptr, "items"); }
        } else if (n.has("items") && n.get("items").isArray()) {
            int i = 0;
            for (JsonNode p : n.get("items")) prefix.add(sc.compile(p, SchemaCompiler.child(SchemaCompiler.child(ptr, "items"), String.valueOf(i++))));
            if (n.has("additionalItems")) { restSchema = n.get("additionalItems"); restPtr = SchemaCompiler.child(ptr, "additionalItems"); }
        } else if (n.has("items")) {
            restSchema = n.get("items");
            restPtr = SchemaCompiler.child(ptr, "items");
        }
        Expr rest = restSchema == null ? sc.syn.anyValue() : sc.compile(restSchema, restPtr);
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        String name = sc.syn.newName("arr_" + (++arrCounter));
        sc.syn.rules.put(name, Expr.EMPTY);
        Expr body;
        if (max != Expr.Repeat.UNBOUNDED && max < min) body = Expr.NOTHING;
        else {
            int k = prefix.size();
            // tail(i): elements i.. each preceded by a comma, given i elements so far
            Expr tail = restTail(k, rest, min, max, k);
            for (int i = k - 1; i >= 1; i--) {
                List<Expr> opts = new ArrayList<>();
                if (i >= min) opts.add(Expr.EMPTY);
                if (max == Expr.Repeat.UNBOUNDED || i < max) opts.add(JsonSyntax.seq(sc.syn.comma(), prefix.get(i), tail));
                tail = JsonSyntax.alt(opts);
            }
            Expr nonEmpty;
            if (max == 0) nonEmpty = Expr.NOTHING;
            else if (k > 0) nonEmpty = JsonSyntax.seq(prefix.get(0), k == 1 ? restTail(1, rest, min, max, 1) : tail);
            else nonEmpty = JsonSyntax.seq(rest, restTail(1, rest, min, max, 0));
            List<Expr> opts = new ArrayList<>();
            if (min == 0) opts.add(sc.syn.bracket("[", null, "]"));
            if (!(nonEmpty instanceof Expr.Alt a && a.options().isEmpty())) opts.add(sc.syn.bracket("[", nonEmpty, "]"));
            body = opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts);
        }
        sc.syn.rules.put(name, body);
        return Expr.ref(name);
    }

    /** The most distinct values {@code uniqueItems} arrays are built over (one permutation member each). */
    static final int MAX_UNIQUE_VALUES = 1024;

    /**
     * {@code uniqueItems: true} over items from a finite set of values ({@code enum}, {@code const},
     * {@code type} boolean/null): an array of distinct values is a selection of those values in any order,
     * each at most once, which is exactly a permutation construct ({@link Expr.Perm}) with one optional
     * member per value, {@code minItems}/{@code maxItems} as its member counts. The parser tracks the
     * values already used, so the size does not grow with the number of subsets. Items over an infinite
     * set (any string, number, object) would need the parser to remember arbitrary values: a compile error.
     */
    Expr uniqueExpr(ObjectNode n, String ptr) {
        String itemsPtr = SchemaCompiler.child(ptr, "items");
        if (n.has("contains") || n.has(CONTAINS_ALL)) {
            sc.unsupported(ptr, "uniqueItems", "only without contains");
            return sc.syn.anyValue();
        }
        if (n.has("prefixItems") || n.path("items").isArray()) return distinctItems(n, ptr);
        JsonNode items = n.has("items") ? sc.oneOf.resolveTop(n.get("items"), itemsPtr) : com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
        List<JsonNode> candidates = new ArrayList<>();
        if (items.isBoolean() && !items.asBoolean()) {
            // no item is valid: only the empty array
        } else if (items.isObject() && items.has("enum") && items.get("enum").isArray()) {
            items.get("enum").forEach(candidates::add);
        } else if (items.isObject() && items.has("const")) {
            candidates.add(items.get("const"));
        } else if (items.isObject() && items.has("type")) {
            java.util.EnumSet<JsonType> types = SchemaNormalizer.parseTypes(items.get("type"), itemsPtr);
            if (!types.isEmpty() && java.util.EnumSet.of(JsonType.BOOLEAN, JsonType.NULL).containsAll(types)) {
                if (types.contains(JsonType.BOOLEAN)) { candidates.add(com.fasterxml.jackson.databind.node.BooleanNode.FALSE); candidates.add(com.fasterxml.jackson.databind.node.BooleanNode.TRUE); }
                if (types.contains(JsonType.NULL)) candidates.add(com.fasterxml.jackson.databind.node.NullNode.getInstance());
            } else {
                candidates = null;
            }
        } else {
            candidates = null;
        }
        if (candidates == null) return distinctItems(n, ptr);
        ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), sc::unsupported).formats(sc.formatsAsserted()).languages(sc.languages);
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode v : candidates) {
            if (values.stream().anyMatch(x -> SchemaAlgebra.jsonEquals(x, v))) continue;
            if (validator.valid(items, v, itemsPtr)) values.add(v);
        }
        if (values.size() > MAX_UNIQUE_VALUES) return distinctItems(n, ptr);
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        int most = max == Expr.Repeat.UNBOUNDED ? values.size() : Math.min(max, values.size());
        if (min > most) return Expr.NOTHING;
        List<Expr> opts = new ArrayList<>();
        if (min == 0) opts.add(sc.syn.bracket("[", null, "]"));
        if (most > 0) {
            List<Expr.Perm.Member> members = new ArrayList<>();
            boolean integerSpelling = ConstantSchemas.integerOnly(items); // as ConstantSchemas.spell says
            for (JsonNode v : values) {
                Expr spelled = sc.constants.spell(v, integerSpelling, itemsPtr);
                if (spelled != null) members.add(new Expr.Perm.Member(spelled, false));
            }
            Expr perm = new Expr.Perm(members, Expr.NOTHING, sc.syn.comma(), Math.max(1, min), max);
            opts.add(sc.syn.bracket("[", perm, "]"));
        }
        String name = sc.syn.newName("arr_" + (++arrCounter));
        sc.syn.rules.put(name, JsonSyntax.alt(opts));
        return Expr.ref(name);
    }

    /**
     * {@code uniqueItems: true} over items of any schema: an {@link Expr.UniqueArray}, whose distinctness the
     * runtime checks beside the parser. The whitespace around separators and brackets belongs to the marked
     * terminals, so that an item ends exactly where one of them starts.
     */
    private Expr distinctItems(ObjectNode n, String ptr) {
        // positional schemas (prefixItems, or draft-04 array-form items), then the rest schema
        List<Expr> prefix = new ArrayList<>();
        String positional = n.has("prefixItems") ? "prefixItems" : n.path("items").isArray() ? "items" : null;
        String restKey = positional == null || positional.equals("prefixItems") ? "items" : "additionalItems";
        if (positional != null) {
            int i = 0;
            for (JsonNode p : n.get(positional)) prefix.add(sc.compile(p, SchemaCompiler.child(SchemaCompiler.child(ptr, positional), String.valueOf(i++))));
        }
        Expr item = sc.compile(n.has(restKey) ? n.get(restKey) : com.fasterxml.jackson.databind.node.BooleanNode.TRUE, SchemaCompiler.child(ptr, restKey));
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        if (sc.syn.isNothing(item) && (max == Expr.Repeat.UNBOUNDED || max > prefix.size())) max = prefix.size();
        if (max != Expr.Repeat.UNBOUNDED && max < min) return Expr.NOTHING;
        List<Expr> opts = new ArrayList<>();
        if (min == 0) opts.add(sc.syn.bracket("[", null, "]"));
        if (max != 0 && !sc.syn.isNothing(prefix.isEmpty() ? item : prefix.get(0))) {
            Expr open = JsonSyntax.seq(Expr.literal("["), sc.syn.ws), close = JsonSyntax.seq(sc.syn.ws, Expr.literal("]"));
            opts.add(new Expr.UniqueArray(open, prefix, item, sc.syn.comma(), close, Math.max(1, min), max));
        }
        String name = sc.syn.newName("arr_" + (++arrCounter));
        sc.syn.rules.put(name, opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts));
        return Expr.ref(name);
    }

    /**
     * Internal keyword (never in user schemas: its name starts with U+0000): the conjunction of several
     * {@code contains} (an allOf of them), each with minContains 1: every listed schema matches some element.
     */
    public static final String CONTAINS_ALL = "\u0000containsAll";

    /**
     * Several {@code contains} at once (at most 3, minItems at most 1, one items schema R): for each ordered
     * partition of the contains schemas into blocks (13 for three), one element per block matching R and
     * every schema of the block, in that order, other R elements anywhere between.
     */
    Expr containsAllExpr(ObjectNode n, String ptr) {
        // equal schemas are one condition (complements of several equal items schemas repeat them)
        java.util.Set<JsonNode> distinct = new java.util.LinkedHashSet<>();
        n.get(CONTAINS_ALL).forEach(distinct::add);
        if (n.has("contains") && n.path("minContains").asLong(1) > 0) distinct.add(n.get("contains"));
        List<JsonNode> cs = new ArrayList<>(distinct);
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        if (n.has("prefixItems") || n.path("items").isArray() || n.has("maxContains") || n.has("minContains")) {
            sc.unsupported(ptr, "contains", "several contains only with one items schema, no minContains/maxContains");
            return sc.syn.anyValue();
        }
        JsonNode items = n.has("items") ? n.get("items") : com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
        if (cs.size() > 3 || max != Expr.Repeat.UNBOUNDED || min > 1) {
            Expr counted = CountedContainsAll.build(sc, cs, items, min, max, sc.syn.newName("arr_" + (++arrCounter)), ptr);
            return counted == null ? sc.syn.anyValue() : counted;
        }
        Expr rest = sc.compile(items, SchemaCompiler.child(ptr, "items"));
        Expr before = Expr.star(JsonSyntax.seq(rest, sc.syn.comma())), after = Expr.star(JsonSyntax.seq(sc.syn.comma(), rest));
        java.util.Map<Integer, Expr> matches = new java.util.HashMap<>();
        List<Expr> alts = new ArrayList<>();
        for (List<Integer> blocks : orderedPartitions(cs.size())) {
            List<Expr> seq = new ArrayList<>();
            boolean empty = false;
            for (int b = 0; b < blocks.size() && !empty; b++) {
                int mask = blocks.get(b);
                Expr m = matches.computeIfAbsent(mask, k -> {
                    List<JsonNode> parts = new ArrayList<>();
                    parts.add(items);
                    for (int i = 0; i < cs.size(); i++) if ((k & (1 << i)) != 0) parts.add(cs.get(i));
                    return sc.compile(sc.algebra.merge(parts, SchemaCompiler.child(ptr, "contains")), SchemaCompiler.child(ptr, "contains"));
                });
                if (sc.syn.isNothing(m)) empty = true;
                if (b > 0) seq.add(sc.syn.comma());
                seq.add(before);
                seq.add(m);
            }
            if (empty) continue;
            seq.add(after);
            alts.add(JsonSyntax.seq(seq.toArray(Expr[]::new)));
        }
        if (alts.isEmpty()) return Expr.NOTHING;
        String name = sc.syn.newName("arr_" + (++arrCounter));
        sc.syn.rules.put(name, sc.syn.bracket("[", JsonSyntax.alt(alts), "]"));
        return Expr.ref(name);
    }

    /** The ordered partitions of {0..k-1} into non-empty blocks, each block a bit mask. */
    static List<List<Integer>> orderedPartitions(int k) {
        List<List<Integer>> out = new ArrayList<>();
        orderedPartitions((1 << k) - 1, new ArrayList<>(), out);
        return out;
    }

    private static void orderedPartitions(int left, List<Integer> prefix, List<List<Integer>> out) {
        if (left == 0) { out.add(List.copyOf(prefix)); return; }
        for (int sub = left; sub > 0; sub = (sub - 1) & left) {
            prefix.add(sub);
            orderedPartitions(left & ~sub, prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    /** The most rules (element positions times matches counted) one {@code contains} may need. */
    static final int MAX_CONTAINS_RULES = 4096;

    /**
     * {@code contains C} with {@code minContains} c (default 1) and no {@code maxContains}, next to
     * {@code prefixItems}/array-form {@code items} P_0..P_{k-1}, a rest schema R and {@code minItems}/
     * {@code maxItems}: one rule per state (i elements so far, j of them chosen as matches, j capped at c and i
     * at the point where neither the positional schemas nor the bounds tell positions apart). From a state
     * the next element is either any element valid at position i (P_i or R) or, while fewer than c are chosen,
     * one valid at i that also matches C (ambiguous where several match, which the parser does not mind:
     * "at least c" needs no complement of C). The array may end where i &ge; minItems and j = c.
     * With {@code maxContains} m the elements are partitioned instead: each either matches C (counted, j up to m)
     * or is valid at i and does not match C (its complement, {@link #nonMatching}), so j is the exact count and the
     * array may end where c &le; j &le; m; a complement that is not expressible refuses it by name.
     */
    Expr containsExpr(ObjectNode n, String ptr) {
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        int need = KeywordValues.countOr(n, "minContains", 1, ptr);
        List<JsonNode> positional = new ArrayList<>();
        JsonNode rest;
        String restPtr;
        if (n.has("prefixItems")) {
            n.get("prefixItems").forEach(positional::add);
            rest = n.has("items") ? n.get("items") : com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
            restPtr = SchemaCompiler.child(ptr, "items");
        } else if (n.path("items").isArray()) {
            n.get("items").forEach(positional::add);
            rest = n.has("additionalItems") ? n.get("additionalItems") : com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
            restPtr = SchemaCompiler.child(ptr, "additionalItems");
        } else {
            rest = n.has("items") ? n.get("items") : com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
            restPtr = SchemaCompiler.child(ptr, "items");
        }
        int k = positional.size();
        // the last position state loops when unbounded (at least 1: the elements after the first take a comma)
        int positions = max != Expr.Repeat.UNBOUNDED ? max : Math.max(1, Math.max(k, min));
        boolean exact = n.has("maxContains");
        int most = exact ? KeywordValues.countOr(n, "maxContains", 0, ptr) : need;
        if (exact && max != Expr.Repeat.UNBOUNDED && most >= max) { exact = false; most = need; } // no array has more matches
        if (exact && most < need) return Expr.NOTHING;
        if ((long) (positions + 1) * (most + 1) > MAX_CONTAINS_RULES) {
            sc.unsupported(ptr, "contains", "more than " + MAX_CONTAINS_RULES + " positions times " + (exact ? "maxContains" : "minContains"));
            return sc.syn.anyValue();
        }
        if (max != Expr.Repeat.UNBOUNDED && (max < min || max < need)) return Expr.NOTHING;
        JsonNode contains = n.get("contains");
        String containsPtr = SchemaCompiler.child(ptr, "contains");
        // any: every element valid at i (at least minContains: the matches chosen are some of them);
        // with maxContains the elements are split exactly: those that match contains and those that do not
        List<Expr> any = new ArrayList<>(), match = new ArrayList<>(); // per position i <= k (k: the rest)
        for (int i = 0; i <= k; i++) {
            JsonNode s = i < k ? positional.get(i) : rest;
            String sp = i < k ? SchemaCompiler.child(SchemaCompiler.child(ptr, n.has("prefixItems") ? "prefixItems" : "items"), String.valueOf(i)) : restPtr;
            any.add(exact ? nonMatching(s, contains, containsPtr, ptr) : sc.compile(s, sp));
            match.add(sc.compile(sc.algebra.merge(List.of(s, contains), containsPtr), containsPtr));
        }
        String base = sc.syn.newName("arr_" + (++arrCounter));
        String[][] names = new String[positions + 1][most + 1];
        for (int i = 0; i <= positions; i++) for (int j = 0; j <= most; j++) names[i][j] = sc.syn.newName(base + "_" + i + "_" + j);
        for (int i = 0; i <= positions; i++) {
            for (int j = 0; j <= most; j++) {
                List<Expr> opts = new ArrayList<>();
                if (i >= min && j >= need) opts.add(Expr.EMPTY);
                if (max == Expr.Repeat.UNBOUNDED || i < max) {
                    int at = Math.min(i, k), next = Math.min(i + 1, positions);
                    Expr sep = i == 0 ? Expr.EMPTY : sc.syn.comma();
                    if (!sc.syn.isNothing(any.get(at))) opts.add(JsonSyntax.seq(sep, any.get(at), Expr.ref(names[next][j])));
                    if (j < most && !sc.syn.isNothing(match.get(at))) opts.add(JsonSyntax.seq(sep, match.get(at), Expr.ref(names[next][j + 1])));
                }
                sc.syn.rules.put(names[i][j], opts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(opts));
            }
        }
        sc.syn.rules.put(base, sc.syn.bracket("[", Expr.ref(names[0][0]), "]"));
        return Expr.ref(base);
    }

    /**
     * The elements valid under {@code s} that do not match {@code contains}: s and the complement of contains
     * ({@link SchemaComplement}). Where the complement is not expressible, {@code contains} with
     * {@code maxContains} is refused by name (never a looser count, also when {@code not} is an ignored keyword).
     */
    private Expr nonMatching(JsonNode s, JsonNode contains, String containsPtr, String ptr) {
        com.fasterxml.jackson.databind.node.ObjectNode not = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        not.set("not", contains);
        int ignoredBefore = sc.ignored.size();
        try {
            Expr e = sc.compile(sc.algebra.merge(List.of(s, not), containsPtr), containsPtr);
            if (sc.ignored.size() == ignoredBefore) return e;
        } catch (dev.domino.compiler.ir.GrammarException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("unsupported keyword")) throw e; // limits stay themselves
            sc.unsupported(ptr, "contains", "with maxContains: the elements not counted need the complement of contains, " + e.getMessage());
            return sc.syn.anyValue();
        }
        sc.unsupported(ptr, "contains", "with maxContains: the elements not counted need the complement of contains, not expressible here");
        return sc.syn.anyValue();
    }

    /** Rest elements after {@code i} elements (i >= k), each preceded by a comma. */
    Expr restTail(int i, Expr rest, int min, int max, int k) {
        if (i < k) throw new IllegalStateException();
        int lo = Math.max(0, min - i);
        int hi = max == Expr.Repeat.UNBOUNDED ? Expr.Repeat.UNBOUNDED : max - i;
        if (hi != Expr.Repeat.UNBOUNDED && hi < lo) return Expr.NOTHING;
        if (hi == 0) return Expr.EMPTY;
        return new Expr.Repeat(JsonSyntax.seq(sc.syn.comma(), rest), lo, hi);
    }
}
