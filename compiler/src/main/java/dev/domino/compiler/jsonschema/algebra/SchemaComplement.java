package dev.domino.compiler.jsonschema.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.ConstValidator;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.JsonType;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.SchemaNormalizer;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.IntegerRanges;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.refs.Dialects;
import dev.domino.compiler.jsonschema.strings.JsonStrings;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The complement of a schema ({@code not}), exactly, as a union of schemas without a top-level
 * {@code not}: per JSON type. A schema is a conjunction of a type set and per-type keyword constraints,
 * so its complement is "another type" or, for one of its types, "this type and one keyword violated":
 * {@code not {type: object, required: [a]}} = {@code {type: [non-object types]}} or
 * {@code {type: object, properties: {a: false}}}. Per keyword: bounds flip ({@code minLength n} becomes
 * {@code maxLength n-1}, {@code minimum m} becomes {@code exclusiveMaximum m}), a property schema S
 * becomes "the property is present and its value matches {@code not S}" (compiled lazily, so recursive
 * schemas terminate), {@code prefixItems[i]} becomes "at least i+1 items and item i matches {@code not}",
 * {@code not X} gives X back, {@code anyOf} the product of its branches' complements, and a finite
 * {@code enum} the other values of each type (strings: "any string but these", the internal keyword
 * {@link #NOT_STRINGS}; numbers: the open intervals between the values; objects: a key missing, a key with
 * another value, or more members; arrays: another length or an item differing).
 *
 * <p>Complements that need "some member" are stated with internal keywords: {@code pattern} and {@code format}
 * become "a string outside the language" ({@link #NOT_PATTERNS}, {@link #NOT_FORMATS}), {@code items} over all
 * elements "contains an item outside", {@code patternProperties}, {@code additionalProperties} and
 * {@code propertyNames} (beyond finitely many excluded names) "some member whose key is in a key language and
 * whose value is outside" ({@link KeyQuantifiers#EXISTS}, whose complement is {@link KeyQuantifiers#FORALL});
 * {@code multipleOf m} becomes "a number that is not a multiple of m" ({@link NumberMultiples#NOT_MULTIPLES}).
 * Still unsupported: {@code contains} with minContains/maxContains, {@code items} after {@code prefixItems},
 * {@code additionalItems}.
 */
public final class SchemaComplement {
    /**
     * Internal keyword (never in user schemas: its name starts with U+0000): a string must not be one of
     * the listed strings. Produced by complements of string enums, merged by union, compiled by
     * {@link #stringsExcept}.
     */
    public static final String NOT_STRINGS = "\u0000notStrings";
    /** Internal keyword: a string must match none of the listed patterns (complements of {@code pattern}). */
    public static final String NOT_PATTERNS = "\u0000notPatterns";
    /** Internal keyword: a string must match none of the listed formats (complements of {@code format}). */
    public static final String NOT_FORMATS = "\u0000notFormats";
    /** Internal keyword: a string must match every listed pattern (allOf of differing {@code pattern}s). */
    public static final String ALL_PATTERNS = "\u0000patterns";
    /** The internal keywords of the string algebra, compiled by {@link SchemaCompiler#stringAlgebra}. */
    public static final java.util.List<String> STRING_ALGEBRA = java.util.List.of(NOT_STRINGS, NOT_PATTERNS, NOT_FORMATS, ALL_PATTERNS,
        StringLanguages.KEYWORD);

    /** The most alternatives one complement may produce (a product of anyOf branches' complements). */
    static final int MAX_ALTERNATIVES = 256;

    /**
     * JSON numbers whose value is not an integer, in the spellings where that shows without arithmetic
     * on the exponent (a subset: never a wrong value): a fraction ending in a non-zero digit with an
     * exponent of at most 0 ({@code 1.5}, {@code -0.25e-3}), or an integer part ending in a non-zero digit
     * with a negative exponent ({@code 1e-07}, {@code 15E-1}). Not offered: {@code 0.15e1}, {@code 1.50},
     * {@code 10e-2}.
     */
    public static final Expr NON_INTEGER;
    static {
        Expr d = IntegerRanges.DIGIT, nz = IntegerRanges.NONZERO;
        Expr e = Expr.chars(CodePointSet.fromRanges(new int[] {'e', 'e', 'E', 'E'}));
        Expr sign = Expr.optional(Expr.literal("-"));
        Expr intPart = Expr.alt(Expr.literal("0"), Expr.seq(nz, Expr.star(d)));
        Expr frac = Expr.seq(Expr.literal("."), Expr.star(d), nz);
        Expr expAtMostZero = Expr.seq(e, Expr.alt(Expr.seq(Expr.literal("-"), Expr.plus(d)),
            Expr.seq(Expr.optional(Expr.literal("+")), Expr.plus(Expr.literal("0")))));
        Expr intEndingNonZero = Expr.alt(nz, Expr.seq(nz, Expr.star(d), nz));
        Expr expNegative = Expr.seq(e, Expr.literal("-"), Expr.star(Expr.literal("0")), nz, Expr.star(d));
        NON_INTEGER = Expr.alt(
            Expr.seq(sign, intPart, frac, Expr.optional(expAtMostZero)),
            Expr.seq(sign, intEndingNonZero, expNegative));
    }

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private final SchemaCompiler sc;
    private int depth;

    public SchemaComplement(SchemaCompiler sc) { this.sc = sc; }

    /** Schemas whose union is exactly the values {@code raw} rejects (empty list: none). */
    public List<JsonNode> complement(JsonNode raw, String ptr) { return complement(raw, null, ptr); }

    /**
     * Schemas whose union, intersected with {@code context} (the schema the complement will be merged
     * with; null: none), is exactly the values of {@code context} that {@code raw} rejects. The context
     * only helps where a complement needs "some key other than these": under a context with
     * {@code additionalProperties: false} the keys are the context's declared ones.
     */
    public List<JsonNode> complement(JsonNode raw, ObjectNode context, String ptr) {
        if (++depth > 64) throw new GrammarException("'not' at " + SchemaCompiler.showPointer(ptr) + " nests too deeply");
        try {
            return complementInner(raw, context, ptr);
        } finally {
            depth--;
        }
    }

    private List<JsonNode> complementInner(JsonNode raw, ObjectNode context, String ptr) {
        // unevaluated keywords whose evaluated set depends on the branch: the union of their variants (not keeps
        // no annotations, but inside it they are collected as anywhere else)
        JsonNode expanded = sc.unevaluated.expand(raw, ptr);
        if (expanded != null) raw = expanded;
        JsonNode c = sc.norm.clean(raw, ptr);
        if (c.isBoolean()) return c.asBoolean() ? List.of() : List.of(BooleanNode.TRUE);
        ObjectNode n = (ObjectNode) c;
        if (n.isEmpty()) return List.of();
        if (StringLanguages.combines(n, true)) {
            // a combination of string constraints only: the complement of one automaton
            List<JsonNode> exact = sc.languages.asSchemas(raw, true, ptr);
            if (exact != null) return exact;
        }
        if (n.has("$ref") || n.has("allOf")) {
            JsonNode m = sc.algebra.merge(List.of(n), ptr);
            if (m.isBoolean()) return m.asBoolean() ? List.of() : List.of(BooleanNode.TRUE);
            n = (ObjectNode) m;
            if (n.has("$ref") || n.has("allOf")) { sc.unsupported(ptr, "not", "of a schema that cannot be flattened"); return List.of(); }
        }
        if (n.has("enum")) return complementOfValues(n, context, ptr);
        List<JsonNode> out = new ArrayList<>();
        EnumSet<JsonType> types = n.has("type") ? SchemaNormalizer.parseTypes(n.get("type"), ptr) : EnumSet.allOf(JsonType.class);
        EnumSet<JsonType> others = EnumSet.complementOf(types);
        if (types.contains(JsonType.INTEGER) && !types.contains(JsonType.NUMBER)) {
            others.remove(JsonType.NUMBER);
            out.add(NF.objectNode().put("type", "number").set("not", NF.objectNode().put("type", "integer")));
        }
        if (!others.isEmpty()) out.add(NF.objectNode().set("type", typeArray(others)));
        // the per-keyword alternatives only matter for the types the context admits (a string context
        // needs nothing of an object schema's complement beyond "not an object")
        if (context != null) types.retainAll(sc.oneOf.possibleTypes(context, ptr));
        if (types.contains(JsonType.OBJECT) && discriminated(n, context, ptr)) {
            // every object of the context violates n: n's object keywords need no complement of their own
            out.add(typed("object"));
            types.remove(JsonType.OBJECT);
        }
        String numType = types.contains(JsonType.NUMBER) ? "number" : "integer";
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            switch (k) {
                case "type", "nullable" -> { }
                case "not" -> out.add(v);
                case "anyOf" -> out.addAll(allOfComplements(v, context, ptr));
                case "oneOf" -> {
                    // none of the branches, or two of them at once
                    List<JsonNode> bs = new ArrayList<>();
                    for (JsonNode b : v) bs.add(sc.oneOf.resolveTop(b, ptr));
                    for (int i = 0; i < bs.size(); i++)
                        for (int j = i + 1; j < bs.size(); j++)
                            if (!sc.oneOf.disjoint(bs.get(i), bs.get(j), ptr))
                                out.add(NF.objectNode().set("allOf", NF.arrayNode().add(v.get(i)).add(v.get(j))));
                    out.addAll(allOfComplements(v, context, ptr));
                }
                case "minLength" -> { if (types.contains(JsonType.STRING) && v.asLong() > 0) out.add(typed("string").put("maxLength", v.asLong() - 1)); }
                case "maxLength" -> { if (types.contains(JsonType.STRING)) out.add(typed("string").put("minLength", v.asLong() + 1)); }
                case NOT_STRINGS -> { if (types.contains(JsonType.STRING)) out.add(NF.objectNode().set("enum", v)); }
                case "pattern" -> { if (types.contains(JsonType.STRING)) out.add(typed("string").set(NOT_PATTERNS, NF.arrayNode().add(v))); }
                case "format" -> { if (types.contains(JsonType.STRING)) out.add(typed("string").set(NOT_FORMATS, NF.arrayNode().add(v))); }
                case NOT_PATTERNS -> { if (types.contains(JsonType.STRING)) for (JsonNode x : v) out.add(typed("string").set("pattern", x)); }
                case NOT_FORMATS -> { if (types.contains(JsonType.STRING)) for (JsonNode x : v) out.add(typed("string").set("format", x)); }
                case StringLanguages.KEYWORD -> {
                    if (types.contains(JsonType.STRING))
                        for (JsonNode x : v) out.add(typed("string").set(StringLanguages.KEYWORD, NF.arrayNode().add(sc.languages.complement(x.asInt()))));
                }
                case ALL_PATTERNS -> { if (types.contains(JsonType.STRING)) for (JsonNode x : v) out.add(typed("string").set(NOT_PATTERNS, NF.arrayNode().add(x))); }
                case "minimum" -> { if (types.contains(JsonType.INTEGER)) out.add(typed(numType).set("exclusiveMaximum", v)); }
                case "exclusiveMinimum" -> { if (types.contains(JsonType.INTEGER)) out.add(typed(numType).set("maximum", v)); }
                case "maximum" -> { if (types.contains(JsonType.INTEGER)) out.add(typed(numType).set("exclusiveMinimum", v)); }
                case "exclusiveMaximum" -> { if (types.contains(JsonType.INTEGER)) out.add(typed(numType).set("minimum", v)); }
                case "multipleOf" -> { if (types.contains(JsonType.INTEGER)) out.add(typed(numType).set(NumberMultiples.NOT_MULTIPLES, NF.arrayNode().add(v))); }
                case NumberMultiples.NOT_MULTIPLES -> { if (types.contains(JsonType.INTEGER)) for (JsonNode x : v) out.add(typed(numType).set("multipleOf", x)); }
                case "uniqueItems" -> { if (types.contains(JsonType.ARRAY) && v.asBoolean(false)) sc.unsupported(ptr, "not", "of 'uniqueItems' (an array with two equal items)"); }
                case "minItems" -> { if (types.contains(JsonType.ARRAY) && v.asLong() > 0) out.add(typed("array").put("maxItems", v.asLong() - 1)); }
                case "maxItems" -> { if (types.contains(JsonType.ARRAY)) out.add(typed("array").put("minItems", v.asLong() + 1)); }
                case "minProperties" -> { if (types.contains(JsonType.OBJECT) && v.asLong() > 0) out.add(typed("object").put("maxProperties", v.asLong() - 1)); }
                case "maxProperties" -> { if (types.contains(JsonType.OBJECT)) out.add(typed("object").put("minProperties", v.asLong() + 1)); }
                case "required" -> {
                    if (types.contains(JsonType.OBJECT))
                        for (JsonNode r : v) out.add(typed("object").set("properties", NF.objectNode().set(r.asText(), BooleanNode.FALSE)));
                }
                case "properties" -> {
                    if (!types.contains(JsonType.OBJECT)) break;
                    for (Iterator<Map.Entry<String, JsonNode>> p = v.fields(); p.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = p.next();
                        if (SchemaNormalizer.isTrivial(e.getValue())) continue;
                        ObjectNode alt = typed("object");
                        alt.set("required", NF.arrayNode().add(e.getKey()));
                        alt.set("properties", NF.objectNode().set(e.getKey(), NF.objectNode().set("not", e.getValue())));
                        out.add(alt);
                    }
                }
                case "patternProperties" -> {
                    // some key matching p has a value outside its schema
                    if (!types.contains(JsonType.OBJECT)) break;
                    for (Iterator<Map.Entry<String, JsonNode>> p = v.fields(); p.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = p.next();
                        if (SchemaNormalizer.isTrivial(e.getValue())) continue;
                        out.add(KeyQuantifiers.object(KeyQuantifiers.EXISTS, KeyQuantifiers.patternKeys(e.getKey()),
                            KeyQuantifiers.not(e.getValue()), "not"));
                    }
                }
                case "additionalProperties" -> {
                    if (!types.contains(JsonType.OBJECT) || SchemaNormalizer.isTrivial(v)) break;
                    String forced = v.isBoolean() ? requiredAdditionalKey(n, context, ptr) : null;
                    if (forced != null) out.add(typed("object").set("required", NF.arrayNode().add(forced)));
                    else if (!additionalInContext(out, n, v, context))
                        // some key that is additional for n has a value outside v
                        out.add(KeyQuantifiers.object(KeyQuantifiers.EXISTS, KeyQuantifiers.additionalKeys(n), KeyQuantifiers.not(v), "not"));
                }
                case KeyQuantifiers.EXISTS, KeyQuantifiers.FORALL -> {
                    if (types.contains(JsonType.OBJECT)) out.addAll(KeyQuantifiers.complement(k, v));
                }
                case "contains" -> {
                    if (!types.contains(JsonType.ARRAY) || n.path("minContains").asLong(1) == 0) break;
                    if (n.has("maxContains") || n.path("minContains").asLong(1) > 1) sc.unsupported(ptr, "not", "of 'contains' with minContains/maxContains");
                    else out.add(typed("array").set("items", NF.objectNode().set("not", v)));
                }
                case "minContains", "maxContains" -> { }
                case "propertyNames" -> {
                    if (!types.contains(JsonType.OBJECT) || SchemaNormalizer.isTrivial(v)) break;
                    // some key's name is outside v: one of finitely many names is required, else a key outside v exists
                    List<JsonNode> requiredNames = new ArrayList<>();
                    for (JsonNode excluded : complement(v, null, ptr)) {
                        JsonNode alt = sc.norm.clean(excluded, ptr);
                        JsonNode names = alt.path("enum");
                        boolean finite = alt.isObject() && names.isArray() && alt.size() <= 2
                            && (alt.size() == 1 || alt.path("type").asText("").equals("string"));
                        if (!finite) { requiredNames = null; break; }
                        for (JsonNode name : names)
                            if (name.isTextual()) requiredNames.add(typed("object").set("required", NF.arrayNode().add(name)));
                    }
                    if (requiredNames != null) out.addAll(requiredNames);
                    else out.add(KeyQuantifiers.object(KeyQuantifiers.EXISTS, KeyQuantifiers.not(v), BooleanNode.TRUE, "not"));
                }
                case ArraySchemas.CONTAINS_ALL -> {
                    if (types.contains(JsonType.ARRAY))
                        for (JsonNode x : v) out.add(typed("array").set("items", NF.objectNode().set("not", x)));
                }
                case "prefixItems" -> { if (types.contains(JsonType.ARRAY)) positional(out, "prefixItems", v); }
                case "items" -> {
                    if (!types.contains(JsonType.ARRAY)) break;
                    if (v.isArray()) positional(out, "items", v);
                    else if (n.has("prefixItems") && !SchemaNormalizer.isTrivial(v)) sc.unsupported(ptr, "not", "of 'items' after 'prefixItems'");
                    else if (!SchemaNormalizer.isTrivial(v)) out.add(someItem(NF.objectNode().set("not", v)));
                }
                case "additionalItems" -> {
                    if (types.contains(JsonType.ARRAY) && n.path("items").isArray() && !SchemaNormalizer.isTrivial(v))
                        sc.unsupported(ptr, "not", "of 'additionalItems'");
                }
                default -> sc.unsupported(ptr, "not", "of '" + k + "'");
            }
        }
        return out;
    }

    /**
     * "Some key other than n's declared ones has a value outside {@code additional}", within a context
     * whose keys are known (additionalProperties false, no patternProperties): one of the context's keys
     * that n does not declare is present with such a value. False when the context does not allow it.
     */
    private static boolean additionalInContext(List<JsonNode> out, ObjectNode n, JsonNode additional, ObjectNode context) {
        if (context == null || n.has("patternProperties") || context.has("patternProperties")) return false;
        JsonNode ctxAdditional = context.get("additionalProperties");
        if (ctxAdditional == null || !ctxAdditional.isBoolean() || ctxAdditional.asBoolean()) return false;
        Set<String> keys = new java.util.LinkedHashSet<>();
        context.path("properties").fieldNames().forEachRemaining(keys::add);
        context.path("required").forEach(r -> keys.add(r.asText()));
        for (String k : keys) {
            if (n.path("properties").has(k)) continue;
            ObjectNode alt = typed("object");
            alt.set("required", NF.arrayNode().add(k));
            if (!(additional.isBoolean() && !additional.asBoolean()))
                alt.set("properties", NF.objectNode().set(k, NF.objectNode().set("not", additional)));
            out.add(alt);
        }
        return true;
    }

    /**
     * A key the context requires that is an additional key of n (neither declared nor matched by n's
     * patterns), or null. Under {@code additionalProperties: false} every value of the context then violates
     * n, so "has that key" is the whole complement within the context.
     */
    private String requiredAdditionalKey(ObjectNode n, ObjectNode context, String ptr) {
        if (context == null) return null;
        for (JsonNode r : context.path("required")) {
            String key = r.asText();
            if (n.path("properties").has(key)) continue;
            boolean matched = false;
            for (java.util.Iterator<String> it = n.path("patternProperties").fieldNames(); it.hasNext() && !matched; ) {
                try {
                    matched = ExprLanguage.matches(dev.domino.compiler.frontend.RegexParser.parseSearch(it.next(),
                        dev.domino.compiler.frontend.RegexParser.Flavor.ECMA).expr(), key);
                } catch (GrammarException e) {
                    matched = true; // a pattern we cannot read: do not rely on this key
                }
            }
            if (!matched) return key;
        }
        return null;
    }

    /**
     * Whether a property that n constrains is one the context requires with constant values n rejects (the
     * discriminator of a oneOf written without {@code type: object}: {@code kind: {const: "a"}} against
     * {@code kind: {const: "b"}}): then no object of the context satisfies n.
     */
    private boolean discriminated(ObjectNode n, ObjectNode context, String ptr) {
        if (context == null || !n.has("properties") || !context.has("properties")) return false;
        Set<String> required = new java.util.HashSet<>();
        context.path("required").forEach(r -> required.add(r.asText()));
        ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), sc::unsupported).formats(sc.formatsAsserted()).languages(sc.languages);
        for (Iterator<Map.Entry<String, JsonNode>> it = n.get("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            JsonNode mine = context.get("properties").get(p.getKey());
            if (!required.contains(p.getKey()) || mine == null || SchemaNormalizer.isTrivial(p.getValue())) continue;
            JsonNode values = sc.oneOf.resolveTop(mine, ptr);
            if (!values.isObject() || !values.path("enum").isArray() || values.get("enum").isEmpty()) continue;
            boolean allRejected = true;
            for (JsonNode v : values.get("enum")) allRejected &= !validator.valid(p.getValue(), v, ptr);
            if (allRejected) return true;
        }
        return false;
    }

    /** Item i exists and violates its positional schema. */
    private void positional(List<JsonNode> out, String kw, JsonNode schemas) {
        for (int i = 0; i < schemas.size(); i++) {
            if (SchemaNormalizer.isTrivial(schemas.get(i))) continue;
            ArrayNode pos = NF.arrayNode();
            for (int j = 0; j < i; j++) pos.add(BooleanNode.TRUE);
            pos.add(NF.objectNode().set("not", schemas.get(i)));
            out.add(typed("array").put("minItems", i + 1).set(kw, pos));
        }
    }

    /**
     * The complement of anyOf(branches) = the conjunction of the branches' complements, distributed
     * ({@link UnionProduct}: each complement pruned against the context before multiplying, empty partial
     * products dropped as they appear); more than {@link #MAX_ALTERNATIVES} left is an unsupported not.
     */
    private List<JsonNode> allOfComplements(JsonNode branches, ObjectNode context, String ptr) {
        List<List<JsonNode>> unions = new ArrayList<>();
        for (JsonNode b : widest(branches, ptr)) {
            List<JsonNode> cb = sc.products.prune(complement(b, context, ptr), context, ptr);
            if (cb.isEmpty()) return List.of(); // this branch holds wherever the context does
            unions.add(cb);
        }
        return product(unions, context, ptr);
    }

    /**
     * The branches of an anyOf without those another branch contains (their union is the same, and the
     * product of complements loses a factor): {@code anyOf [X, allOf [C, X]]} is X.
     */
    private List<JsonNode> widest(JsonNode branches, String ptr) {
        List<JsonNode> raw = new ArrayList<>(), flat = new ArrayList<>();
        for (JsonNode b : branches) {
            raw.add(b);
            JsonNode f;
            try {
                f = sc.oneOf.resolveTop(b, ptr);
            } catch (GrammarException e) {
                f = null; // compared with nothing: kept
            }
            flat.add(f);
        }
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            boolean contained = false;
            for (int j = 0; j < raw.size() && !contained; j++) {
                if (j == i || flat.get(i) == null || flat.get(j) == null) continue;
                // equal branches: the first one stays
                contained = sc.emptiness.subsumes(flat.get(j), flat.get(i)) && (j < i || !sc.emptiness.subsumes(flat.get(i), flat.get(j)));
            }
            if (!contained) out.add(raw.get(i));
        }
        return out;
    }

    private List<JsonNode> product(List<List<JsonNode>> unions, ObjectNode context, String ptr) {
        List<JsonNode> out = sc.products.product(unions, context, MAX_ALTERNATIVES, ptr);
        if (out != null) return out;
        sc.unsupported(ptr, "not", "more than " + MAX_ALTERNATIVES + " alternatives in its complement, after pruning empty ones");
        return List.of();
    }

    /** Every value but the listed ones that the rest of the schema admits. */
    private List<JsonNode> complementOfValues(ObjectNode n, ObjectNode context, String ptr) {
        ObjectNode rest = n.deepCopy();
        ArrayNode listed = (ArrayNode) rest.remove("enum");
        ConstValidator validator = new ConstValidator(ref -> sc.refs.resolve(ref, ptr), sc::unsupported).formats(sc.formatsAsserted()).languages(sc.languages);
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode v : listed) if (validator.valid(rest, v, ptr)) values.add(v);
        EnumSet<JsonType> full = EnumSet.allOf(JsonType.class);
        boolean hasTrue = false, hasFalse = false;
        Set<String> strings = new TreeSet<>();
        TreeSet<BigDecimal> numbers = new TreeSet<>();
        List<List<JsonNode>> objects = new ArrayList<>(), arrays = new ArrayList<>();
        for (JsonNode v : values) {
            if (v.isNull()) full.remove(JsonType.NULL);
            else if (v.isBoolean()) { full.remove(JsonType.BOOLEAN); if (v.asBoolean()) hasTrue = true; else hasFalse = true; }
            else if (v.isTextual()) { full.remove(JsonType.STRING); strings.add(v.asText()); }
            else if (v.isNumber()) { full.remove(JsonType.NUMBER); full.remove(JsonType.INTEGER); numbers.add(v.decimalValue().stripTrailingZeros()); }
            else if (v.isObject()) { full.remove(JsonType.OBJECT); objects.add(objectsOtherThan(v)); }
            else { full.remove(JsonType.ARRAY); arrays.add(arraysOtherThan(v)); }
        }
        List<JsonNode> out = new ArrayList<>();
        if (!full.isEmpty()) out.add(NF.objectNode().set("type", typeArray(full)));
        if (!objects.isEmpty()) out.addAll(product(objects, context, ptr));
        if (!arrays.isEmpty()) out.addAll(product(arrays, context, ptr));
        if (hasTrue != hasFalse) out.add(NF.objectNode().set("enum", NF.arrayNode().add(!hasTrue)));
        if (!strings.isEmpty()) {
            ArrayNode s = NF.arrayNode();
            strings.forEach(s::add);
            out.add(typed("string").set(NOT_STRINGS, s));
        }
        BigDecimal prev = null;
        for (BigDecimal d : numbers) {
            ObjectNode range = typed("number");
            if (prev != null) range.put("exclusiveMinimum", prev);
            range.put("exclusiveMaximum", d);
            out.add(range);
            prev = d;
        }
        if (prev != null) out.add(typed("number").put("exclusiveMinimum", prev));
        return out;
    }

    /**
     * The objects other than the constant c: one of c's keys missing, one present with another value, or a
     * key beyond c's (more members than c has: with all of c's keys present, one more is another key).
     */
    private static List<JsonNode> objectsOtherThan(JsonNode c) {
        List<JsonNode> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = c.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(typed("object").set("properties", NF.objectNode().set(e.getKey(), BooleanNode.FALSE)));
            ObjectNode other = typed("object");
            other.set("required", NF.arrayNode().add(e.getKey()));
            other.set("properties", NF.objectNode().set(e.getKey(), NF.objectNode().set("not", oneValue(e.getValue()))));
            out.add(other);
        }
        out.add(typed("object").put("minProperties", c.size() + 1));
        return out;
    }

    /** The arrays other than the constant c: shorter, longer, or of its length or more with item i differing. */
    private static List<JsonNode> arraysOtherThan(JsonNode c) {
        List<JsonNode> out = new ArrayList<>();
        if (c.size() > 0) out.add(typed("array").put("maxItems", c.size() - 1));
        out.add(typed("array").put("minItems", c.size() + 1));
        for (int i = 0; i < c.size(); i++) {
            ArrayNode pos = NF.arrayNode();
            for (int j = 0; j < i; j++) pos.add(BooleanNode.TRUE);
            pos.add(NF.objectNode().set("not", oneValue(c.get(i))));
            // array-form items: positional in every dialect as the compiler reads it (prefixItems is no keyword before 2020-12)
            out.add(typed("array").put("minItems", i + 1).set("items", pos));
        }
        return out;
    }

    private static ObjectNode typed(String type) { return NF.objectNode().put("type", type); }

    /*
     * The schemas written here are read in the document's dialect, so they use keywords every dialect defines
     * (draft 4 has neither const nor contains).
     */

    /** The schema of exactly one value. */
    private static ObjectNode oneValue(JsonNode v) {
        ObjectNode out = NF.objectNode();
        out.putArray("enum").add(v);
        return out;
    }

    /** The arrays with some item matching {@code s}: contains, or where the dialect has none the internal keyword. */
    private ObjectNode someItem(JsonNode s) {
        if (Dialects.defines("contains", sc.draft)) return typed("array").set("contains", s);
        ObjectNode out = typed("array");
        out.putArray(ArraySchemas.CONTAINS_ALL).add(s);
        return out;
    }

    static ArrayNode typeArray(EnumSet<JsonType> types) {
        ArrayNode t = NF.arrayNode();
        if (types.contains(JsonType.NUMBER)) t.add("number"); else if (types.contains(JsonType.INTEGER)) t.add("integer");
        for (JsonType x : types) if (x != JsonType.NUMBER && x != JsonType.INTEGER) t.add(x.name().toLowerCase());
        return t;
    }

    /**
     * JSON string content (every escaping) of the strings of {@code minLen..maxLen} code points that are
     * not in {@code names}: a trie over the names, any other character leaving it.
     */
    static Expr stringsExcept(Set<String> names, int minLen, int maxLen) {
        return JsonStrings.encodeRegex(notIn(new TreeSet<>(names), "", 0, minLen, maxLen), true);
    }

    private static Expr notIn(TreeSet<String> names, String prefix, int len, int minLen, int maxLen) {
        if (maxLen != Expr.Repeat.UNBOUNDED && len > maxLen) return Expr.NOTHING;
        List<Expr> alts = new ArrayList<>();
        if (!names.contains(prefix) && len >= minLen) alts.add(Expr.EMPTY);
        TreeMap<Integer, Boolean> next = new TreeMap<>();
        for (String s : names.tailSet(prefix)) {
            if (!s.startsWith(prefix)) break;
            if (s.length() > prefix.length()) next.put(s.codePointAt(prefix.length()), true);
        }
        CodePointSet used = CodePointSet.EMPTY;
        for (int cp : next.keySet()) {
            used = used.union(CodePointSet.of(cp));
            String p = prefix + Character.toString(cp);
            Expr tail = notIn(names, p, len + 1, minLen, maxLen);
            if (!(tail instanceof Expr.Alt a && a.options().isEmpty())) alts.add(JsonSyntax.seq(Expr.literal(Character.toString(cp)), tail));
        }
        if (maxLen == Expr.Repeat.UNBOUNDED || len + 1 <= maxLen) {
            int lo = Math.max(0, minLen - len - 1);
            int hi = maxLen == Expr.Repeat.UNBOUNDED ? Expr.Repeat.UNBOUNDED : maxLen - len - 1;
            alts.add(JsonSyntax.seq(Expr.chars(used.complement()), new Expr.Repeat(Expr.chars(CodePointSet.ANY), lo, hi)));
        }
        return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
    }
}
