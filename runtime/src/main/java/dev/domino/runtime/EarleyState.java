package dev.domino.runtime;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One immutable Earley set: the parser's state after some sequence of terminals. Items point
 * to the sets they started in, so committing creates new sets that share all old ones:
 * rollback drops a reference, fork copies one.
 *
 * <p>Transitions (terminal → next set) are memoized on the set itself, so repeated mask walks
 * from the same state do no Earley work. Two sets are equal when they hold the same items with
 * the same origin sets; the matcher uses that to deduplicate configurations.
 */
public final class EarleyState {
    private static final AtomicLong SERIALS = new AtomicLong();

    final long serial = SERIALS.incrementAndGet();
    /** Dotted rules, sorted together with {@link #originSerials}. */
    final int[] rules;
    /** Origin set of each item; {@code null} means this set itself. */
    final EarleyState[] origins;
    final long[] originSerials;
    /** Terminals that can be scanned next (ignored terminals included). */
    final long[] expected;
    final boolean accepting;
    private final int hash;

    // memo: open addressing terminal -> state; guarded by this
    private int[] memoKeys;
    private EarleyState[] memoValues;
    private int memoSize;

    EarleyState(int[] rules, EarleyState[] origins, long[] expected, boolean accepting) {
        this.rules = rules;
        this.origins = origins;
        this.originSerials = new long[origins.length];
        for (int i = 0; i < origins.length; i++) originSerials[i] = origins[i] == null ? -1 : origins[i].serial;
        this.expected = expected;
        this.accepting = accepting;
        this.hash = 31 * Arrays.hashCode(rules) + Arrays.hashCode(originSerials);
    }

    public boolean expects(int terminal) {
        return (expected[terminal >>> 6] & (1L << terminal)) != 0;
    }

    /** The sentence so far is complete. */
    public boolean isAccepting() { return accepting; }

    public int itemCount() { return rules.length; }

    synchronized EarleyState memoGet(int terminal) {
        if (memoKeys == null) return null;
        int mask = memoKeys.length - 1;
        for (int i = (terminal * 0x9E3779B1) >>> 16 & mask; ; i = (i + 1) & mask) {
            int k = memoKeys[i];
            if (k == terminal + 1) return memoValues[i];
            if (k == 0) return null;
        }
    }

    synchronized void memoPut(int terminal, EarleyState value) {
        if (memoKeys == null) { memoKeys = new int[4]; memoValues = new EarleyState[4]; }
        if ((memoSize + 1) * 2 > memoKeys.length) {
            int[] oldKeys = memoKeys; EarleyState[] oldValues = memoValues;
            memoKeys = new int[oldKeys.length * 2]; memoValues = new EarleyState[oldKeys.length * 2]; memoSize = 0;
            for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != 0) memoPut(oldKeys[i] - 1, oldValues[i]);
        }
        int mask = memoKeys.length - 1;
        for (int i = (terminal * 0x9E3779B1) >>> 16 & mask; ; i = (i + 1) & mask) {
            if (memoKeys[i] == terminal + 1) { memoValues[i] = value; return; }
            if (memoKeys[i] == 0) { memoKeys[i] = terminal + 1; memoValues[i] = value; memoSize++; return; }
        }
    }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof EarleyState e && hash == e.hash && Arrays.equals(rules, e.rules)
                && Arrays.equals(originSerials, e.originSerials);
    }

    @Override public int hashCode() { return hash; }
}
