package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.util.*;
import dev.domino.runtime.internal.vocab.*;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;


/**
 * What the vocabulary does inside one terminal, from one automaton state, ignoring everything
 * after the terminal ends: the tokens that stay inside it to their last byte, and the trie
 * nodes where it may end with more bytes to come. This is the expensive, context-independent
 * part of a tree (inside a JSON string: nearly the whole vocabulary), so it is computed once
 * per (vocabulary, automaton, state) and shared by every tree and artifact that needs it.
 *
 * <p>Two kinds of sharing go beyond one automaton:
 * <ul>
 * <li>by <em>residual</em>: states whose automata look the same from there on (a property key
 *     merged with the string value after it, and the plain string) share one walk;</li>
 * <li>by <em>loop core</em>: a state inside a cycle (a string's characters and escapes) whose
 *     cycle looks the same in two automata shares the walk of the cycle, even when what comes
 *     after the cycle differs (the closing quote, then a different next key). Only the few
 *     tokens that leave the cycle are walked per state.</li>
 * </ul>
 */
public final class TerminalWalks {
    /**
     * @param continuation  tokens that end inside the terminal
     * @param endsAtRoot    the automaton state itself is accepting (the terminal may end before the token's first byte)
     * @param endChildStart per byte b, {@code endChildNode[endChildStart[b] .. endChildStart[b+1])} are the trie
     *                      nodes reached by byte b from a node where the terminal may end: where the next
     *                      terminal starts with b (grouped by byte, so a tree visits only bytes its follow
     *                      terminals can start with)
     * @param loopEndNodes  trie nodes whose whole subtree stays in one accepting, self-looping state, so the
     *                      terminal may end at every node in it; not listed child by child: a next terminal
     *                      can only start there with one of that state's loop bytes, and trees look those
     *                      edges up by byte ({@link VocabTrie#byteEdgesFrom})
     * @param loopEndBytes  per loop end node, the loop bytes of its state (2 longs: bytes 0..63, 64..127)
     * @param loopBytesAny  the union of {@code loopEndBytes} (2 longs): where no next terminal starts with one of
     *                      them, the loop end nodes, often tens of thousands inside a string, are skipped at once
     */
    public record Walk(TokenSet continuation, boolean endsAtRoot, int[] endChildStart, int[] endChildNode,
                       int[] loopEndNodes, long[] loopEndBytes, long[] loopBytesAny) {
        /** Whether a next terminal starting with one of the ASCII bytes {@code lo}/{@code hi} may start in a loop end node. */
        public boolean loopEndsStart(long lo, long hi) { return ((loopBytesAny[0] & lo) | (loopBytesAny[1] & hi)) != 0; }

        public int endChildCount() { return endChildNode.length + loopEndNodes.length; }
    }

    /**
     * Byte bounds of the caches (estimates; see {@link RuntimeCaches}). Each evicts its least
     * recently used entries when full, so a long-running server keeps its hot walks.
     */
    public static final String WALKS = "terminal walks", BY_RESIDUAL = "walks by residual", BY_CORE = "walks by loop core",
            CORE_BELOW = "loop core walks below a first byte", LOOP_CORES = "loop cores", COUNTED = "counted walks";
    public static final java.util.List<String> CACHE_NAMES = java.util.List.of(WALKS, BY_RESIDUAL, BY_CORE, CORE_BELOW, LOOP_CORES, COUNTED);
    /** Bounds for the caches of tries made from now on (see {@link RuntimeCaches#setMaxBytes}). */
    private static final java.util.Map<String, Long> DEFAULT_MAX = new java.util.concurrent.ConcurrentHashMap<>(java.util.Map.of(
            WALKS, 256L << 20, BY_RESIDUAL, 64L << 20, BY_CORE, 64L << 20, CORE_BELOW, 16L << 20, LOOP_CORES, 16L << 20,
            COUNTED, 64L << 20));

    public static void setDefaultMaxBytes(String name, long bytes) { DEFAULT_MAX.put(name, bytes); }

    private static <K, V> BoundedCache<K, V> newCache(String name) { return new BoundedCache<>(name, DEFAULT_MAX.get(name)); }
    /** Walks that visit fewer trie nodes than this are computed directly, without looking for sharing. */
    private static final int CHEAP_WALK_NODES = 4096;
    /** Residual automata and loop cores larger than this are not canonicalized (and would be big keys). */
    private static final int MAX_SHARED_STATES = 48;

    private final VocabTrie trie;
    /** Per automaton, its states' walks (filled lazily; each walk's bytes are added to its entry). */
    public final BoundedCache<ByteDfa, AtomicReferenceArray<Walk>> cache = newCache(WALKS);
    /** Walks shared by residual automaton, and loop cores' own walks. */
    public final BoundedCache<ByteDfa, Walk> byResidual = newCache(BY_RESIDUAL);
    public final BoundedCache<LoopCore, CoreWalk> byCore = newCache(BY_CORE);

    public TerminalWalks(VocabTrie trie) { this.trie = trie; }

    /** The caches this object keeps (for {@link RuntimeCaches}). */
    public java.util.List<BoundedCache<?, ?>> caches() { return java.util.List.of(cache, byResidual, byCore, byCoreBelow, cores, counted); }

    /** A counted walk's key: the loop automaton, its unit boundaries (null: those of body+) and the loop state. */
    private record CountedKey(ByteDfa loop, java.util.List<Boolean> boundaries, int state) {}

    private final BoundedCache<CountedKey, CountedWalk> counted = newCache(COUNTED);

    /** {@link CountedWalk} of terminal automaton {@code loop} counted by {@code c}, from loop state s. */
    public CountedWalk counted(ByteDfa loop, CountedLoop c, int s, int vocabSize) {
        return counted.computeIfAbsent(new CountedKey(loop, c.boundaryKey(), s), k -> CountedWalk.compute(trie, loop, c, s, vocabSize),
                CountedWalk::estimatedBytes);
    }

    public Walk get(ByteDfa dfa, int state, int vocabSize) {
        AtomicReferenceArray<Walk> perState = cache.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()),
                a -> 16 + 4L * a.length() + 64L * dfa.stateCount()); // the array, and the automaton the key holds
        Walk w = perState.get(state);
        if (w == null) {
            w = computeShared(dfa, state, vocabSize);
            if (perState.compareAndSet(state, null, w)) cache.addBytes(dfa, bytesOf(w));
            w = perState.get(state);
        }
        return w;
    }

    /** Estimated heap bytes of a walk. */
    public static long bytesOf(Walk w) {
        return 64 + w.continuation().estimatedBytes() + 4L * (w.endChildStart().length + w.endChildNode().length + w.loopEndNodes().length)
                + 8L * w.loopEndBytes().length;
    }

    private Walk computeShared(ByteDfa dfa, int state, int vocabSize) {
        // most walks die within a few trie levels (inside a key, a number, a keyword): not worth
        // looking for something to share with
        Acc cheap = new Acc(vocabSize);
        if (walkInto(cheap, dfa, 0, state, CHEAP_WALK_NODES)) return cheap.finish(vocabSize);
        LoopCore core = LoopCore.of(dfa, state, MAX_SHARED_STATES);
        if (core != null && core.ports.length > 0) return fromCore(dfa, core, vocabSize);
        ByteDfa residual = dfa.residual(state, MAX_SHARED_STATES);
        if (residual == null) return computeByChild(dfa, state, vocabSize);
        Walk w = byResidual.get(residual);
        if (w == null) {
            w = computeByChild(residual, 0, vocabSize);
            w = byResidual.putIfAbsent(residual, w, bytesOf(w) + 1024L * residual.stateCount()); // the key: ~1 KB per state
        }
        return w;
    }

    /** The plain walk, nothing shared (the reference the shared walks must equal). */
    public Walk compute(ByteDfa dfa, int state, int vocabSize) {
        Acc acc = new Acc(vocabSize);
        walkInto(acc, dfa, 0, state, Integer.MAX_VALUE);
        return acc.finish(vocabSize);
    }

    /**
     * A walk from a state off any small cycle, one first byte at a time: where that byte leads
     * into a loop core (a state inside a string), the core's walk below that trie node is
     * shared, and only the paths leaving the core are walked.
     *
     * <p>Why: "any key but these" (additionalProperties next to declared keys) has a state per
     * prefix of every declared key, and any other byte there enters the free string. Each such
     * state kept nearly the whole vocabulary, walked again per state: most of a typical schema's
     * compile time.
     */
    private Walk computeByChild(ByteDfa dfa, int state, int vocabSize) {
        Acc acc = new Acc(vocabSize);
        if (dfa.isAccepting(state)) acc.endsAtRoot = true;
        java.util.Map<Integer, LoopCore> coreOf = new java.util.HashMap<>();
        for (int c = trie.firstChild(0); c < trie.endChild(0); c++) {
            int s2 = dfa.step(state, trie.childByte(c));
            if (s2 < 0) continue;
            int child = trie.childNode(c);
            LoopCore core = coreOf.computeIfAbsent(s2, k -> coreAt(dfa, k));
            if (core == null) {
                walkInto(acc, dfa, child, s2, Integer.MAX_VALUE);
                continue;
            }
            CoreBelow key = new CoreBelow(core, child);
            CoreWalk cw = byCoreBelow.get(key);
            if (cw == null) {
                Acc below = new Acc(vocabSize);
                walkInto(below, core.table, core.accepting, core.loops, child, 0);
                cw = new CoreWalk(below);
                cw = byCoreBelow.putIfAbsent(key, cw, cw.estimatedBytes());
            }
            cw.addTo(acc);
            for (int i = 0; i < cw.exitEdges.length; i++) {
                walkInto(acc, dfa, trie.childNode(cw.exitEdges[i]), core.ports[cw.exitPorts[i]], Integer.MAX_VALUE);
            }
        }
        return acc.finish(vocabSize);
    }

    /** Sentinel of {@link #cores}: the state has no small loop core. */
    private static final LoopCore NO_CORE = new LoopCore(new int[0], new boolean[0], new int[0]);
    private final BoundedCache<ByteDfa, AtomicReferenceArray<LoopCore>> cores = newCache(LOOP_CORES);

    /**
     * {@link LoopCore#of} with at most {@link #MAX_SHARED_STATES} states, cached per automaton: every
     * prefix state of "any other key" enters the same string states, and renumbering them was a
     * third of those walks' cost.
     */
    private LoopCore coreAt(ByteDfa dfa, int state) {
        AtomicReferenceArray<LoopCore> perState = cores.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()),
                a -> 16 + 4L * a.length() + 64L * dfa.stateCount());
        LoopCore core = perState.get(state);
        if (core == null) {
            core = LoopCore.of(dfa, state, MAX_SHARED_STATES);
            if (core == null) core = NO_CORE;
            if (perState.compareAndSet(state, null, core) && core != NO_CORE) cores.addBytes(dfa, core.estimatedBytes());
        }
        return core == NO_CORE ? null : core;
    }

    /** A loop core's walk below one trie node (entered with that node's byte). */
    private record CoreBelow(LoopCore core, int node) {}

    /** Bound: token bitmaps of big subtrees, id lists of small ones. */
    private final BoundedCache<CoreBelow, CoreWalk> byCoreBelow = newCache(CORE_BELOW);

    /** The shared walk of the state's loop core, plus a walk of each token path that leaves the core. */
    private Walk fromCore(ByteDfa dfa, LoopCore core, int vocabSize) {
        CoreWalk cw = byCore.get(core);
        if (cw == null) {
            Acc acc = new Acc(vocabSize);
            walkInto(acc, core.table, core.accepting, core.loops, 0, 0);
            cw = new CoreWalk(acc);
            cw = byCore.putIfAbsent(core, cw, cw.estimatedBytes() + core.estimatedBytes());
        }
        Acc acc = cw.copy();
        for (int i = 0; i < cw.exitEdges.length; i++) {
            walkInto(acc, dfa, trie.childNode(cw.exitEdges[i]), core.ports[cw.exitPorts[i]], Integer.MAX_VALUE);
        }
        return acc.finish(vocabSize);
    }

    /**
     * Walks the trie from {@code startNode} in automaton state {@code startState}. The table maps
     * {@code (state << 8) | byte} to the next state, -1 (dead), or {@code -2 - p}: leaves through
     * port p (loop cores only; recorded as an exit, not followed).
     */
    private void walkInto(Acc acc, int[] table, boolean[] accepting, long[] loops, int startNode, int startState) {
        walkInto(acc, table, accepting, loops, startNode, startState, Integer.MAX_VALUE);
    }

    /** A terminal automaton's walk: its dense table when it has one, else its byte ranges. */
    private boolean walkInto(Acc acc, ByteDfa dfa, int startNode, int startState, int maxNodes) {
        if (dfa.isDense()) return walkInto(acc, dfa.table(), dfa.acceptingArray(), dfa.asciiLoops(), startNode, startState, maxNodes);
        return walkSparse(acc, dfa, startNode, startState, maxNodes);
    }

    /**
     * {@link #walkInto} over a sparse automaton: each range of the state is joined with the trie
     * node's children (both sorted by byte), so a trie state with one range costs a binary search
     * and its matching children, not one lookup per child.
     */
    private boolean walkSparse(Acc acc, ByteDfa dfa, int startNode, int startState, int maxNodes) {
        boolean[] accepting = dfa.acceptingArray();
        long[] loops = dfa.asciiLoops();
        int visited = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = startNode; stackState[sp++] = startState;
        while (sp > 0) {
            if (++visited > maxNodes) return false;
            int n = stackNode[--sp], s = stackState[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long loLoop = loops[2 * s], hiLoop = loops[2 * s + 1];
            if (n != 0 && (loLoop | hiLoop) != 0 && trie.subtreeWithin(n, loLoop, hiLoop)) {
                acc.addTokens(trie, trie.tokenStart(n), trie.subtreeTokenEnd(n));
                if (accepting[s] && first < end) acc.addLoopEnd(n, loLoop, hiLoop);
                continue;
            }
            if (n != 0) acc.addTokens(trie, trie.tokenStart(n), trie.tokenEnd(n));
            if (first == end) continue;
            if (accepting[s]) {
                if (n == 0) acc.endsAtRoot = true;
                else for (int c = first; c < end; c++) acc.endEdges.add(c);
            }
            int c = first;
            for (int r = dfa.firstRange(s), re = dfa.endRange(s); r < re && c < end; r++) {
                int lo = dfa.rangeLo(r), hi = dfa.rangeHi(r), s2 = dfa.rangeTarget(r);
                if (end - c > 8) {
                    int a = c, z = end;
                    while (a < z) { int m = (a + z) >>> 1; if (trie.childByte(m) < lo) a = m + 1; else z = m; }
                    c = a;
                } else {
                    while (c < end && trie.childByte(c) < lo) c++;
                }
                for (; c < end && trie.childByte(c) <= hi; c++) {
                    if (sp == stackNode.length) { stackNode = Arrays.copyOf(stackNode, sp * 2); stackState = Arrays.copyOf(stackState, sp * 2); }
                    stackNode[sp] = trie.childNode(c); stackState[sp++] = s2;
                }
            }
        }
        return true;
    }

    /** @return false when the walk gave up after visiting {@code maxNodes} trie nodes ({@code acc} is then partial) */
    private boolean walkInto(Acc acc, int[] table, boolean[] accepting, long[] loops, int startNode, int startState, int maxNodes) {
        int visited = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = startNode; stackState[sp++] = startState;
        while (sp > 0) {
            if (++visited > maxNodes) return false;
            int n = stackNode[--sp], s = stackState[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long loLoop = loops[2 * s], hiLoop = loops[2 * s + 1];
            if (n != 0 && (loLoop | hiLoop) != 0 && trie.subtreeWithin(n, loLoop, hiLoop)) {
                // every byte below n loops on s: the whole subtree stays in state s
                acc.addTokens(trie, trie.tokenStart(n), trie.subtreeTokenEnd(n));
                if (accepting[s] && first < end) acc.addLoopEnd(n, loLoop, hiLoop);
                continue;
            }
            if (n != 0) acc.addTokens(trie, trie.tokenStart(n), trie.tokenEnd(n));
            if (first == end) continue;
            if (accepting[s]) {
                if (n == 0) acc.endsAtRoot = true;
                else for (int c = first; c < end; c++) acc.endEdges.add(c);
            }
            int base = s << 8;
            for (int c = first; c < end; c++) {
                int s2 = table[base | trie.childByte(c)];
                if (s2 == -1) continue;
                if (s2 < -1) { acc.exitEdges.add(c); acc.exitPorts.add(-2 - s2); continue; }
                if (sp == stackNode.length) { stackNode = Arrays.copyOf(stackNode, sp * 2); stackState = Arrays.copyOf(stackState, sp * 2); }
                stackNode[sp] = trie.childNode(c); stackState[sp++] = s2;
            }
        }
        return true;
    }

    /** A walk's results while they accumulate. */
    private final class Acc {
        private static final int SPARSE_LIMIT = 1024;
        public final int vocabSize;
        /** Tokens as a list while few (most walks), as a bitmap once many. */
        public long[] bits;
        public int[] ids = new int[64];
        public int tokenCount;
        public boolean endsAtRoot;
        public final IntList endEdges = new IntList(), loopNodes = new IntList(), exitEdges = new IntList(), exitPorts = new IntList();
        public long[] loopBytes = new long[16];

        public Acc(int vocabSize) { this.vocabSize = vocabSize; }

        public void addTokens(VocabTrie t, int from, int to) {
            if (bits == null && tokenCount + (to - from) > SPARSE_LIMIT) toBitmap();
            if (bits != null) {
                for (int i = from; i < to; i++) {
                    int id = t.token(i);
                    bits[id >>> 6] |= 1L << id;
                }
            } else {
                if (tokenCount + (to - from) > ids.length) ids = Arrays.copyOf(ids, Math.max(ids.length * 2, tokenCount + (to - from)));
                for (int i = from; i < to; i++) ids[tokenCount + i - from] = t.token(i);
            }
            tokenCount += to - from;
        }

        /** Adds {@code count} token ids (distinct from those added so far). */
        public void addIds(int[] more, int count) {
            if (bits == null && tokenCount + count > SPARSE_LIMIT) toBitmap();
            if (bits != null) {
                for (int i = 0; i < count; i++) bits[more[i] >>> 6] |= 1L << more[i];
            } else {
                if (tokenCount + count > ids.length) ids = Arrays.copyOf(ids, Math.max(ids.length * 2, tokenCount + count));
                System.arraycopy(more, 0, ids, tokenCount, count);
            }
            tokenCount += count;
        }

        public void toBitmap() {
            bits = new long[(vocabSize + 63) >>> 6];
            for (int i = 0; i < tokenCount; i++) bits[ids[i] >>> 6] |= 1L << ids[i];
            ids = null;
        }

        public void addLoopEnd(int node, long lo, long hi) {
            int i = loopNodes.size;
            loopNodes.add(node);
            if (2 * i + 2 > loopBytes.length) loopBytes = Arrays.copyOf(loopBytes, loopBytes.length * 2);
            loopBytes[2 * i] = lo;
            loopBytes[2 * i + 1] = hi;
        }

        public Walk finish(int vocabSize) {
            // group the end children by byte: counting sort
            int[] edges = endEdges.toArray();
            int[] byteStart = new int[257];
            for (int c : edges) byteStart[trie.childByte(c) + 1]++;
            for (int b = 0; b < 256; b++) byteStart[b + 1] += byteStart[b];
            int[] fill = Arrays.copyOf(byteStart, 256);
            int[] nodes = new int[edges.length];
            for (int c : edges) nodes[fill[trie.childByte(c)]++] = trie.childNode(c);
            TokenSet continuation;
            if (bits == null) {
                int[] sorted = Arrays.copyOf(ids, tokenCount);
                Arrays.sort(sorted); // tokens are distinct: one trie node per token, reached once
                continuation = TokenSet.ofIds(sorted);
            } else if ((long) tokenCount * 32 > vocabSize) {
                continuation = TokenSet.ofBitmap(bits);
            } else {
                int[] out = new int[tokenCount];
                int k = 0;
                for (int w = 0; w < bits.length && k < tokenCount; w++) {
                    long word = bits[w];
                    while (word != 0) { out[k++] = (w << 6) + Long.numberOfTrailingZeros(word); word &= word - 1; }
                }
                continuation = TokenSet.ofIds(Arrays.copyOf(out, k));
            }
            long[] any = new long[2];
            for (int i = 0; i < loopNodes.size; i++) { any[0] |= loopBytes[2 * i]; any[1] |= loopBytes[2 * i + 1]; }
            return new Walk(continuation, endsAtRoot, byteStart, nodes, loopNodes.toArray(), Arrays.copyOf(loopBytes, 2 * loopNodes.size), any);
        }
    }

    /** The shared part of a loop core's walk: everything but the per-automaton walks past its exits. */
    private final class CoreWalk {
        public final Acc tokens; // never modified after construction: copies are taken
        public final boolean endsAtRoot;
        public final int[] endEdges, loopNodes, exitEdges, exitPorts;
        public final long[] loopBytes;

        public CoreWalk(Acc a) {
            tokens = a;
            endsAtRoot = a.endsAtRoot;
            endEdges = a.endEdges.toArray();
            loopNodes = a.loopNodes.toArray();
            loopBytes = Arrays.copyOf(a.loopBytes, 2 * loopNodes.length);
            exitEdges = a.exitEdges.toArray();
            exitPorts = a.exitPorts.toArray();
        }

        public long estimatedBytes() {
            return 64 + (tokens.bits != null ? 8L * tokens.bits.length : 4L * tokens.ids.length)
                    + 4L * (endEdges.length + exitEdges.length + exitPorts.length + 3 * loopNodes.length);
        }

        /** Adds this walk's results to {@code a}, whose tokens are distinct from this walk's. */
        public void addTo(Acc a) {
            Acc t = tokens;
            if (t.bits != null) {
                if (a.bits == null) a.toBitmap();
                for (int w = 0; w < a.bits.length; w++) a.bits[w] |= t.bits[w];
                a.tokenCount += t.tokenCount;
            } else {
                a.addIds(t.ids, t.tokenCount);
            }
            if (endsAtRoot) a.endsAtRoot = true;
            for (int e : endEdges) a.endEdges.add(e);
            for (int i = 0; i < loopNodes.length; i++) a.addLoopEnd(loopNodes[i], loopBytes[2 * i], loopBytes[2 * i + 1]);
        }

        public Acc copy() {
            Acc a = new Acc(tokens.vocabSize);
            a.tokenCount = tokens.tokenCount;
            if (tokens.bits != null) { a.bits = tokens.bits.clone(); a.ids = null; }
            else a.ids = Arrays.copyOf(tokens.ids, Math.max(64, tokens.tokenCount));
            a.endsAtRoot = endsAtRoot;
            for (int e : endEdges) a.endEdges.add(e);
            for (int i = 0; i < loopNodes.length; i++) a.addLoopEnd(loopNodes[i], loopBytes[2 * i], loopBytes[2 * i + 1]);
            return a;
        }
    }

    /**
     * The strongly connected component of an automaton state, as a canonical key: its states
     * renumbered breadth-first from the state, transitions out of the component replaced by
     * ports numbered in order of appearance ({@code -2 - port}); {@link #ports} maps them back to
     * the automaton's states. Equal keys walk the trie identically up to the ports.
     */
    public static final class LoopCore {
        public final int[] table;
        public final boolean[] accepting;
        public final long[] loops;
        public final int[] ports;
        private final int hash;

        private LoopCore(int[] table, boolean[] accepting, int[] ports) {
            this.table = table;
            this.accepting = accepting;
            this.ports = ports;
            int n = accepting.length;
            loops = new long[2 * n];
            for (int s = 0; s < n; s++) {
                for (int b = 0; b < 128; b++) if (table[(s << 8) | b] == s) loops[2 * s + (b >>> 6)] |= 1L << b;
            }
            hash = 31 * Arrays.hashCode(table) + Arrays.hashCode(accepting);
        }

        public long estimatedBytes() { return 64 + 4L * table.length + accepting.length + 8L * loops.length + 4L * ports.length; }

        /** Null when the state is on no cycle, or its component has more than {@code max} states. */
        public static LoopCore of(ByteDfa dfa, int state, int max) {
            if (!dfa.onCycle(state)) return null;
            ByteDfa.Renumbered r = dfa.renumberFrom(state, max, true);
            return r == null ? null : new LoopCore(r.table(), r.accepting(), r.ports());
        }

        @Override public boolean equals(Object o) {
            return o instanceof LoopCore c && hash == c.hash && Arrays.equals(accepting, c.accepting) && Arrays.equals(table, c.table);
        }

        @Override public int hashCode() { return hash; }
    }
}
