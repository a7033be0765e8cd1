package dev.domino.compiler.jsonschema.algebra;

import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** Small helpers over Ref-free expressions: membership and length bounds. */
public final class ExprLanguage {
    private ExprLanguage() {}

    public static final int INF = Integer.MAX_VALUE;

    public static boolean matches(Expr e, String s) {
        int[] in = s.codePoints().toArray();
        BitSet start = new BitSet();
        start.set(0);
        return step(e, start, in).get(in.length);
    }

    private static BitSet step(Expr e, BitSet from, int[] in) {
        BitSet out = new BitSet();
        if (e instanceof Expr.Literal l) {
            int[] t = l.text().codePoints().toArray();
            outer:
            for (int p = from.nextSetBit(0); p >= 0; p = from.nextSetBit(p + 1)) {
                if (p + t.length > in.length) continue;
                for (int i = 0; i < t.length; i++) if (in[p + i] != t[i]) continue outer;
                out.set(p + t.length);
            }
        } else if (e instanceof Expr.Chars c) {
            for (int p = from.nextSetBit(0); p >= 0; p = from.nextSetBit(p + 1)) if (p < in.length && c.set().contains(in[p])) out.set(p + 1);
        } else if (e instanceof Expr.Automaton a) {
            for (int p = from.nextSetBit(0); p >= 0; p = from.nextSetBit(p + 1)) {
                int q = a.dfa().start();
                for (int i = p; q >= 0; i++) {
                    if (a.dfa().isAccepting(q)) out.set(i);
                    if (i == in.length) break;
                    q = a.dfa().step(q, in[i]);
                }
            }
        } else if (e instanceof Expr.Seq s) {
            out = from;
            for (Expr x : s.items()) out = step(x, out, in);
        } else if (e instanceof Expr.Alt a) {
            for (Expr x : a.options()) out.or(step(x, from, in));
        } else if (e instanceof Expr.Repeat r) {
            BitSet cur = from;
            if (r.min() == 0) out.or(cur);
            BitSet seen = new BitSet();
            for (int n = 1; r.max() == Expr.Repeat.UNBOUNDED || n <= r.max(); n++) {
                cur = step(r.body(), cur, in);
                if (n >= r.min()) {
                    BitSet fresh = (BitSet) cur.clone();
                    fresh.andNot(seen);
                    out.or(cur);
                    if (fresh.isEmpty()) break;
                    seen.or(cur);
                    if (r.max() == Expr.Repeat.UNBOUNDED) cur = fresh;
                }
                if (cur.isEmpty()) break;
            }
        } else {
            throw new IllegalArgumentException("unexpected " + e);
        }
        return out;
    }

    /** Minimum length in code points. */
    public static int minLen(Expr e) {
        if (e instanceof Expr.Literal l) return l.text().codePointCount(0, l.text().length());
        if (e instanceof Expr.Chars c) return c.set().isEmpty() ? INF : 1;
        if (e instanceof Expr.Automaton a) return a.dfa().isEmpty() ? INF : a.dfa().minLength();
        if (e instanceof Expr.Seq s) { long n = 0; for (Expr x : s.items()) n += minLen(x); return (int) Math.min(n, INF); }
        if (e instanceof Expr.Alt a) { int m = INF; for (Expr x : a.options()) m = Math.min(m, minLen(x)); return m; }
        if (e instanceof Expr.Repeat r) { int b = minLen(r.body()); return r.min() == 0 ? 0 : (int) Math.min((long) b * r.min(), INF); }
        throw new IllegalArgumentException("unexpected " + e);
    }

    /** Maximum length in code points (INF if unbounded; -1 if the language is empty). */
    public static int maxLen(Expr e) {
        if (e instanceof Expr.Literal l) return l.text().codePointCount(0, l.text().length());
        if (e instanceof Expr.Chars c) return c.set().isEmpty() ? -1 : 1;
        if (e instanceof Expr.Automaton a) return a.dfa().maxLength() == Integer.MAX_VALUE ? INF : a.dfa().maxLength();
        if (e instanceof Expr.Seq s) {
            long n = 0;
            for (Expr x : s.items()) { int m = maxLen(x); if (m < 0) return -1; if (m == INF) n = INF; else n += m; }
            return (int) Math.min(n, INF);
        }
        if (e instanceof Expr.Alt a) { int m = -1; for (Expr x : a.options()) m = Math.max(m, maxLen(x)); return m; }
        if (e instanceof Expr.Repeat r) {
            int b = maxLen(r.body());
            if (b < 0) return r.min() == 0 ? 0 : -1;
            if (b == 0) return 0;
            if (r.max() == Expr.Repeat.UNBOUNDED || b == INF) return INF;
            return (int) Math.min((long) b * r.max(), INF);
        }
        throw new IllegalArgumentException("unexpected " + e);
    }

    /**
     * The language of {@code e} restricted to lengths in [min, max] (max -1 = unbounded), when
     * that is easy to express exactly: every alternative is a sequence of fixed-length pieces
     * and at most one repetition of a fixed-length body. Returns null otherwise.
     */
    public static Expr withLength(Expr e, int min, int max) {
        if (e instanceof Expr.Alt a) {
            List<Expr> out = new ArrayList<>();
            for (Expr o : a.options()) {
                Expr r = withLength(o, min, max);
                if (r == null) return null;
                out.add(r);
            }
            return new Expr.Alt(out);
        }
        List<Expr> items = new ArrayList<>();
        flatten(e, items);
        long fixed = 0;
        int var = -1;
        for (int i = 0; i < items.size(); i++) {
            Expr x = items.get(i);
            int lo = minLen(x), hi = maxLen(x);
            if (hi < 0) return Expr.NOTHING;
            if (lo == hi) { fixed += lo; continue; }
            if (var >= 0) return null;
            var = i;
        }
        long maxL = max < 0 ? Long.MAX_VALUE : max;
        if (var < 0) return fixed >= min && fixed <= maxL ? e : Expr.NOTHING;
        if (!(items.get(var) instanceof Expr.Repeat r)) return null;
        int k = minLen(r.body());
        if (k != maxLen(r.body()) || k == 0) return null;
        long lo = Math.max(r.min(), ceilDiv(min - fixed, k));
        long hi = maxL == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(maxL - fixed, k);
        if (r.max() != Expr.Repeat.UNBOUNDED) hi = Math.min(hi, r.max());
        if (hi < lo) return Expr.NOTHING;
        if (hi != Long.MAX_VALUE && hi > 100000) return null;
        List<Expr> out = new ArrayList<>(items);
        out.set(var, new Expr.Repeat(r.body(), (int) lo, hi == Long.MAX_VALUE ? Expr.Repeat.UNBOUNDED : (int) hi));
        return new Expr.Seq(out);
    }

    private static long ceilDiv(long a, long b) { return a <= 0 ? 0 : (a + b - 1) / b; }

    private static void flatten(Expr e, List<Expr> out) {
        if (e instanceof Expr.Seq s) { for (Expr x : s.items()) flatten(x, out); }
        else out.add(e);
    }
}
