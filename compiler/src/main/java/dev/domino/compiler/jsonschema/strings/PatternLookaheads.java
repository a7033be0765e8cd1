package dev.domino.compiler.jsonschema.strings;

import java.util.ArrayList;
import java.util.List;

/**
 * Leading lookaheads of an anchored {@code pattern}, {@code ^(?=A)(?!B)R}, as a conjunction of patterns:
 * a string matches it exactly when it matches {@code ^(?:A)} and {@code ^(?:R)} and does not match
 * {@code ^(?:B)} (each lookahead looks at the string from its start, where R starts too). The parts go
 * to the string algebra's internal keywords (all of these patterns, none of those), which intersects
 * their automata. This is the shape real schemas use (password rules: {@code ^(?=.*[A-Z])(?=.*\d).{8,}$}).
 * Lookaheads anywhere else, or a pattern whose rest has a top-level {@code |} (then the lookaheads bind
 * only the first alternative), are left as they are: the regex parser reports them.
 */
public final class PatternLookaheads {
    /** The parts of {@code ^(?=A)...(?!B)...R}: patterns every string must match, patterns none may match. */
    public record Split(List<String> all, List<String> none) {}

    private PatternLookaheads() {}

    /** The split of a pattern with leading lookaheads after {@code ^}, or null when it has another shape. */
    public static Split split(String pattern) {
        if (!pattern.startsWith("^")) return null;
        List<String> all = new ArrayList<>(), none = new ArrayList<>();
        int i = 1;
        while (pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i)) {
            int end = closingParen(pattern, i);
            if (end < 0) return null;
            String body = pattern.substring(i + 3, end);
            (pattern.charAt(i + 2) == '=' ? all : none).add("^(?:" + body + ")");
            i = end + 1;
        }
        if (i == 1) return null;
        String rest = pattern.substring(i);
        if (hasTopLevelBar(rest)) return null;
        if (!rest.isEmpty()) all.add("^(?:" + rest + ")");
        return new Split(all, none);
    }

    /** The index of the ')' closing the group opened at {@code open}, or -1 (escapes and classes skipped). */
    private static int closingParen(String p, int open) {
        int depth = 0;
        for (int i = open; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') { i++; continue; }
            if (c == '[') { i = classEnd(p, i); if (i < 0) return -1; continue; }
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return i;
        }
        return -1;
    }

    /** The index of the ']' ending the class opened at {@code open} (ECMA: no literal ']' first), or -1. */
    private static int classEnd(String p, int open) {
        for (int i = open + 1; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') { i++; continue; }
            if (c == ']') return i;
        }
        return -1;
    }

    private static boolean hasTopLevelBar(String p) {
        int depth = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') { i++; continue; }
            if (c == '[') { i = classEnd(p, i); if (i < 0) return false; continue; }
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == '|' && depth == 0) return true;
        }
        return false;
    }
}
