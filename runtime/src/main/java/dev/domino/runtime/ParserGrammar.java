package dev.domino.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * The context-free level of a compiled grammar: productions over nonterminals and terminals.
 * Symbols in a right-hand side: {@code >= 0} is a nonterminal id, {@code < 0} is terminal
 * {@code -1 - symbol}. The compiler adds nothing implicit: the start nonterminal is the
 * grammar's start; the Earley parser adds its own augmented start item.
 *
 * <p>Precomputes the dotted-rule tables the Earley parser runs on.
 */
public final class ParserGrammar {
    private final String[] nonterminalNames;
    private final int terminalCount;
    private final int start;
    private final int[] lhs;
    private final int[][] rhs;

    // Derived tables. Dotted rule r = (production, dot); index base[p] + dot.
    final int[] ruleProduction;
    final int[] ruleNext;          // symbol after the dot, or NONE when complete
    final int[] ruleLhs;
    final int[][] predictions;     // nonterminal -> dotted rules with dot 0
    final boolean[] nullable;
    final int startRule;           // augmented S' -> start . (dot 0)
    final int acceptRule;          // augmented S' -> start   (dot 1)
    static final int NONE = Integer.MIN_VALUE;

    public ParserGrammar(String[] nonterminalNames, int terminalCount, int start, int[] lhs, int[][] rhs) {
        if (lhs.length != rhs.length) throw new IllegalArgumentException("lhs/rhs length mismatch");
        int n = nonterminalNames.length;
        if (start < 0 || start >= n) throw new IllegalArgumentException("bad start nonterminal");
        for (int p = 0; p < lhs.length; p++) {
            if (lhs[p] < 0 || lhs[p] >= n) throw new IllegalArgumentException("bad production lhs");
            for (int s : rhs[p]) {
                if (s >= n || (s < 0 && -1 - s >= terminalCount)) throw new IllegalArgumentException("bad symbol " + s);
            }
        }
        this.nonterminalNames = nonterminalNames;
        this.terminalCount = terminalCount;
        this.start = start;
        this.lhs = lhs;
        this.rhs = rhs;

        int ruleCount = 2;
        for (int[] r : rhs) ruleCount += r.length + 1;
        ruleProduction = new int[ruleCount];
        ruleNext = new int[ruleCount];
        ruleLhs = new int[ruleCount];
        List<List<Integer>> pred = new ArrayList<>();
        for (int i = 0; i < n; i++) pred.add(new ArrayList<>());
        int r = 0;
        for (int p = 0; p < lhs.length; p++) {
            pred.get(lhs[p]).add(r);
            for (int dot = 0; dot <= rhs[p].length; dot++, r++) {
                ruleProduction[r] = p;
                ruleLhs[r] = lhs[p];
                ruleNext[r] = dot < rhs[p].length ? rhs[p][dot] : NONE;
            }
        }
        startRule = r;
        ruleProduction[r] = -1; ruleLhs[r] = -1; ruleNext[r] = start;
        acceptRule = r + 1;
        ruleProduction[r + 1] = -1; ruleLhs[r + 1] = -1; ruleNext[r + 1] = NONE;
        predictions = new int[n][];
        for (int i = 0; i < n; i++) predictions[i] = pred.get(i).stream().mapToInt(Integer::intValue).toArray();
        nullable = computeNullable();
    }

    private boolean[] computeNullable() {
        boolean[] result = new boolean[nonterminalNames.length];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int p = 0; p < lhs.length; p++) {
                if (result[lhs[p]]) continue;
                boolean all = true;
                for (int s : rhs[p]) if (s < 0 || !result[s]) { all = false; break; }
                if (all) { result[lhs[p]] = true; changed = true; }
            }
        }
        return result;
    }

    public int nonterminalCount() { return nonterminalNames.length; }
    public String nonterminalName(int id) { return nonterminalNames[id]; }
    public int terminalCount() { return terminalCount; }
    public int start() { return start; }
    public int productionCount() { return lhs.length; }
    public int lhs(int production) { return lhs[production]; }
    public int[] rhs(int production) { return rhs[production]; }
    String[] nonterminalNamesArray() { return nonterminalNames; }
}
