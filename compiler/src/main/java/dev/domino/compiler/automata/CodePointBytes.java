package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointAutomaton;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The minimal byte automaton of a code point automaton ({@link CodePointAutomaton}: minimal and trim),
 * made directly: each code point state keeps its number and steps on the UTF-8 encodings of its ranges
 * through a trie of byte ranges, and the trie nodes (the states inside a multi-byte character) are
 * shared by all states whose nodes step alike. The general path ran a Thompson NFA, the subset
 * construction and a minimization for every new key complement and string language of a schema.
 *
 * <p>Why the result is minimal. Code point states stay pairwise distinct (UTF-8 is injective and the
 * code point automaton is minimal). A node inside a character accepts only words that start with
 * continuation bytes (0x80-0xBF), never the empty word; a code point state's words start with another
 * byte or are empty, and both languages are non-empty (trim), so no node equals a code point state. Two
 * nodes needing different numbers of continuation bytes differ (their words start with that many).
 * Two nodes needing the same number k are equal exactly when every k-byte tail leads to the same state,
 * which, bottom-up, is having the same merged ranges to the same (already shared) states: the key nodes
 * are interned by.
 *
 * <p>States are numbered breadth-first from the start, bytes ascending, ranges merged: as
 * {@link Minimizer} numbers its result, so the automaton is the one the general path gives.
 * The state bounds count what the subset construction over the Thompson NFA would have made
 * ({@link DfaBuilder.Sparse#boundStates()}): one state per code point state, and per code point state
 * one per distinct set of UTF-8 sequences a byte prefix leaves alive (the NFA's states inside a
 * character are each sequence's own), so a terminal is too large exactly when it was.
 */
final class CodePointBytes {
    private final CodePointAutomaton cp;
    /** Ranges of every state as (lo, hi, target) triples: code point states 0..n-1, then the shared nodes. */
    private final List<int[]> ranges = new ArrayList<>();
    private final Map<Key, Integer> nodes = new HashMap<>();
    private long subsetStates;

    // the UTF-8 sequences of the code point state being expanded, with their targets
    private final List<int[][]> seqs = new ArrayList<>();
    private final List<Integer> seqTargets = new ArrayList<>();
    private final Map<Key, Integer> prefixes = new HashMap<>();
    /** Lead-byte ranges of the multi-byte characters, by the ranges above ASCII they spell, with the subsets they add. */
    private final Map<Key, int[]> multiByte = new HashMap<>();

    private CodePointBytes(CodePointAutomaton cp) { this.cp = cp; }

    /**
     * The minimal byte automaton of {@code cp} (with the empty string when its start accepts), numbered
     * as {@link Minimizer} numbers; null for the empty language (the general path handles it).
     *
     * @throws DfaBuilder.TooLarge when the subset construction would make more than {@code maxStates} states
     */
    static DfaBuilder.Sparse of(CodePointAutomaton cp, int maxStates) {
        if (cp.isEmpty()) return null;
        CodePointBytes b = new CodePointBytes(cp);
        int n = cp.stateCount();
        for (int q = 0; q < n; q++) b.ranges.add(null);
        b.subsetStates = n;
        for (int q = 0; q < n; q++) {
            b.ranges.set(q, b.expand(q));
            if (b.subsetStates > maxStates) throw new DfaBuilder.TooLarge(maxStates);
        }
        return b.numbered();
    }

    /**
     * The byte ranges of code point state q: its ASCII ranges as they are, then the lead bytes of its
     * multi-byte characters through shared nodes. States with the same ranges above ASCII (every node of
     * a key complement steps to the same "any other key" state there) share that part, made once.
     */
    private int[] expand(int q) {
        int ascii = 0, above = 0;
        for (int r = cp.firstRange(q); r < cp.endRange(q); r++) {
            if (cp.lo(r) <= 0x7F) ascii++;
            if (cp.hi(r) > 0x7F) above++;
        }
        int[] aboveKey = new int[3 * above];
        int[] out = new int[3 * ascii];
        int on = 0, kn = 0;
        for (int r = cp.firstRange(q); r < cp.endRange(q); r++) {
            if (cp.lo(r) <= 0x7F) { out[on++] = cp.lo(r); out[on++] = Math.min(cp.hi(r), 0x7F); out[on++] = cp.target(r); }
            if (cp.hi(r) > 0x7F) { aboveKey[kn++] = Math.max(cp.lo(r), 0x80); aboveKey[kn++] = cp.hi(r); aboveKey[kn++] = cp.target(r); }
        }
        if (above == 0) return out;
        int[] leads = multiByte.computeIfAbsent(new Key(aboveKey), k -> leadBytes(aboveKey));
        subsetStates += leads[leads.length - 1];
        int[] all = Arrays.copyOf(out, on + leads.length - 1);
        System.arraycopy(leads, 0, all, on, leads.length - 1);
        return all;
    }

    /**
     * The lead-byte ranges of code point ranges above ASCII ((lo, hi, target) triples), followed by the
     * number of subsets the subset construction makes inside their characters.
     */
    private int[] leadBytes(int[] triples) {
        seqs.clear();
        seqTargets.clear();
        prefixes.clear();
        for (int i = 0; i < triples.length; i += 3) {
            for (int[][] seq : Utf8Sequences.of(triples[i], triples[i + 1])) {
                seqs.add(seq);
                seqTargets.add(triples[i + 2]);
            }
        }
        int[] all = new int[seqs.size()];
        for (int i = 0; i < all.length; i++) all[i] = i;
        int[] leads = step(0, all);
        int[] withCount = Arrays.copyOf(leads, leads.length + 1);
        withCount[leads.length] = prefixes.size();
        return withCount;
    }

    /**
     * The merged ranges after {@code depth} bytes of a character, with the sequences still alive: each
     * byte segment between their range boundaries leads to the code point target (the last byte) or to
     * the node of the sequences that cover it.
     */
    private int[] step(int depth, int[] alive) {
        int[] bounds = new int[2 * alive.length];
        int nb = 0;
        for (int s : alive) {
            int[] range = seqs.get(s)[depth];
            bounds[nb++] = range[0];
            bounds[nb++] = range[1] + 1;
        }
        Arrays.sort(bounds, 0, nb);
        int[] out = new int[3 * nb];
        int on = 0;
        int[] covering = new int[alive.length];
        for (int j = 0; j + 1 < nb; j++) {
            int lo = bounds[j], hi = bounds[j + 1] - 1;
            if (lo > hi) continue;
            int c = 0;
            for (int s : alive) {
                int[] range = seqs.get(s)[depth];
                if (range[0] <= lo && hi <= range[1]) covering[c++] = s;
            }
            if (c == 0) continue;
            int target;
            if (depth + 1 == seqs.get(covering[0]).length) {
                target = seqTargets.get(covering[0]); // one code point, one sequence
            } else {
                target = node(depth + 1, Arrays.copyOf(covering, c));
            }
            if (on > 0 && out[on - 1] == target && out[on - 2] + 1 == lo) { out[on - 2] = hi; continue; }
            out[on++] = lo;
            out[on++] = hi;
            out[on++] = target;
        }
        return Arrays.copyOf(out, on);
    }

    /** The shared state for the sequences {@code alive} after {@code depth} bytes of a character. */
    private int node(int depth, int[] alive) {
        int[] prefixKey = Arrays.copyOf(alive, alive.length + 1);
        prefixKey[alive.length] = depth;
        Key prefix = new Key(prefixKey);
        Integer known = prefixes.get(prefix);
        if (known != null) return known;
        // a new subset of the NFA states of these sequences at this depth: counted as prefixes.size() in leadBytes
        int[] r = step(depth, alive);
        Key key = new Key(r);
        Integer id = nodes.get(key);
        if (id == null) {
            id = ranges.size();
            ranges.add(r);
            nodes.put(key, id);
        }
        prefixes.put(prefix, id);
        return id;
    }

    /** Breadth-first from the start, ranges in byte order (as {@link Minimizer} numbers). */
    private DfaBuilder.Sparse numbered() {
        int total = ranges.size();
        int[] number = new int[total];
        Arrays.fill(number, -1);
        int[] queue = new int[total];
        int qn = 0;
        number[cp.start()] = qn;
        queue[qn++] = cp.start();
        for (int qi = 0; qi < qn; qi++) {
            int[] r = ranges.get(queue[qi]);
            for (int i = 2; i < r.length; i += 3) if (number[r[i]] < 0) { number[r[i]] = qn; queue[qn++] = r[i]; }
        }
        DfaBuilder.Sparse d = new DfaBuilder.Sparse();
        for (int qi = 0; qi < qn; qi++) {
            int s = queue[qi];
            int[] r = ranges.get(s);
            for (int i = 0; i < r.length; i += 3) d.addRange(r[i], r[i + 1], number[r[i + 2]]);
            d.endState(s < cp.stateCount() && cp.isAccepting(s));
        }
        d.minimal = true;
        d.subsetStates = (int) subsetStates;
        return d;
    }

    private record Key(int[] v) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(v, k.v); }
        @Override public int hashCode() { return Arrays.hashCode(v); }
    }
}
