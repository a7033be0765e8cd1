package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the closures of a parser's states share (see {@link EarleyParser}): the items a set
 * predicts itself, by the nonterminals predicted ({@link PredictedItems}), and each nonterminal's
 * own closure they are the union of. A set's own items
 * (origin the set itself) depend on nothing else, and at a value of a large schema they are over a
 * thousand, where the kernel and its completions are a dozen.
 *
 * <p>Its entries hold no states, so they serve every generation; the parser counts their bytes and
 * starts an empty memo past its shared-bytes budget. Thread-safe.
 */
final class ClosureMemo {
    private final ConcurrentHashMap<Nonterminals, PredictedItems> predicted = new ConcurrentHashMap<>();

    /** A set of nonterminals (bits), as a key. */
    static final class Nonterminals {
        private final long[] bits;
        private final int hash;

        Nonterminals(long[] bits) { this.bits = bits; this.hash = Arrays.hashCode(bits); }

        @Override public boolean equals(Object o) { return o instanceof Nonterminals n && hash == n.hash && Arrays.equals(bits, n.bits); }

        @Override public int hashCode() { return hash; }
    }

    /** Estimated heap bytes of the entries (see {@link EarleyParser#closureMemo}). */
    final java.util.concurrent.atomic.LongAdder bytes = new java.util.concurrent.atomic.LongAdder();

    /** Each nonterminal's own closure (see {@link #ownClosure}), computed on first use. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<int[]> ownClosures;

    ClosureMemo(int nonterminals) { ownClosures = new java.util.concurrent.atomic.AtomicReferenceArray<>(nonterminals); }

    /**
     * The rules of the items a set predicts from {@code nonterminal} alone, closed and sorted;
     * computed by {@code compute} on first use (a race only computes it twice).
     */
    int[] ownClosure(int nonterminal, java.util.function.IntFunction<int[]> compute) {
        int[] rules = ownClosures.get(nonterminal);
        if (rules == null) {
            rules = compute.apply(nonterminal);
            ownClosures.set(nonterminal, rules);
            bytes.add(16 + 4L * rules.length + 8);
        }
        return rules;
    }

    PredictedItems predicted(Nonterminals nonterminals) { return predicted.get(nonterminals); }

    /** The items kept for the nonterminals: {@code items}, unless another thread kept some first. */
    PredictedItems putIfAbsent(Nonterminals nonterminals, PredictedItems items) {
        PredictedItems raced = predicted.putIfAbsent(nonterminals, items);
        return raced == null ? items : raced;
    }
}
