package dev.domino.compiler.automata;

import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The minimal automaton of a concatenation {@code A·M} built from the minimal automata of A and M,
 * without a subset construction or a minimization of the whole: when no accepting state of A shares
 * a byte with M's start, and A has no cycle.
 *
 * <p>Why this is exact. Joined end to start (an accepting state of A also takes M's start's ranges),
 * each state of the join is an A state or an M state. M's states stay pairwise distinct (M is
 * minimal). A's states stay pairwise distinct too: if {@code L1·M = L2·M} for the languages of two A
 * states, take u the shortest word in one but not the other and v the shortest word of M; {@code uv}
 * splits in the other language as {@code u'v'}, and {@code u'} longer than u would make v' shorter
 * than v, while {@code u'} a proper prefix of u would be a shorter word in one language only (an
 * accepting state of A followed by a byte M starts with exists in neither). So the only merges are
 * of an A state into an equivalent M state. A's states are visited targets first (A has no cycle):
 * a state whose resolved transitions all lead to M states may equal an M state, which is then one
 * with the same acceptance and the same ranges to the same states (M is minimal: equal states are
 * the same state), found among the M states with a range to its first range's target; a state with
 * a transition to a state of A that stayed apart equals no M state.
 *
 * <p>Generated grammars are made of such sequences: {@code [ \t\n\r]{0,100} "\"key\"" [ \t\n\r]{0,100}
 * ":" [ \t\n\r]{0,100}}, one per property, whose 300 whitespace states a minimization of the whole
 * sorted out again for every key. Built right to left, the common suffix ({@code ws ":" ws}) is made
 * once ({@link DfaBuilder}) and each key costs its own literal and counter.
 *
 * <p>States of the result are numbered breadth-first from the start, bytes ascending, as
 * {@link Minimizer} numbers them, and ranges are merged as {@link ByteDfa#ofRanges} merges them: the
 * result is the automaton the minimization of the whole gives.
 */
final class MinimalConcatenation {
    private MinimalConcatenation() {}

    /**
     * A minimal automaton as sorted, merged byte ranges, numbered breadth-first (as {@link ByteDfa}
     * keeps them, without the dense table a {@link ByteDfa} of up to 256 states makes: the parts and
     * suffixes of a sequence are never stepped).
     */
    record Ranged(int count, int start, boolean[] accepting, int[] rangeStart, int[] lo, int[] hi, int[] target) {
        static Ranged of(ByteDfa d) {
            int n = d.stateCount(), r = d.rangeCount();
            boolean[] accepting = new boolean[n];
            int[] rangeStart = new int[n + 1], lo = new int[r], hi = new int[r], target = new int[r];
            for (int s = 0; s < n; s++) {
                accepting[s] = d.isAccepting(s);
                rangeStart[s] = d.firstRange(s);
                rangeStart[s + 1] = d.endRange(s);
            }
            for (int i = 0; i < r; i++) { lo[i] = d.rangeLo(i); hi[i] = d.rangeHi(i); target[i] = d.rangeTarget(i); }
            return new Ranged(n, d.start(), accepting, rangeStart, lo, hi, target);
        }

        ByteDfa toByteDfa() {
            int r = lo.length;
            byte[] bLo = new byte[r], bHi = new byte[r];
            for (int i = 0; i < r; i++) { bLo[i] = (byte) lo[i]; bHi[i] = (byte) hi[i]; }
            return ByteDfa.ofRanges(count, start, accepting, rangeStart, bLo, bHi, target);
        }

        /** The same automaton as a {@link DfaBuilder.Sparse} (for the joins of {@link DfaBuilder}). */
        DfaBuilder.Sparse toSparse() {
            DfaBuilder.Sparse d = new DfaBuilder.Sparse();
            for (int s = 0; s < count; s++) {
                for (int i = rangeStart[s]; i < rangeStart[s + 1]; i++) d.addRange(lo[i], hi[i], target[i]);
                d.endState(accepting[s]);
            }
            return d;
        }

        boolean isAccepting(int s) { return accepting[s]; }
        int firstRange(int s) { return rangeStart[s]; }
        int endRange(int s) { return rangeStart[s + 1]; }
        int rangeLo(int i) { return lo[i]; }
        int rangeHi(int i) { return hi[i]; }
        int rangeTarget(int i) { return target[i]; }
        int rangeCount() { return lo.length; }
        int stateCount() { return count; }

        long estimatedBytes() { return 64 + count + 4L * rangeStart.length + 12L * lo.length; }
    }

    /**
     * The minimal automaton of {@code L(a)·L(m)}, or null when an accepting state of {@code a}
     * shares a byte with {@code m}'s start or {@code a} has a cycle. Both minimal and trim, as
     * {@link Minimizer} makes them (the empty string included when a start accepts).
     */
    static Ranged prepend(Ranged a, Ranged m) { return prepend(a, m, true); }

    /**
     * As {@link #prepend(Ranged, Ranged)}; with {@code numbered} false, the result may keep M's states
     * first and A's after them instead of the breadth-first numbering (only the last prepend of a
     * sequence needs it). It is then still minimal and trim: every state is reachable when A's start
     * stays apart (merged A states lead only to M states, so every kept A state lies on a path of
     * kept states from the start, and M's start follows A's accepting states); otherwise it is
     * renumbered, which drops the M states no longer reachable.
     */
    static Ranged prepend(Ranged a, Ranged m, boolean numbered) {
        int nA = a.count(), nM = m.count(), m0 = m.start();
        int m0From = m.firstRange(m0), m0To = m.endRange(m0);
        for (int s = 0; s < nA; s++) {
            if (!a.isAccepting(s)) continue;
            for (int i = a.firstRange(s), j = m0From; i < a.endRange(s) && j < m0To; ) {
                if (a.rangeHi(i) < m.rangeLo(j)) i++;
                else if (m.rangeHi(j) < a.rangeLo(i)) j++;
                else return null;
            }
        }
        int[] order = targetsFirst(a);
        int[] cls = new int[nA];
        boolean resolved = order == null;
        if (resolved) {
            // a cycle in A: which A states equal M states, by the greatest bisimulation between them
            int[] merged = mergesWithCycles(a, m);
            if (merged == null) return null;
            order = new int[nA];
            int keptSoFar = 0;
            for (int s = 0; s < nA; s++) {
                order[s] = s;
                cls[s] = merged[s] >= 0 ? merged[s] : nM + keptSoFar++;
            }
        }

        EqualStates equalStates = resolved ? null : new EqualStates(m);

        // A states kept apart: classes nM.. with their resolved ranges
        int kept = 0;
        boolean[] keptAccepting = new boolean[nA];
        int[] keptStart = new int[nA + 1];
        int cap = 16;
        int[] lo = new int[cap], hi = new int[cap], target = new int[cap];
        int ranges = 0;
        for (int s : order) {
            if (resolved && cls[s] < nM) continue;
            boolean accepting = a.isAccepting(s) && m.isAccepting(m0);
            // the joined state's ranges: A's (targets resolved) merged with M's start when s accepts
            int first = ranges;
            int i = a.firstRange(s), iEnd = a.endRange(s);
            int j = a.isAccepting(s) ? m0From : m0To;
            boolean intoM = true;
            while (i < iEnd || j < m0To) {
                int l, h, t;
                if (j == m0To || i < iEnd && a.rangeLo(i) < m.rangeLo(j)) { l = a.rangeLo(i); h = a.rangeHi(i); t = cls[a.rangeTarget(i)]; i++; }
                else { l = m.rangeLo(j); h = m.rangeHi(j); t = m.rangeTarget(j); j++; }
                if (t >= nM) intoM = false;
                if (ranges > first && target[ranges - 1] == t && hi[ranges - 1] + 1 == l) { hi[ranges - 1] = h; continue; }
                if (ranges == lo.length) {
                    cap = 2 * lo.length;
                    lo = Arrays.copyOf(lo, cap); hi = Arrays.copyOf(hi, cap); target = Arrays.copyOf(target, cap);
                }
                lo[ranges] = l; hi[ranges] = h; target[ranges] = t; ranges++;
            }
            int same;
            if (resolved || !intoM) same = -1;
            // an accepting A state without transitions of its own steps as M's start: it is M's start
            else if (a.isAccepting(s) && a.firstRange(s) == a.endRange(s)) same = m0;
            else same = equalStates.find(accepting, lo, hi, target, first, ranges);
            if (same >= 0) {
                cls[s] = same;
                ranges = first;
                continue;
            }
            cls[s] = nM + kept;
            keptAccepting[kept] = accepting;
            keptStart[kept] = first;
            kept++;
            keptStart[kept] = ranges;
        }
        if (!numbered && cls[a.start()] >= nM) return unnumbered(m, cls[a.start()], nM, kept, keptAccepting, keptStart, lo, hi, target);
        return canonical(m, cls[a.start()], nM, kept, keptAccepting, keptStart, lo, hi, target);
    }

    /** M's states 0..nM-1 as they are, then the kept A states, whose targets are already in that numbering. */
    private static Ranged unnumbered(Ranged m, int start, int nM, int kept, boolean[] keptAccepting, int[] keptStart,
                                     int[] lo, int[] hi, int[] target) {
        int total = nM + kept, mRanges = m.rangeCount(), ranges = mRanges + keptStart[kept];
        boolean[] accepting = Arrays.copyOf(m.accepting(), total);
        System.arraycopy(keptAccepting, 0, accepting, nM, kept);
        int[] rangeStart = Arrays.copyOf(m.rangeStart(), total + 1);
        for (int k = 0; k <= kept; k++) rangeStart[nM + k] = mRanges + keptStart[k];
        int[] rLo = Arrays.copyOf(m.lo(), ranges), rHi = Arrays.copyOf(m.hi(), ranges), rTarget = Arrays.copyOf(m.target(), ranges);
        System.arraycopy(lo, 0, rLo, mRanges, keptStart[kept]);
        System.arraycopy(hi, 0, rHi, mRanges, keptStart[kept]);
        System.arraycopy(target, 0, rTarget, mRanges, keptStart[kept]);
        return new Ranged(total, start, accepting, rangeStart, rLo, rHi, rTarget);
    }

    /** Candidate pairs per A state beyond which {@link #mergesWithCycles} gives up (the general path decides). */
    private static final int MAX_CANDIDATES_PER_STATE = 16;

    /**
     * For an A with cycles: per A state, the M state it equals, or -1; null past the work bound.
     * Candidates are the M states with the same acceptance and the same bytes defined; a pair is
     * dropped while some byte leads to a different M state, or to an A state not paired with M's
     * target; what remains is the greatest bisimulation between A's and M's states, which for
     * deterministic automata is equality of languages. M is minimal, so at most one M state remains
     * per A state.
     */
    private static int[] mergesWithCycles(Ranged a, Ranged m) {
        int nA = a.count(), nM = m.count(), m0 = m.start();
        // the joined A states' ranges, A targets as -1 - state
        int[] jStart = new int[nA + 1];
        int cap = a.rangeCount() + nA * (m.endRange(m0) - m.firstRange(m0)) + 1;
        int[] jLo = new int[cap], jHi = new int[cap], jT = new int[cap];
        int r = 0;
        for (int s = 0; s < nA; s++) {
            jStart[s] = r;
            int i = a.firstRange(s), iEnd = a.endRange(s);
            int j = a.isAccepting(s) ? m.firstRange(m0) : m.endRange(m0), jEnd = m.endRange(m0);
            while (i < iEnd || j < jEnd) {
                if (j == jEnd || i < iEnd && a.rangeLo(i) < m.rangeLo(j)) { jLo[r] = a.rangeLo(i); jHi[r] = a.rangeHi(i); jT[r] = -1 - a.rangeTarget(i); i++; }
                else { jLo[r] = m.rangeLo(j); jHi[r] = m.rangeHi(j); jT[r] = m.rangeTarget(j); j++; }
                r++;
            }
        }
        jStart[nA] = r;
        // M states by acceptance and defined bytes
        java.util.Map<Long, List<Integer>> byDomain = new java.util.HashMap<>();
        for (int s = 0; s < nM; s++) {
            byDomain.computeIfAbsent(domainKey(m.isAccepting(s), m.lo, m.hi, m.firstRange(s), m.endRange(s)), k -> new ArrayList<>()).add(s);
        }
        int[][] candidates = new int[nA][];
        for (int s = 0; s < nA; s++) {
            boolean accepting = a.isAccepting(s) && m.isAccepting(m0);
            List<Integer> c = byDomain.get(domainKey(accepting, jLo, jHi, jStart[s], jStart[s + 1]));
            if (c == null) { candidates[s] = new int[0]; continue; }
            if (c.size() > MAX_CANDIDATES_PER_STATE) return null;
            candidates[s] = new int[c.size()];
            for (int k = 0; k < c.size(); k++) candidates[s][k] = c.get(k);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int s = 0; s < nA; s++) {
                int[] c = candidates[s];
                for (int k = 0; k < c.length; k++) {
                    if (c[k] < 0 || sameSteps(s, c[k], jLo, jHi, jT, jStart, m, candidates)) continue;
                    c[k] = -1;
                    changed = true;
                }
            }
        }
        int[] merged = new int[nA];
        for (int s = 0; s < nA; s++) {
            merged[s] = -1;
            for (int x : candidates[s]) {
                if (x < 0) continue;
                if (merged[s] >= 0) return null; // two equal M states: M was not minimal
                merged[s] = x;
            }
        }
        return merged;
    }

    /** A hash of acceptance and the bytes defined (targets left out), equal for equal states. */
    private static long domainKey(boolean accepting, int[] lo, int[] hi, int from, int to) {
        long h = accepting ? 1 : 2;
        int runLo = -1, runHi = -2;
        for (int i = from; i < to; i++) {
            if (lo[i] == runHi + 1) { runHi = hi[i]; continue; }
            if (runLo >= 0) h = h * 1_000_003L + runLo * 257L + runHi;
            runLo = lo[i]; runHi = hi[i];
        }
        if (runLo >= 0) h = h * 1_000_003L + runLo * 257L + runHi;
        return h;
    }

    /** Whether A state s and M state x go, byte for byte, to the same M state or to a still paired A state. */
    private static boolean sameSteps(int s, int x, int[] jLo, int[] jHi, int[] jT, int[] jStart, Ranged m, int[][] candidates) {
        int i = jStart[s], iEnd = jStart[s + 1], j = m.firstRange(x), jEnd = m.endRange(x);
        int pa = i < iEnd ? jLo[i] : -1, pm = j < jEnd ? m.rangeLo(j) : -1;
        while (i < iEnd && j < jEnd) {
            if (pa != pm) return false;
            int end = Math.min(jHi[i], m.rangeHi(j));
            int ta = jT[i], tm = m.rangeTarget(j);
            if (ta >= 0 ? ta != tm : !paired(-1 - ta, tm, candidates)) return false;
            if (jHi[i] == end) { i++; pa = i < iEnd ? jLo[i] : -1; } else pa = end + 1;
            if (m.rangeHi(j) == end) { j++; pm = j < jEnd ? m.rangeLo(j) : -1; } else pm = end + 1;
        }
        return i == iEnd && j == jEnd;
    }

    private static boolean paired(int s, int x, int[][] candidates) {
        for (int c : candidates[s]) if (c == x) return true;
        return false;
    }

    /**
     * M's states by acceptance and (merged) ranges, for the A states whose ranges lead into M only. A prepend
     * asks for a few of them (the A states next to M), so the first lookups scan M's states and only later
     * ones pay for an index of M's states by their first range's target.
     */
    private static final class EqualStates {
        /** Lookups answered by a scan before the index is built. */
        private static final int SCANS = 4;
        private final Ranged m;
        private int lookups;
        private int[] byTargetStart, byTarget; // M states by the target of their first range, once indexed
        private int finalState = -2; // the accepting state without transitions, -1 when none; -2 not looked for yet

        EqualStates(Ranged m) { this.m = m; }

        /** The M state with this acceptance and exactly these ranges, or -1 (M is minimal: at most one). */
        int find(boolean accepting, int[] lo, int[] hi, int[] target, int from, int to) {
            if (from == to) return accepting ? finalState() : -1;
            int t0 = target[from];
            if (++lookups <= SCANS) {
                for (int s = 0; s < m.count(); s++) if (equal(s, accepting, lo, hi, target, from, to)) return s;
                return -1;
            }
            if (byTarget == null) index();
            for (int k = byTargetStart[t0]; k < byTargetStart[t0 + 1]; k++) {
                if (equal(byTarget[k], accepting, lo, hi, target, from, to)) return byTarget[k];
            }
            return -1;
        }

        private boolean equal(int s, boolean accepting, int[] lo, int[] hi, int[] target, int from, int to) {
            int f = m.firstRange(s);
            if (m.endRange(s) - f != to - from || m.isAccepting(s) != accepting) return false;
            for (int i = f, x = from; x < to; i++, x++) {
                if (m.rangeLo(i) != lo[x] || m.rangeHi(i) != hi[x] || m.rangeTarget(i) != target[x]) return false;
            }
            return true;
        }

        private int finalState() {
            if (finalState == -2) {
                finalState = -1;
                for (int s = 0; s < m.count(); s++) if (m.firstRange(s) == m.endRange(s) && m.isAccepting(s)) finalState = s;
            }
            return finalState;
        }

        private void index() {
            int nM = m.count();
            byTargetStart = new int[nM + 1];
            for (int s = 0; s < nM; s++) if (m.firstRange(s) < m.endRange(s)) byTargetStart[m.rangeTarget(m.firstRange(s)) + 1]++;
            for (int t = 0; t < nM; t++) byTargetStart[t + 1] += byTargetStart[t];
            byTarget = new int[byTargetStart[nM]];
            int[] fill = Arrays.copyOf(byTargetStart, nM);
            for (int s = 0; s < nM; s++) if (m.firstRange(s) < m.endRange(s)) byTarget[fill[m.rangeTarget(m.firstRange(s))]++] = s;
        }
    }

    /** A's states, each after every state it has a transition to; null when A has a cycle. */
    private static int[] targetsFirst(Ranged a) {
        int n = a.count();
        int[] order = new int[n];
        int done = 0;
        byte[] color = new byte[n]; // 0 new, 1 on the path, 2 finished
        int[] stack = new int[n], next = new int[n];
        int sp = 0;
        stack[sp++] = a.start();
        color[a.start()] = 1;
        next[0] = a.firstRange(a.start());
        while (sp > 0) {
            int s = stack[sp - 1];
            if (next[sp - 1] < a.endRange(s)) {
                int t = a.rangeTarget(next[sp - 1]++);
                if (color[t] == 1) return null;
                if (color[t] == 0) {
                    color[t] = 1;
                    stack[sp] = t;
                    next[sp] = a.firstRange(t);
                    sp++;
                }
                continue;
            }
            color[s] = 2;
            order[done++] = s;
            sp--;
        }
        return done == n ? order : Arrays.copyOf(order, done);
    }

    /** The states reachable from {@code start} (M's 0..nM-1, then the kept A states), numbered breadth-first. */
    private static Ranged canonical(Ranged m, int start, int nM, int kept, boolean[] keptAccepting, int[] keptStart,
                                     int[] lo, int[] hi, int[] target) {
        int total = nM + kept;
        int[] number = new int[total];
        Arrays.fill(number, -1);
        int[] queue = new int[total];
        int qn = 0;
        number[start] = qn;
        queue[qn++] = start;
        int ranges = 0;
        for (int qi = 0; qi < qn; qi++) {
            int x = queue[qi];
            int from = x < nM ? m.firstRange(x) : keptStart[x - nM], to = x < nM ? m.endRange(x) : keptStart[x - nM + 1];
            for (int i = from; i < to; i++) {
                int t = x < nM ? m.rangeTarget(i) : target[i];
                ranges++;
                if (number[t] < 0) { number[t] = qn; queue[qn++] = t; }
            }
        }
        boolean[] accepting = new boolean[qn];
        int[] rangeStart = new int[qn + 1];
        int[] rLo = new int[ranges], rHi = new int[ranges], rTarget = new int[ranges];
        int r = 0;
        for (int qi = 0; qi < qn; qi++) {
            int x = queue[qi];
            rangeStart[qi] = r;
            if (x < nM) {
                accepting[qi] = m.isAccepting(x);
                for (int i = m.firstRange(x); i < m.endRange(x); i++) {
                    rLo[r] = m.rangeLo(i); rHi[r] = m.rangeHi(i); rTarget[r] = number[m.rangeTarget(i)]; r++;
                }
            } else {
                accepting[qi] = keptAccepting[x - nM];
                for (int i = keptStart[x - nM]; i < keptStart[x - nM + 1]; i++) {
                    rLo[r] = lo[i]; rHi[r] = hi[i]; rTarget[r] = number[target[i]]; r++;
                }
            }
        }
        rangeStart[qn] = r;
        return new Ranged(qn, 0, accepting, rangeStart, rLo, rHi, rTarget);
    }
}
