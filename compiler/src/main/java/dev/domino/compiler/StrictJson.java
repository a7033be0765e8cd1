package dev.domino.compiler;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON as requests and schemas must be read: one value and nothing after it, no key twice in an
 * object, nesting at most {@link CompileLimits#NESTING_DEPTH} deep, and no lone UTF-16 surrogate
 * (a {@code \ud800} escape with no pair) in any string or key. A lenient reader would let a gateway
 * that validated the request and Domino see different constraints (the last of two duplicate keys
 * wins in Jackson, the first in others; trailing content is dropped; a lone surrogate became
 * {@code ?} in the grammar). Errors are one line, with the JSON pointer or the line and column,
 * never the parser's internals.
 */
public final class StrictJson {
    private StrictJson() {}

    /** Malformed or out-of-limit JSON: the pointer ("" for the document) and a one-line reason. */
    public static final class Invalid extends IllegalArgumentException {
        private final String pointer;
        private final String detail;
        private final int line;
        private final int column;

        Invalid(String pointer, String reason) { this(pointer, reason, 0, 0); }

        /** With the 1-based line and column in the JSON text (0 when the problem is not at one place). */
        Invalid(String pointer, String detail, int line, int column) {
            super((pointer.isEmpty() ? "" : printable(pointer) + ": ") + printable(detail) + at(line, column));
            this.pointer = printable(pointer);
            this.detail = printable(detail);
            this.line = line;
            this.column = column;
        }

        public String pointer() { return pointer; }
        /** What is wrong, with the line and column when known. */
        public String reason() { return detail + at(line, column); }
        /** What is wrong, without the place. */
        public String detail() { return detail; }
        public int line() { return line; }
        public int column() { return column; }
    }

    private static ObjectMapper mapper(long depth) {
        JsonFactory f = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth((int) Math.min(Integer.MAX_VALUE, depth)).build())
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        return JsonMapper.builder(f).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    }

    private static volatile ObjectMapper cached;
    private static volatile long cachedDepth;

    private static ObjectMapper mapper() {
        long depth = CompileLimits.NESTING_DEPTH.value();
        ObjectMapper m = cached;
        if (m == null || cachedDepth != depth) {
            m = mapper(depth);
            cachedDepth = depth;
            cached = m;
        }
        return m;
    }

    /** Parses one JSON value strictly (see the class comment); null text or only whitespace is an error too. */
    public static JsonNode parse(String text) { return parse(text, true); }

    /**
     * As {@link #parse(String)}; without {@code text}, lone surrogates are left for the caller to
     * check where they matter (a request's messages are not the constraint's business).
     */
    public static JsonNode parse(String text, boolean checkText) {
        if (text == null) throw new Invalid("", "no JSON text");
        JsonNode n;
        ObjectMapper m = mapper();
        try (JsonParser p = m.getFactory().createParser(text)) {
            n = m.readTree(p);
            if (n == null || n.isMissingNode()) throw new Invalid("", "empty JSON text");
            JsonLocation end = p.currentLocation();
            boolean trailing;
            try {
                trailing = p.nextToken() != null;
            } catch (JsonProcessingException e) {
                trailing = true;
            }
            if (trailing) throw new Invalid("", "trailing content after the JSON value", lineOf(end), columnOf(end));
        } catch (StreamConstraintsException e) {
            String limit = e.getOriginalMessage();
            if (limit != null && limit.contains("nesting depth")) throw new Invalid("", depthMessage(CompileLimits.NESTING_DEPTH.value() + 1));
            throw new Invalid("", JsonParserMessages.plain(limit), lineOf(e.getLocation()), columnOf(e.getLocation()));
        } catch (StreamReadException e) {
            throw new Invalid(pointerOf(e), describe(e), lineOf(e.getLocation()), columnOf(e.getLocation()));
        } catch (JsonProcessingException e) {
            throw new Invalid("", JsonParserMessages.plain(e.getOriginalMessage()), lineOf(e.getLocation()), columnOf(e.getLocation()));
        } catch (java.io.IOException e) {
            throw new Invalid("", JsonParserMessages.plain(e.getMessage()));
        }
        if (checkText) checkTree(n);
        else checkDepth(n);
        return n;
    }

    /**
     * Checks a tree read elsewhere: nesting within {@link CompileLimits#NESTING_DEPTH} and no lone
     * surrogate in a string or key. Iterative: a tree nested far past the limit is refused, never a
     * StackOverflowError.
     */
    public static void checkTree(JsonNode root) { walk(root, true); }

    /** Checks nesting within {@link CompileLimits#NESTING_DEPTH} only. */
    public static void checkDepth(JsonNode root) { walk(root, false); }

    private static void walk(JsonNode root, boolean text) {
        long limit = CompileLimits.NESTING_DEPTH.value();
        ArrayDeque<Object[]> todo = new ArrayDeque<>();
        todo.push(new Object[] {root, "", 0});
        while (!todo.isEmpty()) {
            Object[] t = todo.pop();
            JsonNode n = (JsonNode) t[0];
            String ptr = (String) t[1];
            int depth = (Integer) t[2];
            if (n.isTextual()) {
                if (text) checkText(n.textValue(), ptr);
            } else if (n.isContainerNode()) {
                if (depth + 1 > limit) throw new Invalid(ptr, depthMessage(depth + 1));
                if (n.isArray()) {
                    for (int i = n.size() - 1; i >= 0; i--) todo.push(new Object[] {n.get(i), ptr + "/" + i, depth + 1});
                } else {
                    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> f = it.next();
                        String child = ptr + "/" + f.getKey().replace("~", "~0").replace("/", "~1");
                        if (text) checkText(f.getKey(), child);
                        todo.push(new Object[] {f.getValue(), child, depth + 1});
                    }
                }
            }
        }
    }

    /** Throws when the text holds a lone surrogate, naming it and where it is. */
    public static void checkText(String s, String pointer) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new Invalid(pointer, String.format("lone surrogate U+%04X at character %d: not a Unicode character (text must be valid Unicode)",
                        (int) c, i));
            }
        }
    }

    /** The text with control characters and lone surrogates (from the input, quoted in a message) as escapes. */
    static String printable(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            boolean bad = Character.isISOControl(c) || Character.isSurrogate(c) && !pair
                    && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
            if (bad && b == null) b = new StringBuilder(s.substring(0, i));
            if (b != null) {
                if (bad) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }

    private static String depthMessage(long depth) {
        CompileLimits l = CompileLimits.NESTING_DEPTH;
        return "JSON nested " + depth + " deep exceeds the limit " + l.id() + "=" + l.value()
                + " (raise it with --limit " + l.id() + "=N or -Ddomino.limit." + l.id() + "=N)";
    }

    /** The pointer of a duplicate key; a syntax error is located by its line and column only. */
    private static String pointerOf(StreamReadException e) {
        JsonParser p = e.getProcessor();
        String m = e.getOriginalMessage();
        if (p == null || m == null || !m.startsWith("Duplicate field")) return "";
        try {
            JsonStreamContext ctx = p.getParsingContext();
            String ptr = ctx == null ? "" : ctx.pathAsPointer().toString();
            if (ctx != null && ctx.getCurrentName() != null && !ptr.endsWith("/" + ctx.getCurrentName())) {
                ptr = ptr + "/" + ctx.getCurrentName().replace("~", "~0").replace("/", "~1");
            }
            return ptr;
        } catch (RuntimeException ignored) {
            return "";
        }
    }

    private static String describe(StreamReadException e) {
        String m = e.getOriginalMessage();
        if (m != null && m.startsWith("Duplicate field")) {
            String name = e.getProcessor() != null && e.getProcessor().getParsingContext() != null ? e.getProcessor().getParsingContext().getCurrentName() : null;
            return "duplicate key" + (name == null ? "" : " '" + name + "'") + " in an object";
        }
        return JsonParserMessages.plain(m);
    }

    private static int lineOf(JsonLocation l) { return l == null || l.getLineNr() < 1 ? 0 : l.getLineNr(); }

    private static int columnOf(JsonLocation l) { return l == null || l.getLineNr() < 1 ? 0 : l.getColumnNr(); }

    private static String at(int line, int column) {
        return line < 1 ? "" : " (line " + line + ", column " + column + ")";
    }
}
