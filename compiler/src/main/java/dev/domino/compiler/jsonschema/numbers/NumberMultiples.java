package dev.domino.compiler.jsonschema.numbers;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;
import dev.domino.compiler.jsonschema.algebra.CodePointDfa;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code multipleOf} other than a power of ten, and its complement (the internal keyword
 * {@link #NOT_MULTIPLES}, from {@code not multipleOf}), exactly, as a residue automaton over the decimal
 * digits of the plain JSON spellings ({@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}; integers without the fraction).
 *
 * <p>Algorithm: write {@code m} as {@code P / 10^s} (P an integer). A decimal v is a multiple of m iff
 * {@code v * 10^s} is an integer divisible by P, so the automaton reads the digits left to right keeping
 * {@code r = (v * 10^s) mod P} for the digits read so far: an integer digit d takes r to
 * {@code 10 r + d 10^s}, the k-th fraction digit (k at most s) adds {@code d 10^(s-k)}, and a non-zero
 * fraction digit beyond the s-th makes v not a multiple whatever follows. Accepting: r = 0 (the
 * complement: r != 0 or such a digit). The sign does not change divisibility. On integers {@code m = p/q}
 * (lowest terms) divides n iff p divides n, so the residues are taken modulo p. The automaton is
 * intersected with the automaton of the bounds (product over the 15 characters of JSON numbers), minimized
 * (Moore), and written as one grammar rule per state (the residues form cycles that no regular expression
 * of reasonable size states: the expression of "multiple of 7" by state elimination has thousands of nodes).
 *
 * <p>Exponent spellings ({@code 2.1e1}) are left out, as for power-of-ten multiples: never a wrong value,
 * and serializers write such numbers plainly. Limits: the modulus P at most {@link #MAX_MODULUS}, the
 * automaton at most {@link #MAX_STATES} states; beyond them the keyword is reported as unsupported.
 */
public final class NumberMultiples {
    /** Internal keyword (never in user schemas): a number must not be a multiple of any listed value. */
    public static final String NOT_MULTIPLES = "\u0000notMultiples";

    /** The largest modulus P of a residue automaton (multipleOf 7 on integers: 7; multipleOf 1.5: 15). */
    static final int MAX_MODULUS = 10_000;
    /** The most states of one residue automaton or product, before minimization. */
    static final int MAX_STATES = 200_000;

    /** Too large: the caller reports the keyword as unsupported. */
    static final class TooLarge extends RuntimeException {
        /** Whether an excluded multiple (a {@code not}) made it too large, rather than {@code multipleOf}. */
        final boolean excluded;
        TooLarge(String m, boolean excluded) { super(m); this.excluded = excluded; }
    }

    // the characters of JSON numbers, as symbols 0..14
    private static final int MINUS = 10, DOT = 11;
    private static final int[] SYMBOL_CHARS = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '-', '.', 'e', 'E', '+'};
    private static final int SYMBOLS = SYMBOL_CHARS.length;

    /** A DFA over the symbols: next[q][c] (-1: none), start state 0. */
    record Dfa(int[][] next, boolean[] accept, boolean excluded) {
        Dfa(int[][] next, boolean[] accept) { this(next, accept, false); }
        int size() { return next.length; }
    }

    private final JsonSyntax syn;
    private final Map<String, Expr> cache = new HashMap<>();

    NumberMultiples(JsonSyntax syn) { this.syn = syn; }

    /**
     * The spellings in {@code bounds} (a regular expression over JSON number spellings; null: any) whose
     * value is a multiple of {@code multipleOf} (null: no such constraint) and of none of {@code excluded}.
     */
    Expr restrict(Expr bounds, BigDecimal multipleOf, List<BigDecimal> excluded, boolean integer) {
        String key = (bounds == null ? "" : bounds.toString()) + "|" + multipleOf + "|" + excluded + "|" + integer;
        Expr cached = cache.get(key);
        if (cached != null) return cached;
        // bounds first: a bounded range keeps each product small (3-digit integers: at most 1,000 prefixes)
        Dfa dfa = bounds == null ? null : minimize(fromExpr(bounds));
        List<Dfa> parts = new ArrayList<>();
        if (multipleOf != null) parts.add(residues(multipleOf, integer, false));
        for (BigDecimal x : excluded) parts.add(residues(x, integer, true));
        if (parts.isEmpty()) throw new IllegalArgumentException("no multiple to restrict to");
        for (Dfa d : parts) dfa = dfa == null ? d : minimize(product(dfa, d));
        Expr out = toRules(dfa, integer ? "multiple_int" : "multiple_num");
        cache.put(key, out);
        return out;
    }

    /** m as P / 10^s: {P, s}; on integers the numerator of m in lowest terms with s = 0. */
    static BigInteger[] modulus(BigDecimal m, boolean integer) {
        BigDecimal x = m.stripTrailingZeros();
        BigInteger p = x.unscaledValue();
        int s = x.scale();
        if (s < 0) { p = p.multiply(BigInteger.TEN.pow(-s)); s = 0; }
        if (integer) { p = p.divide(p.gcd(BigInteger.TEN.pow(s))); s = 0; }
        return new BigInteger[] {p, BigInteger.valueOf(s)};
    }

    /** The residue automaton of "a multiple of m" (complement: "not a multiple of m") over plain spellings. */
    static Dfa residues(BigDecimal m, boolean integer, boolean complement) {
        BigInteger[] ps = modulus(m, integer);
        if (ps[0].compareTo(BigInteger.valueOf(MAX_MODULUS)) > 0)
            throw new TooLarge("multipleOf " + m.toPlainString() + " needs residues modulo " + ps[0] + ", above the limit " + MAX_MODULUS, complement);
        int p = ps[0].intValueExact(), s = ps[1].intValueExact();
        long states = 4L + p + (long) p * (s + 1) + p;
        if (states > MAX_STATES) throw new TooLarge("multipleOf " + m.toPlainString() + " needs more than " + MAX_STATES + " automaton states", complement);
        // states: 0 start, 1 after '-', 2 integer part "0", INT(r), FRAC(r, k) k fraction digits read (k <= s),
        // TAIL(r) (more than s fraction digits, all zero beyond s), BAD (a non-zero digit beyond s)
        int start = 0, minus = 1, zero = 2, intBase = 3, fracBase = intBase + p, tailBase = fracBase + p * (s + 1), bad = tailBase + p;
        int n = bad + 1;
        int[][] next = new int[n][SYMBOLS];
        for (int[] row : next) Arrays.fill(row, -1);
        boolean[] accept = new boolean[n];
        int tenS = BigInteger.TEN.modPow(BigInteger.valueOf(s), BigInteger.valueOf(p)).intValue();
        int[] fracWeight = new int[s + 1]; // weight of fraction digit k+1: 10^(s-k-1) mod p
        for (int k = 0; k < s; k++) fracWeight[k] = BigInteger.TEN.modPow(BigInteger.valueOf(s - k - 1), BigInteger.valueOf(p)).intValue();
        next[start][MINUS] = minus;
        for (int from : new int[] {start, minus}) {
            next[from][0] = zero;
            for (int d = 1; d <= 9; d++) next[from][d] = intBase + (int) ((long) d * tenS % p);
        }
        accept[zero] = !complement;
        if (!integer) next[zero][DOT] = fracBase; // FRAC(0, 0)
        for (int r = 0; r < p; r++) {
            int q = intBase + r;
            for (int d = 0; d <= 9; d++) next[q][d] = intBase + (int) ((10L * r + (long) d * tenS) % p);
            if (!integer) next[q][DOT] = fracBase + r * (s + 1);
            accept[q] = (r == 0) != complement;
            for (int k = 0; k <= s; k++) {
                int f = fracBase + r * (s + 1) + k;
                accept[f] = k >= 1 && (r == 0) != complement;
                for (int d = 0; d <= 9; d++) {
                    if (k < s) next[f][d] = fracBase + (int) ((r + (long) d * fracWeight[k]) % p) * (s + 1) + k + 1;
                    else next[f][d] = d == 0 ? tailBase + r : bad;
                }
            }
            int t = tailBase + r;
            accept[t] = (r == 0) != complement;
            for (int d = 0; d <= 9; d++) next[t][d] = d == 0 ? t : bad;
        }
        for (int d = 0; d <= 9; d++) next[bad][d] = bad;
        accept[bad] = complement;
        Dfa min = minimize(new Dfa(next, accept));
        return new Dfa(min.next(), min.accept(), complement);
    }

    /** The automaton of a regular expression over JSON number characters (other characters dropped). */
    static Dfa fromExpr(Expr e) {
        CodePointDfa cp;
        try {
            cp = CodePointDfa.of(e);
        } catch (CodePointDfa.TooComplex x) {
            throw new TooLarge("the bounds' automaton: " + x.getMessage(), false);
        }
        int n = cp.edges.size();
        int[][] next = new int[n][SYMBOLS];
        boolean[] accept = new boolean[n];
        for (int q = 0; q < n; q++) {
            Arrays.fill(next[q], -1);
            accept[q] = cp.accept.get(q);
            for (CodePointDfa.Edge ed : cp.edges.get(q))
                for (int c = 0; c < SYMBOLS; c++) if (ed.set().contains(SYMBOL_CHARS[c])) next[q][c] = ed.to();
        }
        return new Dfa(next, accept);
    }

    /** The strings both accept. */
    static Dfa product(Dfa a, Dfa b) {
        Map<Long, Integer> index = new HashMap<>();
        List<int[]> pairs = new ArrayList<>();
        List<int[]> rows = new ArrayList<>();
        index.put(0L, 0);
        pairs.add(new int[] {0, 0});
        for (int i = 0; i < pairs.size(); i++) {
            int x = pairs.get(i)[0], y = pairs.get(i)[1];
            int[] row = new int[SYMBOLS];
            for (int c = 0; c < SYMBOLS; c++) {
                int nx = a.next[x][c], ny = b.next[y][c];
                if (nx < 0 || ny < 0) { row[c] = -1; continue; }
                long key = ((long) nx << 32) | ny;
                Integer to = index.get(key);
                if (to == null) {
                    if (pairs.size() >= MAX_STATES) throw new TooLarge("more than " + MAX_STATES + " automaton states", b.excluded);
                    to = pairs.size();
                    index.put(key, to);
                    pairs.add(new int[] {nx, ny});
                }
                row[c] = to;
            }
            rows.add(row);
        }
        boolean[] accept = new boolean[pairs.size()];
        for (int i = 0; i < accept.length; i++) accept[i] = a.accept[pairs.get(i)[0]] && b.accept[pairs.get(i)[1]];
        return new Dfa(rows.toArray(new int[0][]), accept);
    }

    /**
     * The minimal automaton: states that reach no accepting state dropped (their edges become -1), then
     * Moore's partition refinement (classes split by their accepting flag and their successors' classes).
     * The start state stays 0; an empty language gives one non-accepting state without edges.
     */
    static Dfa minimize(Dfa d) {
        int n = d.size();
        // reachable and live
        boolean[] reach = new boolean[n];
        ArrayDeque<Integer> work = new ArrayDeque<>();
        reach[0] = true;
        work.add(0);
        while (!work.isEmpty()) {
            int q = work.poll();
            for (int t : d.next[q]) if (t >= 0 && !reach[t]) { reach[t] = true; work.add(t); }
        }
        boolean[] live = new boolean[n];
        for (int q = 0; q < n; q++) live[q] = reach[q] && d.accept[q];
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int q = 0; q < n; q++) {
                if (live[q] || !reach[q]) continue;
                for (int t : d.next[q]) if (t >= 0 && live[t]) { live[q] = true; changed = true; break; }
            }
        }
        if (!live[0]) return new Dfa(new int[][] {filled()}, new boolean[] {false});
        int[] cls = new int[n];
        Arrays.fill(cls, -1);
        for (int q = 0; q < n; q++) if (live[q]) cls[q] = d.accept[q] ? 1 : 0;
        int classes = 2;
        while (true) {
            Map<List<Integer>, Integer> sig = new HashMap<>();
            int[] ncls = new int[n];
            Arrays.fill(ncls, -1);
            for (int q = 0; q < n; q++) {
                if (!live[q]) continue;
                List<Integer> key = new ArrayList<>(SYMBOLS + 1);
                key.add(cls[q]);
                for (int t : d.next[q]) key.add(t >= 0 && live[t] ? cls[t] : -1);
                Integer c = sig.get(key);
                if (c == null) { c = sig.size(); sig.put(key, c); }
                ncls[q] = c;
            }
            boolean stable = sig.size() == classes;
            cls = ncls;
            classes = sig.size();
            if (stable) break;
        }
        // renumber: the start state's class first, then breadth-first
        int[] id = new int[classes];
        Arrays.fill(id, -1);
        int[] rep = new int[classes];
        List<Integer> order = new ArrayList<>();
        id[cls[0]] = 0;
        rep[cls[0]] = 0;
        order.add(cls[0]);
        for (int q = 0; q < n; q++) if (live[q]) rep[cls[q]] = q;
        rep[cls[0]] = 0;
        for (int i = 0; i < order.size(); i++) {
            for (int t : d.next[rep[order.get(i)]]) {
                if (t < 0 || !live[t] || id[cls[t]] >= 0) continue;
                id[cls[t]] = order.size();
                order.add(cls[t]);
            }
        }
        int[][] next = new int[order.size()][];
        boolean[] accept = new boolean[order.size()];
        for (int i = 0; i < order.size(); i++) {
            int q = rep[order.get(i)];
            next[i] = filled();
            for (int c = 0; c < SYMBOLS; c++) {
                int t = d.next[q][c];
                if (t >= 0 && live[t]) next[i][c] = id[cls[t]];
            }
            accept[i] = d.accept[q];
        }
        return new Dfa(next, accept);
    }

    private static int[] filled() {
        int[] row = new int[SYMBOLS];
        Arrays.fill(row, -1);
        return row;
    }

    /** One rule per state: for each successor, the characters leading there and the successor's rule. */
    private Expr toRules(Dfa d, String base) {
        boolean empty = !d.accept[0] && Arrays.stream(d.next[0]).allMatch(t -> t < 0);
        if (empty) return Expr.NOTHING;
        String prefix = syn.newName(base);
        String[] names = new String[d.size()];
        names[0] = prefix;
        for (int q = 1; q < names.length; q++) names[q] = syn.newName(prefix + "_" + q);
        for (int q = 0; q < names.length; q++) {
            List<Expr> alts = new ArrayList<>();
            List<Integer> targets = new ArrayList<>();
            for (int t : d.next[q]) if (t >= 0 && !targets.contains(t)) targets.add(t);
            for (int t : targets) {
                CodePointSet set = CodePointSet.EMPTY;
                for (int c = 0; c < SYMBOLS; c++) if (d.next[q][c] == t) set = set.union(CodePointSet.of(SYMBOL_CHARS[c]));
                alts.add(Expr.seq(Expr.chars(set), Expr.ref(names[t])));
            }
            if (d.accept[q]) alts.add(Expr.EMPTY);
            syn.rules.put(names[q], alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts));
        }
        return Expr.ref(names[0]);
    }

    /** Whether the value is a multiple of m (the validators' definition: the quotient is an integer). */
    public static boolean isMultiple(BigDecimal v, BigDecimal m) {
        return v.remainder(m).signum() == 0;
    }
}
