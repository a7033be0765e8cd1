package dev.domino.compiler.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Iterator;
import java.util.List;

/**
 * JSON equality for the test oracles ({@code uniqueItems}): texts parsed by Jackson (numbers as
 * BigDecimal), compared as values: numbers numerically, objects regardless of member order, arrays
 * element by element, strings by their decoded text. Written apart from the runtime's canonical forms, so
 * that the two check each other.
 */
public final class JsonValues {
    private JsonValues() {}

    private static final ObjectMapper MAPPER = new ObjectMapper()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** The value of a JSON text, or null when it is not one JSON value. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }

    public static boolean equal(JsonNode x, JsonNode y) {
        if (x.isNumber() && y.isNumber()) return x.decimalValue().compareTo(y.decimalValue()) == 0;
        if (x.isArray() && y.isArray()) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!equal(x.get(i), y.get(i))) return false;
            return true;
        }
        if (x.isObject() && y.isObject()) {
            if (x.size() != y.size()) return false;
            for (Iterator<String> it = x.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!y.has(k) || !equal(x.get(k), y.get(k))) return false;
            }
            return true;
        }
        return x.equals(y);
    }

    /** Whether {@code v} equals one of {@code values}. */
    public static boolean among(JsonNode v, List<JsonNode> values) {
        for (JsonNode w : values) if (equal(v, w)) return true;
        return false;
    }
}
