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
     *
     * <p>Round by round as {@link #representativesByRounds}, but a round looks only at the states that
     * step to a state whose class changed in the round before (the others keep their signature, so
     * they stay together): a terminal's long whitespace runs and unrolled strings split one state or
     * two per round, and the rounds up to a token's length cost that much instead of the whole
     * automaton each. The classes after {@code depth} rounds are the same, so the representatives are.
     */
    public static int[] representatives(ByteDfa dfa, int depth, long maxWork) {
        int n = dfa.stateCount();
        if ((long) (dfa.rangeCount() + n) * Math.min(depth, n) > maxWork) return null;
        return new Refinement(dfa).run(depth);
    }

    /** Moore's partition refinement, incremental: classes as segments of one array, split in place. */
    private static final class Refinement {
        final ByteDfa dfa;
        final int n;
        final int[] cls, elems, pos, classStart, classEnd;
        int classes;
        /** Predecessors of each state (each once), as offsets into {@link #predList}. */
        final int[] predStart, predList;
        /** Round stamps: a state is a candidate of the current round when {@code candidateStamp[s] == round}. */
        final int[] candidateStamp;
        int[] sig = new int[64];

        Refinement(ByteDfa dfa) {
            this.dfa = dfa;
            n = dfa.stateCount();
            cls = new int[n];
            elems = new int[n];
            pos = new int[n];
            classStart = new int[n + 1];
            classEnd = new int[n + 1];
            candidateStamp = new int[n];
            Arrays.fill(candidateStamp, -1);
            int[] count = new int[n + 1];
            int[] seen = new int[n];
            Arrays.fill(seen, -1);
            for (int s = 0; s < n; s++) {
                for (int r = dfa.firstRange(s), re = dfa.endRange(s); r < re; r++) {
                    int t = dfa.rangeTarget(r);
                    if (seen[t] != s) { seen[t] = s; count[t + 1]++; }
                }
            }
            predStart = new int[n + 1];
            for (int s = 0; s < n; s++) predStart[s + 1] = predStart[s] + count[s + 1];
            predList = new int[predStart[n]];
            int[] fill = Arrays.copyOf(predStart, n);
            Arrays.fill(seen, -1);
            for (int s = 0; s < n; s++) {
                for (int r = dfa.firstRange(s), re = dfa.endRange(s); r < re; r++) {
                    int t = dfa.rangeTarget(r);
                    if (seen[t] != s) { seen[t] = s; predList[fill[t]++] = s; }
                }
            }
        }

        int[] run(int depth) {
            // round 0: accepting or not
            int k = 0;
            for (int s = 0; s < n; s++) if (!dfa.isAccepting(s)) elems[k++] = s;
            int rejecting = k;
            for (int s = 0; s < n; s++) if (dfa.isAccepting(s)) elems[k++] = s;
            if (rejecting > 0) { classStart[classes] = 0; classEnd[classes] = rejecting; classes++; }
            if (rejecting < n) { classStart[classes] = rejecting; classEnd[classes] = n; classes++; }
            for (int c = 0; c < classes; c++) {
                for (int i = classStart[c]; i < classEnd[c]; i++) { cls[elems[i]] = c; pos[elems[i]] = i; }
            }
            IntStack changed = new IntStack(n);
            for (int s = 0; s < n; s++) changed.push(s); // round 1 looks at every state
            IntStack candidates = new IntStack(n);
            int[] newClass = new int[n];
            for (int round = 0; round < depth && classes < n && changed.size > 0; round++) {
                candidates.size = 0;
                for (int i = 0; i < changed.size; i++) {
                    int t = changed.a[i];
                    for (int j = predStart[t]; j < predStart[t + 1]; j++) {
                        int p = predList[j];
                        if (candidateStamp[p] != round) { candidateStamp[p] = round; candidates.push(p); }
                    }
                }
                changed.size = 0;
                // candidates grouped by class, each class's candidates moved to the end of its segment
                int[] cand = Arrays.copyOf(candidates.a, candidates.size);
                sortByClass(cand);
                for (int from = 0; from < cand.length; ) {
                    int c = cls[cand[from]];
                    int to = from;
                    while (to < cand.length && cls[cand[to]] == c) to++;
                    split(c, cand, from, to, changed, newClass);
                    from = to;
                }
                // the new classes only now: every signature of a round reads the classes of the round before
                for (int i = 0; i < changed.size; i++) cls[changed.a[i]] = newClass[changed.a[i]];
            }
            int[] rep = new int[n];
            int[] first = new int[classes];
            Arrays.fill(first, -1);
            for (int s = 0; s < n; s++) {
                if (first[cls[s]] < 0) first[cls[s]] = s;
                rep[s] = first[cls[s]];
            }
            return rep;
        }

        private void sortByClass(int[] cand) {
            // counting sort would need the class count; candidates are few: sort packed (class, state) pairs
            long[] keys = new long[cand.length];
            for (int i = 0; i < cand.length; i++) keys[i] = ((long) cls[cand[i]] << 32) | cand[i];
            Arrays.sort(keys);
            for (int i = 0; i < cand.length; i++) cand[i] = (int) keys[i];
        }

        /** Splits class {@code c} by the signatures of its candidates {@code cand[from, to)}; the rest keep theirs. */
        private void split(int c, int[] cand, int from, int to, IntStack changed, int[] newClass) {
            int start = classStart[c], end = classEnd[c];
            int m = to - from;
            // move the candidates to the end of the segment
            int boundary = end;
            for (int i = from; i < to; i++) {
                int s = cand[i];
                boundary--;
                int other = elems[boundary];
                int ps = pos[s];
                elems[ps] = other; pos[other] = ps;
                elems[boundary] = s; pos[s] = boundary;
            }
            int rest = boundary - start; // states of the class that are not candidates: one signature, which they keep
            // signatures: the rest's (one of them) first, then each candidate's
            int items = m + (rest > 0 ? 1 : 0);
            int[] member = new int[items];
            int w = 0;
            if (rest > 0) member[w++] = elems[start];
            for (int i = boundary; i < end; i++) member[w++] = elems[i];
            int[] sigStart = new int[items + 1];
            int len = 0;
            for (int i = 0; i < items; i++) {
                sigStart[i] = len;
                len = signature(member[i], len);
            }
            sigStart[items] = len;
            int[] group = new int[items];
            int groups = renumber(sig, sigStart, items, group);
            if (groups == 1) return; // nothing splits (the candidates' class order is kept)
            // candidates in group order after the rest (group 0 with the rest's, or the first candidate's)
            int[] groupCount = new int[groups + 1];
            for (int i = rest > 0 ? 1 : 0; i < items; i++) groupCount[group[i] + 1]++;
            for (int g = 0; g < groups; g++) groupCount[g + 1] += groupCount[g];
            int[] placed = new int[m];
            int[] next = Arrays.copyOf(groupCount, groups);
            for (int i = rest > 0 ? 1 : 0; i < items; i++) placed[next[group[i]]++] = member[i];
            for (int i = 0; i < m; i++) { elems[boundary + i] = placed[i]; pos[placed[i]] = boundary + i; }
            // the largest group keeps the class (Hopcroft's rule): only the others' predecessors are looked at next round
            int keeper = 0, keeperSize = -1;
            for (int g = 0; g < groups; g++) {
                int size = groupCount[g + 1] - groupCount[g] + (g == 0 ? rest : 0);
                if (size > keeperSize) { keeper = g; keeperSize = size; }
            }
            for (int g = 0; g < groups; g++) {
                int from2 = g == 0 ? start : boundary + groupCount[g], to2 = boundary + groupCount[g + 1];
                if (from2 == to2) continue;
                if (g == keeper) { classStart[c] = from2; classEnd[c] = to2; continue; }
                int id = classes++;
                classStart[id] = from2;
                classEnd[id] = to2;
                for (int i = from2; i < to2; i++) { newClass[elems[i]] = id; changed.push(elems[i]); }
            }
        }

        /** Appends state {@code s}'s ranges with their target's class (adjacent equal ones merged) to {@link #sig} at {@code len}. */
        private int signature(int s, int len) {
            int need = len + 3 * (dfa.endRange(s) - dfa.firstRange(s));
            if (need > sig.length) sig = Arrays.copyOf(sig, Math.max(2 * sig.length, need));
            int last = -1;
            for (int r = dfa.firstRange(s), re = dfa.endRange(s); r < re; r++) {
                int lo = dfa.rangeLo(r), hi = dfa.rangeHi(r), c = cls[dfa.rangeTarget(r)];
                if (last >= 0 && sig[last + 1] + 1 == lo && sig[last + 2] == c) { sig[last + 1] = hi; continue; }
                last = len;
                sig[len++] = lo; sig[len++] = hi; sig[len++] = c;
            }
            return len;
        }
    }

    private static final class IntStack {
        int[] a;
        int size;
        IntStack(int capacity) { a = new int[Math.max(4, capacity)]; }
        void push(int x) {
            if (size == a.length) a = Arrays.copyOf(a, 2 * size);
            a[size++] = x;
        }
    }

    /**
     * {@link #representatives} by whole rounds: every state's signature in every round (the
     * reference the tests compare with).
     */
    static int[] representativesByRounds(ByteDfa dfa, int depth, long maxWork) {
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
