package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointAutomaton;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.function.Function;

/**
 * A Thompson NFA over bytes built from a regular IR expression: code points become their UTF-8
 * byte sequences on the way. Sub-automata of shared subexpressions are built once and copied
 * (generated grammars are DAGs), so construction is linear in the size of the result.
 */
final class ByteNfa {
    // transitions: byte range [lo, hi] (or epsilon when lo < 0) from -> to
    int[] from = new int[64], to = new int[64], lo = new int[64], hi = new int[64];
    int edges;
    int states;

    /** A fragment: entry and exit state, exit has no outgoing edges yet. */
    record Fragment(int start, int end, int firstState, int endState, int firstEdge, int endEdge) {}

    private final Function<String, Expr> rules;
    private final IdentityHashMap<Expr, Fragment> templates = new IdentityHashMap<>();
    private final java.util.Map<String, Fragment> ruleTemplates = new java.util.HashMap<>();
    private final java.util.Set<String> inProgress = new java.util.HashSet<>();

    ByteNfa(Function<String, Expr> rules) { this.rules = rules; }

    int newState() { return states++; }

    void edge(int f, int t, int l, int h) {
        if (edges == from.length) {
            int n = edges * 2;
            from = Arrays.copyOf(from, n); to = Arrays.copyOf(to, n); lo = Arrays.copyOf(lo, n); hi = Arrays.copyOf(hi, n);
        }
        from[edges] = f; to[edges] = t; lo[edges] = l; hi[edges] = h; edges++;
    }

    void epsilon(int f, int t) { edge(f, t, -1, -1); }

    /** Builds e; the fragment's states are contiguous, so it can later be copied. */
    Fragment build(Expr e) {
        boolean shareable = e instanceof Expr.Seq || e instanceof Expr.Alt || e instanceof Expr.Repeat || e instanceof Expr.Automaton;
        if (shareable) {
            Fragment template = templates.get(e);
            if (template != null) return copy(template);
        }
        Fragment f = buildFresh(e);
        if (shareable) templates.put(e, f);
        return f;
    }

    private Fragment buildFresh(Expr e) {
        int firstState = states, firstEdge = edges;
        int start, end;
        if (e instanceof Expr.Literal lit) {
            byte[] b = lit.text().getBytes(StandardCharsets.UTF_8);
            start = newState();
            int cur = start;
            for (byte x : b) {
                int n = newState();
                edge(cur, n, x & 0xFF, x & 0xFF);
                cur = n;
            }
            end = cur;
        } else if (e instanceof Expr.Chars chars) {
            start = newState();
            end = newState();
            CodePointSet set = chars.set();
            for (int i = 0; i < set.rangeCount(); i++) {
                for (int[][] seq : Utf8Sequences.of(set.lo(i), set.hi(i))) {
                    int cur = start;
                    for (int k = 0; k < seq.length; k++) {
                        int n = k == seq.length - 1 ? end : newState();
                        edge(cur, n, seq[k][0], seq[k][1]);
                        cur = n;
                    }
                }
            }
        } else if (e instanceof Expr.Automaton a) {
            // the code point automaton's states, each range as its UTF-8 byte sequences through fresh states
            CodePointAutomaton d = a.dfa();
            int base = states;
            states += d.stateCount();
            start = newState();
            end = newState();
            epsilon(start, base + d.start());
            for (int q = 0; q < d.stateCount(); q++) {
                if (d.isAccepting(q)) epsilon(base + q, end);
                for (int r = d.firstRange(q); r < d.endRange(q); r++) {
                    for (int[][] seq : Utf8Sequences.of(d.lo(r), d.hi(r))) {
                        int cur = base + q;
                        for (int k = 0; k < seq.length; k++) {
                            int n = k == seq.length - 1 ? base + d.target(r) : newState();
                            edge(cur, n, seq[k][0], seq[k][1]);
                            cur = n;
                        }
                    }
                }
            }
        } else if (e instanceof Expr.Seq seq) {
            start = newState();
            int cur = start;
            for (Expr item : seq.items()) {
                Fragment f = build(item);
                epsilon(cur, f.start());
                cur = f.end();
            }
            end = newState();
            epsilon(cur, end);
        } else if (e instanceof Expr.Alt alt) {
            start = newState();
            end = newState();
            for (Expr option : alt.options()) {
                Fragment f = build(option);
                epsilon(start, f.start());
                epsilon(f.end(), end);
            }
        } else if (e instanceof Expr.Repeat rep) {
            start = newState();
            int cur = start;
            for (int i = 0; i < rep.min(); i++) {
                Fragment f = build(rep.body());
                epsilon(cur, f.start());
                cur = f.end();
            }
            end = newState();
            if (rep.max() == Expr.Repeat.UNBOUNDED) {
                Fragment f = build(rep.body());
                epsilon(cur, f.start());
                epsilon(f.end(), cur);
                epsilon(cur, end);
            } else {
                for (int i = rep.min(); i < rep.max(); i++) {
                    epsilon(cur, end);
                    Fragment f = build(rep.body());
                    epsilon(cur, f.start());
                    cur = f.end();
                }
                epsilon(cur, end);
            }
        } else if (e instanceof Expr.Ref ref) {
            Fragment template = ruleTemplates.get(ref.name());
            if (template != null) return copy(template);
            if (!inProgress.add(ref.name())) {
                throw new IllegalStateException("recursive rule '" + ref.name() + "' inside a terminal");
            }
            Fragment body = build(rules.apply(ref.name()));
            inProgress.remove(ref.name());
            start = newState();
            end = newState();
            epsilon(start, body.start());
            epsilon(body.end(), end);
            Fragment f = new Fragment(start, end, firstState, states, firstEdge, edges);
            ruleTemplates.put(ref.name(), f);
            return f;
        } else if (e instanceof Expr.Lazy u) {
            ByteDfa dfa = LazyAutomaton.of(u.body(), rules);
            int base = states;
            states += dfa.stateCount();
            start = newState();
            end = newState();
            epsilon(start, base + dfa.start());
            for (int q = 0; q < dfa.stateCount(); q++) {
                boolean match = dfa.isAccepting(q);
                if (match == u.consume()) epsilon(base + q, end);
                if (match) continue; // lazy: nothing goes on after the first match
                for (int b = 0; b < 256; ) {
                    int target = dfa.step(q, b);
                    int b2 = b;
                    while (b2 + 1 < 256 && dfa.step(q, b2 + 1) == target) b2++;
                    if (target >= 0) edge(base + q, base + target, b, b2);
                    b = b2 + 1;
                }
            }
        } else if (e instanceof Expr.Units) {
            throw new IllegalStateException("a length-bounded pattern (a counted terminal of its own) cannot be part of a terminal");
        } else if (e instanceof Expr.UniqueArray) {
            throw new IllegalStateException("an array of distinct items (uniqueItems) cannot be part of a terminal");
        } else if (e instanceof Expr.Perm) {
            throw new IllegalStateException("a permutation (members in any order) cannot be part of a terminal");
        } else {
            if (e instanceof Expr.TokenRef t) throw new IllegalStateException("token reference " + t.display() + " inside a terminal (token references match whole tokens, not text)");
            throw new IllegalArgumentException("unknown expression " + e);
        }
        return new Fragment(start, end, firstState, states, firstEdge, edges);
    }

    /** A fresh copy of a fragment (its states and edges are contiguous ranges). */
    private Fragment copy(Fragment t) {
        int offset = states - t.firstState();
        states += t.endState() - t.firstState();
        int firstEdge = edges;
        for (int i = t.firstEdge(); i < t.endEdge(); i++) edge(from[i] + offset, to[i] + offset, lo[i], hi[i]);
        return new Fragment(t.start() + offset, t.end() + offset, t.firstState() + offset, states, firstEdge, edges);
    }
}
