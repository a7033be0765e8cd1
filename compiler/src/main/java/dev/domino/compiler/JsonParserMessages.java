package dev.domino.compiler;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON parser's complaints in Domino's words: one line, no parser internals. Jackson's messages name
 * its own classes and features, embed locations as {@code [Source: ...; line: 1, column: 5]} and spell
 * characters as {@code ('}' (code 125))}; users of a request or a schema need what is wrong and where
 * (the caller adds the line and column, or a JSON pointer).
 */
public final class JsonParserMessages {
    private JsonParserMessages() {}

    private static final Pattern UNCLOSED = Pattern.compile(
        "Unexpected end-of-input: expected close marker for (Object|Array) \\(start marker at \\[Source: .*?; line: (\\d+), column: (\\d+)\\]\\)");
    private static final Pattern WRONG_CLOSE = Pattern.compile(
        "Unexpected close marker '(.)': expected '(.)' \\(for (Object|Array) starting at \\[Source: .*?; line: (\\d+), column: (\\d+)\\]\\)");
    private static final Pattern SOURCE = Pattern.compile("\\s*\\(?\\s*at \\[Source: .*?; line: (\\d+), column: (\\d+)\\]\\)?");
    private static final Pattern LEFTOVER_SOURCE = Pattern.compile("\\s*\\[Source:.*$");
    private static final Pattern CTRL_CHAR = Pattern.compile("\\(\\(CTRL-CHAR, code (\\d+)\\)\\)");
    private static final Pattern QUOTED_CHAR = Pattern.compile("\\('(.{1,2})' \\(code (\\d+)(?: / 0x[0-9a-fA-F]+)?\\)\\)");
    private static final Pattern CODE = Pattern.compile(" \\(code \\d+(?: / 0x[0-9a-fA-F]+)?\\)");
    private static final Pattern FEATURE = Pattern.compile(
        "(?:\\s*\\(not recognized as one since Feature '\\w+' not enabled for parser\\))|(?::? ?enable `?[\\w.]+`? to allow)|(?:,? (?:from|use) `[^`]*`)");

    /** Jackson's words -> ours, applied after the locations and character codes are gone. */
    private static final List<String[]> PHRASES = List.of(
        new String[] {"Unexpected end-of-input within/between Object entries", "the text ends inside an object"},
        new String[] {"Unexpected end-of-input within/between Array entries", "the text ends inside an array"},
        new String[] {"Unexpected end-of-input: was expecting closing quote for a string value", "the text ends inside a string"},
        new String[] {"Unexpected end-of-inputNo digit following sign", "the text ends after a sign, before any digit"},
        new String[] {"Unexpected end-of-input in field name", "the text ends inside a key"},
        new String[] {"Unexpected end-of-input in VALUE_STRING", "the text ends inside a string"},
        new String[] {"Unexpected end-of-input", "the text ends early"},
        new String[] {"was expecting double-quote to start field name", "expected a key in double quotes"},
        new String[] {"was expecting a colon to separate field name and value", "expected ':' after the key"},
        new String[] {"was expecting comma to separate Array entries", "expected ',' or ']'"},
        new String[] {"was expecting comma to separate Object entries", "expected ',' or '}'"},
        new String[] {"expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')", "expected a JSON value"},
        new String[] {"was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')", "expected a JSON value"},
        new String[] {"was expecting ('true', 'false' or 'null')", "expected a JSON value"},
        new String[] {"maybe a (non-standard) comment?", "comments are not JSON"},
        new String[] {"Illegal unquoted character", "unescaped control character"},
        new String[] {": has to be escaped using backslash to be included in string value", " in a string"},
        new String[] {"has to be escaped using backslash to be included in name", "in a key"},
        new String[] {"Unrecognized character escape", "invalid escape"},
        new String[] {"expected a hex-digit for character escape sequence", "expected a hex digit of a \\u escape"},
        new String[] {"Non-standard token", "not a JSON token:"},
        new String[] {"Leading zeroes not allowed", "leading zeros are not JSON"},
        new String[] {"Decimal point not followed by a digit", "a decimal point must be followed by a digit"},
        new String[] {"expected digit (0-9) to follow minus sign, for valid numeric value", "expected a digit after '-'"},
        new String[] {"Number value length", "a number's length"},
        new String[] {"String value length", "a string's length"},
        new String[] {"Unexpected close marker", "unexpected"});

    /** A Jackson message (its original message, or the full one) in one line of plain words. */
    public static String plain(String jackson) {
        if (jackson == null || jackson.isBlank()) return "malformed JSON";
        String m = jackson.replaceAll("\\s+", " ").trim();
        m = replace(UNCLOSED, m, g -> "the text ends inside the " + g.group(1).toLowerCase(Locale.ROOT) + " opened at line " + g.group(2) + ", column " + g.group(3));
        m = replace(WRONG_CLOSE, m, g -> "unexpected '" + g.group(1) + "': expected '" + g.group(2) + "' to close the "
            + g.group(3).toLowerCase(Locale.ROOT) + " opened at line " + g.group(4) + ", column " + g.group(5));
        m = SOURCE.matcher(m).replaceAll("");
        m = LEFTOVER_SOURCE.matcher(m).replaceAll("");
        m = replace(CTRL_CHAR, m, g -> codePoint(Integer.parseInt(g.group(1))));
        m = replace(QUOTED_CHAR, m, g -> character(Integer.parseInt(g.group(2))));
        m = CODE.matcher(m).replaceAll("");
        m = FEATURE.matcher(m).replaceAll("");
        for (String[] p : PHRASES) m = m.replace(p[0], p[1]);
        m = m.trim();
        if (m.isEmpty()) return "malformed JSON";
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }

    private static String replace(Pattern p, String s, java.util.function.Function<Matcher, String> f) {
        Matcher m = p.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(f.apply(m)));
        m.appendTail(out);
        return out.toString();
    }

    /** A character as a message shows it: printable ASCII quoted, anything else as U+XXXX. */
    private static String character(int c) {
        if (c == '\'') return "\"'\"";
        if (c > 0x20 && c < 0x7f) return "'" + (char) c + "'";
        return codePoint(c);
    }

    private static String codePoint(int c) { return String.format(Locale.ROOT, "U+%04X", c); }
}
