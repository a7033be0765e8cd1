package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Validation of the values of assertion keywords, before any of them is read.
 *
 * <p>Why: Jackson's accessors coerce silently ({@code asInt()} cuts 4294967296 to 0, reads "abc" as 0 and
 * 1.5 as 1; {@code decimalValue()} of a string is 0), and a coerced bound yields wrong masks with no
 * error. So every keyword whose value the compiler reads is checked here first: a count must be a
 * non-negative integer (a number with a zero fraction, such as 5.0, counts as the integer, as in draft 6+)
 * no larger than {@link #MAX_COUNT}; a bound must be a number; names and patterns must be strings. A
 * string the output must spell (a property name, a {@code required} entry, an {@code enum}/{@code const}
 * string) must be valid Unicode: a lone surrogate cannot be written in UTF-8, so such a property could
 * never be produced. Every failure is a {@link GrammarException} naming the keyword and its JSON pointer.
 */
public final class KeywordValues {
    private KeywordValues() {}

    /**
     * Largest count the engine represents (repeat bounds are {@code int}s; one below
     * {@link Integer#MAX_VALUE} so that {@code count + 1} never overflows).
     */
    static final int MAX_COUNT = Integer.MAX_VALUE - 1;

    private static final String[] COUNTS = {
        "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"};
    private static final String[] NUMBERS = {"minimum", "maximum", "multipleOf"};
    private static final String[] STRINGS = {"pattern", "format", "$ref"};
    private static final String[] SCHEMA_MAPS = {"properties", "patternProperties", "dependentSchemas"};
    private static final String[] SCHEMA_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"};

    /** Checks the keyword values of one schema object (not its subschemas). */
    static void check(JsonNode schema, String ptr) {
        if (!schema.isObject()) return;
        for (String k : COUNTS) if (schema.has(k)) count(schema.get(k), k, ptr);
        for (String k : NUMBERS) {
            JsonNode v = schema.get(k);
            if (v != null && !v.isNumber()) throw bad(k, ptr, "must be a number, not " + describe(v));
        }
        JsonNode m = schema.get("multipleOf");
        if (m != null && m.decimalValue().signum() <= 0) throw bad("multipleOf", ptr, "must be greater than 0, not " + m);
        for (String k : new String[] {"exclusiveMinimum", "exclusiveMaximum"}) {
            JsonNode v = schema.get(k);
            if (v != null && !v.isNumber() && !v.isBoolean()) throw bad(k, ptr, "must be a number (or a boolean in draft 4), not " + describe(v));
        }
        for (String k : STRINGS) {
            JsonNode v = schema.get(k);
            if (v != null && !v.isTextual()) throw bad(k, ptr, "must be a string, not " + describe(v));
        }
        for (String k : new String[] {"uniqueItems", "nullable"}) {
            JsonNode v = schema.get(k);
            if (v != null && !v.isBoolean()) throw bad(k, ptr, "must be a boolean, not " + describe(v));
        }
        for (String k : SCHEMA_MAPS) {
            JsonNode v = schema.get(k);
            if (v == null) continue;
            if (!v.isObject()) throw bad(k, ptr, "must be an object, not " + describe(v));
            if (k.equals("properties")) {
                for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) spellable(it.next(), "properties", ptr);
            }
        }
        for (String k : SCHEMA_LISTS) {
            JsonNode v = schema.get(k);
            if (v == null) continue;
            if (!v.isArray()) throw bad(k, ptr, "must be an array of schemas, not " + describe(v));
            if (v.isEmpty() && !k.equals("prefixItems")) throw bad(k, ptr, "must not be empty");
        }
        JsonNode req = schema.get("required");
        if (req != null) {
            if (!req.isArray()) throw bad("required", ptr, "must be an array of strings, not " + describe(req));
            for (JsonNode r : req) {
                if (!r.isTextual()) throw bad("required", ptr, "must be an array of strings; found " + describe(r));
                spellable(r.asText(), "required", ptr);
            }
        }
        JsonNode type = schema.get("type");
        if (type != null) {
            if (type.isArray()) {
                for (JsonNode t : type) if (!t.isTextual()) throw bad("type", ptr, "must be a string or an array of strings; found " + describe(t));
            } else if (!type.isTextual()) {
                throw bad("type", ptr, "must be a string or an array of strings, not " + describe(type));
            }
        }
        JsonNode en = schema.get("enum");
        if (en != null) {
            if (!en.isArray()) throw bad("enum", ptr, "must be an array, not " + describe(en));
            for (JsonNode x : en) constant(x, "enum", ptr);
        }
        if (schema.has("const")) constant(schema.get("const"), "const", ptr);
    }

    /** The value of a count keyword: a non-negative integer no larger than {@link #MAX_COUNT}. */
    static int count(JsonNode v, String keyword, String ptr) {
        if (!v.isNumber()) throw bad(keyword, ptr, "must be a non-negative integer, not " + describe(v));
        BigDecimal d = v.decimalValue();
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) throw bad(keyword, ptr, "must be a non-negative integer, not " + v);
        if (d.signum() < 0) throw bad(keyword, ptr, "must be a non-negative integer, not " + v);
        if (d.compareTo(BigDecimal.valueOf(MAX_COUNT)) > 0) {
            throw bad(keyword, ptr, v + " is larger than the largest supported count " + MAX_COUNT);
        }
        return d.intValueExact();
    }

    /** Reads a count keyword that {@link #check} has validated (or {@code absent} when missing). */
    public static int countOr(JsonNode schema, String keyword, int absent, String ptr) {
        JsonNode v = schema.get(keyword);
        return v == null ? absent : count(v, keyword, ptr);
    }

    private static void constant(JsonNode v, String keyword, String ptr) {
        if (v.isTextual()) spellable(v.asText(), keyword, ptr);
        else if (v.isArray()) for (JsonNode x : v) constant(x, keyword, ptr);
        else if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                spellable(f.getKey(), keyword, ptr);
                constant(f.getValue(), keyword, ptr);
            }
        }
    }

    /** Fails if {@code s} holds a lone surrogate (no UTF-8 output can produce such a string). */
    static void spellable(String s, String keyword, String ptr) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { i++; continue; }
            if (Character.isSurrogate(c)) {
                throw bad(keyword, ptr, String.format("string %s holds a lone surrogate U+%04X, which is not a Unicode "
                    + "character (UTF-8 output cannot contain it)", quote(s), (int) c));
            }
        }
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length() && i < 60; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7F) sb.append(String.format("\\u%04x", (int) c)); else sb.append(c);
        }
        return sb.append(s.length() > 60 ? "...\"" : "\"").toString();
    }

    private static String describe(JsonNode v) {
        String t = v.isTextual() ? "a string" : v.isArray() ? "an array" : v.isObject() ? "an object"
            : v.isBoolean() ? "a boolean" : v.isNull() ? "null" : "a number";
        String s = v.toString();
        return t + " (" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + ")";
    }

    private static GrammarException bad(String keyword, String ptr, String detail) {
        return new GrammarException("invalid '" + keyword + "' at " + SchemaCompiler.showPointer(ptr) + ": " + detail);
    }
}
