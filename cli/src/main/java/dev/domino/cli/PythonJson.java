package dev.domino.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads JSON and writes it back exactly as Python's
 * {@code json.dumps(json.loads(text), indent=None, ensure_ascii=False)} would: separators
 * {@code ", "} and {@code ": "}, only {@code "}, {@code \}, and control characters escaped
 * ({@code \n \r \t \b \f}, else backslash-u00XX in lowercase hex), integers printed exactly, and
 * every other number as Python's shortest round-trip float repr ({@code 1e-05}, {@code 1.0},
 * {@code 1e+16}, {@code 1000000000000000.0}, {@code Infinity}).
 */
public final class PythonJson {
    private PythonJson() {}

    static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNumberLength(Integer.MAX_VALUE).maxStringLength(Integer.MAX_VALUE)
                            .maxNestingDepth(100_000).build())
                    .build())
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS) // Python accepts NaN / Infinity
            .build();

    /**
     * Parses JSON as Python's {@code json.loads} does: integers exactly (BigInteger), other numbers
     * as the nearest double ({@code -0.0} keeps its sign, {@code 1e400} is infinite).
     */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code json.dumps(value, indent=None, ensure_ascii=False)}. */
    public static String dumps(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        write(node, sb);
        return sb.toString();
    }

    private static void write(JsonNode node, StringBuilder sb) {
        switch (node.getNodeType()) {
            case NULL, MISSING -> sb.append("null");
            case BOOLEAN -> sb.append(node.booleanValue() ? "true" : "false");
            case STRING -> string(node.textValue(), sb);
            case NUMBER -> number(node, sb);
            case ARRAY -> {
                sb.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) sb.append(", ");
                    write(node.get(i), sb);
                }
                sb.append(']');
            }
            case OBJECT -> {
                sb.append('{');
                boolean first = true;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!first) sb.append(", ");
                    first = false;
                    string(e.getKey(), sb);
                    sb.append(": ");
                    write(e.getValue(), sb);
                }
                sb.append('}');
            }
            default -> throw new IllegalArgumentException("cannot serialize " + node.getNodeType());
        }
    }

    private static void number(JsonNode node, StringBuilder sb) {
        if (node.isIntegralNumber()) {
            sb.append(node.bigIntegerValue().toString());
        } else if (node.isBigDecimal()) {
            sb.append(floatRepr(Double.parseDouble(node.decimalValue().toString())));
        } else {
            // Jackson parses float literals with Double.parseDouble: correctly rounded, like Python's float()
            sb.append(floatRepr(node.doubleValue()));
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A JSON string as Python writes it with {@code ensure_ascii=False}. */
    static void string(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 15]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Python's {@code repr(float)}: the shortest digits that round-trip, in Python's layout. */
    static String floatRepr(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        if (d == 0) return (Double.doubleToRawLongBits(d) < 0) ? "-0.0" : "0.0";
        BigDecimal exact = new BigDecimal(Math.abs(d));
        BigDecimal shortest = null;
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (Double.parseDouble(r.toString()) == Math.abs(d)) {
                shortest = r;
                break;
            }
        }
        if (shortest == null) shortest = exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int n = digits.length();
        int decpt = n - shortest.scale(); // value = 0.DIGITS x 10^decpt
        StringBuilder sb = new StringBuilder(24);
        if (d < 0) sb.append('-');
        if (decpt <= -4 || decpt > 16) {
            sb.append(digits.charAt(0));
            if (n > 1) sb.append('.').append(digits, 1, n);
            int exp = decpt - 1;
            sb.append('e').append(exp < 0 ? '-' : '+');
            int a = Math.abs(exp);
            if (a < 10) sb.append('0');
            sb.append(a);
        } else if (decpt <= 0) {
            sb.append("0.");
            for (int i = 0; i < -decpt; i++) sb.append('0');
            sb.append(digits);
        } else if (decpt >= n) {
            sb.append(digits);
            for (int i = n; i < decpt; i++) sb.append('0');
            sb.append(".0");
        } else {
            sb.append(digits, 0, decpt).append('.').append(digits, decpt, n);
        }
        return sb.toString();
    }
}
