package dev.domino.compiler.lexer;

import dev.domino.runtime.internal.parse.ParserGrammar;
import dev.domino.runtime.internal.parse.Permutation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * FIRST/FOLLOW at the terminal level. The tree builder uses them to skip subterminal
 * sequences no sentence can contain (e.g. two whitespace terminals in a row): a sound
 * over-approximation, since the runtime still checks the parser on every edge.
 */
final class FollowSets {
    private final BitSet[] follow;
    private final BitSet first;

    FollowSets(ParserGrammar g, boolean[] ignored) {
        // a permutation P counts as P -> ε | X T, T -> ε | sep X T, X -> member | ... | other: the
        // same first and follow terminals, whatever the members seen or counted (an over-approximation)
        List<Integer> lhsList = new ArrayList<>();
        List<int[]> rhsList = new ArrayList<>();
        for (int p = 0; p < g.productionCount(); p++) { lhsList.add(g.lhs(p)); rhsList.add(g.rhs(p)); }
        int n = g.nonterminalCount(), t = g.terminalCount();
        for (int q = 0; q < g.permutationCount(); q++) {
            Permutation perm = g.permutation(q);
            int x = n++, tail = n++;
            lhsList.add(perm.lhs()); rhsList.add(new int[0]);
            lhsList.add(perm.lhs()); rhsList.add(new int[] {x, tail});
            lhsList.add(tail); rhsList.add(new int[0]);
            lhsList.add(tail);
            rhsList.add(perm.separator() == Permutation.NO_SEPARATOR ? new int[] {x, tail} : new int[] {perm.separator(), x, tail});
            for (int m : perm.members()) { lhsList.add(x); rhsList.add(new int[] {m}); }
            if (perm.other() >= 0) { lhsList.add(x); rhsList.add(new int[] {perm.other()}); }
        }
        Productions prods = new Productions(lhsList, rhsList);
        boolean[] nullable = new boolean[n];
        for (int i = 0; i < n; i++) nullable[i] = false;
        // nullable: fixpoint (cheap booleans)
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < prods.count(); p++) {
                if (nullable[prods.lhs(p)]) continue;
                boolean all = true;
                for (int sym : prods.rhs(p)) if (sym < 0 || !nullable[sym]) { all = false; break; }
                if (all) { nullable[prods.lhs(p)] = true; changed = true; }
            }
        }
        // FIRST: direct terminals plus inclusion edges FIRST(A) ⊇ FIRST(B), propagated by worklist
        BitSet[] firstNt = new BitSet[n];
        for (int i = 0; i < n; i++) firstNt[i] = new BitSet();
        List<List<Integer>> firstEdges = new ArrayList<>(); // B -> A: A includes B
        for (int i = 0; i < n; i++) firstEdges.add(new ArrayList<>());
        for (int p = 0; p < prods.count(); p++) {
            int a = prods.lhs(p);
            for (int sym : prods.rhs(p)) {
                if (sym < 0) { firstNt[a].set(-1 - sym); break; }
                firstEdges.get(sym).add(a);
                if (!nullable[sym]) break;
            }
        }
        propagate(firstNt, firstEdges);
        // FOLLOW: direct sets from what comes next, inclusion FOLLOW(X) ⊇ FOLLOW(A) when the rest is nullable
        BitSet[] followNt = new BitSet[n];
        BitSet[] followT = new BitSet[t];
        for (int i = 0; i < n; i++) followNt[i] = new BitSet();
        for (int i = 0; i < t; i++) followT[i] = new BitSet();
        List<List<Integer>> followEdges = new ArrayList<>(); // A -> node(X); nodes: nonterminals then terminals
        for (int i = 0; i < n + t; i++) followEdges.add(new ArrayList<>());
        for (int p = 0; p < prods.count(); p++) {
            int[] rhs = prods.rhs(p);
            BitSet restFirst = new BitSet();
            boolean restNullable = true;
            for (int i = rhs.length - 1; i >= 0; i--) {
                int sym = rhs[i];
                BitSet target = sym < 0 ? followT[-1 - sym] : followNt[sym];
                target.or(restFirst);
                if (restNullable) followEdges.get(prods.lhs(p)).add(sym < 0 ? n + (-1 - sym) : sym);
                if (sym < 0) {
                    restFirst = new BitSet();
                    restFirst.set(-1 - sym);
                    restNullable = false;
                } else {
                    if (!nullable[sym]) { restFirst = new BitSet(); restNullable = false; }
                    restFirst.or(firstNt[sym]);
                }
            }
        }
        BitSet[] all = new BitSet[n + t];
        System.arraycopy(followNt, 0, all, 0, n);
        System.arraycopy(followT, 0, all, n, t);
        propagate(all, followEdges);
        BitSet ignoredSet = new BitSet();
        for (int i = 0; i < t; i++) if (ignored[i]) ignoredSet.set(i);
        for (int i = 0; i < t; i++) {
            if (ignored[i]) followT[i].set(0, t);
            else followT[i].or(ignoredSet);
        }
        first = (BitSet) firstNt[g.start()].clone();
        first.or(ignoredSet);
        // an ignored terminal may precede anything the terminal before it could be followed by
        if (!ignoredSet.isEmpty()) {
            for (int i = 0; i < t; i++) for (int j = 0; j < t; j++) if (!ignored[j]) followT[i].set(j);
            first.set(0, t);
        }
        follow = followT;
    }

    /** sets[to] ⊇ sets[from] for every edge from → to, to a fixpoint (worklist). */
    private static void propagate(BitSet[] sets, List<List<Integer>> edges) {
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        boolean[] queued = new boolean[sets.length];
        for (int i = 0; i < sets.length; i++) { work.add(i); queued[i] = true; }
        while (!work.isEmpty()) {
            int from = work.poll();
            queued[from] = false;
            for (int to : edges.get(from)) {
                int before = sets[to].cardinality();
                sets[to].or(sets[from]);
                if (sets[to].cardinality() != before && !queued[to]) { queued[to] = true; work.add(to); }
            }
        }
    }

    private record Productions(List<Integer> lhsList, List<int[]> rhsList) {
        int count() { return lhsList.size(); }
        int lhs(int p) { return lhsList.get(p); }
        int[] rhs(int p) { return rhsList.get(p); }
    }

    BitSet[] follow() { return follow; }
    BitSet first() { return first; }
}
