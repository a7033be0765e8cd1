package dev.domino.runtime.internal;

import dev.domino.runtime.*;
import dev.domino.runtime.diagnostics.*;

/**
 * A terminal {@code body{min,max}} (min ≥ 1; a JSON string's characters under minLength and
 * maxLength) kept as the small automaton of {@code body+} plus a counter, instead of max copies
 * of the body's automaton.
 *
 * <p>The body must be prefix-free (a character, an escape), so the automaton of {@code body+}
 * starts a new copy exactly when it leaves its start state or an accepting state. A local
 * scanner state is {@code count * N + s}: {@code count} copies started, loop state s (N states).
 *
 * <p>Why it pays: a token of at most Λ bytes starts at most Λ copies, so from any state with at
 * least min copies done and at least Λ still allowed, the vocabulary sees exactly what it sees in
 * {@code body+}. All those states share the N trees of the plain loop ({@link #canonical}).
 * The other states (below min, or within Λ of max) share one tree per loop state annotated with
 * the copies each token starts (TokenTree.copies); a mask keeps the tokens that fit the state's
 * count. No walk over the whole vocabulary per count.
 */
public final class CountedLoop {
    /** Bound on local states: the artifact keeps two ints per scanner state. */
    public static final int MAX_STATES = 1 << 17;

    private final ByteDfa loop;
    private final int min;
    private final int max;
    private final int n;

    /** @param loop the automaton of {@code body+} (start state not accepting); 1 ≤ min ≤ max copies */
    public CountedLoop(ByteDfa loop, int min, int max) {
        if (min < 1 || max < min) throw new IllegalArgumentException("counted repeat needs 1 <= min <= max");
        if (loop.isAccepting(loop.start())) throw new IllegalArgumentException("counted repeat of a nullable body");
        if ((long) (max + 1) * loop.stateCount() > MAX_STATES) throw new IllegalArgumentException("counted repeat too large: " + max);
        this.loop = loop;
        this.min = min;
        this.max = max;
        this.n = loop.stateCount();
    }

    public int min() { return min; }
    public int max() { return max; }
    public int stateCount() { return (max + 1) * n; }

    /** True when leaving loop state s starts a new copy of the body. */
    public boolean startsCopy(int s) { return s == loop.start() || loop.isAccepting(s); }

    public int step(int local, int b) {
        int c = local / n, s = local - c * n;
        int s2 = loop.step(s, b);
        if (s2 < 0) return -1;
        if (startsCopy(s)) {
            if (c == max) return -1;
            c++;
        }
        return c * n + s2;
    }

    public boolean isAccepting(int local) { return loop.isAccepting(local % n) && local / n >= min; }

    /** The loop automaton's state within a local state. */
    public int loopState(int local) { return local % n; }

    /** Copies that may still start from this local state. */
    public int remaining(int local) { return max - local / n; }

    /** Copies still needed before the terminal may end. */
    public int needed(int local) { return Math.max(0, min - local / n); }

    /** True when the state's tree is the plain loop's (see the class comment). */
    public boolean sharesLoopTree(int local, int lambda) { return needed(local) == 0 && remaining(local) >= lambda; }

    /**
     * The local state whose tree this state uses: for states sharing the loop's trees, the
     * representative with min copies; for the others, the loop state itself (count 0, which no
     * configuration holds but the start): its tree is annotated with copies, and masks filter it
     * by this state's {@link #needed} and {@link #remaining}.
     */
    public int canonical(int local, int lambda) { return sharesLoopTree(local, lambda) ? min * n + local % n : local % n; }

    /** True when some state shares the loop's trees (their representatives are {@code min * N + s}). */
    public boolean hasLoopTrees(int lambda) { return max - min >= lambda; }

    /** True when a walk entering the terminal can run on the plain loop: no token can reach a bound. */
    public boolean plainEntry(int lambda) { return min <= 1 && max >= lambda; }
}
