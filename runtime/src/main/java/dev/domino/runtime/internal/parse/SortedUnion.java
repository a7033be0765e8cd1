package dev.domino.runtime.internal.parse;

import java.util.Arrays;

/**
 * The union of two Earley sets at one position that share their own predicted items (the same
 * {@link PredictedItems}, or none): their heads merged in canonical order, the shared part kept by
 * reference. Both heads are in canonical order already (items with an origin by rule, origin serial,
 * members seen; then, in a set without shared own items, the set's own items), so one linear merge
 * makes the canonical head of the union.
 *
 * <p>Why: configurations that lexed the same bytes two ways are merged at every commit
 * ({@code Configurations.mergedByScanState}). Inside a {@code oneOf} whose branches are complemented,
 * sets hold 700 permutation items, and hashing both sets' items into a new item set, then sorting
 * them, was a seventh of the mask and commit time of such a schema.
 */
final class SortedUnion {
    private SortedUnion() {}

    /** Whether {@link #of} applies: both sets share the same own items (or neither has any). */
    static boolean applies(EarleyState a, EarleyState b) {
        return a.own == b.own && a.sharesPredictions == b.sharesPredictions;
    }

    /** The union of a and b, which {@link #applies} to. */
    static EarleyState of(EarleyState a, EarleyState b) {
        int na = a.ownStart, nb = b.ownStart;
        int[] rules = new int[na + nb];
        EarleyState[] origins = new EarleyState[na + nb];
        boolean anySeen = a.headSeen != null || b.headSeen != null;
        long[][] seen = anySeen ? new long[na + nb][] : null;
        int i = 0, j = 0, n = 0;
        while (i < na || j < nb) {
            int c = i == na ? 1 : j == nb ? -1 : compare(a, i, b, j);
            if (c <= 0) {
                rules[n] = a.headRules[i];
                origins[n] = a.headOrigins[i];
                if (anySeen) seen[n] = a.headSeen == null ? null : a.headSeen[i];
                i++;
                if (c == 0) j++; // the same item in both
            } else {
                rules[n] = b.headRules[j];
                origins[n] = b.headOrigins[j];
                if (anySeen) seen[n] = b.headSeen == null ? null : b.headSeen[j];
                j++;
            }
            n++;
        }
        long[] expected = a.expected.clone();
        for (int w = 0; w < expected.length; w++) expected[w] |= b.expected[w];
        if (n < rules.length) {
            rules = Arrays.copyOf(rules, n);
            origins = Arrays.copyOf(origins, n);
            if (anySeen) seen = Arrays.copyOf(seen, n);
        }
        return new EarleyState(rules, origins, seen, expected, a.accepting || b.accepting, a.sharesPredictions, a.own);
    }

    /** Canonical order of head item i of a against head item j of b: the set's own items last, then rule, origin serial, members seen. */
    private static int compare(EarleyState a, int i, EarleyState b, int j) {
        long sa = a.headSerials[i], sb = b.headSerials[j];
        boolean ownA = sa == -1, ownB = sb == -1;
        if (ownA != ownB) return ownA ? 1 : -1;
        int c = Integer.compare(a.headRules[i], b.headRules[j]);
        if (c != 0) return c;
        c = Long.compare(sa, sb);
        if (c != 0) return c;
        long[] xa = a.headSeen == null ? null : a.headSeen[i], xb = b.headSeen == null ? null : b.headSeen[j];
        if (xa == xb) return 0;
        if (xa == null || xb == null) return xa == null ? -1 : 1;
        return Arrays.compare(xa, xb);
    }
}
