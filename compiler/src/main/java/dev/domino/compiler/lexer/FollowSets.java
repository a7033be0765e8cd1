package dev.domino.compiler.lexer;

import dev.domino.runtime.ParserGrammar;

import java.util.BitSet;

/**
 * FIRST/FOLLOW at the terminal level. The tree builder uses them to skip subterminal
 * sequences no sentence can contain (e.g. two whitespace terminals in a row): a sound
 * over-approximation, since the runtime still checks the parser on every edge.
 */
final class FollowSets {
    private final BitSet[] follow;
    private final BitSet first;

    FollowSets(ParserGrammar g, boolean[] ignored) {
        int n = g.nonterminalCount(), t = g.terminalCount();
        boolean[] nullable = new boolean[n];
        BitSet[] firstNt = new BitSet[n];
        BitSet[] followNt = new BitSet[n];
        BitSet[] followT = new BitSet[t];
        for (int i = 0; i < n; i++) { firstNt[i] = new BitSet(); followNt[i] = new BitSet(); }
        for (int i = 0; i < t; i++) followT[i] = new BitSet();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < g.productionCount(); p++) {
                int a = g.lhs(p);
                boolean allNullable = true;
                for (int s : g.rhs(p)) {
                    if (s < 0) {
                        if (!firstNt[a].get(-1 - s)) { firstNt[a].set(-1 - s); changed = true; }
                        allNullable = false;
                        break;
                    }
                    changed |= or(firstNt[a], firstNt[s]);
                    if (!nullable[s]) { allNullable = false; break; }
                }
                if (allNullable && !nullable[a]) { nullable[a] = true; changed = true; }
            }
        }
        changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < g.productionCount(); p++) {
                int[] rhs = g.rhs(p);
                for (int i = 0; i < rhs.length; i++) {
                    BitSet target = rhs[i] < 0 ? followT[-1 - rhs[i]] : followNt[rhs[i]];
                    boolean restNullable = true;
                    for (int j = i + 1; j < rhs.length && restNullable; j++) {
                        if (rhs[j] < 0) {
                            if (!target.get(-1 - rhs[j])) { target.set(-1 - rhs[j]); changed = true; }
                            restNullable = false;
                        } else {
                            changed |= or(target, firstNt[rhs[j]]);
                            restNullable = nullable[rhs[j]];
                        }
                    }
                    if (restNullable) changed |= or(target, followNt[g.lhs(p)]);
                }
            }
        }
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

    private static boolean or(BitSet target, BitSet source) {
        BitSet before = (BitSet) target.clone();
        target.or(source);
        return !before.equals(target);
    }

    BitSet[] follow() { return follow; }
    BitSet first() { return first; }
}
