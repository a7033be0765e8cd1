package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A string language (a Ref-free expression over code points, such as a {@code pattern} or {@code format})
 * intersected with the lengths {@code minLength..maxLength}, exactly, as an expression.
 *
 * <p>Algorithm: Brzozowski derivatives. The strings of R with length in [lo, hi] are: the empty string if R
 * has it and lo is 0, and for each class of first characters c with the same derivative, {@code c} followed
 * by the strings of the derivative c⁻¹R with length in [lo-1, hi-1]. The walk stops early where the answer
 * needs no more unrolling: once the bounds no longer restrict R (lo 0, hi unbounded or at least R's longest
 * string), where R is {@code .*} ({@code .{lo,hi}}), and where {@link ExprLanguage#withLength} restricts R
 * structurally (one repetition of a fixed-length body). Derivatives are kept small by flattening
 * alternatives and dropping empty and impossible parts, so equal derivatives are equal records and the
 * first characters that lead to the same derivative are grouped into one class.
 *
 * <p>The unrolled expression has one branch per way through the pattern, which grows with the length bound
 * and the pattern's choices: past {@link #MAX_NODES} steps the caller refuses the keyword (an email format
 * with {@code maxLength 1024} would need millions).
 */
final class LengthBounds {
    /** Unrolling steps allowed for one intersection before giving up. */
    static final int MAX_NODES = 4000;

    private static final Expr ANY_STAR = Expr.star(Expr.chars(CodePointSet.ANY));

    /**
     * Characters unrolled along one path: the expression nests one level per character, and the compiler's
     * passes over expressions recurse (maxLength 1024 overflowed the stack of JsonStrings.encodeRegex).
     */
    static final int MAX_DEPTH = 128;

    /**
     * Size of the unrolled expression (shared parts counted once per use, as the automaton builder sees them).
     * Why 2000: each branch ends in its own tail ({@code .{0,k}} for every k below maxLength), which the
     * subset construction does not share, ten byte states per JSON character; a semantic version pattern
     * {@code ^(\d+\.\d+\.\d+.*)$} with maxLength 32 unrolls to 31,109 nodes and its compile exceeded the
     * automaton-states limit (100,000), while the dev set's other intersections stay below 450.
     */
    static final long MAX_SIZE = 2000;

    private int budget = MAX_NODES;
    private final Map<List<Object>, Expr> memo = new LinkedHashMap<>();
    private final Map<Expr, Long> sizes = new java.util.IdentityHashMap<>();

    private LengthBounds() {}

    /** R restricted to lengths [min, max] (max {@link Expr.Repeat#UNBOUNDED}), or null if that is too large to unroll. */
    static Expr restrict(Expr r, int min, int max) {
        try {
            return new LengthBounds().walk(simplify(r), min, max, 0);
        } catch (TooLarge e) {
            return null;
        }
    }

    private static final class TooLarge extends RuntimeException {
        TooLarge() { super(null, null, false, false); }
    }

    private Expr walk(Expr r, int lo, int hi, int depth) {
        if (isNothing(r)) return r;
        boolean unbounded = hi == Expr.Repeat.UNBOUNDED;
        if (lo <= 0 && unbounded) return r;
        if (!unbounded && hi < lo) return Expr.NOTHING;
        if (!unbounded && hi == 0) return nullable(r) ? Expr.EMPTY : Expr.NOTHING; // (hi - 1 would read as unbounded)
        if (r.equals(ANY_STAR)) return new Expr.Repeat(Expr.chars(CodePointSet.ANY), Math.max(lo, 0), hi);
        int minL = ExprLanguage.minLen(r), maxL = ExprLanguage.maxLen(r);
        if (maxL < 0) return Expr.NOTHING;
        if (minL >= lo && (unbounded || (maxL != ExprLanguage.INF && maxL <= hi))) return r;
        if ((!unbounded && minL > hi) || (maxL != ExprLanguage.INF && maxL < lo)) return Expr.NOTHING;
        Expr structural = ExprLanguage.withLength(r, Math.max(lo, 0), unbounded ? -1 : hi);
        if (structural != null) return structural;
        List<Object> key = List.of(r, lo, hi);
        Expr known = memo.get(key);
        if (known != null) return known;
        if (--budget < 0 || depth > MAX_DEPTH) throw new TooLarge();
        List<Expr> alts = new ArrayList<>();
        if (lo <= 0 && nullable(r)) alts.add(Expr.EMPTY);
        // first-character classes with equal derivatives
        Map<Expr, CodePointSet> byDerivative = new LinkedHashMap<>();
        for (CodePointSet atom : atoms(r)) {
            Expr d = simplify(derive(r, atom.lo(0)));
            if (isNothing(d)) continue;
            byDerivative.merge(d, atom, CodePointSet::union);
        }
        int nlo = Math.max(lo - 1, 0), nhi = unbounded ? hi : hi - 1;
        long size = 1;
        for (Map.Entry<Expr, CodePointSet> e : byDerivative.entrySet()) {
            Expr rest = walk(e.getKey(), nlo, nhi, depth + 1);
            if (isNothing(rest)) continue;
            size += 1 + sizes.getOrDefault(rest, 1L);
            alts.add(JsonSyntax.seq(Expr.chars(e.getValue()), rest));
        }
        if (size > MAX_SIZE) throw new TooLarge();
        Expr out = alts.isEmpty() ? Expr.NOTHING : new Expr.Alt(alts);
        memo.put(key, out);
        sizes.put(out, size);
        return out;
    }

    static boolean isNothing(Expr e) { return e instanceof Expr.Alt a && a.options().isEmpty(); }

    static boolean isEmptyString(Expr e) {
        return (e instanceof Expr.Seq s && s.items().isEmpty()) || (e instanceof Expr.Literal l && l.text().isEmpty());
    }

    static boolean nullable(Expr e) { return ExprLanguage.minLen(e) == 0; }

    /** Disjoint sets of code points that may start a string of e, each with one derivative. */
    static List<CodePointSet> atoms(Expr e) {
        Set<CodePointSet> sets = new LinkedHashSet<>();
        firstSets(e, sets);
        List<CodePointSet> parts = new ArrayList<>();
        for (CodePointSet s : sets) {
            List<CodePointSet> next = new ArrayList<>();
            CodePointSet rest = s;
            for (CodePointSet p : parts) {
                CodePointSet in = p.intersect(s), out = p.minus(s);
                if (!in.isEmpty()) next.add(in);
                if (!out.isEmpty()) next.add(out);
                rest = rest.minus(p);
            }
            if (!rest.isEmpty()) next.add(rest);
            parts = next;
        }
        return parts;
    }

    private static void firstSets(Expr e, Set<CodePointSet> out) {
        if (e instanceof Expr.Chars c) { if (!c.set().isEmpty()) out.add(c.set()); }
        else if (e instanceof Expr.Automaton a) {
            // each range of the start state has one derivative (the state it leads to)
            var d = a.dfa();
            for (int r = d.firstRange(d.start()); r < d.endRange(d.start()); r++) out.add(CodePointSet.range(d.lo(r), d.hi(r)));
        }
        else if (e instanceof Expr.Literal l) { if (!l.text().isEmpty()) out.add(CodePointSet.of(l.text().codePointAt(0))); }
        else if (e instanceof Expr.Alt a) { for (Expr o : a.options()) firstSets(o, out); }
        else if (e instanceof Expr.Repeat r) { if (r.max() != 0) firstSets(r.body(), out); }
        else if (e instanceof Expr.Seq s) {
            for (Expr i : s.items()) { firstSets(i, out); if (!nullable(i)) break; }
        } else throw new IllegalArgumentException("unexpected " + e);
    }

    /** The derivative of e by the code point c: the rests of e's strings that start with c. */
    static Expr derive(Expr e, int c) {
        if (e instanceof Expr.Chars ch) return ch.set().contains(c) ? Expr.EMPTY : Expr.NOTHING;
        if (e instanceof Expr.Automaton a) {
            int q = a.dfa().step(a.dfa().start(), c);
            if (q < 0) return Expr.NOTHING;
            var rest = a.dfa().from(q);
            if (rest.stateCount() == 1 && rest.rangeCount() == 0) return rest.isAccepting(0) ? Expr.EMPTY : Expr.NOTHING;
            return new Expr.Automaton(rest);
        }
        if (e instanceof Expr.Literal l) {
            if (l.text().isEmpty() || l.text().codePointAt(0) != c) return Expr.NOTHING;
            String rest = l.text().substring(Character.charCount(c));
            return rest.isEmpty() ? Expr.EMPTY : Expr.literal(rest);
        }
        if (e instanceof Expr.Alt a) {
            List<Expr> out = new ArrayList<>();
            for (Expr o : a.options()) out.add(derive(o, c));
            return alt(out);
        }
        if (e instanceof Expr.Repeat r) {
            if (r.max() == 0) return Expr.NOTHING;
            int min = nullable(r.body()) ? 0 : Math.max(r.min() - 1, 0);
            int max = r.max() == Expr.Repeat.UNBOUNDED ? r.max() : r.max() - 1;
            return seq(List.of(derive(r.body(), c), repeat(r.body(), min, max)));
        }
        if (e instanceof Expr.Seq s) {
            List<Expr> items = s.items();
            if (items.isEmpty()) return Expr.NOTHING;
            List<Expr> alts = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                List<Expr> first = new ArrayList<>();
                first.add(derive(items.get(i), c));
                first.addAll(items.subList(i + 1, items.size()));
                alts.add(seq(first));
                if (!nullable(items.get(i))) break;
            }
            return alt(alts);
        }
        throw new IllegalArgumentException("unexpected " + e);
    }

    /** Flattened, with empty strings and impossible parts removed. */
    static Expr simplify(Expr e) {
        if (e instanceof Expr.Seq s) {
            List<Expr> out = new ArrayList<>();
            for (Expr i : s.items()) out.add(simplify(i));
            return seq(out);
        }
        if (e instanceof Expr.Alt a) {
            List<Expr> out = new ArrayList<>();
            for (Expr o : a.options()) out.add(simplify(o));
            return alt(out);
        }
        if (e instanceof Expr.Repeat r) return repeat(simplify(r.body()), r.min(), r.max());
        if (e instanceof Expr.Literal l && l.text().isEmpty()) return Expr.EMPTY;
        return e;
    }

    private static Expr repeat(Expr body, int min, int max) {
        if (max == 0 || isEmptyString(body)) return Expr.EMPTY;
        if (isNothing(body)) return min == 0 ? Expr.EMPTY : Expr.NOTHING;
        if (min == 1 && max == 1) return body;
        return new Expr.Repeat(body, min, max);
    }

    private static Expr seq(List<Expr> items) {
        List<Expr> out = new ArrayList<>();
        for (Expr i : items) {
            if (isNothing(i)) return Expr.NOTHING;
            if (isEmptyString(i)) continue;
            if (i instanceof Expr.Seq s) out.addAll(s.items());
            else if (i.equals(ANY_STAR) && !out.isEmpty() && out.get(out.size() - 1).equals(ANY_STAR)) continue;
            else out.add(i);
        }
        if (out.isEmpty()) return Expr.EMPTY;
        return out.size() == 1 ? out.get(0) : new Expr.Seq(out);
    }

    private static Expr alt(List<Expr> options) {
        Set<Expr> out = new LinkedHashSet<>();
        for (Expr o : options) {
            if (isNothing(o)) continue;
            if (o instanceof Expr.Alt a) out.addAll(a.options());
            else out.add(o);
        }
        if (out.contains(ANY_STAR)) return ANY_STAR;
        if (out.isEmpty()) return Expr.NOTHING;
        return out.size() == 1 ? out.iterator().next() : new Expr.Alt(new ArrayList<>(out));
    }
}
