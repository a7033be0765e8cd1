package dev.domino.compiler.automata;

import dev.domino.compiler.ir.Expr;
import dev.domino.runtime.internal.ByteDfa;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Regular IR expression → minimal byte DFA: Thompson NFA ({@link ByteNfa}), subset
 * construction over the 256 byte values, Moore partition refinement, dead states removed and
 * states numbered canonically (BFS in byte order), so equal languages give equal tables.
 *
 * <p>Hand-written because this is the compile hot path: dk.brics.automaton, which works on
 * UTF-16 chars and minimizes with a high constant factor, serves as the independent reference
 * in the tests instead.
 */
public final class DfaBuilder {
    private final ByteNfa nfa;

    /** Above this many DFA states a piece is not worth being one terminal (see {@link TooLarge}). */
    public static final int MAX_STATES = 4000;

    /** Thrown when a terminal's automaton would exceed {@link #MAX_STATES}; the caller decomposes it instead. */
    public static final class TooLarge extends RuntimeException {
        TooLarge() { super("automaton larger than " + MAX_STATES + " states", null, false, false); }
    }

    /** @param rules resolves a Ref's rule name to its (regular, non-recursive) body */
    public DfaBuilder(Function<String, Expr> rules) { this.nfa = new ByteNfa(rules); }

    /** A terminal's language: its automaton without the empty string, and whether it had it. */
    public record Language(ByteDfa dfa, boolean nullable) {
        /** True when nothing but possibly the empty string matches. */
        public boolean isEmpty() { return dfa == null; }
    }

    public Language build(Expr e) {
        ByteNfa.Fragment f = nfa.build(e);
        Dense d = determinize(f);
        boolean nullable = d.accepting[0];
        if (nullable) d = d.withoutEmptyString();
        return new Language(minimize(d), nullable);
    }

    /** A dense DFA under construction: state 0 is the start. */
    private static final class Dense {
        int[] table; // state * 256 + byte -> state or -1
        boolean[] accepting;
        int count;

        Dense withoutEmptyString() {
            // a fresh start state, not accepting, with the old start's transitions
            Dense r = new Dense();
            r.count = count + 1;
            r.table = new int[r.count * 256];
            r.accepting = new boolean[r.count];
            for (int i = 0; i < 256; i++) r.table[i] = table[i] < 0 ? -1 : table[i] + 1;
            for (int s = 0; s < count; s++) {
                r.accepting[s + 1] = accepting[s];
                for (int b = 0; b < 256; b++) {
                    int t = table[s * 256 + b];
                    r.table[(s + 1) * 256 + b] = t < 0 ? -1 : t + 1;
                }
            }
            return r;
        }
    }

    /**
     * Subset construction over the fragment's own states and edges (a contiguous range of the
     * NFA, which keeps growing as more terminals are built): states are numbered relative to
     * the fragment, so the cost does not grow with everything built before.
     */
    private int base; // first NFA state of the fragment being determinized (closure works relative to it)

    private Dense determinize(ByteNfa.Fragment f) {
        base = f.firstState();
        int n = f.endState() - base;
        int start = f.start() - base, end = f.end() - base;
        // outgoing edge lists per NFA state
        int[] outStart = new int[n + 1];
        for (int i = f.firstEdge(); i < f.endEdge(); i++) outStart[nfa.from[i] - base + 1]++;
        for (int i = 0; i < n; i++) outStart[i + 1] += outStart[i];
        int[] outEdge = new int[f.endEdge() - f.firstEdge()];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int i = f.firstEdge(); i < f.endEdge(); i++) outEdge[fill[nfa.from[i] - base]++] = i;

        Map<Key, Integer> ids = new HashMap<>();
        List<int[]> sets = new ArrayList<>();
        int[] mark = new int[n];
        int[] stamp = {0};
        int[] first = closure(new int[] {start}, 1, outStart, outEdge, mark, stamp);
        ids.put(new Key(first), 0);
        sets.add(first);
        Dense d = new Dense();
        d.table = new int[256 * 16];
        d.accepting = new boolean[16];
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(0);
        int[] targets = new int[64];
        int[] boundaries = new int[514];
        while (!work.isEmpty()) {
            // a server stops a compile past its time budget by interrupting it (ConstraintCache)
            if (Thread.currentThread().isInterrupted()) throw new java.util.concurrent.CancellationException("compile interrupted");
            int id = work.poll();
            int[] set = sets.get(id);
            ensure(d, id + 1);
            for (int s : set) if (s == end) d.accepting[id] = true;
            // byte segments where the set of live edges is constant
            int nb = 0;
            boundaries[nb++] = 0;
            boundaries[nb++] = 256;
            for (int s : set) {
                for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                    int e = outEdge[k];
                    if (nfa.lo[e] < 0) continue;
                    if (nb + 2 > boundaries.length) boundaries = Arrays.copyOf(boundaries, boundaries.length * 2);
                    boundaries[nb++] = nfa.lo[e];
                    boundaries[nb++] = nfa.hi[e] + 1;
                }
            }
            Arrays.sort(boundaries, 0, nb);
            for (int i = 0; i < 256; i++) d.table[id * 256 + i] = -1;
            for (int i = 0; i + 1 < nb; i++) {
                int lo = boundaries[i], hi = boundaries[i + 1];
                if (lo == hi || lo >= 256) continue;
                int tn = 0;
                for (int s : set) {
                    for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                        int e = outEdge[k];
                        if (nfa.lo[e] >= 0 && nfa.lo[e] <= lo && nfa.hi[e] >= hi - 1) {
                            if (tn == targets.length) targets = Arrays.copyOf(targets, tn * 2);
                            targets[tn++] = nfa.to[e] - base;
                        }
                    }
                }
                if (tn == 0) continue;
                int[] next = closure(targets, tn, outStart, outEdge, mark, stamp);
                Key key = new Key(next);
                Integer nid = ids.get(key);
                if (nid == null) {
                    if (sets.size() >= MAX_STATES) throw new TooLarge();
                    nid = sets.size();
                    ids.put(key, nid);
                    sets.add(next);
                    work.add(nid);
                }
                for (int b = lo; b < hi; b++) d.table[id * 256 + b] = nid;
            }
        }
        d.count = sets.size();
        ensure(d, d.count);
        return d;
    }

    private static void ensure(Dense d, int states) {
        if (d.accepting.length < states) {
            int n = Math.max(states, d.accepting.length * 2);
            d.accepting = Arrays.copyOf(d.accepting, n);
            int old = d.table.length;
            d.table = Arrays.copyOf(d.table, n * 256);
            Arrays.fill(d.table, old, d.table.length, -1);
        }
    }

    /** Epsilon closure, as a sorted array of NFA states. */
    private int[] closure(int[] seeds, int count, int[] outStart, int[] outEdge, int[] mark, int[] stamp) {
        int s0 = ++stamp[0];
        int[] stack = new int[Math.max(16, count)];
        int sp = 0;
        int[] out = new int[Math.max(16, count)];
        int on = 0;
        for (int i = 0; i < count; i++) {
            if (mark[seeds[i]] != s0) { mark[seeds[i]] = s0; if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2); stack[sp++] = seeds[i]; }
        }
        while (sp > 0) {
            int s = stack[--sp];
            if (on == out.length) out = Arrays.copyOf(out, on * 2);
            out[on++] = s;
            for (int k = outStart[s]; k < outStart[s + 1]; k++) {
                int e = outEdge[k];
                if (nfa.lo[e] >= 0) continue;
                int t = nfa.to[e] - base;
                if (mark[t] != s0) {
                    mark[t] = s0;
                    if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
                    stack[sp++] = t;
                }
            }
        }
        int[] r = Arrays.copyOf(out, on);
        Arrays.sort(r);
        return r;
    }

    private record Key(int[] set) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(set, k.set); }
        @Override public int hashCode() { return Arrays.hashCode(set); }
    }

    /** Moore refinement, dead-state removal, canonical numbering; null for the empty language. */
    private static ByteDfa minimize(Dense d) {
        int n = d.count;
        // live = can reach an accepting state (reverse reachability)
        boolean[] live = new boolean[n];
        int[] revCount = new int[n + 1];
        for (int s = 0; s < n; s++) for (int b = 0; b < 256; b++) { int t = d.table[s * 256 + b]; if (t >= 0) revCount[t + 1]++; }
        for (int i = 0; i < n; i++) revCount[i + 1] += revCount[i];
        int[] rev = new int[revCount[n]];
        int[] fill = Arrays.copyOf(revCount, n);
        for (int s = 0; s < n; s++) for (int b = 0; b < 256; b++) { int t = d.table[s * 256 + b]; if (t >= 0) rev[fill[t]++] = s; }
        ArrayDeque<Integer> q = new ArrayDeque<>();
        for (int s = 0; s < n; s++) if (d.accepting[s]) { live[s] = true; q.add(s); }
        while (!q.isEmpty()) {
            int t = q.poll();
            for (int i = revCount[t]; i < revCount[t + 1]; i++) if (!live[rev[i]]) { live[rev[i]] = true; q.add(rev[i]); }
        }
        if (!live[0]) return null;
        int[] cls = hopcroft(d, live);
        int classes = 0;
        for (int c : cls) classes = Math.max(classes, c + 1);
        // canonical BFS numbering of the classes from the start
        int[] order = new int[classes];
        Arrays.fill(order, -1);
        int[] rep = new int[classes];
        for (int s = n - 1; s >= 0; s--) if (cls[s] >= 0) rep[cls[s]] = s;
        int m = 0;
        int[] queue = new int[classes];
        order[cls[0]] = m;
        queue[m++] = cls[0];
        for (int i = 0; i < m; i++) {
            int s = rep[queue[i]];
            for (int b = 0; b < 256; b++) {
                int t = d.table[s * 256 + b];
                if (t < 0 || cls[t] < 0 || order[cls[t]] >= 0) continue;
                order[cls[t]] = m;
                queue[m++] = cls[t];
            }
        }
        int[] table = new int[m * 256];
        boolean[] accepting = new boolean[m];
        for (int i = 0; i < m; i++) {
            int s = rep[queue[i]];
            accepting[i] = d.accepting[s];
            for (int b = 0; b < 256; b++) {
                int t = d.table[s * 256 + b];
                table[i * 256 + b] = t < 0 || cls[t] < 0 ? -1 : order[cls[t]];
            }
        }
        return new ByteDfa(m, 0, accepting, table);
    }

    /**
     * Hopcroft partition refinement over byte classes (bytes that act alike in every state are
     * one symbol). Returns the class of each live state, -1 for dead ones.
     */
    private static int[] hopcroft(Dense d, boolean[] live) {
        int n = d.count;
        // alphabet compression: bytes whose columns are equal in every state are one symbol. Only
        // bytes where some state's row changes can start a new column, so compare those.
        int[] byteClass = new int[256];
        int k = 0;
        {
            boolean[] boundary = new boolean[256];
            boundary[0] = true;
            for (int s = 0; s < n; s++) {
                int row = s * 256;
                for (int b = 1; b < 256; b++) if (d.table[row + b] != d.table[row + b - 1]) boundary[b] = true;
            }
            Map<Key, Integer> columns = new HashMap<>();
            int c = -1;
            for (int b = 0; b < 256; b++) {
                if (boundary[b]) {
                    int[] col = new int[n];
                    for (int s = 0; s < n; s++) col[s] = d.table[s * 256 + b];
                    Key key = new Key(col);
                    Integer known = columns.get(key);
                    if (known == null) { known = k++; columns.put(key, known); }
                    c = known;
                }
                byteClass[b] = c;
            }
        }
        int[] repByte = new int[k];
        for (int b = 255; b >= 0; b--) repByte[byteClass[b]] = b;
        int sink = n, total = n + 1;
        int[] trans = new int[total * k];
        for (int s = 0; s < total; s++) {
            for (int c = 0; c < k; c++) {
                int t = s == sink ? -1 : d.table[s * 256 + repByte[c]];
                trans[s * k + c] = t < 0 || !live[t] ? sink : t;
            }
        }
        // reverse transitions, CSR per (symbol, target)
        int[] revStart = new int[total * k + 1];
        for (int s = 0; s < total; s++) for (int c = 0; c < k; c++) revStart[c * total + trans[s * k + c] + 1]++;
        for (int i = 0; i < total * k; i++) revStart[i + 1] += revStart[i];
        int[] rev = new int[total * k];
        int[] fill = Arrays.copyOf(revStart, total * k);
        for (int s = 0; s < total; s++) for (int c = 0; c < k; c++) rev[fill[c * total + trans[s * k + c]]++] = s;
        // partition: accepting live states vs the rest (dead states and the sink together)
        int[] elems = new int[total], loc = new int[total], blockOf = new int[total];
        int[] first = new int[total + 1], end = new int[total + 1], marked = new int[total + 1];
        int blocks = 0, pos = 0;
        for (int pass = 0; pass < 2; pass++) {
            int startPos = pos;
            for (int s = 0; s < total; s++) {
                boolean acc = s < n && live[s] && d.accepting[s];
                if (acc == (pass == 0)) { elems[pos] = s; loc[s] = pos; blockOf[s] = blocks; pos++; }
            }
            if (pos > startPos) { first[blocks] = startPos; end[blocks] = pos; blocks++; }
        }
        boolean[] inWork = new boolean[(total + 1) * k];
        int[] workBlock = new int[(total + 1) * k], workSym = new int[(total + 1) * k];
        int wn = 0;
        // one of the two initial blocks per symbol suffices (Hopcroft): the smaller
        int startBlock = blocks == 2 && end[1] - first[1] < end[0] - first[0] ? 1 : 0;
        for (int c = 0; c < k; c++) { workBlock[wn] = startBlock; workSym[wn++] = c; inWork[startBlock * k + c] = true; }
        int[] splitter = new int[total];
        int[] touched = new int[total + 1];
        while (wn > 0) {
            wn--;
            int b = workBlock[wn], c = workSym[wn];
            inWork[b * k + c] = false;
            int size = end[b] - first[b];
            System.arraycopy(elems, first[b], splitter, 0, size);
            int tn = 0;
            for (int i = 0; i < size; i++) {
                int t = splitter[i];
                for (int r = revStart[c * total + t]; r < revStart[c * total + t + 1]; r++) {
                    int s = rev[r];
                    int y = blockOf[s];
                    int m = first[y] + marked[y];
                    if (loc[s] < m) continue; // already marked
                    if (marked[y] == 0) touched[tn++] = y;
                    int other = elems[m];
                    elems[loc[s]] = other; loc[other] = loc[s];
                    elems[m] = s; loc[s] = m;
                    marked[y]++;
                }
            }
            for (int i = 0; i < tn; i++) {
                int y = touched[i];
                int m = marked[y];
                marked[y] = 0;
                if (m == end[y] - first[y]) continue;
                int z = blocks++;
                first[z] = first[y]; end[z] = first[y] + m; first[y] = end[z];
                for (int p = first[z]; p < end[z]; p++) blockOf[elems[p]] = z;
                for (int a = 0; a < k; a++) {
                    if (inWork[y * k + a]) {
                        inWork[z * k + a] = true; workBlock[wn] = z; workSym[wn++] = a;
                    } else {
                        int smaller = (end[z] - first[z]) <= (end[y] - first[y]) ? z : y;
                        inWork[smaller * k + a] = true; workBlock[wn] = smaller; workSym[wn++] = a;
                    }
                }
            }
        }
        // number the live blocks; dead states and the sink get -1
        int deadBlock = blockOf[sink];
        int[] number = new int[blocks];
        Arrays.fill(number, -1);
        int next = 0;
        int[] cls = new int[n];
        for (int s = 0; s < n; s++) {
            int blk = blockOf[s];
            if (blk == deadBlock || !live[s]) { cls[s] = -1; continue; }
            if (number[blk] < 0) number[blk] = next++;
            cls[s] = number[blk];
        }
        return cls;
    }
}
