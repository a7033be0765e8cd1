package dev.domino.compiler.lexer;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.scan.CountedLoop;

import java.util.function.Function;

/**
 * Groups of counted words with an optional separator, {@code (B{0,N} s?){m,M}} with B a body that
 * splits several ways (a counter of {@link AmbiguousCounts}) or one way (a letter: a plain counted
 * loop, where the least count is the count), as parser rules without ambiguity
 * (see docs/counted-repeats.md, "Groups of counted words").
 *
 * <p>Why: written as parser rules over the counted terminal C = B{0,N}, two groups that meet without
 * a separator are one C or two, split at any word boundary: the parser explores every split. Instead,
 * the words between two separators (a segment w) are read by one counted terminal chosen by the
 * groups they need: with ℓ(w) the least count of copies of B in w, w needs ⌈ℓ(w)/N⌉ groups (at least
 * one when a separator follows it). Exact: a split of w into k groups of at most N copies each has
 * ℓ(w) ≤ kN (least counts are subadditive), and conversely a least split of w cut into runs of N
 * copies is k groups when ℓ(w) ≤ kN (groups may be empty: B{0,N} holds ε). Cost class j (1 ≤ j ≤ M)
 * is the counted terminal of least count in ((j-1)N, jN] (the same loop as B{0,MN}, with min and
 * max set), and the rules spend a budget of M groups: R(r) → ε | C_j | s R(r-1) | C_j s R(r-j)
 * (the mirror for a separator before the words).
 * The classes are disjoint, so when no byte of a separator occurs in B and the separator is
 * prefix-free, each string has one parse.
 */
final class GroupedCounts {
    /** Most groups: the rules grow with M² (M budgets, M cost classes each), the counted states with M²·N. */
    static final int MAX_GROUPS = 64;

    /**
     * A grouped repeat: the counter of {@code B{0, groups × perGroup}} whose loop every cost class
     * shares, the copies per group N, the groups M, the separator s, and whether it comes before
     * the words ({@code (s? B{0,N}){m,M}}: the mirror rules, where the words before the first
     * separator need ⌈ℓ/N⌉ groups and each later {@code s w} at least one).
     */
    record Plan(AmbiguousCounts.Counter counter, int perGroup, int groups, Expr separator, Expr words, boolean separatorFirst) {
        /** The least count range of cost class j: ((j-1)N, jN]. */
        int lo(int j) { return (j - 1) * perGroup + 1; }
        int hi(int j) { return j * perGroup; }
    }

    private GroupedCounts() {}

    /**
     * The plan for repeat r, or null when r is not of the shape: {@code (X Y){m,M}} or {@code (Y X){m,M}} with 2 ≤ M ≤
     * {@link #MAX_GROUPS}, X a repeat {@code B{a,N}} that {@link AmbiguousCounts} counts and that
     * holds the empty string (or {@code B{0,N}} with B non-empty and prefix-free), Y {@code s?} with s non-empty and prefix-free, no byte of s in B's
     * strings (nor the reverse), and the counted states of all classes within the given room.
     */
    static Plan of(Expr.Repeat r, AmbiguousCounts counts, Function<Expr, DfaBuilder.Language> languageOf, long countedRoom) {
        int groups = r.max();
        if (groups == Expr.Repeat.UNBOUNDED || groups < 2 || groups > MAX_GROUPS) return null;
        // the parts may be named by regular rules (group ::= words ","?)
        if (!(counts.resolve(r.body()) instanceof Expr.Seq seq) || seq.items().size() != 2) return null;
        if (!(counts.resolve(seq.items().get(0)) instanceof Expr.Repeat first) || !(counts.resolve(seq.items().get(1)) instanceof Expr.Repeat second)) return null;
        // the separator after the words (w s?) or before them (s? w): the one that is an optional
        boolean separatorFirst = isOptional(first) && !isOptional(second);
        Expr.Repeat words = separatorFirst ? second : first, optional = separatorFirst ? first : second;
        if (!isOptional(optional)) return null;
        int perGroup = words.max();
        if (perGroup == Expr.Repeat.UNBOUNDED || perGroup < 1 || (long) perGroup * groups > Integer.MAX_VALUE / 2) return null;
        AmbiguousCounts.Counter inner = counts.of(words);
        AmbiguousCounts.Counter wide;
        if (inner != null) {
            if (!inner.optional()) return null;
            wide = counts.widened(words.body(), perGroup * groups);
        } else {
            wide = plain(words, perGroup * groups, languageOf);
        }
        if (wide == null) return null;
        Expr separator = optional.body();
        DfaBuilder.Language sep = languageOf.apply(separator);
        if (sep == null || sep.nullable() || sep.dfa() == null || !AmbiguousCounts.prefixFree(sep.dfa())) return null;
        if (!disjoint(bytes(sep.dfa()), bytes(wide.loop()))) return null;
        // class j has (jN + 1) × loop states: the sum over j must fit the grammar's room and each class CountedLoop's bound
        long n = wide.loop().stateCount(), total = 0;
        for (int j = 1; j <= groups; j++) {
            long states = ((long) j * perGroup + 1) * n;
            if (states > CountedLoop.MAX_STATES) return null;
            total += states;
        }
        if (total > countedRoom) return null;
        return new Plan(wide, perGroup, groups, separator, words.body(), separatorFirst);
    }

    private static boolean isOptional(Expr.Repeat r) { return r.min() == 0 && r.max() == 1; }

    /**
     * The counter of {@code B{0,max}} for a body that splits one way (non-empty, prefix-free: a
     * letter), whose copies the plain loop of {@code B+} counts (no boundaries, no weights); null
     * for other bodies.
     */
    private static AmbiguousCounts.Counter plain(Expr.Repeat words, int max, Function<Expr, DfaBuilder.Language> languageOf) {
        if (words.min() != 0) return null;
        DfaBuilder.Language body = languageOf.apply(words.body());
        if (body == null || body.nullable() || body.dfa() == null || !AmbiguousCounts.prefixFree(body.dfa())) return null;
        DfaBuilder.Language loop = languageOf.apply(new Expr.Repeat(words.body(), 1, Expr.Repeat.UNBOUNDED));
        if (loop == null || loop.dfa() == null) return null;
        return new AmbiguousCounts.Counter(loop.dfa(), null, null, max, true);
    }

    /** The bytes on some transition of a. */
    private static boolean[] bytes(ByteDfa a) {
        boolean[] seen = new boolean[256];
        for (int s = 0; s < a.stateCount(); s++) for (int b = 0; b < 256; b++) if (a.step(s, b) >= 0) seen[b] = true;
        return seen;
    }

    private static boolean disjoint(boolean[] a, boolean[] b) {
        for (int i = 0; i < 256; i++) if (a[i] && b[i]) return false;
        return true;
    }
}
