package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.ConstValidator;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two conservative questions about (merged, cleaned) schemas, asked to keep products of alternatives small
 * ({@link UnionProduct}): is a schema provably empty, and does one schema provably contain another. "Yes"
 * is always exact; "no" may mean "not shown", so dropping what these answers reject never changes a
 * language.
 *
 * <p>Empty: {@code false}, an empty type set (after {@code not} of a type), an enum none of whose values
 * the rest admits, a {@code not N} whose sibling keywords are contained in N (or in a branch of N's
 * anyOf), an anyOf all of whose branches are empty next to the siblings, or, for every admitted type:
 * strings whose length bounds cross or whose patterns (with the excluded patterns, strings and length
 * bounds) intersect to nothing on a code point automaton; numbers whose bounds cross, with no multiple of
 * {@code multipleOf} (integers: of lcm(m, 1)) between them, or whose multiple is a multiple of an excluded
 * one; objects whose required keys outnumber maxProperties or one of whose required keys has an empty
 * value schema (recursively, a few levels); arrays whose item bounds cross or whose needed position has
 * an empty schema.
 *
 * <p>Contained (every value of b satisfies a): every keyword of a is in b at least as tight (same value;
 * tighter bound; superset of required keys or excluded values; subset of enum values or types), with the
 * keywords that read each other (properties/patternProperties/additionalProperties, items/prefixItems/
 * additionalItems, contains/minContains/maxContains) equal as a group.
 */
public final class SchemaEmptiness {
    /** How deep emptiness looks into required properties and array positions. */
    private static final int MAX_DEPTH = 6;
    /** Enums longer than this are not validated value by value (the question is only an optimisation). */
    private static final int MAX_ENUM = 64;
    /** Bound on a length automaton's size; longer bounds are left out (a superset: still exact). */
    private static final int MAX_LENGTH_STATES = 256;

    private static final List<Set<String>> GROUPS = List.of(
        Set.of("properties", "patternProperties", "additionalProperties"),
        Set.of("items", "prefixItems", "additionalItems"),
        Set.of("contains", "minContains", "maxContains", ArraySchemas.CONTAINS_ALL),
        Set.of("type", "nullable"));
    private static final Set<String> LOWER = Set.of("minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum");
    private static final Set<String> UPPER = Set.of("maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum");
    private static final Set<String> EXCLUSIONS = Set.of(SchemaComplement.NOT_STRINGS, SchemaComplement.NOT_PATTERNS,
        SchemaComplement.NOT_FORMATS, SchemaComplement.ALL_PATTERNS, NumberMultiples.NOT_MULTIPLES, "required", StringLanguages.KEYWORD);

    private final SchemaCompiler sc;
    private final Map<String, Boolean> cache = new HashMap<>();
    private boolean inComplement;

    public SchemaEmptiness(SchemaCompiler sc) { this.sc = sc; }

    /** Whether no value satisfies s (false: not shown). */
    public boolean empty(JsonNode s, String ptr) { return empty(s, ptr, 0); }

    private boolean empty(JsonNode s, String ptr, int depth) {
        if (s.isBoolean()) return !s.asBoolean();
        if (!s.isObject() || s.isEmpty() || depth > MAX_DEPTH) return false;
        String key = s.toString();
        Boolean known = cache.get(key);
        if (known != null) return known;
        boolean e;
        try {
            e = emptyObject((ObjectNode) s, ptr, depth);
        } catch (GrammarException | ArithmeticException | CodePointDfa.TooComplex x) {
            e = false; // a part this question cannot read: not shown empty (compiling it reports the problem)
        }
        cache.put(key, e);
        return e;
    }

    private boolean emptyObject(ObjectNode raw, String ptr, int depth) {
        JsonNode cleaned = sc.norm.clean(raw, ptr); // const -> enum, if/then/else -> allOf, draft-04 bounds
        if (cleaned.isBoolean()) return !cleaned.asBoolean();
        ObjectNode n = (ObjectNode) cleaned;
        if (n.has("$ref") || n.has("allOf")) {
            JsonNode m = sc.algebra.merge(List.of(n), ptr);
            if (m.isBoolean()) return !m.asBoolean();
            n = (ObjectNode) m;
            if (n.has("$ref") || n.has("allOf")) return false;
        }
        if (n.has("enum")) {
            JsonNode values = n.get("enum");
            if (values.isEmpty()) return true;
            if (values.size() > MAX_ENUM) return false;
            ObjectNode rest = n.deepCopy();
            rest.remove("enum");
            ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), (p, kw, d) -> {
                throw new GrammarException("not shown");
            }).formats(sc.formatsAsserted()).languages(sc.languages);
            for (JsonNode v : values) if (validator.valid(rest, v, ptr)) return false;
            return true;
        }
        EnumSet<JsonType> types = n.has("type") ? SchemaNormalizer.parseTypes(n.get("type"), ptr) : EnumSet.allOf(JsonType.class);
        if (n.has("not")) {
            JsonNode not = n.get("not");
            EnumSet<JsonType> neg = sc.norm.typeOnly(not, ptr);
            if (neg != null) types.removeAll(neg);
            else {
                ObjectNode rest = n.deepCopy();
                rest.remove("not");
                if (subsumes(not, rest)) return true;
                JsonNode c = sc.norm.clean(not, ptr);
                if (c.isObject() && c.size() == 1 && c.path("anyOf").isArray())
                    for (JsonNode b : c.get("anyOf")) if (subsumes(sc.norm.clean(b, ptr), rest)) return true;
                if (!inComplement && complementEmpty(not, rest, ptr, depth)) return true;
            }
        }
        if (types.isEmpty()) return true;
        if (n.path("anyOf").isArray() && n.get("anyOf").size() <= 8) {
            ObjectNode rest = n.deepCopy();
            JsonNode branches = rest.remove("anyOf");
            boolean all = true;
            for (JsonNode b : branches) all &= empty(sc.algebra.merge(List.of(rest, b), ptr), ptr, depth + 1);
            if (all) return true;
        }
        boolean numeric = false;
        for (JsonType t : types) {
            boolean e = switch (t) {
                case STRING -> stringEmpty(n);
                case NUMBER, INTEGER -> {
                    if (numeric) yield true; // already answered for both
                    numeric = true;
                    yield numberEmpty(n, !types.contains(JsonType.NUMBER), !types.contains(JsonType.INTEGER));
                }
                case OBJECT -> objectEmpty(n, ptr, depth);
                case ARRAY -> arrayEmpty(n, ptr, depth);
                default -> false;
            };
            if (!e) return false;
        }
        return true;
    }

    /**
     * rest and not N is empty when rest meets none of N's complement alternatives within it. Not nested: a
     * complement asked from here multiplies products that ask this class again, so the question goes one
     * level deep (and is only asked for a few alternatives).
     */
    private boolean complementEmpty(JsonNode not, ObjectNode rest, String ptr, int depth) {
        inComplement = true;
        try {
            for (JsonNode alt : sc.complement.complement(not, rest, ptr))
                if (!empty(sc.algebra.merge(List.of(rest, alt), ptr), ptr, depth + 1)) return false;
            return true;
        } catch (GrammarException e) {
            return false; // a complement that cannot be written: not shown
        } finally {
            inComplement = false;
        }
    }

    private boolean stringEmpty(ObjectNode n) {
        long minL = n.path("minLength").asLong(0), maxL = n.has("maxLength") ? n.get("maxLength").asLong() : Long.MAX_VALUE;
        if (minL > maxL) return true;
        boolean patterns = n.has("pattern") || n.has(SchemaComplement.ALL_PATTERNS) || n.has(SchemaComplement.NOT_PATTERNS)
            || n.has(StringLanguages.KEYWORD);
        if (!patterns) return false;
        CodePointDfa lang = maxL <= MAX_LENGTH_STATES ? CodePointDfa.lengths((int) minL, (int) maxL)
            : minL <= MAX_LENGTH_STATES ? CodePointDfa.lengths((int) minL, Expr.Repeat.UNBOUNDED)
            : CodePointDfa.lengths(0, Expr.Repeat.UNBOUNDED);
        if (n.has("pattern")) lang = lang.intersect(regex(n.get("pattern").asText()));
        for (JsonNode p : n.path(SchemaComplement.ALL_PATTERNS)) lang = lang.intersect(regex(p.asText()));
        for (JsonNode p : n.path(SchemaComplement.NOT_PATTERNS)) lang = lang.intersect(CodePointDfa.of(regex(p.asText())).complement());
        for (JsonNode id : n.path(StringLanguages.KEYWORD)) lang = lang.intersect(sc.languages.language(id.asInt()));
        return lang.isEmpty();
    }

    private static Expr regex(String pattern) {
        return dev.domino.compiler.frontend.RegexParser.parseSearch(pattern, dev.domino.compiler.frontend.RegexParser.Flavor.ECMA).expr();
    }

    /** integerOnly: the type admits integers only; fractionOnly: numbers that are not integers. */
    private static boolean numberEmpty(ObjectNode n, boolean integerOnly, boolean fractionOnly) {
        BigDecimal lo = null, hi = null;
        boolean loEx = false, hiEx = false;
        if (n.has("minimum")) lo = n.get("minimum").decimalValue();
        if (n.has("exclusiveMinimum") && n.get("exclusiveMinimum").isNumber()) {
            BigDecimal x = n.get("exclusiveMinimum").decimalValue();
            if (lo == null || x.compareTo(lo) >= 0) { lo = x; loEx = true; }
        }
        if (n.has("maximum")) hi = n.get("maximum").decimalValue();
        if (n.has("exclusiveMaximum") && n.get("exclusiveMaximum").isNumber()) {
            BigDecimal x = n.get("exclusiveMaximum").decimalValue();
            if (hi == null || x.compareTo(hi) <= 0) { hi = x; hiEx = true; }
        }
        if (lo != null && hi != null) {
            int c = lo.compareTo(hi);
            if (c > 0 || (c == 0 && (loEx || hiEx))) return true;
        }
        BigDecimal m = n.has("multipleOf") && n.get("multipleOf").isNumber() ? n.get("multipleOf").decimalValue() : null;
        if (m != null && m.signum() <= 0) return false;
        if (integerOnly) m = m == null ? BigDecimal.ONE : SchemaAlgebra.lcm(m, BigDecimal.ONE);
        if (m != null) {
            for (JsonNode d : n.path(NumberMultiples.NOT_MULTIPLES))
                if (d.isNumber() && d.decimalValue().signum() > 0 && NumberMultiples.isMultiple(m, d.decimalValue())) return true;
            if (fractionOnly && NumberMultiples.isMultiple(m, BigDecimal.ONE)) return true;
            if (lo != null && hi != null) {
                // the least multiple of m at or above lo (above it when exclusive) beyond hi: none between
                BigDecimal k = lo.divide(m, 0, RoundingMode.CEILING).multiply(m);
                if (loEx && k.compareTo(lo) == 0) k = k.add(m);
                int c = k.compareTo(hi);
                if (c > 0 || (c == 0 && hiEx)) return true;
            }
        }
        return false;
    }

    private boolean objectEmpty(ObjectNode n, String ptr, int depth) {
        Set<String> required = new HashSet<>();
        n.path("required").forEach(r -> required.add(r.asText()));
        long minP = n.path("minProperties").asLong(0), maxP = n.has("maxProperties") ? n.get("maxProperties").asLong() : Long.MAX_VALUE;
        if (minP > maxP || required.size() > maxP) return true;
        JsonNode props = n.path("properties");
        for (String r : required) {
            JsonNode s = props.get(r);
            if (s == null && !n.has("patternProperties")) s = n.get("additionalProperties");
            if (s != null && empty(s, ptr, depth + 1)) return true;
        }
        return false;
    }

    private boolean arrayEmpty(ObjectNode n, String ptr, int depth) {
        long minI = n.path("minItems").asLong(0), maxI = n.has("maxItems") ? n.get("maxItems").asLong() : Long.MAX_VALUE;
        if (minI > maxI) return true;
        JsonNode positions = n.has("prefixItems") ? n.get("prefixItems") : n.path("items").isArray() ? n.get("items") : null;
        JsonNode rest = n.has("prefixItems") ? n.get("items") : n.path("items").isArray() ? n.get("additionalItems") : n.get("items");
        int count = positions == null ? 0 : positions.size();
        for (int i = 0; i < count && i < minI; i++) if (empty(positions.get(i), ptr, depth + 1)) return true;
        if (minI > count && rest != null && empty(rest, ptr, depth + 1)) return true;
        if (n.has("contains") && n.path("minContains").asLong(1) > 0 && empty(n.get("contains"), ptr, depth + 1)) return true;
        return false;
    }

    /** Whether every value of b satisfies a (false: not shown). Both are cleaned schemas. */
    public boolean subsumes(JsonNode a, JsonNode b) {
        if (SchemaNormalizer.isTrivial(a) || (b.isBoolean() && !b.asBoolean())) return true;
        if (!a.isObject() || !b.isObject()) return a.equals(b);
        if (a.has("$ref") || b.has("$ref")) return a.equals(b);
        for (Set<String> g : GROUPS) {
            boolean touched = false;
            for (String k : g) touched |= a.has(k);
            if (!touched || g.contains("type")) continue;
            if (g.contains("properties") && !a.has("additionalProperties") && java.util.Objects.equals(a.get("patternProperties"), b.get("patternProperties"))) {
                // a reads no key as additional: b declaring more properties (or additionalProperties) only narrows
                for (Iterator<Map.Entry<String, JsonNode>> it = a.path("properties").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (!SchemaAlgebra.jsonEquals(p.getValue(), b.path("properties").path(p.getKey()))) return false;
                }
                continue;
            }
            for (String k : g) if (!java.util.Objects.equals(a.get(k), b.get(k))) return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode av = f.getValue(), bv = b.get(k);
            if (k.equals("nullable") || k.equals("properties") || k.equals("patternProperties") || k.equals("additionalProperties")) continue; // with their group
            if (k.equals("type")) {
                EnumSet<JsonType> ta = SchemaNormalizer.parseTypes(av, ""), tb = b.has("type") ? SchemaNormalizer.parseTypes(b.get("type"), "") : EnumSet.allOf(JsonType.class);
                if (!ta.containsAll(tb)) return false;
                continue;
            }
            if (bv == null) return false;
            if (LOWER.contains(k) || UPPER.contains(k)) {
                if (!av.isNumber() || !bv.isNumber()) { if (!av.equals(bv)) return false; continue; }
                int c = bv.decimalValue().compareTo(av.decimalValue());
                if (LOWER.contains(k) ? c < 0 : c > 0) return false;
            } else if (EXCLUSIONS.contains(k)) {
                for (JsonNode x : av) {
                    boolean found = false;
                    for (JsonNode y : bv) found |= SchemaAlgebra.jsonEquals(x, y);
                    if (!found) return false;
                }
            } else if (k.equals("enum")) {
                for (JsonNode y : bv) {
                    boolean found = false;
                    for (JsonNode x : av) found |= SchemaAlgebra.jsonEquals(x, y);
                    if (!found) return false;
                }
            } else if (!SchemaAlgebra.jsonEquals(av, bv)) return false;
        }
        return true;
    }
}
