package dev.domino.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.vocab.Tokenizer;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Example outputs for {@code train} and {@code bench speculate}. A file is read by its name:
 * <ul>
 *   <li>{@code *.jsonl}: one JSON string per line (an output may then hold newlines);</li>
 *   <li>{@code *.json}: a MaskBench instance {@code {"schema": ..., "tests": [{"valid": bool,
 *       "data": ...}]}}: every valid test's data, serialized as Python's
 *       {@code json.dumps(data, ensure_ascii=False)} would (separators {@code ", "} and
 *       {@code ": "});</li>
 *   <li>anything else: text, one output per non-empty line.</li>
 * </ul>
 * A directory stands for its regular files, in name order.
 */
final class Corpus {
    private Corpus() {}

    static List<String> read(List<Path> paths) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    for (Path f : s.filter(Files::isRegularFile).sorted().toList()) out.addAll(readFile(f));
                }
            } else {
                out.addAll(readFile(p));
            }
        }
        return out;
    }

    static List<String> readFile(Path p) throws IOException {
        String name = p.getFileName().toString();
        String text = Files.readString(p, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        if (name.endsWith(".jsonl")) {
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty()) continue;
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(p + ":" + (i + 1) + ": not JSON (" + e.getMessage() + ")");
                }
                if (n == null || !n.isTextual()) throw new IllegalArgumentException(p + ":" + (i + 1) + ": expected a JSON string per line");
                out.add(n.textValue());
            }
        } else if (name.endsWith(".json")) {
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(text);
            } catch (IOException e) {
                throw new IllegalArgumentException(p + ": not JSON (" + e.getMessage() + ")");
            }
            if (n == null || !n.isObject() || !n.path("tests").isArray()) {
                throw new IllegalArgumentException(p + ": expected a MaskBench instance {\"schema\": ..., \"tests\": [...]}");
            }
            for (JsonNode t : n.get("tests")) {
                if (t.path("valid").asBoolean(false) && t.has("data")) out.add(pythonDumps(t.get("data")));
            }
        } else {
            for (String line : text.split("\r?\n")) if (!line.isEmpty()) out.add(line);
        }
        return out;
    }

    /** Canonical tokens of each output, plus the first EOS id when {@code eos} (as a model would end). */
    static List<int[]> tokenize(Tokenizer tokenizer, List<String> outputs, boolean eos) {
        int[] eosIds = tokenizer.vocabulary().eosIds();
        boolean addEos = eos && eosIds.length > 0;
        List<int[]> out = new ArrayList<>(outputs.size());
        for (String s : outputs) {
            int[] t = s.isEmpty() ? new int[0] : tokenizer.encode(s);
            if (addEos) {
                t = java.util.Arrays.copyOf(t, t.length + 1);
                t[t.length - 1] = eosIds[0];
            }
            out.add(t);
        }
        return out;
    }

    // ------------------------------------------------------------------ Python json.dumps

    /** {@code json.dumps(value, ensure_ascii=False)} of Python 3. */
    static String pythonDumps(JsonNode n) {
        StringBuilder sb = new StringBuilder();
        dump(n, sb);
        return sb.toString();
    }

    private static void dump(JsonNode n, StringBuilder sb) {
        if (n.isObject()) {
            sb.append('{');
            boolean first = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!first) sb.append(", ");
                first = false;
                string(e.getKey(), sb);
                sb.append(": ");
                dump(e.getValue(), sb);
            }
            sb.append('}');
        } else if (n.isArray()) {
            sb.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) sb.append(", ");
                dump(n.get(i), sb);
            }
            sb.append(']');
        } else if (n.isTextual()) {
            string(n.textValue(), sb);
        } else if (n.isIntegralNumber()) {
            sb.append(n.bigIntegerValue());
        } else if (n.isNumber()) {
            sb.append(pythonFloatRepr(n.doubleValue()));
        } else if (n.isBoolean()) {
            sb.append(n.booleanValue() ? "true" : "false");
        } else {
            sb.append("null");
        }
    }

    private static void string(String s, StringBuilder sb) {
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
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    /** Python's {@code repr(float)}: shortest round-trip digits, exponent form outside [1e-4, 1e16). */
    static String pythonFloatRepr(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
        String sign = d < 0 ? "-" : "";
        BigDecimal exact = new BigDecimal(Math.abs(d));
        BigDecimal shortest = exact;
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, java.math.RoundingMode.HALF_EVEN));
            if (r.doubleValue() == Math.abs(d)) { shortest = r; break; }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int n = digits.length();
        int decpt = n - shortest.scale(); // value = 0.digits × 10^decpt
        StringBuilder sb = new StringBuilder(sign);
        if (decpt <= -4 || decpt > 16) {
            sb.append(digits.charAt(0));
            if (n > 1) sb.append('.').append(digits, 1, n);
            int exp = decpt - 1;
            sb.append('e').append(exp < 0 ? '-' : '+');
            String e = Integer.toString(Math.abs(exp));
            if (e.length() < 2) sb.append('0');
            sb.append(e);
        } else if (decpt <= 0) {
            sb.append("0.").append("0".repeat(-decpt)).append(digits);
        } else if (decpt < n) {
            sb.append(digits, 0, decpt).append('.').append(digits, decpt, n);
        } else {
            sb.append(digits).append("0".repeat(decpt - n)).append(".0");
        }
        return sb.toString();
    }
}
