package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Anchors anywhere in a search pattern ({@code ^a$|^b$}, {@code (^|x)y}, {@code ^([^,]|$)}), as ECMA-262
 * defines them without the multiline flag: {@code ^} holds only at the start of the input, {@code $} only
 * at its end.
 *
 * <p>Algorithm: every subexpression E is split, by the anchors a match of E passes, into four anchor-free
 * languages E[s][e]: s = 1 when the match passed a {@code ^} (which must then come before its first
 * character, and the match starts the input), e = 1 when it passed a {@code $} (after its last character;
 * the match ends the input). A {@code ^} passed after a character, or a {@code $} before one, can never
 * hold: such matches are dropped. Concatenation: F's {@code ^} needs E's part to be empty, E's {@code $}
 * needs F's part to be empty ({@link #concat}); alternation is the union per class; a repetition is its
 * copies concatenated, and {@code E*} is "empty copies, one copy, or a first copy, anchor-free copies, a last
 * copy" ({@link #star}). The search language of the whole pattern R is then
 * {@code .*R[0][0].* | R[1][0].* | .*R[0][1] | R[1][1]}: exact, and no automaton over marked symbols is
 * needed (the intersection with "markers only at the ends" is done by these rules, per node).
 */
final class RegexAnchors {
    private RegexAnchors() {}

    /** Markers the parser leaves where {@code ^} and {@code $} stood (never seen outside this class). */
    static final Expr START = Expr.ref("\u0000^");
    static final Expr END = Expr.ref("\u0000$");

    /** Repetitions of an anchored body are unrolled up to this many copies (then an error). */
    static final int MAX_COPIES = 32;

    private static final Expr ANY = Expr.star(Expr.chars(CodePointSet.ANY));

    /** {@code parts[2 * s + e]}: the matches with that anchor use; null for none. */
    private record Split(Expr[] parts) {
        static Split plain(Expr e) { return new Split(new Expr[] {e, null, null, null}); }
        Expr get(int s, int e) { return parts[2 * s + e]; }
    }

    /** The {@code re.search} language of {@code pattern}, whose anchors are the {@link #START}/{@link #END} markers. */
    static Expr search(Expr pattern) {
        Split r = split(pattern);
        List<Expr> alts = new ArrayList<>();
        if (r.get(0, 0) != null) alts.add(seq(ANY, seq(r.get(0, 0), ANY)));
        if (r.get(1, 0) != null) alts.add(seq(r.get(1, 0), ANY));
        if (r.get(0, 1) != null) alts.add(seq(ANY, r.get(0, 1)));
        if (r.get(1, 1) != null) alts.add(r.get(1, 1));
        for (int i = 0; i < 3; i++) {
            // a match that may be empty and is free at one side at least: every string has one
            if (r.parts[i] != null && RegexParser.nullable(r.parts[i])) return ANY;
        }
        return alt(alts);
    }

    /** Whether the pattern holds an anchor marker: if not, it is returned as it is. */
    static boolean hasMarker(Expr e) {
        if (e == START || e == END) return true;
        if (e instanceof Expr.Seq s) { for (Expr x : s.items()) if (hasMarker(x)) return true; return false; }
        if (e instanceof Expr.Alt a) { for (Expr x : a.options()) if (hasMarker(x)) return true; return false; }
        if (e instanceof Expr.Repeat r) return hasMarker(r.body());
        return false;
    }

    private static Split split(Expr e) {
        if (e == START) return new Split(new Expr[] {null, null, Expr.EMPTY, null});
        if (e == END) return new Split(new Expr[] {null, Expr.EMPTY, null, null});
        if (!hasMarker(e)) return Split.plain(e);
        if (e instanceof Expr.Seq s) {
            Split acc = Split.plain(Expr.EMPTY);
            for (Expr x : s.items()) acc = concat(acc, split(x));
            return acc;
        }
        if (e instanceof Expr.Alt a) {
            List<List<Expr>> byClass = classes();
            for (Expr x : a.options()) {
                Split p = split(x);
                for (int i = 0; i < 4; i++) if (p.parts[i] != null) byClass.get(i).add(p.parts[i]);
            }
            return collect(byClass);
        }
        Expr.Repeat r = (Expr.Repeat) e;
        int copies = r.max() == Expr.Repeat.UNBOUNDED ? r.min() : r.max();
        if (copies > MAX_COPIES) throw new GrammarException("an anchor inside a repetition of more than " + MAX_COPIES + " copies is not supported");
        Split body = split(r.body());
        Split acc = Split.plain(Expr.EMPTY);
        for (int i = 0; i < r.min(); i++) acc = concat(acc, body);
        if (r.max() == Expr.Repeat.UNBOUNDED) return concat(acc, star(body));
        Split optional = new Split(body.parts.clone());
        optional.parts[0] = body.parts[0] == null ? Expr.EMPTY : Expr.optional(body.parts[0]);
        for (int i = r.min(); i < r.max(); i++) acc = concat(acc, optional);
        return acc;
    }

    /** E then F: F's {@code ^} leaves E's part empty, E's {@code $} leaves F's part empty. */
    private static Split concat(Split a, Split b) {
        List<List<Expr>> byClass = classes();
        for (int s1 = 0; s1 < 2; s1++) for (int e1 = 0; e1 < 2; e1++) for (int s2 = 0; s2 < 2; s2++) for (int e2 = 0; e2 < 2; e2++) {
            Expr l1 = a.get(s1, e1), l2 = b.get(s2, e2);
            if (l1 == null || l2 == null) continue;
            if (s2 == 1) l1 = emptyOnly(l1);
            if (e1 == 1) l2 = emptyOnly(l2);
            if (l1 == null || l2 == null) continue;
            byClass.get(2 * (s1 | s2) + (e1 | e2)).add(seq(l1, l2));
        }
        return collect(byClass);
    }

    /**
     * {@code E*}: the copies before the first non-empty one are empty (they may pass {@code ^}, not
     * {@code $}), those after the last non-empty one are empty (they may pass {@code $}, not {@code ^}),
     * and the copies between the first and the last non-empty one pass no anchor. A class's part may hold
     * the empty string too; with it the rules below only repeat combinations they already allow.
     */
    private static Split star(Split b) {
        List<List<Expr>> byClass = classes();
        boolean emptyStart = nullable(b.get(1, 0)), emptyEnd = nullable(b.get(0, 1)), emptyBoth = nullable(b.get(1, 1));
        // only empty copies (or none)
        byClass.get(0).add(Expr.EMPTY);
        if (emptyStart) byClass.get(2).add(Expr.EMPTY);
        if (emptyEnd) byClass.get(1).add(Expr.EMPTY);
        if (emptyBoth || (emptyStart && emptyEnd)) byClass.get(3).add(Expr.EMPTY);
        Expr middle = b.get(0, 0) == null ? Expr.EMPTY : Expr.star(b.get(0, 0));
        for (int s = 0; s < 2; s++) for (int e = 0; e < 2; e++) {
            // one non-empty copy
            Expr one = b.get(s, e);
            // a first copy (no $), anchor-free copies, a last copy (no ^)
            Expr first = b.get(s, 0), last = b.get(0, e);
            Expr many = first == null || last == null ? null : seq(first, seq(middle, last));
            for (Expr x : new Expr[] {one, many}) {
                if (x == null) continue;
                for (int ps = 0; ps < (emptyStart ? 2 : 1); ps++) for (int se = 0; se < (emptyEnd ? 2 : 1); se++) {
                    byClass.get(2 * (s | ps) + (e | se)).add(x);
                }
            }
        }
        return collect(byClass);
    }

    private static boolean nullable(Expr e) { return e != null && RegexParser.nullable(e); }

    private static Expr emptyOnly(Expr e) { return RegexParser.nullable(e) ? Expr.EMPTY : null; }

    private static List<List<Expr>> classes() {
        List<List<Expr>> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) out.add(new ArrayList<>());
        return out;
    }

    private static Split collect(List<List<Expr>> byClass) {
        Expr[] parts = new Expr[4];
        for (int i = 0; i < 4; i++) parts[i] = byClass.get(i).isEmpty() ? null : alt(byClass.get(i));
        return new Split(parts);
    }

    private static Expr seq(Expr a, Expr b) {
        if (a.equals(Expr.EMPTY)) return b;
        if (b.equals(Expr.EMPTY)) return a;
        List<Expr> items = new ArrayList<>();
        for (Expr x : new Expr[] {a, b}) {
            if (x instanceof Expr.Seq s) items.addAll(s.items()); else items.add(x);
        }
        return new Expr.Seq(items);
    }

    private static Expr alt(List<Expr> options) {
        Set<Expr> distinct = new LinkedHashSet<>();
        for (Expr x : options) {
            if (x instanceof Expr.Alt a) distinct.addAll(a.options()); else distinct.add(x);
        }
        return distinct.size() == 1 ? distinct.iterator().next() : new Expr.Alt(new ArrayList<>(distinct));
    }
}
