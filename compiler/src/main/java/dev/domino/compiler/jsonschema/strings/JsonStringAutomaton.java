package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;

import java.util.HashMap;
import java.util.Map;

/**
 * {@link JsonStrings#encodeRegex} for a language given as a code point automaton: the deterministic
 * automaton of its JSON spellings (the text between the quotes), built directly, never through an
 * expression.
 *
 * <p>Every state q of the source keeps its place; out of it go the code points that may stand
 * unescaped, and a backslash into an escape state of q: from there the short escapes lead where
 * their code point leads, and {@code u} into a trie of four hex digits (either case) over the
 * code units. A trie node covers the values sharing its digits read so far; a node whose values
 * all lead to the same state (or nowhere) is not split further but shares a chain "any k hex
 * digits, then that state", so a state has trie nodes only along the boundaries of its ranges.
 * A high surrogate's value leads to a state that expects {@code \}{@code u} and a low surrogate
 * (the astral code point's target); lone surrogates are no code points and have no spelling.
 * Canonical spellings only ({@code all} false): unescaped where allowed, short escapes but
 * {@code \/}, lowercase {@code \}{@code u00XX} for the other control characters.
 * The result is minimized by {@link CodePointAutomaton.Builder}.
 */
final class JsonStringAutomaton {
    private static final int[][] SHORT = {{'"', '"'}, {'\\', '\\'}, {'/', '/'}, {8, 'b'}, {12, 'f'}, {10, 'n'}, {13, 'r'}, {9, 't'}};
    private static final int NONE = -1, MIXED = -2;

    private final CodePointAutomaton src;
    private final CodePointAutomaton.Builder out = new CodePointAutomaton.Builder();
    private final Map<Long, Integer> chains = new HashMap<>();
    private final Map<Integer, Integer> lowTo = new HashMap<>();

    private JsonStringAutomaton(CodePointAutomaton src) { this.src = src; }

    static CodePointAutomaton encode(CodePointAutomaton src, boolean all) {
        JsonStringAutomaton j = new JsonStringAutomaton(src);
        int n = src.stateCount();
        for (int q = 0; q < n; q++) j.out.addState(src.isAccepting(q)); // out state q = source state q
        for (int q = 0; q < n; q++) j.state(q, all);
        return j.out.build();
    }

    private void state(int q, boolean all) {
        if (src.firstRange(q) == src.endRange(q)) return;
        CodePointSet unescaped = JsonStrings.UNESCAPED;
        for (int r = src.firstRange(q); r < src.endRange(q); r++) {
            // the range's unescaped code points, ascending (the intersection, without making the set)
            for (int i = 0; i < unescaped.rangeCount(); i++) {
                int l = Math.max(src.lo(r), unescaped.lo(i)), h = Math.min(src.hi(r), unescaped.hi(i));
                if (l <= h) out.addRange(q, l, h, src.target(r));
            }
        }
        if (!all) {
            // canonical escapes: states whose escapable code points lead to the same states share
            // one escape part (the nodes of a key complement all lead to its any-string state),
            // where one part per state made the automaton 7 times its source's size before minimization
            EscapeTargets targets = new EscapeTargets(q);
            Integer shared = escapes.get(targets);
            if (shared != null) {
                out.addRange(q, '\\', '\\', shared);
                return;
            }
            escapes.put(targets, escapeState(q, false));
            return;
        }
        escapeState(q, true);
    }

    /** The escapes out of source state q in canonical spelling, by their targets (-1: none). */
    private final Map<EscapeTargets, Integer> escapes = new HashMap<>();

    /** Where each code point with a canonical escape leads from one source state: equal targets, equal escape parts. */
    private final class EscapeTargets {
        final int[] to = new int[ESCAPED.length];
        final int hash;

        EscapeTargets(int q) {
            for (int i = 0; i < ESCAPED.length; i++) to[i] = src.step(q, ESCAPED[i]);
            hash = java.util.Arrays.hashCode(to);
        }

        @Override public boolean equals(Object o) { return o instanceof EscapeTargets e && java.util.Arrays.equals(to, e.to); }

        @Override public int hashCode() { return hash; }
    }

    /** The code points with a canonical escape: the short escapes but the slash, and the control characters. */
    private static final int[] ESCAPED = java.util.stream.IntStream.concat(java.util.stream.IntStream.of('"', '\\'),
            java.util.stream.IntStream.range(0, 32)).toArray();

    /** The backslash out of q and what follows it; returns the escape state. */
    private int escapeState(int q, boolean all) {
        int esc = out.addState(false);
        out.addRange(q, '\\', '\\', esc);
        for (int[] s : SHORT) {
            if (!all && s[0] == '/') continue;
            int t = src.step(q, s[0]);
            if (t >= 0) out.addRange(esc, s[1], s[1], t);
        }
        if (all) {
            int trie = hexNode(v -> firstUnit(q, v), (a, b) -> firstUniform(q, a, b), 0, 4);
            if (trie >= 0) out.addRange(esc, 'u', 'u', trie);
        } else {
            // backslash-u00XX for the control characters without a short escape, lowercase hex
            int u00 = -1;
            for (int hi = 0; hi < 2; hi++) {
                int node = -1;
                for (int lo = 0; lo < 16; lo++) {
                    int cp = hi * 16 + lo;
                    if (cp == 8 || cp == 9 || cp == 10 || cp == 12 || cp == 13) continue;
                    int t = src.step(q, cp);
                    if (t < 0) continue;
                    if (u00 < 0) {
                        int u = out.addState(false), u0 = out.addState(false);
                        u00 = out.addState(false);
                        out.addRange(esc, 'u', 'u', u);
                        out.addRange(u, '0', '0', u0);
                        out.addRange(u0, '0', '0', u00);
                    }
                    if (node < 0) { node = out.addState(false); out.addRange(u00, '0' + hi, '0' + hi, node); }
                    int c = Character.forDigit(lo, 16);
                    out.addRange(node, c, c, t);
                }
            }
        }
        return esc;
    }

    private interface At { int at(int value); }
    private interface Uniform { int uniform(int lo, int hi); }

    /**
     * The trie node reading k hex digits of a value in [base, base + 16^k - 1], then going where
     * {@code at} says; -1 when no value leads anywhere.
     */
    private int hexNode(At at, Uniform uniform, int base, int k) {
        if (k == 0) return at.at(base);
        int span = 1 << (4 * k);
        int u = uniform.uniform(base, base + span - 1);
        if (u == NONE) return -1;
        if (u >= 0) return chain(u, k);
        int node = out.addState(false);
        int sub = span >> 4;
        for (int d = 0; d < 16; d++) {
            int child = hexNode(at, uniform, base + d * sub, k - 1);
            if (child >= 0) digit(node, d, child);
        }
        return node;
    }

    /** The state that reads any k hex digits, then is at t. */
    private int chain(int t, int k) {
        if (k == 0) return t;
        long key = ((long) t << 3) | k;
        Integer known = chains.get(key);
        if (known != null) return known;
        int next = chain(t, k - 1);
        int node = out.addState(false);
        for (int d = 0; d < 16; d++) digit(node, d, next);
        chains.put(key, node);
        return node;
    }

    private void digit(int from, int d, int to) {
        int c = Character.forDigit(d, 16);
        out.addRange(from, c, c, to);
        if (d >= 10) out.addRange(from, Character.toUpperCase(c), Character.toUpperCase(c), to);
    }

    // ---- the first code unit after backslash-u out of source state q

    private int firstUnit(int q, int v) {
        if (v >= 0xDC00 && v <= 0xDFFF) return -1;
        if (v >= 0xD800 && v <= 0xDBFF) return high(q, v);
        return src.step(q, v);
    }

    private int firstUniform(int q, int a, int b) {
        if (b < 0xD800 || a > 0xDFFF) return uniformTarget(q, a, b);
        if (a >= 0xDC00 && b <= 0xDFFF) return NONE;
        if (a >= 0xD800 && b <= 0xDBFF) {
            int t = uniformTarget(q, astral(a, 0xDC00), astral(b, 0xDFFF));
            return t >= 0 ? lowTo(t) : t;
        }
        return MIXED;
    }

    /** After the high surrogate h out of q: backslash-u and a low surrogate, then where the astral code point leads. */
    private int high(int q, int h) {
        int t = uniformTarget(q, astral(h, 0xDC00), astral(h, 0xDFFF));
        if (t == NONE) return -1;
        if (t >= 0) return lowTo(t);
        int trie = hexNode(v -> v >= 0xDC00 && v <= 0xDFFF ? src.step(q, astral(h, v)) : -1,
                (a, b) -> b < 0xDC00 || a > 0xDFFF ? NONE : a >= 0xDC00 && b <= 0xDFFF ? uniformTarget(q, astral(h, a), astral(h, b)) : MIXED, 0, 4);
        return backslashU(trie);
    }

    /** Backslash-u and any low surrogate, then t. */
    private int lowTo(int t) {
        Integer known = lowTo.get(t);
        if (known != null) return known;
        int trie = hexNode(v -> v >= 0xDC00 && v <= 0xDFFF ? t : -1,
                (a, b) -> b < 0xDC00 || a > 0xDFFF ? NONE : a >= 0xDC00 && b <= 0xDFFF ? t : MIXED, 0, 4);
        int s = backslashU(trie);
        lowTo.put(t, s);
        return s;
    }

    private int backslashU(int trie) {
        if (trie < 0) return -1;
        int s = out.addState(false), u = out.addState(false);
        out.addRange(s, '\\', '\\', u);
        out.addRange(u, 'u', 'u', trie);
        return s;
    }

    private static int astral(int high, int low) { return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00); }

    /** The one state every code point of [a, b] leads to from q, NONE if none leads anywhere, else MIXED. */
    private int uniformTarget(int q, int a, int b) {
        int found = NONE;
        for (int r = src.firstRange(q); r < src.endRange(q); r++) {
            if (src.hi(r) < a || src.lo(r) > b) continue;
            if (src.lo(r) <= a && src.hi(r) >= b) return src.target(r);
            return MIXED; // a range covers part of [a, b]
        }
        return found;
    }
}
