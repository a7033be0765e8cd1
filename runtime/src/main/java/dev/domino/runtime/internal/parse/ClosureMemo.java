package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the closures of one generation's states (see {@link EarleyParser}) share: the items a set
 * predicts itself, by the nonterminals predicted ({@link PredictedItems}). A set's own items
 * (origin the set itself) depend on nothing else, and at a value of a large schema they are over a
 * thousand, where the kernel and its completions are a dozen.
 *
 * <p>Shared by the states of one generation, so it lives as long as they do: its entries are
 * counted in the generation's bytes (see {@link EarleyParser#sharedStateBytes()}). Thread-safe.
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

    PredictedItems predicted(Nonterminals nonterminals) { return predicted.get(nonterminals); }

    /** The items kept for the nonterminals: {@code items}, unless another thread kept some first. */
    PredictedItems putIfAbsent(Nonterminals nonterminals, PredictedItems items) {
        PredictedItems raced = predicted.putIfAbsent(nonterminals, items);
        return raced == null ? items : raced;
    }
}
