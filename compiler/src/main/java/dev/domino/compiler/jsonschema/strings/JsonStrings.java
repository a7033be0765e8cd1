package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Maps languages over decoded string contents (code points) to languages over the JSON string
 * encoding (the text between the quotes): each code point becomes the alternation of all its
 * valid JSON spellings (unescaped when allowed, short escapes, {@code \}{@code uXXXX} in any hex case,
 * surrogate pairs for astral code points).
 */
public final class JsonStrings {
    private JsonStrings() {}

    /** Code points that may appear unescaped inside a JSON string. */
    public static final CodePointSet UNESCAPED =
        CodePointSet.range(0x20, CodePointSet.MAX).minus(CodePointSet.fromRanges(new int[] {'"', '"', '\\', '\\'}));

    private static final int[][] SHORT = {
        {'"', '"'}, {'\\', '\\'}, {'/', '/'}, {8, 'b'}, {12, 'f'}, {10, 'n'}, {13, 'r'}, {9, 't'}};

    /** The canonical escape of each control code point, made once (sets of all controls are common: any character). */
    private static final Expr[] CANONICAL_CONTROLS = new Expr[0x20];
    static {
        for (int cp = 0; cp < 0x20; cp++) CANONICAL_CONTROLS[cp] = Expr.literal(String.format("\\u%04x", cp));
    }

    /** All JSON spellings of any code point in {@code set} (or canonical only if {@code all} is false). */
    public static Expr encodeSet(CodePointSet set, boolean all) {
        List<Expr> alts = new ArrayList<>();
        CodePointSet plain = set.intersect(UNESCAPED);
        if (!plain.isEmpty()) alts.add(plain.size() == 1 ? Expr.literal(Character.toString(plain.lo(0))) : Expr.chars(plain));
        for (int[] s : SHORT) {
            if (!set.contains(s[0])) continue;
            if (!all && s[0] == '/') continue; // canonical form writes '/' unescaped
            alts.add(Expr.literal("\\" + (char) s[1]));
        }
        if (all) {
            for (int i = 0; i < set.rangeCount(); i++) {
                int lo = set.lo(i), hi = set.hi(i);
                if (lo <= 0xFFFF) alts.add(Expr.seq(Expr.literal("\\u"), hex4(lo, Math.min(hi, 0xFFFF))));
                if (hi >= 0x10000) alts.add(astral(Math.max(lo, 0x10000), hi));
            }
        } else {
            // canonical: controls without a short escape as lowercase backslash-u00XX
            for (int cp = 0; cp < 0x20; cp++) {
                if (!set.contains(cp) || cp == 8 || cp == 9 || cp == 10 || cp == 12 || cp == 13) continue;
                alts.add(CANONICAL_CONTROLS[cp]);
            }
        }
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    /** Maps a regular expression over code points (no Refs) to one over JSON string content. */
    public static Expr encodeRegex(Expr e, boolean all) {
        if (e instanceof Expr.Chars c) return encodeSet(c.set(), all);
        if (e instanceof Expr.Automaton a) return new Expr.Automaton(encoded(a.dfa(), all));
        if (e instanceof Expr.Literal l) return encodeLiteral(l.text(), all);
        if (e instanceof Expr.Seq s) return new Expr.Seq(s.items().stream().map(x -> encodeRegex(x, all)).toList());
        if (e instanceof Expr.Alt a) return new Expr.Alt(a.options().stream().map(x -> encodeRegex(x, all)).toList());
        if (e instanceof Expr.Repeat r) return new Expr.Repeat(encodeRegex(r.body(), all), r.min(), r.max());
        throw new IllegalArgumentException("rule reference inside a string pattern: " + e);
    }

    /**
     * Encoded automata of at least {@link #CACHED_STATES} states, per process: a format's fixed automaton
     * (RFC 3339's full-time with its leap seconds, 11,000 states) took seconds to encode and minimize,
     * in every schema that uses it; the key complements of object definitions shared by a family of
     * schemas ({@link StringsExcept}) recur too.
     */
    private static final int CACHED_STATES = 16;
    private static final dev.domino.runtime.internal.util.BoundedCache<CodePointAutomaton, CodePointAutomaton> ENCODED_ALL =
            dev.domino.runtime.internal.util.ProcessCaches.register(new dev.domino.runtime.internal.util.BoundedCache<>("JSON-encoded string automata", 16L << 20));
    private static final dev.domino.runtime.internal.util.BoundedCache<CodePointAutomaton, CodePointAutomaton> ENCODED_CANONICAL =
            dev.domino.runtime.internal.util.ProcessCaches.register(new dev.domino.runtime.internal.util.BoundedCache<>("JSON-encoded string automata (canonical)", 16L << 20));

    private static CodePointAutomaton encoded(CodePointAutomaton a, boolean all) {
        if (a.stateCount() < CACHED_STATES) return JsonStringAutomaton.encode(a, all);
        var cache = all ? ENCODED_ALL : ENCODED_CANONICAL;
        CodePointAutomaton hit = cache.get(a);
        if (hit != null) return hit;
        CodePointAutomaton out = JsonStringAutomaton.encode(a, all);
        // key and value: per state a flag and a range start, per range three ints
        long bytes = 2L * (16L * (a.stateCount() + out.stateCount()) + 12L * (a.rangeCount() + out.rangeCount())) + 128;
        return cache.putIfAbsent(a, out, bytes);
    }

    /** All spellings of a fixed string (a plain Literal when only the canonical form is wanted). */
    public static Expr encodeLiteral(String text, boolean all) {
        if (!all) return Expr.literal(canonical(text));
        List<Expr> items = new ArrayList<>();
        text.codePoints().forEach(cp -> items.add(encodeSet(CodePointSet.of(cp), true)));
        return items.size() == 1 ? items.get(0) : new Expr.Seq(items);
    }

    /** The canonical JSON string body (without quotes) for a text. */
    public static String canonical(String text) {
        StringBuilder sb = new StringBuilder();
        text.codePoints().forEach(cp -> {
            switch (cp) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case 8: sb.append("\\b"); break;
                case 12: sb.append("\\f"); break;
                case 10: sb.append("\\n"); break;
                case 13: sb.append("\\r"); break;
                case 9: sb.append("\\t"); break;
                default:
                    if (cp < 0x20) sb.append(String.format("\\u%04x", cp));
                    else sb.appendCodePoint(cp);
            }
        });
        return sb.toString();
    }

    private static Expr astral(int lo, int hi) {
        int hLo = 0xD800 + ((lo - 0x10000) >> 10), lLo = 0xDC00 + ((lo - 0x10000) & 0x3FF);
        int hHi = 0xD800 + ((hi - 0x10000) >> 10), lHi = 0xDC00 + ((hi - 0x10000) & 0x3FF);
        if (hLo == hHi) return pair(hLo, hLo, lLo, lHi);
        List<Expr> alts = new ArrayList<>();
        alts.add(pair(hLo, hLo, lLo, 0xDFFF));
        if (hHi - hLo > 1) alts.add(pair(hLo + 1, hHi - 1, 0xDC00, 0xDFFF));
        alts.add(pair(hHi, hHi, 0xDC00, lHi));
        return new Expr.Alt(alts);
    }

    private static Expr pair(int h1, int h2, int l1, int l2) {
        return Expr.seq(Expr.literal("\\u"), hex4(h1, h2), Expr.literal("\\u"), hex4(l1, l2));
    }

    /** Four hex digits (either case) denoting a value in [lo, hi]. */
    static Expr hex4(int lo, int hi) { return fixed(lo, hi, 4); }

    private static Expr fixed(int lo, int hi, int n) {
        if (n == 0) return Expr.EMPTY;
        int p = 1 << (4 * (n - 1));
        int dLo = lo / p, dHi = hi / p, rLo = lo % p, rHi = hi % p;
        if (dLo == dHi) return cat(digits(dLo, dLo), fixed(rLo, rHi, n - 1));
        if (rLo == 0 && rHi == p - 1) return cat(digits(dLo, dHi), anyHex(n - 1));
        List<Expr> alts = new ArrayList<>();
        int from = dLo, to = dHi;
        if (rLo != 0) { alts.add(cat(digits(dLo, dLo), fixed(rLo, p - 1, n - 1))); from = dLo + 1; }
        if (rHi != p - 1) { to = dHi - 1; }
        if (from <= to) alts.add(cat(digits(from, to), anyHex(n - 1)));
        if (rHi != p - 1) alts.add(cat(digits(dHi, dHi), fixed(0, rHi, n - 1)));
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    private static Expr cat(Expr a, Expr b) {
        if (b instanceof Expr.Seq s && s.items().isEmpty()) return a;
        List<Expr> items = new ArrayList<>();
        items.add(a);
        if (b instanceof Expr.Seq s) items.addAll(s.items()); else items.add(b);
        return new Expr.Seq(items);
    }

    private static Expr anyHex(int n) { return n == 0 ? Expr.EMPTY : new Expr.Repeat(digits(0, 15), n, n); }

    private static Expr digits(int a, int b) {
        CodePointSet s = CodePointSet.EMPTY;
        for (int d = a; d <= b; d++) {
            s = s.union(CodePointSet.of(Character.forDigit(d, 16)));
            if (d >= 10) s = s.union(CodePointSet.of(Character.toUpperCase(Character.forDigit(d, 16))));
        }
        return Expr.chars(s);
    }
}
