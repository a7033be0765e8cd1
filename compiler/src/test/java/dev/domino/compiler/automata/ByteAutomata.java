package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import dk.brics.automaton.Automaton;
import dk.brics.automaton.BasicAutomata;
import dk.brics.automaton.BasicOperations;
import dk.brics.automaton.State;
import dk.brics.automaton.Transition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reference construction for the tests: regular IR expressions to byte-level automata with
 * dk.brics.automaton (the production path is {@link DfaBuilder}, which must agree with it).
 * Regular IR expressions to byte-level automata. dk.brics.automaton works on UTF-16 chars; we
 * use only chars 0x00..0xFF, each standing for one byte, and expand code points to their UTF-8
 * byte sequences while building. Determinization and minimization therefore happen over bytes,
 * and a token that ends inside a multi-byte character is handled like any other prefix.
 */
public final class ByteAutomata {
    private final Function<String, Expr> rules;
    private final Map<String, Automaton> ruleCache = new HashMap<>();
    private final List<String> inProgress = new ArrayList<>();
    /** By identity: generated grammars share subexpressions (a DAG); rebuilding them would be exponential. */
    private final IdentityHashMap<Expr, Automaton> exprCache = new IdentityHashMap<>();

    /** @param rules resolves a Ref's rule name to its (regular) body */
    public ByteAutomata(Function<String, Expr> rules) { this.rules = rules; }

    /** A minimized automaton for a regular expression (refs inlined). */
    public Automaton build(Expr e) {
        Automaton a = toAutomaton(e);
        a.minimize();
        return a;
    }

    private Automaton toAutomaton(Expr e) {
        if (e instanceof Expr.Seq || e instanceof Expr.Alt || e instanceof Expr.Repeat) {
            Automaton cached = exprCache.get(e);
            if (cached == null) {
                cached = toAutomatonUncached(e);
                exprCache.put(e, cached);
            }
            return cached.clone();
        }
        return toAutomatonUncached(e);
    }

    private Automaton toAutomatonUncached(Expr e) {
        if (e instanceof Expr.Literal lit) {
            return BasicAutomata.makeString(bytesAsChars(lit.text().getBytes(StandardCharsets.UTF_8)));
        } else if (e instanceof Expr.Chars chars) {
            return ofSet(chars.set());
        } else if (e instanceof Expr.Automaton leaf) {
            // brics states per code point state, each range's UTF-8 sequences through fresh states
            var d = leaf.dfa();
            dk.brics.automaton.State[] st = new dk.brics.automaton.State[d.stateCount()];
            for (int q = 0; q < st.length; q++) { st[q] = new dk.brics.automaton.State(); st[q].setAccept(d.isAccepting(q)); }
            for (int q = 0; q < st.length; q++) {
                for (int r = d.firstRange(q); r < d.endRange(q); r++) {
                    for (int[][] seq : Utf8Sequences.of(d.lo(r), d.hi(r))) {
                        dk.brics.automaton.State cur = st[q];
                        for (int k = 0; k < seq.length; k++) {
                            dk.brics.automaton.State next = k == seq.length - 1 ? st[d.target(r)] : new dk.brics.automaton.State();
                            cur.addTransition(new dk.brics.automaton.Transition((char) seq[k][0], (char) seq[k][1], next));
                            cur = next;
                        }
                    }
                }
            }
            Automaton a = new Automaton();
            a.setInitialState(st[d.start()]);
            a.setDeterministic(false);
            return a;
        } else if (e instanceof Expr.Seq seq) {
            if (seq.items().isEmpty()) return BasicAutomata.makeEmptyString();
            List<Automaton> parts = new ArrayList<>();
            for (Expr item : seq.items()) parts.add(toAutomaton(item));
            return BasicOperations.concatenate(parts);
        } else if (e instanceof Expr.Alt alt) {
            if (alt.options().isEmpty()) return BasicAutomata.makeEmpty();
            List<Automaton> parts = new ArrayList<>();
            for (Expr option : alt.options()) parts.add(toAutomaton(option));
            // no intermediate minimization: one determinization + minimization per terminal is
            // far cheaper than one per subexpression
            return BasicOperations.union(parts);
        } else if (e instanceof Expr.Repeat rep) {
            Automaton body = toAutomaton(rep.body());
            return rep.max() == Expr.Repeat.UNBOUNDED ? body.repeat(rep.min()) : body.repeat(rep.min(), rep.max());
        } else if (e instanceof Expr.Ref ref) {
            Automaton cached = ruleCache.get(ref.name());
            if (cached == null) {
                if (inProgress.contains(ref.name())) {
                    throw new IllegalStateException("recursive rule '" + ref.name() + "' inside a terminal");
                }
                inProgress.add(ref.name());
                cached = toAutomaton(rules.apply(ref.name()));
                cached.minimize();
                inProgress.remove(ref.name());
                ruleCache.put(ref.name(), cached);
            }
            return cached.clone();
        }
        throw new IllegalArgumentException("unknown expression " + e);
    }

    /** Union of the UTF-8 encodings of every code point in the set. */
    public static Automaton ofSet(CodePointSet set) {
        List<Automaton> parts = new ArrayList<>();
        for (int i = 0; i < set.rangeCount(); i++) {
            for (int[][] seq : Utf8Sequences.of(set.lo(i), set.hi(i))) {
                List<Automaton> bytes = new ArrayList<>();
                for (int[] range : seq) bytes.add(BasicAutomata.makeCharRange((char) range[0], (char) range[1]));
                parts.add(BasicOperations.concatenate(bytes));
            }
        }
        if (parts.isEmpty()) return BasicAutomata.makeEmpty();
        Automaton u = BasicOperations.union(parts);
        u.minimize();
        return u;
    }

    public static String bytesAsChars(byte[] bytes) {
        char[] c = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) c[i] = (char) (bytes[i] & 0xFF);
        return new String(c);
    }

    /** Removes the empty string from the language (terminals must not be nullable). */
    public static Automaton withoutEmptyString(Automaton a) {
        Automaton r = a.minus(BasicAutomata.makeEmptyString());
        r.minimize();
        return r;
    }

    /**
     * The dense byte table of a (minimized) automaton, with states that cannot reach an
     * accepting state removed. Returns null when the language is empty.
     */
    public static ByteDfa toByteDfa(Automaton a) {
        if (!a.isDeterministic()) a.determinize();
        List<State> order = new ArrayList<>();
        Map<State, Integer> ids = new IdentityHashMap<>();
        // BFS from the initial state, transitions in char order: deterministic numbering
        order.add(a.getInitialState());
        ids.put(a.getInitialState(), 0);
        for (int i = 0; i < order.size(); i++) {
            for (Transition t : order.get(i).getSortedTransitions(false)) {
                if (!ids.containsKey(t.getDest())) { ids.put(t.getDest(), order.size()); order.add(t.getDest()); }
            }
        }
        int n = order.size();
        // live = can reach an accepting state
        boolean[] live = new boolean[n];
        for (int i = 0; i < n; i++) live[i] = order.get(i).isAccept();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < n; i++) {
                if (live[i]) continue;
                for (Transition t : order.get(i).getTransitions()) {
                    if (live[ids.get(t.getDest())]) { live[i] = true; changed = true; break; }
                }
            }
        }
        if (!live[0]) return null;
        int[] newId = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) newId[i] = live[i] ? m++ : -1;
        boolean[] accepting = new boolean[m];
        int[] table = new int[m * 256];
        java.util.Arrays.fill(table, -1);
        for (int i = 0; i < n; i++) {
            if (!live[i]) continue;
            State s = order.get(i);
            accepting[newId[i]] = s.isAccept();
            for (Transition t : s.getTransitions()) {
                int dest = newId[ids.get(t.getDest())];
                if (dest < 0) continue;
                if (t.getMax() > 0xFF) throw new IllegalStateException("non-byte transition");
                for (int c = t.getMin(); c <= t.getMax(); c++) table[(newId[i] << 8) | c] = dest;
            }
        }
        return new ByteDfa(m, 0, accepting, table);
    }
}
