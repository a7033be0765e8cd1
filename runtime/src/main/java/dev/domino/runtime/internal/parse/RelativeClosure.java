package dev.domino.runtime.internal.parse;

import java.util.Arrays;

/**
 * The set a scan reaches from a set whose items expecting the terminal are all its own (origin the
 * set itself, see {@link PredictedItems}), when closing that kernel completed nothing: then every
 * item of the result either starts in the scanned set or is the result's own, so the result is the
 * same for every set holding the same own items, up to that set. Kept per ({@link PredictedItems},
 * terminal) and instantiated for each set scanned from, without closing, sorting or hashing the
 * items again.
 *
 * <p>This is the common first scan at a value position of a large schema: the opening brace after
 * which every open object alternative of a {@code oneOf} advances (a hundred and more items).
 * Its arrays are shared by every state made from it (states never write their arrays). Immutable.
 */
final class RelativeClosure {
    /** The result's head items (all starting in the scanned set), then {@link #own}'s. */
    private final int[] rules;
    private final long[][] seen;
    private final long[] expected;
    private final boolean accepting;
    private final PredictedItems own;
    /** The step work of the closure, checked against the parser's limit as the closure would be. */
    final long work;
    /** {@link EarleyState#estimatedBytes()} of every state made from it (it depends on the arrays' lengths and members seen only). */
    final long stateBytes;
    /**
     * Parts of the hash ({@link EarleyState#hashCode}): the folds of the rules and of the members seen, whole,
     * and of the origin serials as {@code serialsBase + h(serial) * serialsFactor}.
     */
    private final int rulesFold, seenFold, serialsBase, serialsFactor;

    private RelativeClosure(EarleyState next, long work) {
        this.rules = next.headRules;
        this.seen = next.headSeen;
        this.expected = next.expected;
        this.accepting = next.accepting;
        this.own = next.own;
        this.work = work;
        this.stateBytes = next.estimatedBytes();
        int hr = 1, hm = 1, power = 1, factor = 0;
        for (int i = 0; i < rules.length; i++) {
            hr = 31 * hr + rules[i];
            hm = 31 * hm + (seen == null ? 0 : Arrays.hashCode(seen[i]));
            factor = 31 * factor + 1;
            power *= 31;
        }
        this.rulesFold = hr * own.power + own.ruleFold;
        this.seenFold = hm * own.power + own.seenFold;
        this.serialsBase = power * own.power; // an own item's origin serial (-1) hashes to 0
        this.serialsFactor = factor * own.power;
    }

    /**
     * The relative closure of {@code next}, scanned from {@code from}, or null when it does not have
     * that shape (an item starting elsewhere, or no shared own items).
     */
    static RelativeClosure of(EarleyState next, EarleyState from, long work) {
        if (next.own == null) return null;
        for (int i = 0; i < next.ownStart; i++) if (next.headOrigins[i] != from) return null;
        return new RelativeClosure(next, work);
    }

    /** The state this closure reaches when scanned from {@code from}. */
    EarleyState at(EarleyState from) {
        int n = rules.length;
        EarleyState[] origins = new EarleyState[n];
        long[] serials = new long[n];
        Arrays.fill(origins, from);
        Arrays.fill(serials, from.serial);
        int hash = 31 * (31 * rulesFold + serialsBase + Long.hashCode(from.serial) * serialsFactor) + seenFold;
        return new EarleyState(rules, origins, serials, seen, expected, accepting, own, hash);
    }

    /** Estimated heap bytes kept beyond the states made from it (their arrays, once those states are gone). */
    long estimatedBytes() {
        return 64 + 16 + 4L * rules.length + 16 + 8L * expected.length + (seen == null ? 0 : 16 + 4L * seen.length) + 48;
    }
}
