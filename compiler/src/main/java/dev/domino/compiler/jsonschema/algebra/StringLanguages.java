package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.KeywordValues;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.refs.RefResolver;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Boolean combinations of string constraints ({@code allOf}, {@code anyOf}, {@code oneOf}, {@code not} and
 * {@code $ref} over {@code pattern}, {@code minLength}, {@code maxLength}, string {@code enum} and {@code type})
 * evaluated bottom-up on code point automata, each intermediate result minimized, instead of distributed
 * into a union of schemas ({@link UnionProduct}). Such a schema is a pair: the JSON types other than string
 * it admits whole (no keyword here constrains them) and a regular language of strings. {@code not} flips
 * both, {@code allOf} intersects, {@code anyOf} unites, {@code oneOf} keeps what exactly one branch admits;
 * every {@code $ref} target is evaluated once. Length bounds wait beside the automaton until a complement
 * or a union needs them inside it (a conjunction of bounds stays two numbers, compiled by the string
 * algebra as a product or a counter).
 *
 * <p>The result becomes schemas again: a type list for the other types, and for the strings
 * {@code {type: string, }{@link #KEYWORD}{@code : [id]}}, an internal keyword naming an automaton of this
 * table (merged by union like the other string-algebra keywords, complemented by complementing the
 * automaton, compiled by {@link SchemaCompiler#stringAlgebra}). A schema outside this fragment, a pattern
 * the regex parser refuses, or an automaton past {@link CodePointDfa}'s bounds leaves the schema to the
 * general algebra, as before.
 */
public final class StringLanguages {
    /**
     * Internal keyword (never in user schemas: its name starts with U+0000): a string must be in every
     * listed language (ids of this table).
     */
    public static final String KEYWORD = "\u0000languages";

    /** The most terms a union keeps apart before they become one automaton. */
    static final int MAX_TERMS = 16;
    /** The longest minLength the string algebra compiles next to a language without a maxLength ({@link CodePointDfa#lengths}). */
    private static final int MAX_LENGTH = 1000;

    /** The most branches of one oneOf evaluated here (exactly-one costs a product per pair). */
    static final int MAX_ONE_OF = 8;

    /** The raw keywords a schema of this fragment may hold (annotations and unknown keywords aside). */
    private static final Set<String> FRAGMENT = Set.of("type", "pattern", "minLength", "maxLength", "enum", "const",
        "not", "allOf", "anyOf", "oneOf", "$ref", "nullable", KEYWORD, SchemaComplement.ALL_PATTERNS,
        SchemaComplement.NOT_PATTERNS, SchemaComplement.NOT_STRINGS);
    /** Keywords that constrain something this fragment cannot state (formats, objects, arrays, numbers, conditions). */
    private static final Set<String> OUTSIDE = Set.of("format", "properties", "required", "additionalProperties",
        "patternProperties", "items", "prefixItems", "additionalItems", "minItems", "maxItems", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "minProperties", "maxProperties", "multipleOf", "uniqueItems",
        "propertyNames", "contains", "minContains", "maxContains", "dependencies", "dependentRequired",
        "dependentSchemas", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",
        "$recursiveRef", SchemaComplement.NOT_FORMATS, NumberMultiples.NOT_MULTIPLES, KeyQuantifiers.EXISTS,
        KeyQuantifiers.FORALL, ArraySchemas.CONTAINS_ALL);

    // the JSON values other than strings, as bits: a type keyword admits a union of them
    private static final int NULL = 1, BOOLEAN = 2, OBJECT = 4, ARRAY = 8, INTEGER = 16, FRACTION = 32;
    private static final int OTHERS = NULL | BOOLEAN | OBJECT | ARRAY | INTEGER | FRACTION;
    private static final JsonNodeFactory NF = JsonNodeFactory.instance;

    /** The strings of {@code dfa} (null: every string) whose length is within [minLen, maxLen] (maxLen UNBOUNDED: none). */
    private record Term(CodePointDfa dfa, int minLen, int maxLen) {
        boolean bounded() { return minLen > 0 || maxLen != Expr.Repeat.UNBOUNDED; }
    }

    /**
     * What a schema admits: the other types in {@code others} (bits), and the strings of the union of
     * {@code terms}. A union stays a list until a complement needs it as one automaton (the automaton of a
     * union can be far larger than its parts, and the grammar takes the parts as alternatives).
     */
    private record Value(int others, List<Term> terms) {}

    private static final Term EVERY_STRING = new Term(null, 0, Expr.Repeat.UNBOUNDED);
    private static final Value ALL = new Value(OTHERS, List.of(EVERY_STRING));

    private final SchemaCompiler sc;
    private final List<CodePointDfa> table = new ArrayList<>();
    private final Map<CodePointAutomaton, Integer> ids = new HashMap<>();
    /** Per schema object of the document: whether it is in the fragment (every reachable keyword). */
    private final Map<JsonNode, Boolean> inFragment = new IdentityHashMap<>();
    private final Map<JsonNode, Value> values = new IdentityHashMap<>();
    private final Map<JsonNode, Boolean> evaluating = new IdentityHashMap<>();

    public StringLanguages(SchemaCompiler sc) { this.sc = sc; }

    /** The automaton of a language id of {@link #KEYWORD}. */
    public CodePointDfa language(int id) { return table.get(id); }

    /** The id of the strings outside the language of an id (the complement of {@link #KEYWORD}). */
    public int complement(int id) { return id(table.get(id).complement()); }

    /** Whether the string is in the language of an id (for the constant validator). */
    public boolean contains(int id, String text) { return table.get(id).accepts(text); }

    /**
     * Whether a cleaned schema combines others ({@code allOf}, {@code oneOf}, {@code not}, {@code $ref} or
     * {@code anyOf} beside other keywords): only then is a bottom-up evaluation worth more than the keyword
     * compilers; under a complement any combination is.
     */
    public static boolean combines(ObjectNode n, boolean complemented) {
        if (n.has("allOf") || n.has("oneOf") || n.has("not")) return true;
        if (n.has("anyOf") || n.has("$ref")) return complemented || n.size() > 1;
        return false;
    }

    /**
     * The schemas whose union is exactly the values {@code raw} admits (complemented: rejects), or null when
     * {@code raw} is outside the fragment or its automata pass their bounds.
     */
    public List<JsonNode> asSchemas(JsonNode raw, boolean complemented, String ptr) {
        Value v = evaluate(raw, ptr);
        if (v == null) return null;
        try {
            if (complemented) v = not(v);
            return schemas(v);
        } catch (CodePointDfa.TooComplex e) {
            return null;
        }
    }

    private Value evaluate(JsonNode raw, String ptr) {
        if (!inFragment(raw, ptr, 0)) return null;
        try {
            return value(raw, ptr, 0);
        } catch (CodePointDfa.TooComplex | GrammarException | ArithmeticException e) {
            return null; // the general algebra reports it (or bounds it) with its own keyword
        }
    }

    /** A cheap walk over the raw keywords (references followed) before any automaton is built. */
    private boolean inFragment(JsonNode raw, String ptr, int depth) {
        if (raw.isBoolean()) return true;
        if (!raw.isObject() || depth > 64) return false;
        Boolean known = inFragment.get(raw);
        if (known != null) return known;
        inFragment.put(raw, true); // a reference cycle through string keywords only: evaluated, then refused there
        boolean ok = true;
        boolean refOnly = sc.refSiblingsIgnored && raw.has("$ref");
        for (Iterator<Map.Entry<String, JsonNode>> it = raw.fields(); it.hasNext() && ok; ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            if (refOnly && !k.equals("$ref")) continue;
            if (OUTSIDE.contains(k)) { ok = false; break; }
            if (!FRAGMENT.contains(k)) continue; // an annotation or an unknown keyword: clean() drops it
            switch (k) {
                case "not" -> ok = inFragment(v, SchemaCompiler.child(ptr, k), depth + 1);
                case "allOf", "anyOf", "oneOf" -> {
                    if (!v.isArray() || (k.equals("oneOf") && v.size() > MAX_ONE_OF)) { ok = false; break; }
                    int i = 0;
                    for (JsonNode b : v) ok &= inFragment(b, SchemaCompiler.child(SchemaCompiler.child(ptr, k), String.valueOf(i++)), depth + 1);
                }
                case "$ref" -> {
                    try {
                        RefResolver.Target t = v.isTextual() ? sc.refs.target(v.asText(), refBase(raw, ptr)) : null;
                        ok = t != null && inFragment(t.node(), t.pointer(), depth + 1);
                    } catch (GrammarException e) {
                        ok = false;
                    }
                }
                case "enum" -> { if (v.isArray()) for (JsonNode x : v) ok &= x.isTextual(); else ok = false; }
                case "const" -> ok = v.isTextual();
                default -> { }
            }
        }
        inFragment.put(raw, ok);
        return ok;
    }

    private Value value(JsonNode raw, String ptr, int depth) {
        if (raw.isBoolean()) return raw.asBoolean() ? ALL : none();
        if (depth > 64) throw new GrammarException("string combination nests too deeply");
        Value known = values.get(raw);
        if (known != null) return known;
        if (evaluating.put(raw, true) != null) throw new GrammarException("recursive string combination");
        try {
            Value v = valueOf(raw, ptr, depth);
            values.put(raw, v);
            return v;
        } finally {
            evaluating.remove(raw);
        }
    }

    private Value valueOf(JsonNode raw, String ptr, int depth) {
        CompileLimits.checkClock();
        JsonNode c = sc.norm.clean(raw, ptr);
        if (c.isBoolean()) return c.asBoolean() ? ALL : none();
        ObjectNode n = (ObjectNode) c;
        Value out = ALL;
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            Value part = switch (k) {
                case "type" -> typed(SchemaNormalizer.parseTypes(v, ptr));
                case "pattern" -> strings(CodePointDfa.of(regex(v.asText())));
                case SchemaComplement.ALL_PATTERNS -> {
                    Value all = ALL;
                    for (JsonNode p : v) all = and(all, strings(CodePointDfa.of(regex(p.asText()))));
                    yield all;
                }
                case SchemaComplement.NOT_PATTERNS -> {
                    Value all = ALL;
                    for (JsonNode p : v) all = and(all, not(strings(CodePointDfa.of(regex(p.asText())))));
                    yield all;
                }
                case SchemaComplement.NOT_STRINGS -> not(strings(literals(v)));
                case KEYWORD -> {
                    Value all = ALL;
                    for (JsonNode id : v) all = and(all, strings(table.get(id.asInt())));
                    yield all;
                }
                case "enum" -> {
                    for (JsonNode x : v) if (!x.isTextual()) throw new GrammarException("not a string enum");
                    yield new Value(0, strings(literals(v)).terms);
                }
                case "minLength" -> bounds(KeywordValues.countOr(n, k, 0, ptr), Expr.Repeat.UNBOUNDED);
                case "maxLength" -> bounds(0, KeywordValues.countOr(n, k, Expr.Repeat.UNBOUNDED, ptr));
                case "not" -> not(value(v, SchemaCompiler.child(ptr, k), depth + 1));
                case "allOf" -> {
                    Value all = ALL;
                    int i = 0;
                    for (JsonNode b : v) all = and(all, value(b, SchemaCompiler.child(SchemaCompiler.child(ptr, k), String.valueOf(i++)), depth + 1));
                    yield all;
                }
                case "anyOf" -> {
                    Value any = null;
                    int i = 0;
                    for (JsonNode b : v) {
                        Value x = value(b, SchemaCompiler.child(SchemaCompiler.child(ptr, k), String.valueOf(i++)), depth + 1);
                        any = any == null ? x : or(any, x);
                    }
                    yield any == null ? none() : any;
                }
                case "oneOf" -> {
                    List<Value> branches = new ArrayList<>();
                    int i = 0;
                    for (JsonNode b : v) branches.add(value(b, SchemaCompiler.child(SchemaCompiler.child(ptr, k), String.valueOf(i++)), depth + 1));
                    yield exactlyOne(branches);
                }
                case "$ref" -> {
                    RefResolver.Target t = sc.refs.target(v.asText(), refBase(raw, ptr));
                    if (t == null) throw new GrammarException("unresolved reference");
                    yield value(t.node(), t.pointer(), depth + 1);
                }
                default -> throw new GrammarException("outside the string fragment: " + k);
            };
            out = and(out, part);
        }
        return out;
    }

    /**
     * Where a reference of {@code node} is resolved: its own pointer, or up to draft 7 (where a {@code $ref}'s
     * sibling {@code $id} does not change the base URI) its parent's.
     */
    private String refBase(JsonNode node, String ptr) {
        if (!sc.refSiblingsIgnored || !node.has("$id") && !node.has("id")) return ptr;
        int cut = ptr.lastIndexOf('/');
        return cut < 0 ? "" : ptr.substring(0, cut);
    }

    // ---- the operations, each result minimized ----

    private static Value none() { return new Value(0, List.of()); }

    private static Value strings(CodePointDfa d) {
        CodePointDfa m = d.minimized();
        return new Value(OTHERS, m.isEmpty() ? List.of() : List.of(new Term(m, 0, Expr.Repeat.UNBOUNDED)));
    }

    private static Value bounds(int min, int max) { return new Value(OTHERS, List.of(new Term(null, min, max))); }

    private static Value typed(EnumSet<JsonType> types) {
        int bits = 0;
        if (types.contains(JsonType.NULL)) bits |= NULL;
        if (types.contains(JsonType.BOOLEAN)) bits |= BOOLEAN;
        if (types.contains(JsonType.OBJECT)) bits |= OBJECT;
        if (types.contains(JsonType.ARRAY)) bits |= ARRAY;
        if (types.contains(JsonType.INTEGER)) bits |= INTEGER;
        if (types.contains(JsonType.NUMBER)) bits |= INTEGER | FRACTION;
        return new Value(bits, types.contains(JsonType.STRING) ? List.of(EVERY_STRING) : List.of());
    }

    private static CodePointDfa literals(JsonNode texts) {
        List<Expr> alts = new ArrayList<>();
        for (JsonNode x : texts) alts.add(Expr.literal(x.asText()));
        return CodePointDfa.of(new Expr.Alt(alts)).minimized();
    }

    /** Intersection: the union distributes (each pair of terms), up to {@link #MAX_TERMS} terms, then one automaton. */
    private static Value and(Value a, Value b) {
        if (a == ALL) return b;
        if (b == ALL) return a;
        List<Term> terms = new ArrayList<>();
        for (Term x : a.terms) {
            for (Term y : b.terms) {
                CompileLimits.checkClock();
                Term t = and(x, y);
                if (t != null && !terms.contains(t)) terms.add(t);
            }
        }
        return new Value(a.others & b.others, terms.size() > MAX_TERMS ? List.of(united(terms)) : terms);
    }

    /** The intersection of two terms; null when it is empty. */
    private static Term and(Term x, Term y) {
        int max = x.maxLen == Expr.Repeat.UNBOUNDED ? y.maxLen : y.maxLen == Expr.Repeat.UNBOUNDED ? x.maxLen : Math.min(x.maxLen, y.maxLen);
        int min = Math.max(x.minLen, y.minLen);
        if (max != Expr.Repeat.UNBOUNDED && max < min) return null;
        CodePointDfa d = x.dfa == null ? y.dfa : y.dfa == null ? x.dfa : x.dfa.intersect(y.dfa).minimized();
        if (d != null && d.isEmpty()) return null;
        return new Term(d, min, max);
    }

    /** The terms as one automaton, their length bounds inside it (one term: null dfa for every string). */
    private static Term united(List<Term> terms) {
        CodePointDfa out = null;
        for (Term t : terms) {
            CodePointDfa d = materialized(t);
            if (d == null) return EVERY_STRING;
            out = out == null ? d : out.union(d).minimized();
        }
        return new Term(out == null ? CodePointDfa.nothing() : out, 0, Expr.Repeat.UNBOUNDED);
    }

    /** The term's strings with its length bounds inside the automaton (null: every string). */
    private static CodePointDfa materialized(Term t) {
        if (!t.bounded()) return t.dfa;
        CodePointDfa lengths = CodePointDfa.lengths(t.minLen, t.maxLen);
        return (t.dfa == null ? lengths : t.dfa.intersect(lengths)).minimized();
    }

    private static Value not(Value v) {
        if (v.terms.isEmpty()) return new Value(OTHERS & ~v.others, List.of(EVERY_STRING));
        if (v.terms.stream().allMatch(t -> t.dfa == null)) return new Value(OTHERS & ~v.others, otherLengths(v.terms));
        CodePointDfa s = united(v.terms).dfa;
        CodePointDfa c = s == null ? null : s.complement().minimized();
        return new Value(OTHERS & ~v.others, c == null || c.isEmpty() ? List.of() : List.of(new Term(c, 0, Expr.Repeat.UNBOUNDED)));
    }

    /** Length bounds only: the lengths outside the union of the intervals, as intervals (no automaton). */
    private static List<Term> otherLengths(List<Term> intervals) {
        List<Term> sorted = new ArrayList<>(intervals);
        sorted.sort(java.util.Comparator.comparingInt(Term::minLen));
        List<Term> out = new ArrayList<>();
        long next = 0; // the shortest length not yet covered
        for (Term t : sorted) {
            if (t.minLen > next) out.add(new Term(null, (int) next, t.minLen - 1));
            next = Math.max(next, t.maxLen == Expr.Repeat.UNBOUNDED ? Long.MAX_VALUE : t.maxLen + 1L);
            if (next == Long.MAX_VALUE) return out;
        }
        if (next <= Integer.MAX_VALUE - 1) out.add(new Term(null, (int) next, Expr.Repeat.UNBOUNDED));
        return out;
    }

    private static Value or(Value a, Value b) {
        List<Term> terms = new ArrayList<>(a.terms);
        for (Term t : b.terms) if (!terms.contains(t)) terms.add(t);
        return new Value(a.others | b.others, terms.size() > MAX_TERMS ? List.of(united(terms)) : terms);
    }

    /** What exactly one branch admits: per branch, it and none of the others. */
    private static Value exactlyOne(List<Value> branches) {
        Value out = none();
        for (int i = 0; i < branches.size(); i++) {
            Value only = branches.get(i);
            for (int j = 0; j < branches.size(); j++) if (j != i) only = and(only, not(branches.get(j)));
            out = or(out, only);
        }
        return out;
    }

    // ---- back to schemas ----

    /** Null when a term needs what the string algebra cannot compile (a minLength past its automata without a maxLength). */
    private List<JsonNode> schemas(Value v) {
        List<JsonNode> out = new ArrayList<>();
        ArrayNode types = NF.arrayNode();
        if ((v.others & NULL) != 0) types.add("null");
        if ((v.others & BOOLEAN) != 0) types.add("boolean");
        if ((v.others & OBJECT) != 0) types.add("object");
        if ((v.others & ARRAY) != 0) types.add("array");
        int numbers = v.others & (INTEGER | FRACTION);
        if (numbers == (INTEGER | FRACTION)) types.add("number");
        else if (numbers == INTEGER) types.add("integer");
        if (!types.isEmpty()) out.add(NF.objectNode().set("type", types.size() == 1 ? types.get(0) : types));
        if (numbers == FRACTION) out.add(NF.objectNode().put("type", "number").set("not", NF.objectNode().put("type", "integer")));
        for (Term t : v.terms) {
            int min = t.minLen, max = t.maxLen;
            ObjectNode s = NF.objectNode().put("type", "string");
            if (t.dfa != null) {
                // bounds the automaton already implies are left out; bounds it cannot meet leave nothing
                CodePointAutomaton a = t.dfa.toAutomaton();
                if (a.isEmpty()) continue;
                int shortest = a.minLength(), longest = a.maxLength();
                if (max != Expr.Repeat.UNBOUNDED && shortest > max || longest < min) continue;
                if (shortest >= min) min = 0;
                if (longest != Integer.MAX_VALUE && (max == Expr.Repeat.UNBOUNDED || longest <= max)) max = Expr.Repeat.UNBOUNDED;
                if (min > MAX_LENGTH && max == Expr.Repeat.UNBOUNDED) return null;
                s.set(KEYWORD, NF.arrayNode().add(id(a)));
            }
            if (min > 0) s.put("minLength", min);
            if (max != Expr.Repeat.UNBOUNDED) s.put("maxLength", max);
            out.add(s);
        }
        return out;
    }

    private int id(CodePointDfa d) { return id(d.toAutomaton()); }

    private int id(CodePointAutomaton a) {
        Integer known = ids.get(a);
        if (known != null) return known;
        table.add(CodePointDfa.of(a));
        ids.put(a, table.size() - 1);
        return table.size() - 1;
    }

    private static Expr regex(String pattern) {
        return RegexParser.parseSearch(pattern, RegexParser.Flavor.ECMA).expr();
    }
}
