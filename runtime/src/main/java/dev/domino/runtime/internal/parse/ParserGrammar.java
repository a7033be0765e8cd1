package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The context-free level of a compiled grammar: productions over nonterminals and terminals.
 * Symbols in a right-hand side: {@code >= 0} is a nonterminal id, {@code < 0} is terminal
 * {@code -1 - symbol}. The compiler adds nothing implicit: the start nonterminal is the
 * grammar's start; the Earley parser adds its own augmented start item.
 *
 * <p>Precomputes the dotted-rule tables the Earley parser runs on. A {@link Permutation} gets four
 * dotted rules of its own, whose items carry the set of members seen ({@code long[]} bits):
 * {@link #PHASE_FIRST} (nothing read yet), {@link #PHASE_AFTER} (after a member: the separator
 * next, or the end once every required member was seen), {@link #PHASE_NEXT} (after a separator:
 * a member next) and {@link #PHASE_FULL} (every member seen and no other: only the end is left,
 * so the parser never offers a separator that nothing could follow).
 *
 * <p>A counted permutation ({@link Permutation#isCounted()}) stores the number of members read,
 * capped at {@link Permutation#countCap()}, in one more word after the member bits
 * ({@link #permCountWord}), so item sets hash, compare and sort the pair as one array.
 */
public final class ParserGrammar {
    private final String[] nonterminalNames;
    private final int terminalCount;
    private final int start;
    private final int[] lhs;
    private final int[][] rhs;

    // Derived tables. Dotted rule r = (production, dot); index base[p] + dot.
    public final int[] ruleProduction;
    public final int[] ruleNext;          // symbol after the dot, or NONE when complete
    public final int[] ruleLhs;
    public final int[][] predictions;     // nonterminal -> dotted rules with dot 0
    public final boolean[] nullable;
    public final int startRule;           // augmented S' -> start . (dot 0)
    public final int acceptRule;          // augmented S' -> start   (dot 1)
    public static final int NONE = Integer.MIN_VALUE;
    /** ruleNext of a permutation item that expects a member (which ones depends on the item's set). */
    public static final int MEMBERS = Integer.MIN_VALUE + 1;

    public static final int PHASE_FIRST = 0, PHASE_AFTER = 1, PHASE_NEXT = 2, PHASE_FULL = 3, PHASES = 4;
    private final Permutation[] permutations;
    public final int[] rulePerm;          // dotted rule -> permutation index, or -1
    public final int[] permFirstRule;     // permutation -> its PHASE_FIRST rule (the others follow in phase order)
    public final int[] memberPerm;        // nonterminal -> permutation it is a member or the other of, or -1
    public final int[] memberSlot;        // nonterminal -> member index, or -1 for the other
    public final long[][] permRequired;   // permutation -> required members (bits)
    public final long[][] permNoneSeen;   // permutation -> the empty set of its words (shared by all PHASE_FIRST items)
    public final int[] permCountWord;     // permutation -> index of the word holding the member count, or -1 (uncounted)

    public ParserGrammar(String[] nonterminalNames, int terminalCount, int start, int[] lhs, int[][] rhs) {
        this(nonterminalNames, terminalCount, start, lhs, rhs, new Permutation[0]);
    }

    public ParserGrammar(String[] nonterminalNames, int terminalCount, int start, int[] lhs, int[][] rhs,
                         Permutation[] permutations) {
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
        this.permutations = permutations.clone();
        memberPerm = new int[n];
        memberSlot = new int[n];
        java.util.Arrays.fill(memberPerm, -1);
        java.util.Arrays.fill(memberSlot, -1);
        checkPermutations();

        int ruleCount = 2 + PHASES * permutations.length;
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
        r += 2;
        rulePerm = new int[ruleCount];
        java.util.Arrays.fill(rulePerm, -1);
        permFirstRule = new int[permutations.length];
        permRequired = new long[permutations.length][];
        permNoneSeen = new long[permutations.length][];
        permCountWord = new int[permutations.length];
        for (int q = 0; q < permutations.length; q++, r += PHASES) {
            Permutation perm = permutations[q];
            permFirstRule[q] = r;
            pred.get(perm.lhs()).add(r);
            for (int phase = 0; phase < PHASES; phase++) {
                rulePerm[r + phase] = q;
                ruleProduction[r + phase] = -1;
                ruleLhs[r + phase] = perm.lhs();
            }
            ruleNext[r + PHASE_FIRST] = MEMBERS;
            ruleNext[r + PHASE_AFTER] = perm.hasSeparator() ? perm.separator() : MEMBERS;
            ruleNext[r + PHASE_NEXT] = MEMBERS;
            ruleNext[r + PHASE_FULL] = NONE;
            int words = (perm.memberCount() + 63) >>> 6;
            permCountWord[q] = perm.isCounted() ? words : -1;
            permNoneSeen[q] = new long[perm.isCounted() ? words + 1 : words];
            permRequired[q] = new long[words];
            for (int i = 0; i < perm.memberCount(); i++) if (perm.isRequired(i)) permRequired[q][i >>> 6] |= 1L << i;
        }
        predictions = new int[n][];
        for (int i = 0; i < n; i++) predictions[i] = pred.get(i).stream().mapToInt(Integer::intValue).toArray();
        nullable = computeNullable();
        for (Permutation perm : permutations) {
            for (int m : perm.members()) if (nullable[m]) throw new IllegalArgumentException("permutation member " + nonterminalNames[m] + " derives the empty string");
            if (perm.other() >= 0 && nullable[perm.other()]) throw new IllegalArgumentException("permutation other " + nonterminalNames[perm.other()] + " derives the empty string");
            if (perm.separator() >= 0 && nullable[perm.separator()]) throw new IllegalArgumentException("permutation separator " + nonterminalNames[perm.separator()] + " derives the empty string");
        }
    }

    /**
     * Member and other nonterminals are dedicated (in no right-hand side, not the start, in one
     * permutation only), and a permutation's nonterminal has no productions: completing a member
     * then names the member, and the parser needs no other bookkeeping.
     */
    private void checkPermutations() {
        int n = nonterminalNames.length;
        boolean[] inRhs = new boolean[n];
        boolean[] hasProductions = new boolean[n];
        for (int p = 0; p < lhs.length; p++) {
            hasProductions[lhs[p]] = true;
            for (int s : rhs[p]) if (s >= 0) inRhs[s] = true;
        }
        boolean[] isPerm = new boolean[n];
        for (int q = 0; q < permutations.length; q++) {
            Permutation perm = permutations[q];
            if (perm == null) throw new IllegalArgumentException("null permutation");
            int a = perm.lhs();
            if (a < 0 || a >= n || isPerm[a] || hasProductions[a]) throw new IllegalArgumentException("bad permutation nonterminal " + a);
            isPerm[a] = true;
            int sep = perm.separator();
            if (sep != Permutation.NO_SEPARATOR && (sep >= n || (sep < 0 && -1 - sep >= terminalCount))) {
                throw new IllegalArgumentException("bad permutation separator " + sep);
            }
            for (int i = -1; i < perm.memberCount(); i++) {
                int m = i < 0 ? perm.other() : perm.member(i);
                if (i < 0 && m == -1) continue;
                if (m < 0 || m >= n || m == start || inRhs[m] || memberPerm[m] >= 0) {
                    throw new IllegalArgumentException("permutation member " + m + " is not a dedicated nonterminal");
                }
                memberPerm[m] = q;
                memberSlot[m] = i;
            }
        }
        for (int q = 0; q < permutations.length; q++) {
            for (int i = -1; i < permutations[q].memberCount(); i++) {
                int m = i < 0 ? permutations[q].other() : permutations[q].member(i);
                if (m >= 0 && isPerm[m]) throw new IllegalArgumentException("permutation member " + m + " is itself a permutation");
            }
        }
    }

    private boolean[] computeNullable() {
        boolean[] result = new boolean[nonterminalNames.length];
        // a permutation derives the empty string exactly when no member is required and no
        // minimum count applies (members never do)
        for (Permutation perm : permutations) {
            boolean anyRequired = false;
            for (int i = 0; i < perm.memberCount(); i++) anyRequired |= perm.isRequired(i);
            result[perm.lhs()] = !anyRequired && perm.minCount() == 0;
        }
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
    public int permutationCount() { return permutations.length; }
    public Permutation permutation(int index) { return permutations[index]; }
    public String[] nonterminalNamesArray() { return nonterminalNames; }
}
