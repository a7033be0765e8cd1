package dev.domino.compiler.jsonschema.algebra;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A deterministic automaton over code points, for the string algebra of schemas: intersection
 * ({@code pattern} and {@code pattern}), complement ({@code not pattern}), and back to a regular
 * expression. Built from a Ref-free expression (Thompson NFA, then subsets with the code point space cut
 * at every edge boundary so each interval moves all NFA states alike); complement totalizes with a dead
 * state; intersection is the product; the expression comes back by state elimination over the states
 * that can still accept. Sizes are bounded ({@link #MAX_STATES} states, {@link #MAX_EXPR_NODES}
 * expression nodes): beyond them the caller reports the keyword as unsupported.
 */
public final class CodePointDfa {
    static final int MAX_STATES = 2000;
    static final int MAX_EXPR_NODES = 50_000;
    static final int MAX_ELIMINATED = 300;
    /** Product states built before the dead ones are trimmed (see {@link #intersect(Expr)}). */
    static final int MAX_PRODUCT_STATES = 20 * MAX_STATES;

    public record Edge(CodePointSet set, int to) {}

    public final List<List<Edge>> edges;
    public final BitSet accept;

    private CodePointDfa(List<List<Edge>> edges, BitSet accept) {
        this.edges = edges;
        this.accept = accept;
    }

    /** Too large or not regular: the caller turns this into an unsupported keyword. */
    public static final class TooComplex extends RuntimeException {
        TooComplex(String m) { super(m); }
    }

    // ---- Thompson NFA ----

    private static final class Nfa {
        final List<List<Integer>> eps = new ArrayList<>();
        final List<List<Edge>> trans = new ArrayList<>();
        final int maxStates;

        Nfa(int maxStates) { this.maxStates = maxStates; }

        int state() {
            if (eps.size() > 20 * maxStates) throw new TooComplex("more than " + (20 * maxStates) + " NFA states");
            eps.add(new ArrayList<>());
            trans.add(new ArrayList<>());
            return eps.size() - 1;
        }

        /** Adds e between a fresh start and end; returns {start, end}. */
        int[] build(Expr e) {
            int s = state(), t;
            if (e instanceof Expr.Chars c) {
                t = state();
                if (!c.set().isEmpty()) trans.get(s).add(new Edge(c.set(), t));
            } else if (e instanceof Expr.Automaton a) {
                // the automaton's states as NFA states, entered from s, accepting into t
                CodePointAutomaton d = a.dfa();
                int base = eps.size();
                for (int q = 0; q < d.stateCount(); q++) state();
                t = state();
                eps.get(s).add(base + d.start());
                for (int q = 0; q < d.stateCount(); q++) {
                    if (d.isAccepting(q)) eps.get(base + q).add(t);
                    for (int r = d.firstRange(q); r < d.endRange(q); r++) trans.get(base + q).add(new Edge(CodePointSet.range(d.lo(r), d.hi(r)), base + d.target(r)));
                }
            } else if (e instanceof Expr.Literal l) {
                int cur = s;
                for (int cp : l.text().codePoints().toArray()) {
                    int n = state();
                    trans.get(cur).add(new Edge(CodePointSet.of(cp), n));
                    cur = n;
                }
                t = cur;
            } else if (e instanceof Expr.Seq q) {
                int cur = s;
                for (Expr x : q.items()) {
                    int[] p = build(x);
                    eps.get(cur).add(p[0]);
                    cur = p[1];
                }
                t = cur;
            } else if (e instanceof Expr.Alt a) {
                t = state();
                for (Expr x : a.options()) {
                    int[] p = build(x);
                    eps.get(s).add(p[0]);
                    eps.get(p[1]).add(t);
                }
            } else if (e instanceof Expr.Repeat r) {
                if (r.min() > 1000 || r.max() > 1000) throw new TooComplex("a repetition count above 1000");
                int cur = s;
                for (int i = 0; i < r.min(); i++) {
                    int[] p = build(r.body());
                    eps.get(cur).add(p[0]);
                    cur = p[1];
                }
                if (r.max() == Expr.Repeat.UNBOUNDED) {
                    int[] p = build(r.body());
                    eps.get(cur).add(p[0]);
                    eps.get(p[1]).add(cur);
                    t = cur;
                } else {
                    t = state();
                    eps.get(cur).add(t);
                    for (int i = r.min(); i < r.max(); i++) {
                        int[] p = build(r.body());
                        eps.get(cur).add(p[0]);
                        cur = p[1];
                        eps.get(cur).add(t);
                    }
                }
            } else {
                throw new TooComplex("not a regular expression over characters: " + e.getClass().getSimpleName());
            }
            return new int[] {s, t};
        }

        BitSet closure(BitSet set) {
            BitSet out = (BitSet) set.clone();
            ArrayDeque<Integer> work = new ArrayDeque<>();
            set.stream().forEach(work::add);
            while (!work.isEmpty()) {
                int x = work.pop();
                for (int y : eps.get(x)) if (!out.get(y)) { out.set(y); work.push(y); }
            }
            return out;
        }
    }

    public static CodePointDfa of(Expr e) { return of(e, MAX_STATES); }

    /** As {@link #of(Expr)} with another bound on the states (a format's fixed language, built once). */
    public static CodePointDfa of(Expr e, int maxStates) {
        Nfa nfa = new Nfa(maxStates);
        int[] se = nfa.build(e);
        Map<BitSet, Integer> index = new HashMap<>();
        List<BitSet> states = new ArrayList<>();
        List<List<Edge>> edges = new ArrayList<>();
        BitSet accept = new BitSet();
        BitSet start = new BitSet();
        start.set(se[0]);
        start = nfa.closure(start);
        index.put(start, 0);
        states.add(start);
        for (int i = 0; i < states.size(); i++) {
            BitSet cur = states.get(i);
            if (cur.get(se[1])) accept.set(i);
            TreeSet<Integer> cuts = new TreeSet<>();
            List<Edge> out = new ArrayList<>();
            cur.stream().forEach(x -> {
                for (Edge ed : nfa.trans.get(x)) {
                    for (int r = 0; r < ed.set().rangeCount(); r++) { cuts.add(ed.set().lo(r)); cuts.add(ed.set().hi(r) + 1); }
                }
            });
            Map<Integer, CodePointSet> byTarget = new HashMap<>();
            List<Integer> order = new ArrayList<>();
            Integer prev = null;
            for (int cut : cuts) {
                if (prev != null) {
                    int lo = prev, hi = cut - 1;
                    BitSet next = new BitSet();
                    cur.stream().forEach(x -> {
                        for (Edge ed : nfa.trans.get(x)) if (ed.set().contains(lo)) next.set(ed.to());
                    });
                    if (!next.isEmpty()) {
                        BitSet closed = nfa.closure(next);
                        Integer to = index.get(closed);
                        if (to == null) {
                            if (states.size() >= maxStates) throw new TooComplex("more than " + maxStates + " automaton states");
                            to = states.size();
                            index.put(closed, to);
                            states.add(closed);
                        }
                        CodePointSet old = byTarget.get(to);
                        if (old == null) order.add(to);
                        byTarget.put(to, old == null ? CodePointSet.range(lo, hi) : old.union(CodePointSet.range(lo, hi)));
                    }
                }
                prev = cut;
            }
            for (int to : order) out.add(new Edge(byTarget.get(to), to));
            edges.add(out);
        }
        return new CodePointDfa(edges, accept);
    }

    /** The empty language. */
    static CodePointDfa nothing() { return new CodePointDfa(new ArrayList<>(List.of(new ArrayList<>())), new BitSet()); }

    /** A deterministic automaton as this class's edges (state 0 the start; its ranges grouped by target). */
    static CodePointDfa of(CodePointAutomaton a) {
        List<List<Edge>> edges = new ArrayList<>();
        BitSet accept = new BitSet();
        for (int q = 0; q < a.stateCount(); q++) {
            if (a.isAccepting(q)) accept.set(q);
            Map<Integer, List<Integer>> byTarget = new java.util.LinkedHashMap<>();
            for (int r = a.firstRange(q); r < a.endRange(q); r++) {
                List<Integer> pairs = byTarget.computeIfAbsent(a.target(r), t -> new ArrayList<>());
                pairs.add(a.lo(r));
                pairs.add(a.hi(r));
            }
            List<Edge> out = new ArrayList<>();
            for (Map.Entry<Integer, List<Integer>> e : byTarget.entrySet())
                out.add(new Edge(CodePointSet.fromRanges(e.getValue().stream().mapToInt(Integer::intValue).toArray()), e.getKey()));
            edges.add(out);
        }
        return new CodePointDfa(edges, accept);
    }

    /** The minimal automaton of this language (surrogates left out, as every leaf leaves them out). */
    CodePointAutomaton toAutomaton() {
        CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        for (int i = 0; i < edges.size(); i++) b.addState(accept.get(i));
        for (int i = 0; i < edges.size(); i++) for (Edge e : edges.get(i)) b.addEdge(i, e.set(), e.to());
        return b.build();
    }

    /** The same language with the fewest states: products of minimal automata stay small. */
    CodePointDfa minimized() { return of(toAutomaton()); }

    /** The strings either automaton accepts (the complement of the product of the complements). */
    CodePointDfa union(CodePointDfa o) { return complement().intersect(o.complement()).complement(); }

    int stateCount() { return edges.size(); }

    /** Whether the automaton accepts the whole text. */
    public boolean accepts(String text) {
        int state = 0;
        for (int cp : text.codePoints().toArray()) {
            int next = -1;
            for (Edge e : edges.get(state)) if (e.set().contains(cp)) { next = e.to(); break; }
            if (next < 0) return false;
            state = next;
        }
        return accept.get(state);
    }

    /** Every string this automaton rejects. */
    public CodePointDfa complement() {
        List<List<Edge>> out = new ArrayList<>();
        int dead = edges.size();
        boolean needDead = false;
        for (List<Edge> es : edges) {
            List<Edge> copy = new ArrayList<>(es);
            CodePointSet covered = CodePointSet.EMPTY;
            for (Edge e : es) covered = covered.union(e.set());
            CodePointSet rest = covered.complement();
            if (!rest.isEmpty()) { copy.add(new Edge(rest, dead)); needDead = true; }
            out.add(copy);
        }
        BitSet acc = new BitSet();
        for (int i = 0; i < edges.size(); i++) if (!accept.get(i)) acc.set(i);
        if (needDead || edges.isEmpty()) {
            out.add(new ArrayList<>(List.of(new Edge(CodePointSet.ANY, dead))));
            acc.set(dead);
        }
        return new CodePointDfa(out, acc);
    }

    /** The strings both automata accept (product construction; the pairs that can never accept trimmed). */
    public CodePointDfa intersect(CodePointDfa o) { return intersect(o, MAX_PRODUCT_STATES); }

    /** As {@link #intersect(CodePointDfa)}, {@link TooComplex} past {@code maxStates} product states. */
    public CodePointDfa intersect(CodePointDfa o, int maxStates) {
        Map<Long, Integer> index = new HashMap<>();
        List<long[]> pairs = new ArrayList<>();
        List<List<Edge>> out = new ArrayList<>();
        BitSet acc = new BitSet();
        index.put(0L, 0);
        pairs.add(new long[] {0, 0});
        for (int i = 0; i < pairs.size(); i++) {
            int a = (int) pairs.get(i)[0], b = (int) pairs.get(i)[1];
            if (accept.get(a) && o.accept.get(b)) acc.set(i);
            List<Edge> es = new ArrayList<>();
            for (Edge ea : edges.get(a)) {
                for (Edge eb : o.edges.get(b)) {
                    CodePointSet s = ea.set().intersect(eb.set());
                    if (s.isEmpty()) continue;
                    long key = ((long) ea.to() << 32) | eb.to();
                    Integer to = index.get(key);
                    if (to == null) {
                        if (pairs.size() >= maxStates) throw new TooComplex("more than " + maxStates + " automaton states");
                        to = pairs.size();
                        index.put(key, to);
                        pairs.add(new long[] {ea.to(), eb.to()});
                    }
                    es.add(new Edge(s, to));
                }
            }
            out.add(es);
        }
        return new CodePointDfa(out, acc).trimmed();
    }

    /**
     * Every string a format's fixed language rejects. The language may be as large as date-time's (leap seconds
     * remember the local time), so it is determinized up to {@link #MAX_PRODUCT_STATES} states, as a product is.
     */
    public static CodePointDfa outside(Expr fixedLanguage) { return of(fixedLanguage, MAX_PRODUCT_STATES).complement(); }

    /**
     * The strings this automaton and {@code e} both accept, without determinizing {@code e} alone:
     * product states pair this automaton's state with a subset of e's NFA, and only pairs reachable
     * under both are built. A format whose own automaton is large (date-time with its leap-second
     * offsets) next to a small pattern stays small. Pairs that can never accept are built but
     * trimmed (a leap second's remembered local time next to a pattern that forces {@code Z}); up to
     * {@link #MAX_PRODUCT_STATES} are built, as many as a format's own automaton has.
     */
    public CodePointDfa intersect(Expr e) {
        LazySubsets sub = new LazySubsets(e);
        Map<Long, Integer> index = new HashMap<>();
        List<long[]> pairs = new ArrayList<>();
        List<List<Edge>> out = new ArrayList<>();
        BitSet acc = new BitSet();
        index.put(0L, 0);
        pairs.add(new long[] {0, 0});
        for (int i = 0; i < pairs.size(); i++) {
            int a = (int) pairs.get(i)[0], b = (int) pairs.get(i)[1];
            if (accept.get(a) && sub.accepting(b)) acc.set(i);
            Map<Integer, CodePointSet> byTarget = new HashMap<>();
            List<Integer> order = new ArrayList<>();
            List<Edge> moves = sub.moves(b);
            for (Edge ea : edges.get(a)) {
                for (Edge eb : moves) {
                    CodePointSet s = ea.set().intersect(eb.set());
                    if (s.isEmpty()) continue;
                    long key = ((long) ea.to() << 32) | eb.to();
                    Integer to = index.get(key);
                    if (to == null) {
                        if (pairs.size() >= MAX_PRODUCT_STATES) throw new TooComplex("more than " + MAX_PRODUCT_STATES + " automaton states");
                        to = pairs.size();
                        index.put(key, to);
                        pairs.add(new long[] {ea.to(), eb.to()});
                    }
                    CodePointSet old = byTarget.get(to);
                    if (old == null) order.add(to);
                    byTarget.put(to, old == null ? s : old.union(s));
                }
            }
            List<Edge> es = new ArrayList<>();
            for (int to : order) es.add(new Edge(byTarget.get(to), to));
            out.add(es);
        }
        return new CodePointDfa(out, acc).trimmed();
    }

    /**
     * The subset construction of an expression's NFA, done only for the subsets a product reaches: each
     * subset is numbered once and its moves (disjoint code point sets to subset numbers) computed once, so
     * the product keys its pairs by two ints instead of rehashing a subset at every pair it meets.
     */
    private static final class LazySubsets {
        private final Nfa nfa = new Nfa(MAX_STATES);
        private final int end;
        private final Map<BitSet, Integer> index = new HashMap<>();
        private final List<BitSet> sets = new ArrayList<>();
        private final List<List<Edge>> moves = new ArrayList<>();

        LazySubsets(Expr e) {
            int[] se = nfa.build(e);
            end = se[1];
            BitSet start = new BitSet();
            start.set(se[0]);
            id(nfa.closure(start));
        }

        private int id(BitSet closed) {
            Integer id = index.get(closed);
            if (id != null) return id;
            if (sets.size() >= MAX_PRODUCT_STATES) throw new TooComplex("more than " + MAX_PRODUCT_STATES + " automaton states");
            index.put(closed, sets.size());
            sets.add(closed);
            moves.add(null);
            return sets.size() - 1;
        }

        boolean accepting(int id) { return sets.get(id).get(end); }

        List<Edge> moves(int id) {
            List<Edge> m = moves.get(id);
            if (m != null) return m;
            BitSet cur = sets.get(id);
            TreeSet<Integer> cuts = new TreeSet<>();
            cur.stream().forEach(x -> {
                for (Edge ed : nfa.trans.get(x)) {
                    for (int r = 0; r < ed.set().rangeCount(); r++) { cuts.add(ed.set().lo(r)); cuts.add(ed.set().hi(r) + 1); }
                }
            });
            Map<Integer, CodePointSet> byTarget = new HashMap<>();
            List<Integer> order = new ArrayList<>();
            Integer prev = null;
            for (int cut : cuts) {
                if (prev != null) {
                    int lo = prev, hi = cut - 1;
                    BitSet next = new BitSet();
                    cur.stream().forEach(x -> {
                        for (Edge ed : nfa.trans.get(x)) if (ed.set().contains(lo)) next.set(ed.to());
                    });
                    if (!next.isEmpty()) {
                        int to = id(nfa.closure(next));
                        CodePointSet old = byTarget.get(to);
                        if (old == null) order.add(to);
                        byTarget.put(to, old == null ? CodePointSet.range(lo, hi) : old.union(CodePointSet.range(lo, hi)));
                    }
                }
                prev = cut;
            }
            m = new ArrayList<>();
            for (int to : order) m.add(new Edge(byTarget.get(to), to));
            moves.set(id, m);
            return m;
        }
    }

    /** This automaton without the states that cannot reach acceptance. */
    private CodePointDfa trimmed() {
        BitSet live = live();
        if (!live.get(0)) return new CodePointDfa(new ArrayList<>(List.of(new ArrayList<>())), new BitSet());
                if (live.cardinality() == edges.size()) return this;
        int[] renumber = new int[edges.size()];
        int k = 0;
        for (int i = 0; i < edges.size(); i++) renumber[i] = live.get(i) ? k++ : -1;
        List<List<Edge>> out = new ArrayList<>();
        BitSet acc = new BitSet();
        for (int i = 0; i < edges.size(); i++) {
            if (!live.get(i)) continue;
            if (accept.get(i)) acc.set(renumber[i]);
            List<Edge> es = new ArrayList<>();
            for (Edge e : edges.get(i)) if (live.get(e.to())) es.add(new Edge(e.set(), renumber[e.to()]));
            out.add(es);
        }
        return new CodePointDfa(out, acc);
    }

    /** Strings of minLen..maxLen code points (maxLen UNBOUNDED for no bound). */
    public static CodePointDfa lengths(int minLen, int maxLen) {
        Expr any = Expr.chars(CodePointSet.ANY);
        if (maxLen != Expr.Repeat.UNBOUNDED && maxLen > 1000) throw new TooComplex("maxLength above 1000 next to a string complement");
        if (minLen > 1000) throw new TooComplex("minLength above 1000 next to a string complement");
        return of(new Expr.Repeat(any, minLen, maxLen));
    }

    /** States from which an accepting state is reachable. */
    private BitSet live() {
        BitSet live = (BitSet) accept.clone();
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = 0; i < edges.size(); i++) {
                if (live.get(i)) continue;
                for (Edge e : edges.get(i)) if (live.get(e.to())) { live.set(i); changed = true; break; }
            }
        }
        return live;
    }

    boolean isEmpty() { return !live().get(0); }

    /**
     * The language as an IR leaf ({@link Expr.Automaton}, minimized), NOTHING when it is empty: no state
     * elimination, so its size is the automaton's (the complement of a 40-value enum had over 50,000
     * expression nodes).
     */
    public Expr toLeaf() {
        CodePointAutomaton.Builder b = new CodePointAutomaton.Builder();
        for (int i = 0; i < edges.size(); i++) b.addState(accept.get(i));
        for (int i = 0; i < edges.size(); i++) for (Edge e : edges.get(i)) b.addEdge(i, e.set(), e.to());
        CodePointAutomaton a = b.build();
        if (a.isEmpty()) return Expr.NOTHING;
        if (a.stateCount() == 1 && a.rangeCount() == 0) return Expr.EMPTY;
        return new Expr.Automaton(a);
    }

    /** A regular expression for the language (state elimination), NOTHING when it is empty. */
    Expr toExpr() {
        BitSet live = live();
        if (!live.get(0)) return Expr.NOTHING;
        if (live.cardinality() > MAX_ELIMINATED) throw new TooComplex("more than " + MAX_ELIMINATED + " states to turn back into an expression");
        int n = edges.size();
        int start = n, end = n + 1;
        Expr[][] r = new Expr[n + 2][n + 2];
        r[start][0] = Expr.EMPTY;
        for (int i = 0; i < n; i++) {
            if (!live.get(i)) continue;
            if (accept.get(i)) r[i][end] = Expr.EMPTY;
            for (Edge e : edges.get(i)) {
                if (!live.get(e.to())) continue;
                r[i][e.to()] = or(r[i][e.to()], Expr.chars(e.set()));
            }
        }
        boolean[] gone = new boolean[n];
        for (int step = 0; step < n; step++) {
            int best = -1;
            long bestCost = Long.MAX_VALUE;
            for (int k = 0; k < n; k++) {
                if (gone[k] || !live.get(k)) continue;
                long in = 0, out = 0;
                for (int i = 0; i < n + 2; i++) if (i != k && r[i][k] != null) in++;
                for (int j = 0; j < n + 2; j++) if (j != k && r[k][j] != null) out++;
                if (in * out < bestCost) { bestCost = in * out; best = k; }
            }
            if (best < 0) break;
            int k = best;
            gone[k] = true;
            Expr loop = r[k][k] == null ? null : Expr.star(r[k][k]);
            for (int i = 0; i < n + 2; i++) {
                if (i == k || r[i][k] == null) continue;
                for (int j = 0; j < n + 2; j++) {
                    if (j == k || r[k][j] == null) continue;
                    Expr path = loop == null ? seq(r[i][k], r[k][j]) : seq(seq(r[i][k], loop), r[k][j]);
                    r[i][j] = or(r[i][j], path);
                    if (size(r[i][j]) > MAX_EXPR_NODES) throw new TooComplex("the expression of a string complement exceeds " + MAX_EXPR_NODES + " nodes");
                }
            }
            for (int i = 0; i < n + 2; i++) { r[i][k] = null; r[k][i] = null; }
        }
        return r[start][end] == null ? Expr.NOTHING : r[start][end];
    }

    private static Expr or(Expr a, Expr b) {
        if (a == null) return b;
        if (a.equals(b)) return a;
        if (a instanceof Expr.Chars x && b instanceof Expr.Chars y) return Expr.chars(x.set().union(y.set()));
        List<Expr> opts = new ArrayList<>();
        if (a instanceof Expr.Alt aa) opts.addAll(aa.options()); else opts.add(a);
        if (!opts.contains(b)) opts.add(b);
        return new Expr.Alt(opts);
    }

    private static Expr seq(Expr a, Expr b) {
        if (a instanceof Expr.Seq s && s.items().isEmpty()) return b;
        if (b instanceof Expr.Seq s && s.items().isEmpty()) return a;
        List<Expr> items = new ArrayList<>();
        if (a instanceof Expr.Seq s) items.addAll(s.items()); else items.add(a);
        if (b instanceof Expr.Seq s) items.addAll(s.items()); else items.add(b);
        return new Expr.Seq(items);
    }

    static int size(Expr e) {
        if (e instanceof Expr.Seq s) { int n = 1; for (Expr x : s.items()) n += size(x); return n; }
        if (e instanceof Expr.Alt a) { int n = 1; for (Expr x : a.options()) n += size(x); return n; }
        if (e instanceof Expr.Repeat r) return 1 + size(r.body());
        return 1;
    }

}
