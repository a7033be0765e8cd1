package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar.KeywordLocation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The JSON Schema to IR compiler behind {@link JsonSchemaGrammar}. */
final class SchemaCompiler {
    static final Set<String> ANNOTATIONS = Set.of(
        "title", "description", "examples", "example", "$schema", "$id", "id", "default", "$comment",
        "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema",
        "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$defs", "definitions",
        "discriminator", "xml", "externalDocs", "markdownDescription", "enumDescriptions",
        "markdownEnumDescriptions", "errorMessage");
    static final Set<String> HANDLED = Set.of(
        "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
        "items", "prefixItems", "additionalItems", "minItems", "maxItems", "minLength", "maxLength",
        "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf",
        "allOf", "$ref", "nullable", "minProperties", "maxProperties", "multipleOf", "not", "uniqueItems",
        "propertyNames");
    static final Set<String> UNSUPPORTED = Set.of(
        "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies", "contains",
        "minContains", "maxContains", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",
        "$recursiveRef");

    enum T { NULL, BOOLEAN, OBJECT, ARRAY, STRING, INTEGER, NUMBER }

    private static final JsonNodeFactory NF = JsonNodeFactory.instance;
    private static final Expr ANY_CHAR = JsonStrings.encodeSet(CodePointSet.ANY, true);
    private static final Expr INT = Expr.seq(Expr.optional(Expr.literal("-")),
        Expr.alt(Expr.literal("0"), Expr.seq(IntegerRanges.NONZERO, Expr.star(IntegerRanges.DIGIT))));
    private static final Expr FRAC = Expr.seq(Expr.literal("."), Expr.plus(IntegerRanges.DIGIT));
    private static final Expr EXP = Expr.seq(Expr.chars(CodePointSet.fromRanges(new int[] {'e', 'e', 'E', 'E'})),
        Expr.optional(Expr.chars(CodePointSet.fromRanges(new int[] {'+', '+', '-', '-'}))), Expr.plus(IntegerRanges.DIGIT));
    private static final Expr NUMBER = Expr.seq(INT, Expr.optional(FRAC), Expr.optional(EXP));
    private static final Expr STRING = Expr.seq(Expr.literal("\""), Expr.star(ANY_CHAR), Expr.literal("\""));

    private final JsonNode root;
    private final JsonSchemaOptions opt;
    private final boolean refSiblingsIgnored;
    final Set<KeywordLocation> ignored = new LinkedHashSet<>();
    final Set<KeywordLocation> unknown = new LinkedHashSet<>();
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final Map<String, String> refRules = new HashMap<>();
    private final Set<String> usedNames = new java.util.HashSet<>();
    private int objCounter, arrCounter, depth;
    private final Expr ws;

    SchemaCompiler(JsonNode root, JsonSchemaOptions opt) {
        this.root = root;
        this.opt = opt;
        String draft = root.isObject() && root.path("$schema").isTextual() ? root.get("$schema").asText() : "";
        this.refSiblingsIgnored = draft.matches(".*draft-0[3-7].*");
        this.ws = opt.whitespace() == JsonSchemaOptions.Whitespace.FLEXIBLE
            ? Expr.star(Expr.chars(CodePointSet.fromRanges(new int[] {' ', ' ', '\t', '\n', '\r', '\r'}))) : Expr.EMPTY;
    }

    Grammar compileRoot() {
        rules.put("root", Expr.EMPTY); // keep "root" first
        usedNames.add("root");
        Expr body = compile(root, "");
        rules.put("root", seq(ws, body, ws));
        return Grammar.of("root", rules);
    }

    // ---------------------------------------------------------------- punctuation

    private boolean flexible() { return opt.whitespace() == JsonSchemaOptions.Whitespace.FLEXIBLE; }

    private Expr comma() {
        return switch (opt.whitespace()) {
            case FLEXIBLE -> seq(ws, Expr.literal(","), ws);
            case COMPACT -> Expr.literal(",");
            case FIXED -> Expr.literal(opt.itemSeparator());
        };
    }

    private Expr colon() {
        return switch (opt.whitespace()) {
            case FLEXIBLE -> seq(ws, Expr.literal(":"), ws);
            case COMPACT -> Expr.literal(":");
            case FIXED -> Expr.literal(opt.keySeparator());
        };
    }

    /** open + ws + body + ws + close, or open ws close for an empty body (body == null). */
    private Expr bracket(String open, Expr body, String close) {
        if (body == null) return flexible() ? seq(Expr.literal(open), ws, Expr.literal(close)) : Expr.literal(open + close);
        return seq(Expr.literal(open), ws, body, ws, Expr.literal(close));
    }

    private static Expr seq(Expr... items) {
        List<Expr> out = new ArrayList<>();
        for (Expr e : items) {
            if (e instanceof Expr.Seq s) out.addAll(s.items());
            else out.add(e);
        }
        return out.size() == 1 ? out.get(0) : new Expr.Seq(out);
    }

    private static Expr alt(List<Expr> options) {
        List<Expr> out = new ArrayList<>();
        for (Expr e : options) {
            if (e instanceof Expr.Alt a && a.options().isEmpty()) continue;
            out.add(e);
        }
        return out.size() == 1 ? out.get(0) : new Expr.Alt(out);
    }

    // ---------------------------------------------------------------- errors / pointers

    static String showPointer(String ptr) { return ptr.isEmpty() ? "/" : ptr; }

    private static String child(String ptr, String key) { return ptr + "/" + key.replace("~", "~0").replace("/", "~1"); }

    /** Throws unless the keyword is ignored by the options (then records it and returns). */
    private void unsupported(String ptr, String kw, String detail) {
        if (opt.ignoredKeywords().contains(kw)) { ignored.add(new KeywordLocation(ptr, kw)); return; }
        throw new GrammarException("unsupported keyword '" + kw + "' at " + showPointer(ptr) + (detail == null ? "" : " (" + detail + ")"));
    }

    // ---------------------------------------------------------------- generic JSON

    private Expr anyValue() {
        if (!rules.containsKey("json_value")) {
            usedNames.addAll(List.of("json_value", "json_object", "json_array", "json_string", "json_number"));
            rules.put("json_value", Expr.EMPTY);
            rules.put("json_object", Expr.EMPTY);
            rules.put("json_array", Expr.EMPTY);
            rules.put("json_string", STRING);
            rules.put("json_number", NUMBER);
            Expr v = Expr.ref("json_value");
            Expr member = seq(Expr.ref("json_string"), colon(), v);
            rules.put("json_value", alt(List.of(Expr.ref("json_object"), Expr.ref("json_array"), Expr.ref("json_string"),
                Expr.ref("json_number"), Expr.literal("true"), Expr.literal("false"), Expr.literal("null"))));
            rules.put("json_object", alt(List.of(bracket("{", null, "}"),
                bracket("{", seq(member, Expr.star(seq(comma(), member))), "}"))));
            rules.put("json_array", alt(List.of(bracket("[", null, "]"),
                bracket("[", seq(v, Expr.star(seq(comma(), v))), "]"))));
        }
        return Expr.ref("json_value");
    }

    // ---------------------------------------------------------------- schema cleaning

    private static boolean isTrivial(JsonNode n) {
        return (n.isBoolean() && n.asBoolean()) || (n.isObject() && n.isEmpty());
    }

    /** Keeps only the keywords with assertion semantics we handle; reports/throws for the rest. */
    private JsonNode clean(JsonNode node, String ptr) {
        if (node.isBoolean()) return node;
        if (!node.isObject()) throw new GrammarException("schema at " + showPointer(ptr) + " is not an object or boolean");
        checkValues(node, ptr);
        ObjectNode out = NF.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            if (ANNOTATIONS.contains(k)) continue;
            if (HANDLED.contains(k)) {
                if (k.equals("uniqueItems")) { if (v.asBoolean(false)) unsupported(ptr, k, null); continue; }
                if (k.equals("propertyNames")) {
                    JsonNode pn = clean(v, child(ptr, k));
                    if (isTrivial(pn) || (pn.size() == 1 && pn.path("type").asText("").equals("string"))) continue;
                    unsupported(ptr, k, null);
                    continue;
                }
                if (k.equals("nullable") && !v.asBoolean(false)) continue;
                out.set(k, v);
            } else if (UNSUPPORTED.contains(k)) {
                unsupported(ptr, k, null);
            } else {
                unknown.add(new KeywordLocation(ptr, k));
            }
        }
        // draft-04 boolean exclusiveMinimum/Maximum -> numeric form
        for (String[] p : new String[][] {{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}}) {
            JsonNode ex = out.get(p[0]);
            if (ex != null && ex.isBoolean()) {
                out.remove(p[0]);
                if (ex.asBoolean() && out.has(p[1])) out.set(p[0], out.remove(p[1]));
            }
        }
        if (out.has("const")) {
            ArrayNode e = NF.arrayNode().add(out.remove("const"));
            if (out.has("enum")) e = intersectEnums(e, (ArrayNode) out.get("enum"));
            out.set("enum", e);
        }
        return out;
    }

    // ---------------------------------------------------------------- main dispatch

    Expr compile(JsonNode raw, String ptr) {
        if (++depth > 200) throw new GrammarException("schema at " + showPointer(ptr) + " nests too deeply (recursive allOf/$ref merge?)");
        try {
            return compileInner(raw, ptr);
        } finally {
            depth--;
        }
    }

    private final Set<JsonNode> checked = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /** {@link KeywordValues#check} once per schema object. */
    private void checkValues(JsonNode node, String ptr) {
        if (node.isObject() && checked.add(node)) KeywordValues.check(node, ptr);
    }

    private Expr compileInner(JsonNode raw, String ptr) {
        checkValues(raw, ptr);
        if (raw.isObject() && (raw.has("enum") || raw.has("const"))) return enumExpr(raw, null, ptr);
        if (raw.isObject() && raw.path("allOf").isArray()) {
            for (JsonNode part : raw.get("allOf")) {
                JsonNode r = part;
                for (int k = 0; k < 32 && r.isObject() && r.has("$ref") && r.size() == 1; k++) {
                    JsonNode t = resolve(r.get("$ref").asText(), ptr);
                    if (t == null) break;
                    r = t;
                }
                if (r.isObject() && (r.has("enum") || r.has("const"))) {
                    checkValues(r, ptr);
                    return enumExpr(raw, r, ptr);
                }
            }
        }
        JsonNode c = clean(raw, ptr);
        if (c.isBoolean()) return c.asBoolean() ? anyValue() : Expr.NOTHING;
        ObjectNode n = (ObjectNode) c;
        if (n.isEmpty()) return anyValue();
        boolean merging = n.has("allOf") || (n.has("$ref") && n.size() > 1 && !refSiblingsIgnored)
            || ((n.has("anyOf") || n.has("oneOf")) && n.size() > 1);
        if (merging) {
            String key = n.toString();
            String existing = mergedRules.get(key);
            if (existing != null) return Expr.ref(existing);
            String name = newName("all_" + (mergedRules.size() + 1));
            mergedRules.put(key, name);
            rules.put(name, Expr.EMPTY);
            rules.put(name, compileCombined(n, ptr));
            return Expr.ref(name);
        }
        return compileCombined(n, ptr);
    }

    private final Map<String, String> mergedRules = new HashMap<>();

    private Expr compileCombined(ObjectNode n, String ptr) {
        if (n.has("$ref")) {
            String ref = n.get("$ref").asText();
            ObjectNode rest = n.deepCopy();
            rest.remove("$ref");
            if (rest.isEmpty() || refSiblingsIgnored) return refExpr(ref, ptr);
            JsonNode target = resolve(ref, ptr);
            if (target == null) return anyValue();
            return compile(merge(List.of(target, rest), ptr), ptr);
        }
        if (n.has("allOf")) {
            ObjectNode rest = n.deepCopy();
            JsonNode all = rest.remove("allOf");
            List<JsonNode> parts = new ArrayList<>();
            parts.add(rest);
            all.forEach(parts::add);
            return compile(merge(parts, ptr), ptr);
        }
        if (n.has("anyOf") || n.has("oneOf")) {
            boolean any = n.has("anyOf");
            String kw = any ? "anyOf" : "oneOf";
            ObjectNode rest = n.deepCopy();
            JsonNode branches = rest.remove(kw);
            if (!any) {
                Expr special = oneOfSpecial(n, rest, branches, ptr);
                if (special != null) return special;
            }
            List<JsonNode> merged = new ArrayList<>();
            int i = 0;
            for (JsonNode b : branches) {
                merged.add(rest.isEmpty() ? b : merge(List.of(rest, b), child(child(ptr, kw), String.valueOf(i))));
                i++;
            }
            if (!any) checkDisjoint(merged, ptr);
            List<Expr> alts = new ArrayList<>();
            for (int j = 0; j < merged.size(); j++) alts.add(compile(merged.get(j), child(child(ptr, kw), String.valueOf(j))));
            return alts.isEmpty() ? Expr.NOTHING : alt(alts);
        }
        EnumSet<T> types = types(n, ptr);
        List<Expr> alts = new ArrayList<>();
        if (types.contains(T.OBJECT)) alts.add(objectExpr(n, ptr));
        if (types.contains(T.ARRAY)) alts.add(arrayExpr(n, ptr));
        if (types.contains(T.STRING)) alts.add(stringExpr(n, ptr));
        if (types.contains(T.NUMBER)) alts.add(numberExpr(n, ptr, false));
        else if (types.contains(T.INTEGER)) alts.add(numberExpr(n, ptr, true));
        if (types.contains(T.BOOLEAN)) { alts.add(Expr.literal("true")); alts.add(Expr.literal("false")); }
        if (types.contains(T.NULL)) alts.add(Expr.literal("null"));
        return alts.isEmpty() ? Expr.NOTHING : alt(alts);
    }

    // ---------------------------------------------------------------- types

    private static EnumSet<T> parseTypes(JsonNode type, String ptr) {
        EnumSet<T> out = EnumSet.noneOf(T.class);
        List<JsonNode> list = new ArrayList<>();
        if (type.isArray()) type.forEach(list::add); else list.add(type);
        for (JsonNode t : list) {
            switch (t.asText()) {
                case "null" -> out.add(T.NULL);
                case "boolean" -> out.add(T.BOOLEAN);
                case "object" -> out.add(T.OBJECT);
                case "array" -> out.add(T.ARRAY);
                case "string" -> out.add(T.STRING);
                case "integer" -> out.add(T.INTEGER);
                case "number" -> { out.add(T.NUMBER); out.add(T.INTEGER); }
                default -> throw new GrammarException("unknown type '" + t.asText() + "' at " + showPointer(ptr));
            }
        }
        return out;
    }

    private EnumSet<T> types(ObjectNode n, String ptr) {
        EnumSet<T> types = n.has("type") ? parseTypes(n.get("type"), ptr) : EnumSet.allOf(T.class);
        if (n.path("nullable").asBoolean(false)) types.add(T.NULL);
        if (n.has("not")) {
            JsonNode not = clean(n.get("not"), child(ptr, "not"));
            if (not.isBoolean()) {
                if (not.asBoolean()) types.clear();
            } else if (not.isEmpty()) {
                types.clear();
            } else if (typeOnly(not, ptr) != null) {
                EnumSet<T> neg = typeOnly(not, ptr);
                if (neg.contains(T.INTEGER) && !neg.contains(T.NUMBER) && types.contains(T.NUMBER)) {
                    unsupported(ptr, "not", "'not integer' on numbers");
                } else {
                    types.removeAll(neg);
                }
            } else {
                unsupported(ptr, "not", null);
            }
        }
        return types;
    }

    /** If the schema means exactly "the type is one of T", returns T; otherwise null. */
    private EnumSet<T> typeOnly(JsonNode raw, String ptr) {
        JsonNode s = clean(raw, ptr);
        if (s.isBoolean()) return s.asBoolean() ? EnumSet.allOf(T.class) : EnumSet.noneOf(T.class);
        if (s.isEmpty()) return EnumSet.allOf(T.class);
        if (s.size() == 1 && s.has("type")) return parseTypes(s.get("type"), ptr);
        if (s.size() == 1 && s.has("$ref")) {
            JsonNode t = resolve(s.get("$ref").asText(), ptr);
            return t == null || ++depth > 100 ? null : typeOnlyAndPop(t, ptr);
        }
        if (s.size() == 1 && s.has("anyOf")) {
            EnumSet<T> out = EnumSet.noneOf(T.class);
            for (JsonNode b : s.get("anyOf")) {
                EnumSet<T> t = typeOnly(b, ptr);
                if (t == null) return null;
                out.addAll(t);
            }
            return out;
        }
        return null;
    }

    private EnumSet<T> typeOnlyAndPop(JsonNode t, String ptr) {
        try { return typeOnly(t, ptr); } finally { depth--; }
    }

    // ---------------------------------------------------------------- enum / const

    private ArrayNode intersectEnums(ArrayNode a, ArrayNode b) {
        ArrayNode out = NF.arrayNode();
        for (JsonNode x : a) for (JsonNode y : b) if (jsonEquals(x, y)) { out.add(x); break; }
        return out;
    }

    private static boolean jsonEquals(JsonNode x, JsonNode y) {
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

    /**
     * enum/const: the listed values (or those of {@code source}, an allOf part) that validate
     * against the whole schema node.
     */
    private Expr enumExpr(JsonNode raw, JsonNode source, String ptr) {
        JsonNode src = source == null ? raw : source;
        List<JsonNode> values = new ArrayList<>();
        if (src.has("const")) values.add(src.get("const"));
        else src.get("enum").forEach(values::add);
        JsonNode rest = raw;
        if (source == null) {
            ObjectNode r = raw.deepCopy();
            r.remove("enum");
            r.remove("const");
            rest = r;
            if (raw.has("const") && raw.has("enum")) rest = r.set("enum", raw.get("enum"));
        }
        ConstValidator validator = new ConstValidator(ref -> resolve(ref, ptr), this::unsupported);
        List<Expr> alts = new ArrayList<>();
        for (JsonNode v : values) if (validator.valid(rest, v, ptr)) alts.add(serialize(v));
        return alts.isEmpty() ? Expr.NOTHING : alt(alts);
    }

    private static T typeOf(JsonNode v) {
        if (v.isNull()) return T.NULL;
        if (v.isBoolean()) return T.BOOLEAN;
        if (v.isObject()) return T.OBJECT;
        if (v.isArray()) return T.ARRAY;
        if (v.isTextual()) return T.STRING;
        return isIntegral(v) && v.isIntegralNumber() ? T.INTEGER : T.NUMBER;
    }

    private static boolean isIntegral(JsonNode v) {
        return v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0;
    }

    /** One JSON spelling of a constant (strings: all escapings unless canonical-only is requested). */
    private Expr serialize(JsonNode v) {
        if (v.isNull()) return Expr.literal("null");
        if (v.isBoolean()) return Expr.literal(v.asBoolean() ? "true" : "false");
        if (v.isNumber()) return numberSpellings(v);
        if (v.isTextual()) return stringLiteral(v.asText());
        if (v.isArray()) {
            if (v.isEmpty()) return bracket("[", null, "]");
            List<Expr> items = new ArrayList<>();
            for (JsonNode x : v) { if (!items.isEmpty()) items.add(comma()); items.add(serialize(x)); }
            return bracket("[", seq(items.toArray(Expr[]::new)), "]");
        }
        if (v.isEmpty()) return bracket("{", null, "}");
        List<Expr> items = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!items.isEmpty()) items.add(comma());
            items.add(seq(stringLiteral(f.getKey()), colon(), serialize(f.getValue())));
        }
        return bracket("{", seq(items.toArray(Expr[]::new)), "}");
    }

    /**
     * The plain decimal spellings of a constant number: {@code 1}, {@code 1.0}, {@code 1.00}, ... all
     * equal 1 (JSON Schema compares numbers by value). Exponent spellings are not offered (a
     * subset: never accepts a wrong value).
     */
    private static Expr numberSpellings(JsonNode v) {
        java.math.BigDecimal d = v.decimalValue().stripTrailingZeros();
        String plain = d.signum() == 0 ? "0" : d.toPlainString();
        if (plain.length() > 64) {
            return Expr.literal(v.isIntegralNumber() ? v.bigIntegerValue().toString() : v.decimalValue().toString());
        }
        Expr zeros = Expr.star(Expr.chars(dev.domino.compiler.ir.CodePointSet.of('0')));
        if (d.scale() <= 0 || d.signum() == 0) {
            return Expr.seq(Expr.literal(plain), Expr.optional(Expr.seq(Expr.literal("."), Expr.plus(Expr.chars(dev.domino.compiler.ir.CodePointSet.of('0'))))));
        }
        return Expr.seq(Expr.literal(plain), zeros);
    }

    private Expr stringLiteral(String s) {
        if (!opt.allStringEscapes()) return Expr.literal("\"" + JsonStrings.canonical(s) + "\"");
        return seq(Expr.literal("\""), JsonStrings.encodeLiteral(s, true), Expr.literal("\""));
    }

    // ---------------------------------------------------------------- numbers

    private Expr numberExpr(ObjectNode n, String ptr, boolean integer) {
        BigDecimal lo = null, hi = null;
        boolean loEx = false, hiEx = false;
        String loKw = null, hiKw = null;
        if (n.has("minimum")) { lo = n.get("minimum").decimalValue(); loKw = "minimum"; }
        if (n.has("exclusiveMinimum")) {
            BigDecimal e = n.get("exclusiveMinimum").decimalValue();
            if (lo == null || e.compareTo(lo) >= 0) { lo = e; loEx = true; loKw = "exclusiveMinimum"; }
        }
        if (n.has("maximum")) { hi = n.get("maximum").decimalValue(); hiKw = "maximum"; }
        if (n.has("exclusiveMaximum")) {
            BigDecimal e = n.get("exclusiveMaximum").decimalValue();
            if (hi == null || e.compareTo(hi) <= 0) { hi = e; hiEx = true; hiKw = "exclusiveMaximum"; }
        }
        if (n.has("multipleOf")) {
            BigDecimal m = n.get("multipleOf").decimalValue();
            boolean trivial = integer && m.signum() > 0 && BigDecimal.ONE.remainder(m).signum() == 0;
            if (!trivial) {
                if (integer && m.stripTrailingZeros().scale() <= 0) unsupported(ptr, "multipleOf", "multipleOf " + m.toPlainString() + " on integers");
                else unsupported(ptr, "multipleOf", integer ? null : "on numbers");
            }
        }
        if (integer) {
            BigInteger l = lo == null ? null
                : loEx ? lo.setScale(0, RoundingMode.FLOOR).toBigIntegerExact().add(BigInteger.ONE)
                : lo.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
            BigInteger h = hi == null ? null
                : hiEx ? hi.setScale(0, RoundingMode.CEILING).toBigIntegerExact().subtract(BigInteger.ONE)
                : hi.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
            return IntegerRanges.range(l, h);
        }
        if (lo != null && lo.signum() != 0) { unsupported(ptr, loKw, "bounds on 'number' are only supported at 0; use type integer"); lo = null; }
        if (hi != null && hi.signum() != 0) { unsupported(ptr, hiKw, "bounds on 'number' are only supported at 0; use type integer"); hi = null; }
        Expr digitsStar = Expr.star(IntegerRanges.DIGIT);
        Expr zero = seq(Expr.literal("0"), Expr.optional(seq(Expr.literal("."), Expr.plus(Expr.literal("0")))), Expr.optional(EXP));
        Expr positive = alt(List.of(
            seq(IntegerRanges.NONZERO, digitsStar, Expr.optional(FRAC), Expr.optional(EXP)),
            seq(Expr.literal("0."), digitsStar, IntegerRanges.NONZERO, digitsStar, Expr.optional(EXP))));
        if (lo == null && hi == null) return NUMBER;
        boolean allowPos = hi == null, allowNeg = lo == null;
        boolean allowZero = (lo == null || !loEx) && (hi == null || !hiEx);
        List<Expr> alts = new ArrayList<>();
        if (allowPos) alts.add(positive);
        if (allowNeg) alts.add(seq(Expr.literal("-"), positive));
        if (allowZero) alts.add(seq(Expr.optional(Expr.literal("-")), zero));
        return alts.isEmpty() ? Expr.NOTHING : alt(alts);
    }

    // ---------------------------------------------------------------- strings

    private Expr stringExpr(ObjectNode n, String ptr) {
        int minL = KeywordValues.countOr(n, "minLength", 0, ptr);
        int maxL = KeywordValues.countOr(n, "maxLength", Expr.Repeat.UNBOUNDED, ptr);
        List<Expr> constraints = new ArrayList<>();
        List<String> kws = new ArrayList<>();
        if (n.has("pattern")) {
            try {
                constraints.add(RegexParser.parseSearch(n.get("pattern").asText(), RegexParser.Flavor.ECMA).expr());
                kws.add("pattern");
            } catch (GrammarException e) {
                unsupported(ptr, "pattern", e.getMessage());
            }
        }
        if (n.has("format")) {
            Expr f = Formats.format(n.get("format").asText());
            if (f == null) unsupported(ptr, "format", "unknown format '" + n.get("format").asText() + "'");
            else { constraints.add(f); kws.add("format"); }
        }
        if (maxL != Expr.Repeat.UNBOUNDED && maxL < minL) return Expr.NOTHING;
        Expr content;
        if (constraints.isEmpty()) {
            content = new Expr.Repeat(ANY_CHAR, minL, maxL);
        } else {
            if (constraints.size() > 1) unsupported(ptr, "pattern", "combined with 'format'");
            Expr c = constraints.get(0);
            int lo = ExprLanguage.minLen(c), hi = ExprLanguage.maxLen(c);
            if (lo < minL || (maxL != Expr.Repeat.UNBOUNDED && hi > maxL)) {
                Expr restricted = ExprLanguage.withLength(c, minL, maxL);
                if (restricted != null) c = restricted;
                else {
                    if (lo < minL) unsupported(ptr, "minLength", "combined with '" + kws.get(0) + "'");
                    if (maxL != Expr.Repeat.UNBOUNDED && hi > maxL) unsupported(ptr, "maxLength", "combined with '" + kws.get(0) + "'");
                }
            }
            content = JsonStrings.encodeRegex(c, true);
        }
        return seq(Expr.literal("\""), content, Expr.literal("\""));
    }

    // ---------------------------------------------------------------- arrays

    private String newName(String base) {
        String name = base;
        for (int i = 2; usedNames.contains(name); i++) name = base + "_" + i;
        usedNames.add(name);
        return name;
    }

    private Expr arrayExpr(ObjectNode n, String ptr) {
        List<Expr> prefix = new ArrayList<>();
        JsonNode restSchema = null;
        String restPtr = null;
        if (n.has("prefixItems")) {
            int i = 0;
            for (JsonNode p : n.get("prefixItems")) prefix.add(compile(p, child(child(ptr, "prefixItems"), String.valueOf(i++))));
            if (n.has("items")) { restSchema = n.get("items"); restPtr = child(ptr, "items"); }
        } else if (n.has("items") && n.get("items").isArray()) {
            int i = 0;
            for (JsonNode p : n.get("items")) prefix.add(compile(p, child(child(ptr, "items"), String.valueOf(i++))));
            if (n.has("additionalItems")) { restSchema = n.get("additionalItems"); restPtr = child(ptr, "additionalItems"); }
        } else if (n.has("items")) {
            restSchema = n.get("items");
            restPtr = child(ptr, "items");
        }
        Expr rest = restSchema == null ? anyValue() : compile(restSchema, restPtr);
        int min = KeywordValues.countOr(n, "minItems", 0, ptr);
        int max = KeywordValues.countOr(n, "maxItems", Expr.Repeat.UNBOUNDED, ptr);
        String name = newName("arr_" + (++arrCounter));
        rules.put(name, Expr.EMPTY);
        Expr body;
        if (max != Expr.Repeat.UNBOUNDED && max < min) body = Expr.NOTHING;
        else {
            int k = prefix.size();
            // tail(i): elements i.. each preceded by a comma, given i elements so far
            Expr tail = restTail(k, rest, min, max, k);
            for (int i = k - 1; i >= 1; i--) {
                List<Expr> opts = new ArrayList<>();
                if (i >= min) opts.add(Expr.EMPTY);
                if (max == Expr.Repeat.UNBOUNDED || i < max) opts.add(seq(comma(), prefix.get(i), tail));
                tail = alt(opts);
            }
            Expr nonEmpty;
            if (max == 0) nonEmpty = Expr.NOTHING;
            else if (k > 0) nonEmpty = seq(prefix.get(0), k == 1 ? restTail(1, rest, min, max, 1) : tail);
            else nonEmpty = seq(rest, restTail(1, rest, min, max, 0));
            List<Expr> opts = new ArrayList<>();
            if (min == 0) opts.add(bracket("[", null, "]"));
            if (!(nonEmpty instanceof Expr.Alt a && a.options().isEmpty())) opts.add(bracket("[", nonEmpty, "]"));
            body = opts.isEmpty() ? Expr.NOTHING : alt(opts);
        }
        rules.put(name, body);
        return Expr.ref(name);
    }

    /** Rest elements after {@code i} elements (i >= k), each preceded by a comma. */
    private Expr restTail(int i, Expr rest, int min, int max, int k) {
        if (i < k) throw new IllegalStateException();
        int lo = Math.max(0, min - i);
        int hi = max == Expr.Repeat.UNBOUNDED ? Expr.Repeat.UNBOUNDED : max - i;
        if (hi != Expr.Repeat.UNBOUNDED && hi < lo) return Expr.NOTHING;
        if (hi == 0) return Expr.EMPTY;
        return new Expr.Repeat(seq(comma(), rest), lo, hi);
    }

    // ---------------------------------------------------------------- objects

    private record Slot(Expr member, boolean required) {}

    private Expr objectExpr(ObjectNode n, String ptr) {
        Map<String, JsonNode> props = new LinkedHashMap<>();
        if (n.has("properties")) n.get("properties").fields().forEachRemaining(e -> props.put(e.getKey(), e.getValue()));
        Set<String> required = new LinkedHashSet<>();
        if (n.has("required")) n.get("required").forEach(r -> required.add(r.asText()));
        JsonNode additional = n.has("additionalProperties") ? n.get("additionalProperties") : BooleanNode.TRUE;
        Map<String, JsonNode> patterns = new LinkedHashMap<>();
        if (n.has("patternProperties")) n.get("patternProperties").fields().forEachRemaining(e -> patterns.put(e.getKey(), e.getValue()));
        Map<String, Expr> patternExprs = new LinkedHashMap<>();
        for (String p : patterns.keySet()) {
            try {
                patternExprs.put(p, RegexParser.parseSearch(p, RegexParser.Flavor.ECMA).expr());
            } catch (GrammarException e) {
                unsupported(ptr, "patternProperties", e.getMessage());
                return anyObjectFallback();
            }
        }
        int minP = KeywordValues.countOr(n, "minProperties", 0, ptr);
        int maxP = KeywordValues.countOr(n, "maxProperties", -1, ptr);

        String name = newName("obj_" + (++objCounter));
        rules.put(name, Expr.EMPTY);

        // declared (and required-only) properties with their effective schemas
        Map<String, List<JsonNode>> schemas = new LinkedHashMap<>();
        Map<String, String> ptrs = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : props.entrySet()) {
            schemas.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            ptrs.put(e.getKey(), child(child(ptr, "properties"), e.getKey()));
        }
        boolean impossible = false;
        for (String r : required) {
            if (schemas.containsKey(r)) continue;
            schemas.put(r, new ArrayList<>());
            ptrs.put(r, ptr);
        }
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            boolean matchedPattern = false;
            for (Map.Entry<String, Expr> p : patternExprs.entrySet()) {
                if (ExprLanguage.matches(p.getValue(), key)) {
                    unsupported(ptr, "patternProperties", "pattern '" + p.getKey() + "' matches declared property '" + key + "'");
                    matchedPattern = true;
                }
            }
            if (!props.containsKey(key) && !matchedPattern) e.getValue().add(additional);
        }
        List<Slot> slots = new ArrayList<>();
        for (Map.Entry<String, List<JsonNode>> e : schemas.entrySet()) {
            String key = e.getKey();
            List<JsonNode> parts = e.getValue();
            JsonNode schema = parts.size() == 1 ? parts.get(0) : merge(parts, ptrs.get(key));
            Expr value = compile(schema, ptrs.get(key));
            boolean req = required.contains(key);
            if (isNothing(value)) {
                if (req) impossible = true;
                continue;
            }
            slots.add(new Slot(seq(stringLiteral(key), colon(), value), req));
        }
        // extra members
        Expr extra = null;
        Set<String> names = schemas.keySet();
        if (!patterns.isEmpty()) {
            boolean addFalse = additional.isBoolean() && !additional.asBoolean();
            boolean addTrue = isTrivial(clean(additional, ptr));
            List<JsonNode> ps = new ArrayList<>(patterns.values());
            boolean allTrivial = ps.stream().allMatch(x -> isTrivial(clean(x, ptr)));
            if (addTrue && allTrivial) {
                extra = seq(keyExcept(names), colon(), anyValue());
            } else if (addFalse) {
                boolean same = ps.stream().allMatch(p -> p.equals(ps.get(0)));
                if (!same && ps.size() > 1) unsupported(ptr, "patternProperties", "several patterns with different schemas");
                List<Expr> keys = new ArrayList<>();
                for (Expr p : patternExprs.values()) keys.add(p);
                Expr key = seq(Expr.literal("\""), JsonStrings.encodeRegex(alt(keys), true), Expr.literal("\""));
                extra = seq(key, colon(), compile(ps.get(0), child(child(ptr, "patternProperties"), patterns.keySet().iterator().next())));
            } else {
                unsupported(ptr, "patternProperties", "non-trivial pattern schemas need additionalProperties: false");
                if (!addFalse) extra = seq(keyExcept(names), colon(), compile(additional, child(ptr, "additionalProperties")));
            }
        } else if (!(additional.isBoolean() && !additional.asBoolean())) {
            Expr v = compile(additional, child(ptr, "additionalProperties"));
            if (!(v instanceof Expr.Alt a && a.options().isEmpty())) extra = seq(keyExcept(names), colon(), v);
        }
        Expr body = impossible ? Expr.NOTHING : objectBody(name, slots, extra, minP, maxP);
        rules.put(name, body);
        return Expr.ref(name);
    }

    /** Whether the expression is (a chain of completed rule refs to) the empty language. */
    private boolean isNothing(Expr e) {
        for (int i = 0; i < 16 && e instanceof Expr.Ref r; i++) {
            Expr body = rules.get(r.name());
            if (body == null || (body instanceof Expr.Seq s && s.items().isEmpty())) return false; // placeholder / in progress
            e = body;
        }
        return e instanceof Expr.Alt a && a.options().isEmpty();
    }

    private Expr anyObjectFallback() {
        anyValue();
        return Expr.ref("json_object");
    }

    /** JSON string key whose decoded value is not one of {@code names}. */
    private Expr keyExcept(Set<String> names) {
        Expr anyStr = Expr.star(Expr.chars(CodePointSet.ANY));
        Expr cps = names.isEmpty() ? anyStr : notIn(names, "", anyStr);
        return seq(Expr.literal("\""), JsonStrings.encodeRegex(cps, true), Expr.literal("\""));
    }

    /** Strings (code points) not in {@code names}, restricted to those starting with {@code prefix}, minus the prefix. */
    private static Expr notIn(Set<String> names, String prefix, Expr anyStr) {
        List<Expr> alts = new ArrayList<>();
        if (!names.contains(prefix)) alts.add(Expr.EMPTY);
        TreeMap<Integer, Boolean> next = new TreeMap<>();
        for (String s : names) {
            if (s.length() > prefix.length() && s.startsWith(prefix)) next.put(s.codePointAt(prefix.length()), true);
        }
        CodePointSet used = CodePointSet.EMPTY;
        for (int cp : next.keySet()) {
            used = used.union(CodePointSet.of(cp));
            alts.add(seq(Expr.literal(Character.toString(cp)), notIn(names, prefix + Character.toString(cp), anyStr)));
        }
        alts.add(seq(Expr.chars(used.complement()), anyStr));
        return alt(alts);
    }

    private Expr objectBody(String name, List<Slot> slots, Expr extra, int minP, int maxP) {
        boolean counted = minP > 0 || maxP >= 0;
        boolean allOptional = slots.stream().noneMatch(Slot::required);
        List<Expr> opts = new ArrayList<>();
        if (allOptional && minP == 0) opts.add(bracket("{", null, "}"));
        Expr first;
        if (opt.propertyOrder() == JsonSchemaOptions.PropertyOrder.ANY && slots.size() >= 2
                && slots.size() <= JsonSchemaOptions.PropertyOrder.MAX_ANY_ORDER_PROPERTIES) {
            first = new AnyOrder(name, slots, extra, counted ? new Counted(name, slots, extra, minP, maxP) : null, maxP).first();
        } else {
            first = counted ? new Counted(name, slots, extra, minP, maxP).first(0) : uncounted(name, slots, extra);
        }
        if (!(first instanceof Expr.Alt a && a.options().isEmpty())) opts.add(bracket("{", first, "}"));
        return opts.isEmpty() ? Expr.NOTHING : alt(opts);
    }

    /**
     * Non-empty member lists without count constraints, linear in size: with a required slot q,
     * {@code (m_i ,)?... m_q (, m_j)?... (, e)*}; with only optional slots, one alternative per
     * first member, the tails shared through named rules when there are many slots.
     */
    private Expr uncounted(String name, List<Slot> slots, Expr extra) {
        int q = -1;
        for (int i = 0; i < slots.size(); i++) if (slots.get(i).required()) { q = i; break; }
        if (q >= 0) {
            List<Expr> items = new ArrayList<>();
            for (int i = 0; i < q; i++) items.add(Expr.optional(seq(slots.get(i).member(), comma())));
            items.add(slots.get(q).member());
            items.add(after(slots, extra, q + 1));
            return seq(items.toArray(Expr[]::new));
        }
        if (slots.size() <= 3) return firstMember(slots, extra, 0);
        Expr[] tails = new Expr[slots.size() + 1];
        tails[slots.size()] = extra == null ? Expr.EMPTY : Expr.star(seq(comma(), extra));
        for (int i = slots.size() - 1; i >= 1; i--) {
            String rule = newName(name + "_t" + i);
            rules.put(rule, seq(Expr.optional(seq(comma(), slots.get(i).member())), tails[i + 1]));
            tails[i] = Expr.ref(rule);
        }
        List<Expr> alts = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) alts.add(seq(slots.get(i).member(), tails[i + 1]));
        if (extra != null) alts.add(seq(extra, tails[slots.size()]));
        return alt(alts);
    }

    /** Non-empty member lists starting at slot i, nothing emitted yet (no count constraints). */
    private Expr firstMember(List<Slot> slots, Expr extra, int i) {
        if (i == slots.size()) return extra == null ? Expr.NOTHING : seq(extra, Expr.star(seq(comma(), extra)));
        Slot s = slots.get(i);
        Expr take = seq(s.member(), after(slots, extra, i + 1));
        if (s.required()) return take;
        return alt(List.of(take, firstMember(slots, extra, i + 1)));
    }

    /** Members from slot i on, each preceded by a comma (no count constraints); may be empty. */
    private Expr after(List<Slot> slots, Expr extra, int i) {
        List<Expr> items = new ArrayList<>();
        for (int j = i; j < slots.size(); j++) {
            Expr m = seq(comma(), slots.get(j).member());
            items.add(slots.get(j).required() ? m : Expr.optional(m));
        }
        if (extra != null) items.add(Expr.star(seq(comma(), extra)));
        return items.isEmpty() ? Expr.EMPTY : seq(items.toArray(Expr[]::new));
    }

    /**
     * Non-empty member lists with the declared properties in any order: one named rule per subset of the
     * properties still to come ({@code <obj>_s<bitmask>}), choosing the next one among them (after a comma), or
     * ending the declared part when none of them is required. Additional members only follow the declared ones.
     * The number of declared members emitted is {@code n - |subset|}, so min/maxProperties stay exact.
     */
    private final class AnyOrder {
        final String base;
        final List<Slot> slots;
        final Expr extra;
        final Counted counted; // null without min/maxProperties
        final int maxP, full, requiredMask;
        final Map<Integer, Expr> memo = new HashMap<>();

        AnyOrder(String base, List<Slot> slots, Expr extra, Counted counted, int maxP) {
            this.base = base;
            this.slots = slots;
            this.extra = extra;
            this.counted = counted;
            this.maxP = counted == null ? -1 : maxP;
            this.full = (1 << slots.size()) - 1;
            int req = 0;
            for (int i = 0; i < slots.size(); i++) if (slots.get(i).required()) req |= 1 << i;
            this.requiredMask = req;
        }

        /** Extra members after c >= 0 members (c == 0: non-empty, no leading comma). */
        Expr extras(int c) {
            if (counted != null) return counted.extras(c);
            if (extra == null) return c == 0 ? Expr.NOTHING : Expr.EMPTY;
            Expr more = Expr.star(seq(comma(), extra));
            return c == 0 ? seq(extra, more) : more;
        }

        Expr first() {
            List<Expr> opts = new ArrayList<>();
            if (maxP != 0) {
                for (int i = 0; i < slots.size(); i++) opts.add(seq(slots.get(i).member(), rest(full & ~(1 << i))));
            }
            if (requiredMask == 0) {
                Expr e = extras(0);
                if (!(e instanceof Expr.Alt a && a.options().isEmpty())) opts.add(e);
            }
            return alt(opts);
        }

        /** Members after the declared ones not in {@code remaining} (at least one) were emitted; a named rule. */
        Expr rest(int remaining) {
            Expr known = memo.get(remaining);
            if (known != null) return known;
            int c = slots.size() - Integer.bitCount(remaining);
            String rule = newName(base + "_s" + Integer.toBinaryString(remaining));
            Expr ref = Expr.ref(rule);
            memo.put(remaining, ref);
            rules.put(rule, Expr.EMPTY);
            List<Expr> opts = new ArrayList<>();
            if (maxP < 0 || c + 1 <= maxP) {
                for (int i = 0; i < slots.size(); i++) {
                    if ((remaining & (1 << i)) != 0) opts.add(seq(comma(), slots.get(i).member(), rest(remaining & ~(1 << i))));
                }
            }
            if ((remaining & requiredMask) == 0) {
                Expr e = extras(c);
                if (!(e instanceof Expr.Alt a && a.options().isEmpty())) opts.add(e);
            }
            rules.put(rule, alt(opts));
            return ref;
        }
    }

    /** Member lists with min/maxProperties: one named rule per (slot, count) state. */
    private final class Counted {
        final String base;
        final List<Slot> slots;
        final Expr extra;
        final int minP, maxP, cap;
        final Map<String, Expr> memo = new HashMap<>();

        Counted(String base, List<Slot> slots, Expr extra, int minP, int maxP) {
            this.base = base;
            this.slots = slots;
            this.extra = extra;
            this.minP = minP;
            this.maxP = maxP;
            this.cap = maxP >= 0 ? maxP : Math.max(minP, 1);
        }

        Expr first(int i) {
            if (i == slots.size()) return extras(0);
            Slot s = slots.get(i);
            Expr take = maxP == 0 ? Expr.NOTHING : seq(s.member(), after(i + 1, 1));
            if (s.required()) return take;
            return alt(List.of(take, first(i + 1)));
        }

        /** Extra members given c emitted; c == 0 means non-empty and no leading comma. */
        Expr extras(int c) {
            int lo = Math.max(0, minP - c);
            int hi = maxP >= 0 ? maxP - c : Expr.Repeat.UNBOUNDED;
            if (hi != Expr.Repeat.UNBOUNDED && hi < lo) return Expr.NOTHING;
            if (extra == null) return lo == 0 && c > 0 ? Expr.EMPTY : Expr.NOTHING;
            if (c == 0) {
                if (hi == 0) return Expr.NOTHING;
                return seq(extra, new Expr.Repeat(seq(comma(), extra), Math.max(lo, 1) - 1,
                    hi == Expr.Repeat.UNBOUNDED ? hi : hi - 1));
            }
            if (hi == 0) return Expr.EMPTY;
            return new Expr.Repeat(seq(comma(), extra), lo, hi);
        }

        /** Members from slot i, c >= 1 already emitted; a named rule. */
        Expr after(int i, int c) {
            int cc = Math.min(c, cap);
            if (maxP >= 0 && c > maxP) return Expr.NOTHING;
            String key = i + "_" + cc;
            if (memo.containsKey(key)) return memo.get(key);
            String rule = newName(base + "_s" + i + "_" + cc);
            Expr ref = Expr.ref(rule);
            memo.put(key, ref);
            rules.put(rule, Expr.EMPTY);
            Expr body;
            if (i == slots.size()) body = extras(cc);
            else {
                Slot s = slots.get(i);
                List<Expr> opts = new ArrayList<>();
                if (maxP < 0 || cc + 1 <= maxP) opts.add(seq(comma(), s.member(), after(i + 1, cc + 1)));
                if (!s.required()) opts.add(after(i + 1, cc));
                body = alt(opts);
            }
            rules.put(rule, body);
            return ref;
        }
    }

    // ---------------------------------------------------------------- $ref

    private JsonNode resolve(String ref, String ptr) {
        if (!ref.startsWith("#")) { unsupported(ptr, "$ref", "remote reference '" + ref + "'"); return null; }
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        if (!pointer.isEmpty() && !pointer.startsWith("/")) { unsupported(ptr, "$ref", "anchor reference '" + ref + "'"); return null; }
        JsonNode target = root.at(pointer);
        if (target.isMissingNode()) throw new GrammarException("unresolvable $ref '" + ref + "' at " + showPointer(ptr));
        return target;
    }

    private Expr refExpr(String ref, String ptr) {
        JsonNode target = resolve(ref, ptr);
        if (target == null) return anyValue();
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        String existing = refRules.get(pointer);
        if (existing != null) return Expr.ref(existing);
        String last = pointer.isEmpty() ? "root" : pointer.substring(pointer.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        String name = newName("def_" + last.replaceAll("[^A-Za-z0-9_]", "_"));
        refRules.put(pointer, name);
        rules.put(name, Expr.EMPTY);
        rules.put(name, compile(target, pointer));
        return Expr.ref(name);
    }

    // ---------------------------------------------------------------- allOf merging

    /** Merges schemas (conjunction) into one schema object; refs at the top level are inlined. */
    private JsonNode merge(List<JsonNode> parts, String ptr) {
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
                        EnumSet<T> a = parseTypes(e, ptr), b = parseTypes(v, ptr);
                        a.retainAll(b);
                        ArrayNode t = NF.arrayNode();
                        if (a.contains(T.NUMBER)) t.add("number"); else if (a.contains(T.INTEGER)) t.add("integer");
                        for (T x : a) if (x != T.NUMBER && x != T.INTEGER) t.add(x.name().toLowerCase());
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
                    case "items", "additionalItems" -> out.set(k, NF.objectNode().set("allOf", NF.arrayNode().add(e).add(v)));
                    case "nullable" -> out.set(k, BooleanNode.valueOf(e.asBoolean() && v.asBoolean()));
                    case "not" -> out.set(k, NF.objectNode().set("anyOf", NF.arrayNode().add(e).add(v)));
                    case "anyOf" -> {
                        if ((long) e.size() * v.size() > 64) unsupported(ptr, "allOf", "too many anyOf combinations");
                        ArrayNode prod = NF.arrayNode();
                        for (JsonNode x : e) for (JsonNode y : v) prod.add(NF.objectNode().set("allOf", NF.arrayNode().add(x).add(y)));
                        out.set(k, prod);
                    }
                    default -> unsupported(ptr, "allOf", "cannot merge differing '" + k + "'");
                }
            }
        }
        // additionalProperties only sees the properties of its own schema object
        for (ObjectNode p : flat) {
            if (!p.has("additionalProperties") || isTrivial(p.get("additionalProperties"))) continue;
            for (ObjectNode q : flat) {
                if (q == p) continue;
                if (q.has("patternProperties") && !q.get("patternProperties").equals(p.get("patternProperties")))
                    unsupported(ptr, "allOf", "cannot merge additionalProperties with other patternProperties");
                if (q.has("properties")) {
                    for (Iterator<String> it = q.get("properties").fieldNames(); it.hasNext(); ) {
                        String name = it.next();
                        if (!p.path("properties").has(name))
                            unsupported(ptr, "allOf", "property '" + name + "' is not allowed by additionalProperties of another allOf branch");
                    }
                }
            }
        }
        if (out.has("enum") && out.get("enum").isEmpty()) return BooleanNode.FALSE;
        return out;
    }

    private boolean flatten(List<JsonNode> parts, String ptr, List<ObjectNode> out, int level) {
        if (level > 32) throw new GrammarException("allOf/$ref nesting too deep at " + showPointer(ptr));
        for (JsonNode raw : parts) {
            JsonNode c = clean(raw, ptr);
            if (c.isBoolean()) { if (!c.asBoolean()) return false; continue; }
            ObjectNode n = ((ObjectNode) c).deepCopy();
            List<JsonNode> more = new ArrayList<>();
            if (n.has("$ref")) {
                JsonNode target = resolve(n.remove("$ref").asText(), ptr);
                if (refSiblingsIgnored) n.removeAll();
                if (target != null) more.add(target);
            }
            if (n.has("allOf")) n.remove("allOf").forEach(more::add);
            out.add(n);
            if (!more.isEmpty() && !flatten(more, ptr, out, level + 1)) return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- oneOf disjointness

    /**
     * Exact rewrites of two common oneOf shapes: all branches are enums/consts (keep the values
     * valid under exactly one branch), or all branches are bare {@code required} lists (each
     * branch becomes "object with these keys and, for every other branch, one of its keys absent").
     */
    private Expr oneOfSpecial(ObjectNode n, ObjectNode rest, JsonNode branches, String ptr) {
        List<JsonNode> resolved = new ArrayList<>();
        for (JsonNode b : branches) resolved.add(resolveTop(b, ptr));
        if (!resolved.isEmpty() && resolved.stream().allMatch(r -> r.isObject() && r.has("enum"))) {
            ConstValidator validator = new ConstValidator(ref -> resolve(ref, ptr), this::unsupported);
            List<JsonNode> values = new ArrayList<>();
            for (JsonNode r : resolved) for (JsonNode v : r.get("enum")) if (values.stream().noneMatch(x -> jsonEquals(x, v))) values.add(v);
            List<Expr> alts = new ArrayList<>();
            for (JsonNode v : values) if (validator.valid(n, v, ptr)) alts.add(serialize(v));
            return alts.isEmpty() ? Expr.NOTHING : alt(alts);
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
            return compile(NF.objectNode().set("anyOf", anyOf), ptr);
        }
        return null;
    }

    private void checkDisjoint(List<JsonNode> branches, String ptr) {
        List<JsonNode> resolved = new ArrayList<>();
        for (JsonNode b : branches) resolved.add(resolveTop(b, ptr));
        for (int i = 0; i < resolved.size(); i++) {
            for (int j = i + 1; j < resolved.size(); j++) {
                if (!disjoint(resolved.get(i), resolved.get(j), ptr)) {
                    unsupported(ptr, "oneOf", "branches " + i + " and " + j + " are not provably disjoint");
                    return;
                }
            }
        }
    }

    private JsonNode resolveTop(JsonNode b, String ptr) {
        JsonNode c = clean(b, ptr);
        for (int k = 0; k < 32 && c.isObject() && c.has("$ref") && c.size() == 1; k++) {
            JsonNode t = resolve(c.get("$ref").asText(), ptr);
            if (t == null) return BooleanNode.TRUE;
            c = clean(t, ptr);
        }
        if (c.isObject() && (c.has("$ref") || c.has("allOf"))) c = merge(List.of(c), ptr);
        return c;
    }

    private EnumSet<T> possibleTypes(JsonNode s, String ptr) {
        if (s.isBoolean()) return s.asBoolean() ? EnumSet.allOf(T.class) : EnumSet.noneOf(T.class);
        if (s.has("anyOf") || s.has("oneOf") || s.has("$ref") || s.has("allOf")) return EnumSet.allOf(T.class);
        if (s.has("enum")) {
            EnumSet<T> t = EnumSet.noneOf(T.class);
            for (JsonNode v : s.get("enum")) { T x = typeOf(v); t.add(x); if (x == T.INTEGER) t.add(T.NUMBER); }
            return t;
        }
        return types((ObjectNode) s, ptr);
    }

    private boolean disjoint(JsonNode a, JsonNode b, String ptr) {
        EnumSet<T> ta = possibleTypes(a, ptr), tb = possibleTypes(b, ptr);
        EnumSet<T> both = EnumSet.copyOf(ta);
        both.retainAll(tb);
        if (both.isEmpty()) return true;
        if (a.has("enum") && b.has("enum") && intersectEnums((ArrayNode) a.get("enum"), (ArrayNode) b.get("enum")).isEmpty()) return true;
        if (both.equals(EnumSet.of(T.OBJECT))) return objectsDisjoint(a, b, ptr) || objectsDisjoint(b, a, ptr);
        return false;
    }

    /** a requires a property that b forbids, or both require p with disjoint constant values. */
    private boolean objectsDisjoint(JsonNode a, JsonNode b, String ptr) {
        if (a.has("anyOf") || a.has("oneOf") || b.has("anyOf") || b.has("oneOf")) return false;
        for (JsonNode r : a.path("required")) {
            String p = r.asText();
            boolean bForbids = !b.path("properties").has(p) && !b.has("patternProperties")
                && b.path("additionalProperties").isBoolean() && !b.get("additionalProperties").asBoolean();
            if (bForbids) return true;
            boolean bRequires = false;
            for (JsonNode x : b.path("required")) bRequires |= x.asText().equals(p);
            if (!bRequires) continue;
            JsonNode pa = a.path("properties").get(p), pb = b.path("properties").get(p);
            if (pa == null || pb == null) continue;
            JsonNode ca = resolveTop(pa, ptr), cb = resolveTop(pb, ptr);
            if (ca.isObject() && cb.isObject() && ca.has("enum") && cb.has("enum")
                && intersectEnums((ArrayNode) ca.get("enum"), (ArrayNode) cb.get("enum")).isEmpty()) return true;
        }
        return false;
    }
}
