package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * A parser-level "members in any order" construct: nonterminal {@code lhs} derives
 * {@code m1 sep m2 sep ... mk} (k >= 0) where each {@code mi} derives from a distinct member
 * nonterminal or from {@code other} (any number of times), and every required member occurs.
 *
 * <p>{@code lhs} has no productions of its own. The Earley parser runs it with items that carry
 * the set of members seen so far (see {@link ParserGrammar}): after a separator it predicts only
 * the unseen members (and the other), and it completes only when every required member was
 * seen. One item per set of members seen, instead of one grammar rule per subset: a JSON object
 * with 300 declared properties in any order is one construct, not 2^300 rules.
 *
 * <p>Member and other nonterminals are dedicated: they occur in no right-hand side and in no
 * other permutation, so completing one tells the parser which member it was. None of the
 * members, the other and the separator derives the empty string.
 *
 * <p>{@code minCount}/{@code maxCount} bound k, the number of members (declared and other
 * together), as JSON Schema's {@code minProperties}/{@code maxProperties} do. Items of a counted
 * permutation also carry k, capped at {@link #countCap()} so the number of distinct items stays
 * bounded; the parser predicts a member only while the item it leads to can still complete.
 *
 * @param lhs       the nonterminal this permutation defines
 * @param members   member nonterminals
 * @param required  required[i]: member i must occur
 * @param other     the nonterminal of members that may occur any number of times, or -1
 * @param separator the symbol between two members (nonterminal >= 0, terminal {@code -1 - t}),
 *                  or {@link #NO_SEPARATOR}
 * @param minCount  the fewest members (>= 0)
 * @param maxCount  the most members (>= 0), or {@link #UNBOUNDED}
 */
public record Permutation(int lhs, int[] members, boolean[] required, int other, int separator, int minCount, int maxCount) {
    public static final int NO_SEPARATOR = Integer.MIN_VALUE;
    public static final int UNBOUNDED = -1;

    public Permutation {
        if (members.length != required.length) throw new IllegalArgumentException("members/required length mismatch");
        if (minCount < 0 || maxCount < UNBOUNDED) throw new IllegalArgumentException("bad permutation count bounds " + minCount + ".." + maxCount);
        members = members.clone();
        required = required.clone();
    }

    /** A permutation without count bounds. */
    public Permutation(int lhs, int[] members, boolean[] required, int other, int separator) {
        this(lhs, members, required, other, separator, 0, UNBOUNDED);
    }

    /** Whether items carry the number of members read (only when a bound constrains it). */
    public boolean isCounted() { return minCount > 0 || maxCount != UNBOUNDED; }

    /** The largest count an item stores: counts above it are all alike (at least minCount, no maximum). */
    public int countCap() { return maxCount == UNBOUNDED ? minCount : Math.max(minCount, maxCount); }

    @Override public int[] members() { return members.clone(); }
    @Override public boolean[] required() { return required.clone(); }

    public int memberCount() { return members.length; }
    public int member(int i) { return members[i]; }
    public boolean isRequired(int i) { return required[i]; }
    public boolean hasSeparator() { return separator != NO_SEPARATOR; }

    @Override public boolean equals(Object o) {
        return o instanceof Permutation p && lhs == p.lhs && other == p.other && separator == p.separator
                && minCount == p.minCount && maxCount == p.maxCount
                && Arrays.equals(members, p.members) && Arrays.equals(required, p.required);
    }

    @Override public int hashCode() {
        return ((((lhs * 31 + other) * 31 + separator) * 31 + minCount) * 31 + maxCount) * 31
                + Arrays.hashCode(members) * 7 + Arrays.hashCode(required);
    }

    @Override public String toString() {
        return "Permutation[lhs=" + lhs + ", members=" + Arrays.toString(members) + ", required=" + Arrays.toString(required)
                + ", other=" + other + ", separator=" + (hasSeparator() ? String.valueOf(separator) : "none")
                + ", count=" + minCount + ".." + (maxCount == UNBOUNDED ? "" : String.valueOf(maxCount)) + "]";
    }
}
