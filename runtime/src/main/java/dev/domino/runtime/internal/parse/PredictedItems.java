package dev.domino.runtime.internal.parse;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * The items an Earley set predicts itself from a set of nonterminals, closed (their own predictions,
 * nullable nonterminals advanced over, a permutation's first members), in canonical order: by rule,
 * then members seen. Their origin is the set that holds them, so they are the same in every set that
 * predicts the same nonterminals (see {@link ClosureMemo}), and such a set holds them last, after its
 * other items ({@link EarleyState#ownStart}).
 *
 * <p>Carries the indexes a scan and a completion need, built once here and shared by every set
 * holding these items: a scan from such a set, or a completion into it, looks at the items that
 * expect the terminal or wait for the nonterminal, not at the thousand items of a large set.
 * Immutable.
 */
final class PredictedItems {
    /** Dotted rules, sorted (with {@link #seen}). */
    final int[] rules;
    /** Members seen per item (null for an item outside a permutation); null when none is. */
    final long[][] seen;
    /** Terminals the items expect, ignored terminals included. */
    final long[] expected;
    /** Whether the accepting item is among them. */
    final boolean accepting;
    /** Items of the per-nonterminal closures united here (counted against the step limit of each set using them). */
    final long work;
    /**
     * Items waiting for a nonterminal or a permutation's members, as sorted {@code key << 32 | item};
     * built on first use (a cache: a race only builds it twice).
     */
    volatile long[] waiting;
    /** Items expecting a terminal, as sorted {@code terminal << 32 | item}; built on first use. */
    volatile long[] scanning;
    /** By terminal: the set a scan reaches from a set holding these items, when only they expect the terminal ({@link RelativeClosure}). */
    final java.util.concurrent.ConcurrentHashMap<Integer, RelativeClosure> scanned = new java.util.concurrent.ConcurrentHashMap<>(4);

    /**
     * Parts of the hash of a set holding these items ({@link EarleyState#hashCode}): 31 to the power of the
     * item count, and the polynomial folds of the rules and of the members seen, from 0.
     */
    final int power, ruleFold, seenFold;

    PredictedItems(int[] rules, long[][] seen, long[] expected, boolean accepting, long work) {
        this.rules = rules;
        this.seen = seen;
        this.expected = expected;
        this.accepting = accepting;
        this.work = work;
        int p = 1, hr = 0, hm = 0;
        for (int i = 0; i < rules.length; i++) {
            p *= 31;
            hr = 31 * hr + rules[i];
            hm = 31 * hm + (seen == null ? 0 : Arrays.hashCode(seen[i]));
        }
        this.power = p;
        this.ruleFold = hr;
        this.seenFold = hm;
    }

    long[] seenAt(int i) { return seen == null ? null : seen[i]; }

    /** Estimated heap bytes, with the key and map entry. */
    long estimatedBytes(int keyWords) {
        long bytes = 32 + 16 + 4L * rules.length + 16 + 8L * expected.length + 32 + 16 + 8L * keyWords + 48
                + 32 + 16L * rules.length; // the two indexes, when built
        if (seen != null) bytes += 16 + 4L * seen.length; // the sets of members are shared with the grammar
        return bytes;
    }

    /** Index in {@code index} (sorted {@code key << 32 | item}) of the first entry with {@code key}, or of the next key's. */
    static int first(long[] index, int key) {
        long target = (long) key << 32;
        int lo = 0, hi = index.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (index[mid] < target) lo = mid + 1; else hi = mid;
        }
        return lo;
    }
}
