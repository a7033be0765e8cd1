package dev.domino.compiler.automata;

import dev.domino.runtime.internal.scan.ByteDfa;

import java.util.Arrays;

/**
 * Minimal DFA of a sparse subset-construction result: dead states removed, then Valmari and
 * Lehtinen's partition refinement over blocks of states and "cords" of transitions (A. Valmari,
 * "Fast brief practical DFA minimization", IPL 2012), O(m log n) in the transitions actually
 * present: partial automata need no sink state and no 256-entry rows. Symbols are the byte
 * intervals between the automaton's range boundaries. States of the result are numbered
 * breadth-first from the start, bytes ascending, so equal languages give equal automata.
 */
final class Minimizer {
    private Minimizer() {}

    /** The minimal automaton, or null for the empty language. */
    static ByteDfa minimize(DfaBuilder.Sparse d) {
        if (d.minimal) return asByteDfa(d);
        int n = d.count;
        // live = can reach an accepting state (reverse reachability over the ranges)
        int[] revStart = new int[n + 1];
        for (int s = 0; s < n; s++) for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) revStart[d.target[i] + 1]++;
        for (int i = 0; i < n; i++) revStart[i + 1] += revStart[i];
        int[] rev = new int[revStart[n]];
        int[] fill = Arrays.copyOf(revStart, n);
        for (int s = 0; s < n; s++) for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) rev[fill[d.target[i]]++] = s;
        boolean[] live = new boolean[n];
        int[] queue = new int[n];
        int qn = 0;
        for (int s = 0; s < n; s++) if (d.accepting[s]) { live[s] = true; queue[qn++] = s; }
        for (int qi = 0; qi < qn; qi++) {
            int t = queue[qi];
            for (int i = revStart[t]; i < revStart[t + 1]; i++) if (!live[rev[i]]) { live[rev[i]] = true; queue[qn++] = rev[i]; }
        }
        if (!live[0]) return null;
        rev = null;

        // symbols: byte intervals between the boundaries of live ranges
        boolean[] boundary = new boolean[257];
        for (int s = 0; s < n; s++) {
            if (!live[s]) continue;
            for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) {
                if (!live[d.target[i]]) continue;
                boundary[d.lo[i]] = true;
                boundary[d.hi[i] + 1] = true;
            }
        }
        int[] symbolOf = new int[257];
        int symbols = 0;
        for (int b = 0; b < 257; b++) { if (boundary[b]) symbols++; symbolOf[b] = symbols - 1; }

        // live states renumbered densely; transitions (tail, symbol, head)
        int[] id = new int[n];
        int[] original = new int[n];
        int live0 = 0;
        for (int s = 0; s < n; s++) {
            if (live[s]) original[live0] = s;
            id[s] = live[s] ? live0++ : -1;
        }
        int m = 0;
        for (int s = 0; s < n; s++) {
            if (!live[s]) continue;
            for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) {
                if (live[d.target[i]]) m += symbolOf[d.hi[i]] - symbolOf[d.lo[i]] + 1;
            }
        }
        int[] tail = new int[m], label = new int[m], head = new int[m];
        int t = 0;
        for (int s = 0; s < n; s++) {
            if (!live[s]) continue;
            for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) {
                if (!live[d.target[i]]) continue;
                for (int a = symbolOf[d.lo[i]]; a <= symbolOf[d.hi[i]]; a++) { tail[t] = id[s]; label[t] = a; head[t] = id[d.target[i]]; t++; }
            }
        }
        int states = live0;
        int[] block = refine(states, m, tail, label, head, symbols, s -> d.accepting[original[s]]);
        return canonical(d, live, id, block);
    }

    /** Partition of states and cords (Valmari and Lehtinen); returns each state's block. */
    private static int[] refine(int n, int m, int[] tail, int[] label, int[] head, int symbols, java.util.function.IntPredicate accepting) {
        Partition blocks = new Partition(n);
        int[] marked = new int[Math.max(n, m) + 1];
        int[] touched = new int[Math.max(n, m) + 1];
        for (int s = 0; s < n; s++) if (accepting.test(s)) blocks.mark(s, marked, touched);
        blocks.split(marked, touched);

        // cords: transitions grouped by symbol (counting sort)
        Partition cords = new Partition(m);
        if (m > 0) {
            int[] count = new int[symbols + 1];
            for (int i = 0; i < m; i++) count[label[i] + 1]++;
            for (int a = 0; a < symbols; a++) count[a + 1] += count[a];
            int[] pos = Arrays.copyOf(count, symbols);
            for (int i = 0; i < m; i++) { int p = pos[label[i]]++; cords.elems[p] = i; cords.loc[i] = p; }
            cords.sets = 0;
            for (int a = 0; a < symbols; a++) {
                if (count[a] == count[a + 1]) continue;
                int z = cords.sets++;
                cords.first[z] = count[a];
                cords.past[z] = count[a + 1];
                for (int p = count[a]; p < count[a + 1]; p++) cords.setOf[cords.elems[p]] = z;
            }
        }
        // incoming transitions per state
        int[] inStart = new int[n + 1];
        for (int i = 0; i < m; i++) inStart[head[i] + 1]++;
        for (int s = 0; s < n; s++) inStart[s + 1] += inStart[s];
        int[] in = new int[m];
        int[] fill = Arrays.copyOf(inStart, n);
        for (int i = 0; i < m; i++) in[fill[head[i]]++] = i;

        int b = 1, c = 0;
        while (c < cords.sets) {
            for (int i = cords.first[c]; i < cords.past[c]; i++) blocks.mark(tail[cords.elems[i]], marked, touched);
            blocks.split(marked, touched);
            c++;
            while (b < blocks.sets) {
                for (int i = blocks.first[b]; i < blocks.past[b]; i++) {
                    int q = blocks.elems[i];
                    for (int j = inStart[q]; j < inStart[q + 1]; j++) cords.mark(in[j], marked, touched);
                }
                cords.split(marked, touched);
                b++;
            }
        }
        return blocks.setOf;
    }

    /** A refinable partition of 0..n-1: each set a contiguous slice of {@code elems}, marked elements first. */
    private static final class Partition {
        int sets;
        final int[] elems, loc, setOf, first, past;
        private int touchedCount;

        Partition(int n) {
            sets = n > 0 ? 1 : 0;
            elems = new int[n]; loc = new int[n]; setOf = new int[n];
            first = new int[n + 1]; past = new int[n + 1];
            for (int i = 0; i < n; i++) { elems[i] = i; loc[i] = i; }
            past[0] = n;
        }

        void mark(int e, int[] marked, int[] touched) {
            int s = setOf[e], i = loc[e], j = first[s] + marked[s];
            elems[i] = elems[j]; loc[elems[i]] = i;
            elems[j] = e; loc[e] = j;
            if (marked[s]++ == 0) touched[touchedCount++] = s;
        }

        /** Splits every touched set into its marked and unmarked parts; the smaller becomes a new set. */
        void split(int[] marked, int[] touched) {
            while (touchedCount > 0) {
                int s = touched[--touchedCount], j = first[s] + marked[s];
                if (j == past[s]) { marked[s] = 0; continue; }
                int z = sets++;
                if (marked[s] <= past[s] - j) { first[z] = first[s]; past[z] = j; first[s] = j; }
                else { past[z] = past[s]; first[z] = j; past[s] = j; }
                for (int i = first[z]; i < past[z]; i++) setOf[elems[i]] = z;
                marked[s] = 0;
                marked[z] = 0;
            }
        }
    }

    /** An automaton minimal, trim and numbered by construction, as it is. */
    private static ByteDfa asByteDfa(DfaBuilder.Sparse d) {
        byte[] lo = new byte[d.ranges], hi = new byte[d.ranges];
        for (int i = 0; i < d.ranges; i++) { lo[i] = (byte) d.lo[i]; hi[i] = (byte) d.hi[i]; }
        return ByteDfa.ofRanges(d.count, 0, Arrays.copyOf(d.accepting, d.count), Arrays.copyOf(d.rangeStart, d.count + 1),
                lo, hi, Arrays.copyOf(d.target, d.ranges));
    }

    /** The quotient automaton, numbered breadth-first from the start's block, bytes ascending. */
    private static ByteDfa canonical(DfaBuilder.Sparse d, boolean[] live, int[] id, int[] block) {
        int n = d.count;
        int blocks = 0;
        for (int v : block) blocks = Math.max(blocks, v + 1);
        int[] rep = new int[blocks];
        Arrays.fill(rep, -1);
        for (int s = 0; s < n; s++) if (live[s] && rep[block[id[s]]] < 0) rep[block[id[s]]] = s;
        int[] order = new int[blocks];
        Arrays.fill(order, -1);
        int[] queue = new int[blocks];
        int qn = 0;
        order[block[id[0]]] = qn;
        queue[qn++] = block[id[0]];
        int[] rangeStart = new int[blocks + 1];
        int ranges = 0;
        for (int qi = 0; qi < qn; qi++) {
            int s = rep[queue[qi]];
            for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) {
                int tg = d.target[i];
                if (!live[tg]) continue;
                ranges++;
                int blk = block[id[tg]];
                if (order[blk] < 0) { order[blk] = qn; queue[qn++] = blk; }
            }
        }
        boolean[] accepting = new boolean[qn];
        byte[] lo = new byte[ranges], hi = new byte[ranges];
        int[] target = new int[ranges];
        int r = 0;
        for (int qi = 0; qi < qn; qi++) {
            int s = rep[queue[qi]];
            accepting[qi] = d.accepting[s];
            rangeStart[qi] = r;
            for (int i = d.rangeStart[s]; i < d.rangeStart[s + 1]; i++) {
                int tg = d.target[i];
                if (!live[tg]) continue;
                lo[r] = (byte) d.lo[i]; hi[r] = (byte) d.hi[i]; target[r] = order[block[id[tg]]]; r++;
            }
        }
        rangeStart[qn] = r;
        return ByteDfa.ofRanges(qn, 0, accepting, Arrays.copyOf(rangeStart, qn + 1), lo, hi, target);
    }
}
