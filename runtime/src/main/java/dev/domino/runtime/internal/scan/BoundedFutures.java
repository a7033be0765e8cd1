package dev.domino.runtime.internal.scan;

import java.util.Arrays;

/**
 * States of one automaton grouped by what they do on byte strings of bounded length: two states
 * are in one class when, for every string of at most {@code depth} bytes, both die or both live,
 * and both accept or neither does (Moore's partition refinement, stopped after {@code depth}
 * rounds or when a round splits nothing).
 *
 * <p>Why: a vocabulary walk from a state reads nothing but that, on the trie paths of at most the
 * longest token's length. The positions of a long unrolled string ({@code [a-z]{300}}, a
 * {@code maxLength} chain under a pattern) are all different states, each used once, but those
 * further than a token's length from the string's end cannot be told apart by any token: they
 * share one walk and one tree.
 */
public final class BoundedFutures {
    private BoundedFutures() {}

    /**
     * Per state, the smallest state of its class; null when refining might cost more than
     * {@code maxWork} range visits (known before any work: the caller then treats every state as its own class).
     */
    public static int[] representatives(ByteDfa dfa, int depth, long maxWork) {
        int n = dfa.stateCount();
        if ((long) (dfa.rangeCount() + n) * Math.min(depth, n) > maxWork) return null;
        int[] cls = new int[n];
        int classes = 0;
        boolean anyAccepting = false, anyRejecting = false;
        for (int s = 0; s < n; s++) {
            cls[s] = dfa.isAccepting(s) ? 1 : 0;
            if (dfa.isAccepting(s)) anyAccepting = true; else anyRejecting = true;
        }
        classes = (anyAccepting ? 1 : 0) + (anyRejecting ? 1 : 0);
        long work = 0;
        int[] sig = new int[64];
        int[] sigStart = new int[n + 1];
        for (int round = 0; round < depth && classes < n; round++) {
            work += dfa.rangeCount() + n;
            if (work > maxWork) return null;
            // signature: the state's class, then its ranges with the target's class, adjacent equal ones merged
            int len = 0;
            for (int s = 0; s < n; s++) {
                sigStart[s] = len;
                if (len + 1 + 3 * (dfa.endRange(s) - dfa.firstRange(s)) > sig.length) {
                    sig = Arrays.copyOf(sig, Math.max(2 * sig.length, len + 1 + 3 * (dfa.endRange(s) - dfa.firstRange(s))));
                }
                sig[len++] = cls[s];
                int last = -1;
                for (int r = dfa.firstRange(s), re = dfa.endRange(s); r < re; r++) {
                    int lo = dfa.rangeLo(r), hi = dfa.rangeHi(r), c = cls[dfa.rangeTarget(r)];
                    if (last >= 0 && sig[last + 1] + 1 == lo && sig[last + 2] == c) { sig[last + 1] = hi; continue; }
                    last = len;
                    sig[len++] = lo; sig[len++] = hi; sig[len++] = c;
                }
            }
            sigStart[n] = len;
            int[] next = new int[n];
            int count = renumber(sig, sigStart, n, next);
            cls = next;
            if (count == classes) break; // a round that splits nothing: stable for every depth
            classes = count;
        }
        int[] rep = new int[n];
        int[] first = new int[classes + 1];
        Arrays.fill(first, -1);
        int maxCls = 0;
        for (int s = 0; s < n; s++) maxCls = Math.max(maxCls, cls[s]);
        if (maxCls >= first.length) first = Arrays.copyOf(first, maxCls + 1);
        for (int s = 0; s < n; s++) {
            if (first[cls[s]] < 0) { first[cls[s]] = s; }
            rep[s] = first[cls[s]];
        }
        return rep;
    }

    /** Numbers equal signatures alike (open addressing over the states); returns the number of classes. */
    private static int renumber(int[] sig, int[] start, int n, int[] out) {
        int cap = Integer.highestOneBit(Math.max(4, 2 * n)) << 1;
        int[] slot = new int[cap];
        Arrays.fill(slot, -1);
        int count = 0;
        for (int s = 0; s < n; s++) {
            int h = 1;
            for (int i = start[s]; i < start[s + 1]; i++) h = 31 * h + sig[i];
            h ^= h >>> 16;
            int i = h & (cap - 1);
            while (true) {
                int t = slot[i];
                if (t < 0) { slot[i] = s; out[s] = count++; break; }
                if (Arrays.equals(sig, start[s], start[s + 1], sig, start[t], start[t + 1])) { out[s] = out[t]; break; }
                i = (i + 1) & (cap - 1);
            }
        }
        return count;
    }
}
