package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;
import dev.domino.compiler.jsonschema.algebra.SchemaComplement;
import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import dev.domino.compiler.jsonschema.numbers.NumberMultiples;
import dev.domino.compiler.jsonschema.objects.KeyQuantifiers;
import dev.domino.compiler.jsonschema.strings.Formats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A small JSON Schema validator used to filter {@code enum}/{@code const} values against the
 * other keywords of their schema (so e.g. {@code {"enum": [...], "not": {...}}} is exact).
 * Keywords it does not know raise the same "unsupported keyword" error as the compiler.
 */
public final class ConstValidator {
    public interface Unsupported { void report(String ptr, String kw, String detail); }

    private final Function<String, JsonNode> resolver;
    private final Unsupported unsupported;
    private final Map<String, Expr> regexCache = new HashMap<>();
    private int depth;
    private final java.util.Set<JsonNode> checked = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    public ConstValidator(Function<String, JsonNode> resolver, Unsupported unsupported) {
        this.resolver = resolver;
        this.unsupported = unsupported;
    }

    private boolean formatsAsserted = true;
    private dev.domino.compiler.jsonschema.algebra.StringLanguages languages;

    /** The table of the string languages the internal keyword {@code StringLanguages.KEYWORD} names. */
    public ConstValidator languages(dev.domino.compiler.jsonschema.algebra.StringLanguages table) {
        languages = table;
        return this;
    }

    /** Whether {@code format} asserts (default) or is an annotation ({@link JsonSchemaOptions.FormatMode#ANNOTATION}). */
    public ConstValidator formats(boolean asserted) {
        formatsAsserted = asserted;
        return this;
    }

    public boolean valid(JsonNode s, JsonNode v, String ptr) {
        if (s.isBoolean()) return s.asBoolean();
        if (!s.isObject()) throw new GrammarException("schema at " + SchemaCompiler.showPointer(ptr) + " is not an object or boolean");
        if (++depth > 500) throw new GrammarException("$ref loop at " + SchemaCompiler.showPointer(ptr));
        if (checked.add(s)) KeywordValues.check(s, ptr);
        try {
            for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!check(s, f.getKey(), f.getValue(), v, ptr)) return false;
            }
            return true;
        } finally {
            depth--;
        }
    }

    private static String child(String ptr, String k) { return ptr + "/" + k.replace("~", "~0").replace("/", "~1"); }

    private static int len(String s) { return s.codePointCount(0, s.length()); }

    private boolean matches(String pattern, String text, String ptr) {
        Expr e;
        try {
            e = regexCache.computeIfAbsent(pattern, p -> RegexParser.parseSearch(p, RegexParser.Flavor.ECMA).expr());
        } catch (GrammarException ex) {
            unsupported.report(ptr, "pattern", ex.getMessage());
            return true;
        }
        return ExprLanguage.matches(e, text);
    }

    private boolean check(JsonNode s, String k, JsonNode a, JsonNode v, String ptr) {
        if (SchemaNormalizer.ANNOTATIONS.contains(k)) return true;
        switch (k) {
            case "type": {
                List<String> ts = new ArrayList<>();
                if (a.isArray()) a.forEach(t -> ts.add(t.asText())); else ts.add(a.asText());
                for (String t : ts) if (hasType(v, t)) return true;
                return false;
            }
            case "nullable": return true;
            case "enum": { for (JsonNode x : a) if (eq(x, v)) return true; return false; }
            case "const": return eq(a, v);
            case "$ref": {
                JsonNode t = resolver.apply(a.asText());
                return t == null || valid(t, v, ptr);
            }
            case "allOf": { int i = 0; for (JsonNode x : a) if (!valid(x, v, child(child(ptr, k), String.valueOf(i++)))) return false; return true; }
            case "anyOf": { int i = 0; for (JsonNode x : a) if (valid(x, v, child(child(ptr, k), String.valueOf(i++)))) return true; return false; }
            case "oneOf": { int n = 0, i = 0; for (JsonNode x : a) if (valid(x, v, child(child(ptr, k), String.valueOf(i++)))) n++; return n == 1; }
            case "not": return !valid(a, v, child(ptr, k));
            case ArraySchemas.CONTAINS_ALL: {
                if (!v.isArray()) return true;
                for (JsonNode c : a) {
                    boolean found = false;
                    for (JsonNode x : v) if (valid(c, x, ptr)) { found = true; break; }
                    if (!found) return false;
                }
                return true;
            }
            case SchemaComplement.NOT_PATTERNS: { if (v.isTextual()) for (JsonNode x : a) if (check(s, "pattern", x, v, ptr)) return false; return true; }
            case SchemaComplement.NOT_FORMATS: { if (v.isTextual()) for (JsonNode x : a) if (check(s, "format", x, v, ptr)) return false; return true; }
            case SchemaComplement.ALL_PATTERNS: { if (v.isTextual()) for (JsonNode x : a) if (!check(s, "pattern", x, v, ptr)) return false; return true; }
            case NumberMultiples.NOT_MULTIPLES: { if (v.isNumber()) for (JsonNode x : a) if (NumberMultiples.isMultiple(v.decimalValue(), x.decimalValue())) return false; return true; }
            case dev.domino.compiler.jsonschema.algebra.StringLanguages.KEYWORD: {
                if (!v.isTextual()) return true;
                if (languages == null) { unsupported.report(ptr, "not", "a string language without its table"); return true; }
                for (JsonNode id : a) if (!languages.contains(id.asInt(), v.asText())) return false;
                return true;
            }
            case SchemaComplement.NOT_STRINGS: { if (v.isTextual()) for (JsonNode x : a) if (x.asText().equals(v.asText())) return false; return true; }
            case "if": {
                boolean c = valid(a, v, child(ptr, k));
                JsonNode branch = s.get(c ? "then" : "else");
                return branch == null || valid(branch, v, child(ptr, c ? "then" : "else"));
            }
            case "then": case "else": return true;
            case "minLength": return !v.isTextual() || len(v.asText()) >= KeywordValues.count(a, k, ptr);
            case "maxLength": return !v.isTextual() || len(v.asText()) <= KeywordValues.count(a, k, ptr);
            case "pattern": return !v.isTextual() || matches(a.asText(), v.asText(), ptr);
            case "format": {
                if (!v.isTextual() || !formatsAsserted) return true;
                Expr f = Formats.format(a.asText());
                if (f == null) { unsupported.report(ptr, "format", Formats.refusal(a.asText())); return true; }
                return ExprLanguage.matches(f, v.asText());
            }
            case "minimum": return !v.isNumber() || v.decimalValue().compareTo(a.decimalValue()) >= 0;
            case "maximum": return !v.isNumber() || v.decimalValue().compareTo(a.decimalValue()) <= 0;
            case "exclusiveMinimum":
                if (a.isBoolean()) return !a.asBoolean() || !v.isNumber() || !s.has("minimum") || v.decimalValue().compareTo(s.get("minimum").decimalValue()) > 0;
                return !v.isNumber() || v.decimalValue().compareTo(a.decimalValue()) > 0;
            case "exclusiveMaximum":
                if (a.isBoolean()) return !a.asBoolean() || !v.isNumber() || !s.has("maximum") || v.decimalValue().compareTo(s.get("maximum").decimalValue()) < 0;
                return !v.isNumber() || v.decimalValue().compareTo(a.decimalValue()) < 0;
            case "multipleOf": return !v.isNumber() || v.decimalValue().remainder(a.decimalValue()).signum() == 0;
            case "minItems": return !v.isArray() || v.size() >= KeywordValues.count(a, k, ptr);
            case "maxItems": return !v.isArray() || v.size() <= KeywordValues.count(a, k, ptr);
            case "uniqueItems": {
                if (!v.isArray() || !a.asBoolean()) return true;
                for (int i = 0; i < v.size(); i++) for (int j = i + 1; j < v.size(); j++) if (eq(v.get(i), v.get(j))) return false;
                return true;
            }
            case "prefixItems": {
                if (!v.isArray()) return true;
                for (int i = 0; i < Math.min(a.size(), v.size()); i++) if (!valid(a.get(i), v.get(i), child(child(ptr, k), String.valueOf(i)))) return false;
                return true;
            }
            case "items": {
                if (!v.isArray()) return true;
                if (a.isArray()) {
                    for (int i = 0; i < v.size(); i++) {
                        JsonNode sch = i < a.size() ? a.get(i) : s.get("additionalItems");
                        if (sch != null && !valid(sch, v.get(i), ptr)) return false;
                    }
                    return true;
                }
                int from = s.has("prefixItems") ? s.get("prefixItems").size() : 0;
                for (int i = from; i < v.size(); i++) if (!valid(a, v.get(i), child(ptr, k))) return false;
                return true;
            }
            case "additionalItems": return true; // handled with array-form items
            case "contains": case "minContains": case "maxContains": {
                if (!k.equals("contains") || !v.isArray()) return true;
                int n = 0;
                for (JsonNode x : v) if (valid(a, x, child(ptr, k))) n++;
                int min = KeywordValues.countOr(s, "minContains", 1, ptr);
                int max = KeywordValues.countOr(s, "maxContains", Integer.MAX_VALUE, ptr);
                return n >= min && n <= max;
            }
            case "required": {
                if (!v.isObject()) return true;
                for (JsonNode r : a) if (!v.has(r.asText())) return false;
                return true;
            }
            case "minProperties": return !v.isObject() || v.size() >= KeywordValues.count(a, k, ptr);
            case "maxProperties": return !v.isObject() || v.size() <= KeywordValues.count(a, k, ptr);
            case "properties": {
                if (!v.isObject()) return true;
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (v.has(p.getKey()) && !valid(p.getValue(), v.get(p.getKey()), child(child(ptr, k), p.getKey()))) return false;
                }
                return true;
            }
            case "patternProperties": {
                if (!v.isObject()) return true;
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> p = it.next();
                    for (Iterator<String> ks = v.fieldNames(); ks.hasNext(); ) {
                        String key = ks.next();
                        if (matches(p.getKey(), key, ptr) && !valid(p.getValue(), v.get(key), child(child(ptr, k), p.getKey()))) return false;
                    }
                }
                return true;
            }
            case "additionalProperties": {
                if (!v.isObject()) return true;
                for (Iterator<String> ks = v.fieldNames(); ks.hasNext(); ) {
                    String key = ks.next();
                    if (s.path("properties").has(key)) continue;
                    boolean pat = false;
                    for (Iterator<String> ps = s.path("patternProperties").fieldNames(); ps.hasNext(); ) pat |= matches(ps.next(), key, ptr);
                    if (!pat && !valid(a, v.get(key), child(ptr, k))) return false;
                }
                return true;
            }
            case KeyQuantifiers.EXISTS: case KeyQuantifiers.FORALL: {
                if (!v.isObject()) return true;
                boolean exists = k.equals(KeyQuantifiers.EXISTS);
                for (JsonNode e : a) {
                    boolean found = false;
                    for (Iterator<String> ks = v.fieldNames(); ks.hasNext() && !found; ) {
                        String key = ks.next();
                        if (!valid(e.get("keys"), com.fasterxml.jackson.databind.node.TextNode.valueOf(key), ptr)) continue;
                        boolean ok = valid(e.get("value"), v.get(key), ptr);
                        if (exists && ok) found = true;
                        if (!exists && !ok) return false;
                    }
                    if (exists && !found) return false;
                }
                return true;
            }
            case "propertyNames": {
                if (!v.isObject()) return true;
                for (Iterator<String> ks = v.fieldNames(); ks.hasNext(); ) if (!valid(a, com.fasterxml.jackson.databind.node.TextNode.valueOf(ks.next()), child(ptr, k))) return false;
                return true;
            }
            case "dependentRequired": case "dependencies": {
                if (!v.isObject()) return true;
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> d = it.next();
                    if (!v.has(d.getKey())) continue;
                    if (d.getValue().isArray()) { for (JsonNode r : d.getValue()) if (!v.has(r.asText())) return false; }
                    else if (!valid(d.getValue(), v, child(child(ptr, k), d.getKey()))) return false;
                }
                return true;
            }
            case "dependentSchemas": {
                if (!v.isObject()) return true;
                for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> d = it.next();
                    if (v.has(d.getKey()) && !valid(d.getValue(), v, child(child(ptr, k), d.getKey()))) return false;
                }
                return true;
            }
            case "unevaluatedProperties": case "unevaluatedItems": case "$dynamicRef": case "$recursiveRef":
                unsupported.report(ptr, k, "alongside enum/const");
                return true;
            default:
                return true; // unknown keywords have no assertion semantics
        }
    }

    static boolean hasType(JsonNode v, String t) {
        return switch (t) {
            case "null" -> v.isNull();
            case "boolean" -> v.isBoolean();
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "string" -> v.isTextual();
            case "number" -> v.isNumber();
            case "integer" -> v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0;
            default -> false;
        };
    }

    static boolean eq(JsonNode x, JsonNode y) {
        if (x.isNumber() && y.isNumber()) return x.decimalValue().compareTo(y.decimalValue()) == 0;
        if (x.isArray() && y.isArray()) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!eq(x.get(i), y.get(i))) return false;
            return true;
        }
        if (x.isObject() && y.isObject()) {
            if (x.size() != y.size()) return false;
            for (Iterator<String> it = x.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!y.has(k) || !eq(x.get(k), y.get(k))) return false;
            }
            return true;
        }
        return x.equals(y);
    }

    @SuppressWarnings("unused")
    private static BigDecimal dec(JsonNode n) { return n.decimalValue(); }
}
