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
     * Trie nodes where a terminal may end, as a walk found them: the children of end nodes grouped
     * by their byte, and the loop end nodes (see {@link Walk}). Immutable; a loop core's walk keeps
     * one, and every walk that contains that core's walk refers to it instead of copying it.
     */
    static final class Ends {
        static final Ends NONE = new Ends(new int[257], new int[0], new int[0], new long[0]);
        /** {@code node[start[b] .. start[b+1])}: children reached by byte b from an end node. */
        final int[] start, node;
        final int[] loopNodes;
        final long[] loopBytes;
        /** Bytes (4 longs) with at least one end child; the union of the loop bytes (2 longs). */
        final long[] bytes = new long[4], loopAny = new long[2];
        /** Kept by a loop core's walk (its cache counts its bytes), referred to by others. */
        boolean shared;

        Ends(int[] start, int[] node, int[] loopNodes, long[] loopBytes) {
            this.start = start;
            this.node = node;
            this.loopNodes = loopNodes;
            this.loopBytes = loopBytes;
            for (int b = 0; b < 256; b++) if (start[b] < start[b + 1]) bytes[b >>> 6] |= 1L << b;
            for (int i = 0; i < loopNodes.length; i++) { loopAny[0] |= loopBytes[2 * i]; loopAny[1] |= loopBytes[2 * i + 1]; }
        }

        /** End edges (trie child-edge indexes) grouped by byte into their child nodes. */
        static Ends of(VocabTrie trie, int[] edges, int[] loopNodes, long[] loopBytes) {
            int[] byteStart = new int[257];
            for (int c : edges) byteStart[trie.childByte(c) + 1]++;
            for (int b = 0; b < 256; b++) byteStart[b + 1] += byteStart[b];
            int[] fill = Arrays.copyOf(byteStart, 256);
            int[] nodes = new int[edges.length];
            for (int c : edges) nodes[fill[trie.childByte(c)]++] = trie.childNode(c);
            return new Ends(byteStart, nodes, loopNodes, loopBytes);
        }

        int count() { return node.length + loopNodes.length; }

        /** These ends without the end children in {@code endRanges} and the loop end nodes in {@code loopRanges} (this, when none is). */
        Ends without(HubWalk.Ranges endRanges, HubWalk.Ranges loopRanges) {
            boolean inside = false;
            if (!endRanges.isEmpty()) for (int i = 0; i < node.length && !inside; i++) inside = endRanges.contains(node[i]);
            if (!loopRanges.isEmpty()) for (int i = 0; i < loopNodes.length && !inside; i++) inside = loopRanges.contains(loopNodes[i]);
            if (!inside) return this;
            int[] s = new int[257];
            int[] kept = new int[node.length];
            int k = 0;
            for (int b = 0; b < 256; b++) {
                s[b] = k;
                for (int i = start[b]; i < start[b + 1]; i++) if (!endRanges.contains(node[i])) kept[k++] = node[i];
            }
            s[256] = k;
            IntList loops = new IntList();
            long[] bytes = new long[2 * loopNodes.length];
            for (int i = 0; i < loopNodes.length; i++) {
                if (loopRanges.contains(loopNodes[i])) continue;
                bytes[2 * loops.size] = loopBytes[2 * i];
                bytes[2 * loops.size + 1] = loopBytes[2 * i + 1];
                loops.add(loopNodes[i]);
            }
            return new Ends(s, Arrays.copyOf(kept, k), loops.toArray(), Arrays.copyOf(bytes, 2 * loops.size));
        }

        long estimatedBytes() { return 64 + 4L * (start.length + node.length + loopNodes.length) + 8L * loopBytes.length; }
    }

    /**
     * One walk's results.
     * <ul>
     * <li>{@link #continuation}: tokens that end inside the terminal;</li>
     * <li>{@link #endsAtRoot}: the automaton state itself is accepting (the terminal may end before the token's first byte);</li>
     * <li>{@link #endChildren(int)}: the trie nodes reached by byte b from a node where the terminal may end: where
     *     the next terminal starts with b (grouped by byte, so a tree or a direct mask visits only bytes its follow
     *     terminals can start with); {@link #endBytes} says which bytes have any;</li>
     * <li>{@link #loopEndNodes}: trie nodes whose whole subtree stays in one accepting, self-looping state, so the
     *     terminal may end at every node in it; not listed child by child: a next terminal can only start there with
     *     one of that state's loop bytes, looked up by byte ({@link VocabTrie#byteEdgesFrom}); {@link #loopEndBytes}:
     *     per loop end node, the loop bytes of its state (2 longs: bytes 0..63, 64..127); where no next terminal
     *     starts with one of their union ({@link #loopEndsStart}), the loop end nodes, often tens of thousands inside
     *     a string, are skipped at once.</li>
     * </ul>
     *
     * <p>The ends are kept as parts ({@link Ends}): the walk's own and those of loop core walks it contains,
     * shared with every other walk that contains them, and joined per byte when first asked for.
     * Why: inside "any key but these", each state's walk holds the free string's ends, tens of
     * thousands of trie nodes; copying and grouping them per state was two thirds of computing such
     * a walk, while masks and trees only ask for the few bytes that may follow (a closing quote).
     */
    public static final class Walk {
        private final TokenSet continuation;
        private final boolean endsAtRoot;
        final Ends[] parts;
        private final long[] endBytes = new long[4], loopAny = new long[2];
        private final int endCount, loopCount;
        /** Per byte, the end children joined over the parts (filled on first use). */
        private volatile java.util.concurrent.atomic.AtomicReferenceArray<int[]> byByte;
        private volatile Ends joined;

        Walk(TokenSet continuation, boolean endsAtRoot, Ends[] parts) {
            this.continuation = continuation;
            this.endsAtRoot = endsAtRoot;
            this.parts = parts;
            int ends = 0, loops = 0;
            for (Ends e : parts) {
                for (int i = 0; i < 4; i++) endBytes[i] |= e.bytes[i];
                loopAny[0] |= e.loopAny[0];
                loopAny[1] |= e.loopAny[1];
                ends += e.node.length;
                loops += e.loopNodes.length;
            }
            endCount = ends;
            loopCount = loops;
            if (parts.length == 1) joined = parts[0];
            else if (parts.length == 0) joined = Ends.NONE;
        }

        public TokenSet continuation() { return continuation; }

        public boolean endsAtRoot() { return endsAtRoot; }

        public int endChildCount() { return endCount + loopCount; }

        /** Whether some end child is reached by byte b. */
        public boolean endsBefore(int b) { return (endBytes[b >>> 6] & (1L << b)) != 0; }

        /** The end children reached by byte b (do not modify). */
        public int[] endChildren(int b) {
            var memo = byByte;
            if (memo == null) byByte = memo = new java.util.concurrent.atomic.AtomicReferenceArray<>(256);
            int[] r = memo.get(b);
            if (r == null) {
                int n = 0;
                for (Ends e : parts) n += e.start[b + 1] - e.start[b];
                r = new int[n];
                int k = 0;
                for (Ends e : parts) {
                    int from = e.start[b], len = e.start[b + 1] - from;
                    System.arraycopy(e.node, from, r, k, len);
                    k += len;
                }
                memo.set(b, r);
            }
            return r;
        }

        /** Whether a next terminal starting with one of the ASCII bytes {@code lo}/{@code hi} may start in a loop end node. */
        public boolean loopEndsStart(long lo, long hi) { return ((loopAny[0] & lo) | (loopAny[1] & hi)) != 0; }

        public boolean hasLoopEnds() { return loopCount > 0; }

        public int[] endChildStart() { return join().start; }
        public int[] endChildNode() { return join().node; }
        public int[] loopEndNodes() { return joinLoops().loopNodes; }
        public long[] loopEndBytes() { return joinLoops().loopBytes; }

        private volatile Ends joinedLoops;

        /** The parts' loop end nodes as one (without joining the end children). */
        private Ends joinLoops() {
            Ends j = joined != null ? joined : joinedLoops;
            if (j != null) return j;
            int[] loopNodes = new int[loopCount];
            long[] loopBytes = new long[2 * loopCount];
            int l = 0;
            for (Ends e : parts) {
                System.arraycopy(e.loopNodes, 0, loopNodes, l, e.loopNodes.length);
                System.arraycopy(e.loopBytes, 0, loopBytes, 2 * l, e.loopBytes.length);
                l += e.loopNodes.length;
            }
            return joinedLoops = new Ends(new int[257], new int[0], loopNodes, loopBytes);
        }

        /** The parts as one (all bytes at once: tests, and trees comparing walks by content). */
        private Ends join() {
            Ends j = joined;
            if (j != null) return j;
            int[] start = new int[257], node = new int[endCount], loopNodes = new int[loopCount];
            long[] loopBytes = new long[2 * loopCount];
            int k = 0, l = 0;
            for (int b = 0; b < 256; b++) {
                start[b] = k;
                for (Ends e : parts) {
                    int from = e.start[b], len = e.start[b + 1] - from;
                    System.arraycopy(e.node, from, node, k, len);
                    k += len;
                }
            }
            start[256] = k;
            for (Ends e : parts) {
                System.arraycopy(e.loopNodes, 0, loopNodes, l, e.loopNodes.length);
                System.arraycopy(e.loopBytes, 0, loopBytes, 2 * l, e.loopBytes.length);
                l += e.loopNodes.length;
            }
            return joined = new Ends(start, node, loopNodes, loopBytes);
        }

        /**
         * A hash of the ends consistent with {@link #sameEnds}: shared parts by identity, own parts by content.
         */
        public int endsHash() {
            int h = 1;
            for (Ends e : parts) {
                h = 31 * h + (e.shared ? System.identityHashCode(e)
                        : (Arrays.hashCode(e.node) * 31 + Arrays.hashCode(e.start)) * 31 + Arrays.hashCode(e.loopNodes) * 17 + Arrays.hashCode(e.loopBytes));
            }
            return h;
        }

        /**
         * True when the two walks have the same ends, found the same way (the same shared parts, equal own
         * parts): exact, though walks with equal ends found differently compare unequal.
         */
        public boolean sameEnds(Walk o) {
            if (parts.length != o.parts.length) return false;
            for (int i = 0; i < parts.length; i++) {
                Ends a = parts[i], b = o.parts[i];
                if (a == b) continue;
                if (a.shared || b.shared || !Arrays.equals(a.start, b.start) || !Arrays.equals(a.node, b.node)
                        || !Arrays.equals(a.loopNodes, b.loopNodes) || !Arrays.equals(a.loopBytes, b.loopBytes)) return false;
            }
            return true;
        }

        /** Estimated heap bytes of this walk's own parts (shared parts are counted by the cache that keeps them). */
        long ownBytes() {
            long b = 64 + continuation.estimatedBytes() + 8L * parts.length;
            for (Ends e : parts) if (!e.shared) b += e.estimatedBytes();
            return b;
        }
    }

    /**
     * Byte bounds of the caches (estimates; see {@link RuntimeCaches}). Each evicts its least
     * recently used entries when full, so a long-running server keeps its hot walks.
     */
    public static final String WALKS = "terminal walks", BY_RESIDUAL = "walks by residual", BY_CORE = "walks by loop core",
            CORE_BELOW = "loop core walks below a first byte", LOOP_CORES = "loop cores", COUNTED = "counted walks",
            TWINS = "twin states", FUTURES = "bounded future classes", RUNS = "unit runs", NEAR = "near future classes",
            ALIKE = "alike state pairs";
    public static final java.util.List<String> CACHE_NAMES = java.util.List.of(WALKS, BY_RESIDUAL, BY_CORE, CORE_BELOW, LOOP_CORES, COUNTED, TWINS, FUTURES, RUNS, NEAR, ALIKE);
    /** Bounds for the caches of tries made from now on (see {@link RuntimeCaches#setMaxBytes}). */
    private static final java.util.Map<String, Long> DEFAULT_MAX = new java.util.concurrent.ConcurrentHashMap<>(java.util.Map.of(
            WALKS, 256L << 20, BY_RESIDUAL, 64L << 20, BY_CORE, 64L << 20, CORE_BELOW, 16L << 20, LOOP_CORES, 16L << 20,
            COUNTED, 64L << 20, TWINS, 16L << 20, FUTURES, 16L << 20, RUNS, 16L << 20, NEAR, 16L << 20));
    static { DEFAULT_MAX.put(ALIKE, 16L << 20); } // Map.of takes at most ten pairs

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
    public java.util.List<BoundedCache<?, ?>> caches() { return java.util.List.of(cache, byResidual, byCore, byCoreBelow, cores, counted, twins, futures, runs, near, alike); }

    /** Per automaton, the state pairs {@link HubWalk} has proved alike or not (see {@code HubWalk.parting}). */
    private final BoundedCache<ByteDfa, java.util.concurrent.ConcurrentHashMap<Long, long[]>> alike = newCache(ALIKE);

    /** The automaton's known alike pairs, to read and add to; {@link #alikeAdded} counts what is added. */
    java.util.concurrent.ConcurrentHashMap<Long, long[]> alikePairs(ByteDfa dfa) {
        return alike.computeIfAbsent(dfa, d -> new java.util.concurrent.ConcurrentHashMap<>(), m -> 64L * dfa.stateCount());
    }

    void alikeAdded(ByteDfa dfa, int pairs) { alike.addBytes(dfa, 64L * pairs); }

    /** A counted walk's key: the loop automaton, its unit boundaries and final weights (null: those of body+) and the loop state. */
    private record CountedKey(ByteDfa loop, java.util.List<Integer> boundaries, int state) {}

    private final BoundedCache<CountedKey, CountedWalk> counted = newCache(COUNTED);

    /** {@link CountedWalk} of terminal automaton {@code loop} counted by {@code c}, from loop state s. */
    public CountedWalk counted(ByteDfa loop, CountedLoop c, int s, int vocabSize) {
        CountedKey key = new CountedKey(loop, c.boundaryKey(), s);
        CountedWalk known = counted.get(key);
        if (known != null) return known;
        int same = sameCountedWalk(loop, c, s);
        if (same != s) {
            // the walk of an equivalent state (a string's start and the state after a character): computed once
            CountedWalk w = counted(loop, c, same, vocabSize);
            return counted.putIfAbsent(key, w, w.estimatedBytes());
        }
        return counted.computeIfAbsent(key, k -> {
                    dev.domino.runtime.internal.mask.MaskServing.note(dev.domino.runtime.internal.mask.MaskServing.WALKS);
                    return CountedWalk.compute(trie, loop, c, s, vocabSize);
                },
                CountedWalk::estimatedBytes);
    }

    /**
     * The first loop state whose counted walk equals state s's: the same step on every byte and the same unit
     * boundary, so that every trie node below the root is reached in the same state with the same copies; and each
     * state's units to finish no larger than the least need a child can have, so that the root's need is never the
     * largest on a path. (Ends at the root are not part of a counted walk.) A JSON string's start state and the state
     * after a whole character are such a pair: the first two masks inside a new string each walked the vocabulary.
     */
    private static int sameCountedWalk(ByteDfa loop, CountedLoop c, int s) {
        int k = c.startsCopy(s) ? 1 : 0;
        int least = Integer.MAX_VALUE;
        for (int b = 0; b < 256; b++) {
            int q = loop.step(s, b);
            if (q >= 0) least = Math.min(least, k + c.unitsToFinish(q));
        }
        if (c.unitsToFinish(s) > least) return s;
        for (int other = 0; other < s; other++) {
            if (c.startsCopy(other) != c.startsCopy(s) || c.unitsToFinish(other) > least) continue;
            boolean same = true;
            for (int b = 0; b < 256 && same; b++) same = loop.step(other, b) == loop.step(s, b);
            if (same) return other;
        }
        return s;
    }

    /** The state's walk if it is computed already, else null. */
    public Walk cachedWalk(ByteDfa dfa, int state) {
        AtomicReferenceArray<Walk> perState = cache.get(dfa);
        return perState == null ? null : perState.get(state);
    }

    /** Whether states are recognized as unit runs ({@link UnitRun}); off only to compare (tests). */
    private static volatile boolean unitRuns = true;

    public static void setUnitRuns(boolean on) { unitRuns = on; }

    private static final java.util.concurrent.atomic.AtomicLong UNIT_RUNS = new java.util.concurrent.atomic.AtomicLong();

    /** How many states this process recognized as unit runs (tests check that the mechanism is exercised). */
    public static long unitRunCount() { return UNIT_RUNS.get(); }

    /** Sentinel of {@link #runs}: the state is no unit run. */
    private static final Object NO_RUN = new Object();
    private final BoundedCache<ByteDfa, AtomicReferenceArray<Object>> runs = newCache(RUNS);

    /**
     * The {@link UnitRun} that state is (a short counted string unrolled into the automaton), or null. Only
     * states off every cycle: a state on one is walked as its loop core.
     */
    public UnitRun unitRun(ByteDfa dfa, int state) {
        AtomicReferenceArray<Object> perState = runs.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()),
                a -> 16 + 4L * a.length() + 64L * dfa.stateCount());
        Object r = perState.get(state);
        if (r == null) {
            UnitRun run = !unitRuns || dfa.onCycle(state) ? null : UnitRun.of(dfa, state);
            if (run != null) UNIT_RUNS.incrementAndGet();
            r = run == null ? NO_RUN : run;
            if (perState.compareAndSet(state, null, r) && run != null) runs.addBytes(dfa, 64 + 4L * 256);
            r = perState.get(state);
        }
        return r == NO_RUN ? null : (UnitRun) r;
    }

    public Walk get(ByteDfa dfa, int state, int vocabSize) { return get(dfa, state, vocabSize, true); }

    private Walk get(ByteDfa dfa, int state, int vocabSize, boolean tryCheap) {
        AtomicReferenceArray<Walk> perState = cache.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()),
                a -> 16 + 4L * a.length() + 64L * dfa.stateCount()); // the array, and the automaton the key holds
        Walk w = perState.get(state);
        if (w == null) {
            // a walk that dies within a few trie levels (inside a key, a number, a keyword) is computed at once
            // while the automaton's states are not grouped by bounded future: grouping them costs more than such a walk
            Walk cheap = tryCheap && (!sharing || futures.get(dfa) == null) ? cheapWalk(dfa, state, vocabSize) : null;
            if (cheap != null) {
                dev.domino.runtime.internal.mask.MaskServing.note(dev.domino.runtime.internal.mask.MaskServing.WALKS);
                if (perState.compareAndSet(state, null, cheap)) cache.addBytes(dfa, bytesOf(cheap));
                return perState.get(state);
            }
            int rep = sharing ? sameFutureAs(dfa, state) : state;
            if (rep != state) {
                // a state no token can tell from its class's first: that state's walk, computed once
                w = get(dfa, rep, vocabSize, false); // no cheaper than this state's: not cheap
                if (perState.compareAndSet(state, null, w)) cache.addBytes(dfa, 16);
                return perState.get(state);
            }
            NearFutures nearby = sharing && nearSharing ? nearFutures(dfa) : null;
            if (nearby != null) {
                for (int c : nearby.candidates(state)) {
                    Walk same = perState.get(c);
                    if (same != null && nearby.sameBelow(trie, dfa, state, c)) {
                        // a walk equal to one computed before, told by the few long tokens' paths
                        NEAR_WALKS.incrementAndGet();
                        if (perState.compareAndSet(state, null, same)) cache.addBytes(dfa, 16);
                        return perState.get(state);
                    }
                }
            }
            dev.domino.runtime.internal.mask.MaskServing.note(dev.domino.runtime.internal.mask.MaskServing.WALKS);
            w = computeShared(dfa, state, vocabSize);
            if (perState.compareAndSet(state, null, w)) cache.addBytes(dfa, bytesOf(w));
            w = perState.get(state);
            if (nearby != null) nearby.walked(state);
        }
        return w;
    }

    /** Whether walks are shared by near future ({@link NearFutures}); off only to compare (tests). */
    private static volatile boolean nearSharing = true;

    public static void setNearSharing(boolean on) { nearSharing = on; }

    private static final java.util.concurrent.atomic.AtomicLong NEAR_WALKS = new java.util.concurrent.atomic.AtomicLong();

    /** How many walks this process took from a state of the same near future (tests check that the mechanism is exercised). */
    public static long nearWalks() { return NEAR_WALKS.get(); }

    /** Per automaton its near future classes; empty where refining costs too much (no state shares by near future). */
    private final BoundedCache<ByteDfa, java.util.Optional<NearFutures>> near = newCache(NEAR);
    private volatile int nearDepth = -1;

    private NearFutures nearFutures(ByteDfa dfa) {
        int depth = nearDepth;
        if (depth < 0) nearDepth = depth = NearFutures.depthOf(trie);
        int d = depth;
        return near.computeIfAbsent(dfa, k -> java.util.Optional.ofNullable(NearFutures.of(k, d, MAX_REFINE_WORK)),
                o -> 64 + o.map(NearFutures::estimatedBytes).orElse(0L)).orElse(null);
    }

    /** Whether walks may be derived from a hub state's walk ({@link HubWalk}); off only to compare (tests). */
    private static volatile boolean hubs = true;

    public static void setHubWalks(boolean on) { hubs = on; }

    private static final java.util.concurrent.atomic.AtomicLong HUB_WALKS = new java.util.concurrent.atomic.AtomicLong();

    /** How many walks this process derived from a hub's walk (tests check that the mechanism is exercised). */
    public static long hubWalks() { return HUB_WALKS.get(); }

    /** How many alike state pairs hub walks jumped below to their parting bytes (tests check the mechanism is exercised). */
    public static long alikeJumps() { return HubWalk.alikeJumps(); }

    /** Whether state has a twin ({@link Twin}): such states are walked as their twin, not by {@link HubWalk}. */
    boolean hasTwin(ByteDfa dfa, int state) { return twinOf(dfa, state) != null; }

    /** The plain walk from (node, state), added to the accumulator; false when it gave up after {@code maxNodes} nodes. */
    boolean walkPlain(Acc acc, ByteDfa dfa, int node, int state, int maxNodes) { return walkInto(acc, dfa, node, state, maxNodes); }

    Acc newAcc(int vocabSize) { return new Acc(vocabSize); }

    /** Whether states share walks by bounded future ({@link BoundedFutures}); off only to compare (tests). */
    private static volatile boolean sharing = true;

    public static void setFutureSharing(boolean on) { sharing = on; }

    /** Refinement work (range visits) above which an automaton's states keep their own walks. */
    private static final long MAX_REFINE_WORK = 2_000_000;
    /** Sentinel of {@link #futures}: every state is its own class. */
    private static final int[] IDENTITY = new int[0];
    private final BoundedCache<ByteDfa, int[]> futures = newCache(FUTURES);

    /**
     * The smallest state that behaves like {@code state} on every trie path (see {@link BoundedFutures}): on byte
     * strings no longer than the longest token made of bytes the automaton reads at all.
     */
    public int sameFutureAs(ByteDfa dfa, int state) {
        int[] rep = futures.computeIfAbsent(dfa, d -> {
            int[] r = BoundedFutures.representatives(d, deepestPath(d), MAX_REFINE_WORK);
            return r == null ? IDENTITY : r;
        }, r -> 16 + 4L * r.length + 64L * dfa.stateCount());
        return rep == IDENTITY ? state : rep[state];
    }

    /** The deepest trie node whose path uses only bytes some transition of the automaton reads: no walk goes deeper. */
    private int deepestPath(ByteDfa dfa) {
        long[] read = new long[4];
        for (int r = 0; r < dfa.rangeCount(); r++) {
            for (int b = dfa.rangeLo(r), h = dfa.rangeHi(r); b <= h; b++) read[b >>> 6] |= 1L << b;
        }
        DeepNodes deep = deepNodes();
        for (int i = 0; i < deep.depth.length; i++) {
            long[] p = deep.pathBytes;
            if ((p[4 * i] & ~read[0]) == 0 && (p[4 * i + 1] & ~read[1]) == 0 && (p[4 * i + 2] & ~read[2]) == 0 && (p[4 * i + 3] & ~read[3]) == 0) {
                return deep.depth[i];
            }
        }
        // no deep node: the restricted trie's shallow part, node by node
        int deepest = 0;
        int[] stack = new int[256];
        int sp = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int n = stack[--sp];
            deepest = Math.max(deepest, trie.depth(n));
            if (trie.depth(n) >= DeepNodes.SHALLOW) continue;
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int b = trie.childByte(c);
                if ((read[b >>> 6] & (1L << b)) == 0) continue;
                if (sp == stack.length) stack = Arrays.copyOf(stack, 2 * sp);
                stack[sp++] = trie.childNode(c);
            }
        }
        return deepest;
    }

    /** The trie nodes deeper than {@link #SHALLOW}, deepest first, with the bytes on their paths (4 longs each). */
    private record DeepNodes(int[] depth, long[] pathBytes) {
        static final int SHALLOW = 12;
    }

    private volatile DeepNodes deepNodes;

    private DeepNodes deepNodes() {
        DeepNodes d = deepNodes;
        if (d != null) return d;
        int nodes = trie.nodeCount();
        long[] path = new long[4 * nodes];
        IntList deep = new IntList();
        // nodes are numbered so that a child comes after its parent (a walk from the root in node order)
        int[] stack = new int[256];
        int sp = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int n = stack[--sp];
            if (trie.depth(n) > DeepNodes.SHALLOW) deep.add(n);
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int child = trie.childNode(c), b = trie.childByte(c);
                for (int k = 0; k < 4; k++) path[4 * child + k] = path[4 * n + k];
                path[4 * child + (b >>> 6)] |= 1L << b;
                if (sp == stack.length) stack = Arrays.copyOf(stack, 2 * sp);
                stack[sp++] = child;
            }
        }
        Integer[] order = new Integer[deep.size];
        for (int i = 0; i < order.length; i++) order[i] = deep.a[i];
        Arrays.sort(order, (x, y) -> Integer.compare(trie.depth(y), trie.depth(x)));
        int[] depth = new int[order.length];
        long[] bytes = new long[4 * order.length];
        for (int i = 0; i < order.length; i++) {
            depth[i] = trie.depth(order[i]);
            System.arraycopy(path, 4 * order[i], bytes, 4 * i, 4);
        }
        return deepNodes = new DeepNodes(depth, bytes);
    }

    /** Estimated heap bytes of a walk. */
    public static long bytesOf(Walk w) { return w.ownBytes(); }

    /**
     * The walk from state when it visits fewer than {@link #CHEAP_WALK_NODES} trie nodes, else null. Most walks die
     * within a few trie levels (inside a key, a number, a keyword): not worth looking for something to share with.
     * (A state that steps like a string's state walks nearly the whole vocabulary: not attempted.)
     */
    private Walk cheapWalk(ByteDfa dfa, int state, int vocabSize) {
        if (!dfa.onCycle(state) && twinOf(dfa, state) != null) return null;
        Acc cheap = new Acc(vocabSize);
        return walkInto(cheap, dfa, 0, state, CHEAP_WALK_NODES) ? cheap.finish(vocabSize) : null;
    }

    private Walk computeShared(ByteDfa dfa, int state, int vocabSize) {
        LoopCore core = LoopCore.of(dfa, state, MAX_SHARED_STATES);
        if (core != null && core.ports.length > 0) {
            // a string state of "any key but these" has the same residual in every such automaton (the rest of
            // the string, the quote, the colon): the paths leaving its core were walked again per automaton
            ByteDfa residual = dfa.residual(state, MAX_SHARED_STATES);
            if (residual != null) {
                Walk known = byResidual.get(residual);
                if (known != null) return known;
                Walk w = fromCoreOrHub(dfa, state, core, vocabSize);
                return byResidual.putIfAbsent(residual, w, bytesOf(w) + 1024L * residual.stateCount());
            }
            return fromCoreOrHub(dfa, state, core, vocabSize);
        }
        ByteDfa residual = dfa.residual(state, MAX_SHARED_STATES);
        if (residual == null) {
            Walk w = hubs ? HubWalk.of(this, trie, dfa, state, vocabSize) : null;
            if (w == null) return computeByChild(dfa, state, vocabSize);
            HUB_WALKS.incrementAndGet();
            return w;
        }
        Walk w = byResidual.get(residual);
        if (w == null) {
            // a residual no automaton has walked: derived from the state's hub where it has one, as a state with a
            // larger residual is (a prefix of a declared key inside "any key but these", a few states from the end
            // of the key: its residual holds the free string, walked first byte by first byte at 10 to 20 times the
            // cost). A walk depends only on the residual, so the derived walk is shared by it as well.
            w = hubs ? HubWalk.of(this, trie, dfa, state, vocabSize) : null;
            if (w != null) HUB_WALKS.incrementAndGet();
            else w = computeByChild(residual, 0, vocabSize);
            w = byResidual.putIfAbsent(residual, w, bytesOf(w) + 1024L * residual.stateCount()); // the key: ~1 KB per state
        }
        return w;
    }

    /** The walk of a state in a loop core with exits: derived from its hub's where it has one, else from the core's. */
    private Walk fromCoreOrHub(ByteDfa dfa, int state, LoopCore core, int vocabSize) {
        // a core is keyed by the state it is entered at: each partial match of an unanchored pattern (a key holding
        // [0-9a-f]{32}) is a core of its own, and its walk, nearly the whole vocabulary, was walked whole for each.
        // A core not walked before is derived from its hub's walk where it has a hub (the searching state).
        if (hubs && byCore.get(core) == null) {
            Walk w = HubWalk.of(this, trie, dfa, state, vocabSize);
            if (w != null) {
                HUB_WALKS.incrementAndGet();
                return w;
            }
        }
        return fromCore(dfa, core, vocabSize);
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
        Twin twin = twinOf(dfa, state);
        if (twin != null) {
            walkTwin(acc, dfa, 0, state, twin);
            return acc.finish(vocabSize);
        }
        if (dfa.isAccepting(state)) acc.endsAtRoot = true;
        java.util.Map<Integer, LoopCore> coreOf = new java.util.HashMap<>();
        for (int c = trie.firstChild(0); c < trie.endChild(0); c++) {
            int s2 = dfa.step(state, trie.childByte(c));
            if (s2 < 0) continue;
            int child = trie.childNode(c);
            LoopCore core = coreOf.computeIfAbsent(s2, k -> coreAt(dfa, k));
            if (core == null) {
                walkSharing(acc, dfa, child, s2);
                continue;
            }
            addCoreBelow(acc, dfa, core, child, vocabSize);
        }
        return acc.finish(vocabSize);
    }

    /** The shared walk of {@code core} below trie node n (entered in the core's first state), then the paths leaving it. */
    private void addCoreBelow(Acc acc, ByteDfa dfa, LoopCore core, int n, int vocabSize) {
        CoreWalk cw = coreBelow(core, n, vocabSize);
        cw.addTo(acc);
        for (int i = 0; i < cw.exitEdges.length; i++) {
            walkSharing(acc, dfa, trie.childNode(cw.exitEdges[i]), core.ports[cw.exitPorts[i]]);
        }
    }

    private CoreWalk coreBelow(LoopCore core, int n, int vocabSize) {
        CoreBelow key = new CoreBelow(core, n);
        CoreWalk cw = byCoreBelow.get(key);
        if (cw == null) {
            Acc below = new Acc(vocabSize);
            walkInto(below, core.table, core.accepting, core.loops, n, 0);
            cw = new CoreWalk(below);
            cw = byCoreBelow.putIfAbsent(key, cw, cw.estimatedBytes());
        }
        return cw;
    }

    /**
     * A state off every cycle that steps like a state of a loop core on all bytes but a few: inside "any key
     * but these", the state after a declared key's prefix steps like the free string's state except on the
     * bytes that continue a declared key (and, at a whole key, the closing quote).
     *
     * @param state  the loop core state it steps like (not accepting)
     * @param differ the bytes (4 longs) on which the two states step differently
     */
    private record Twin(int state, long[] differ) {
        boolean differs(int b) { return (differ[b >>> 6] & (1L << b)) != 0; }
    }

    /** Sentinel of {@link #twins}: the state has no twin. */
    private static final Twin NO_TWIN = new Twin(-1, new long[4]);
    /** At most this many bytes may differ between a state and its twin. */
    private static final int MAX_TWIN_BYTES = 48;
    /** At least this many bytes must lead both states to the same live state. */
    private static final int MIN_TWIN_SHARED_BYTES = 64;
    private final BoundedCache<ByteDfa, AtomicReferenceArray<Twin>> twins = newCache(TWINS);

    /** The state's {@link Twin}: the successor most bytes lead to, if it is in a loop core and steps alike; else null. */
    private Twin twinOf(ByteDfa dfa, int state) {
        if (dfa.onCycle(state)) return null;
        AtomicReferenceArray<Twin> perState = twins.computeIfAbsent(dfa, d -> new AtomicReferenceArray<>(d.stateCount()),
                a -> 16 + 4L * a.length() + 64L * dfa.stateCount());
        Twin t = perState.get(state);
        if (t == null) {
            t = findTwin(dfa, state);
            if (perState.compareAndSet(state, null, t) && t != NO_TWIN) twins.addBytes(dfa, 64);
            t = perState.get(state);
        }
        return t == NO_TWIN ? null : t;
    }

    private Twin findTwin(ByteDfa dfa, int state) {
        int[] next = new int[256];
        for (int b = 0; b < 256; b++) next[b] = dfa.step(state, b);
        int[] sorted = next.clone();
        Arrays.sort(sorted);
        int best = -1, bestRun = 0;
        for (int i = 0; i < 256; ) {
            int j = i;
            while (j < 256 && sorted[j] == sorted[i]) j++;
            if (sorted[i] >= 0 && j - i > bestRun) { best = sorted[i]; bestRun = j - i; }
            i = j;
        }
        if (best < 0 || best == state || dfa.isAccepting(best) || coreAt(dfa, best) == null) return NO_TWIN;
        long[] differ = new long[4];
        int count = 0, sameLive = 0;
        for (int b = 0; b < 256; b++) {
            int t = dfa.step(best, b);
            if (t != next[b]) { differ[b >>> 6] |= 1L << b; count++; }
            else if (t >= 0) sameLive++;
        }
        // a twin only where both walk most of the vocabulary alike (a string's characters): elsewhere the
        // plain walk is small, and shared dead bytes would make unrelated states twins
        return count > MAX_TWIN_BYTES || sameLive < MIN_TWIN_SHARED_BYTES ? NO_TWIN : new Twin(best, differ);
    }

    /**
     * The walk of {@code state} below trie node n, as its twin's walk (shared: the twin's whole walk at the root,
     * its loop core's walk below n elsewhere) without the children on bytes where the two step differently,
     * and those children walked from the state's own successors (the same way again when they have twins).
     *
     * <p>Why: "any key but these" has a state per prefix of each declared key, and each walked the trie below
     * its prefix node by node (37% of all mask CPU on the heaviest dev files): nearly the whole vocabulary,
     * most of it exactly as the free string walks it.
     */
    private void walkTwin(Acc acc, ByteDfa dfa, int n, int state, Twin twin) {
        if (acc.bits == null) acc.toBitmap();
        int first = trie.firstChild(n), end = trie.endChild(n);
        IntList differing = new IntList();
        for (int c = first; c < end; c++) if (twin.differs(trie.childByte(c))) differing.add(c);
        int[] lo = new int[differing.size], hi = new int[differing.size];
        for (int i = 0; i < differing.size; i++) {
            int child = trie.childNode(differing.a[i]);
            lo[i] = child;
            hi[i] = trie.subtreeEnd(child);
        }
        if (n == 0) {
            Walk w = get(dfa, twin.state(), acc.vocabSize);
            w.continuation().orInto(acc.bits);
            acc.tokenCount += w.continuation().size();
            for (Ends e : w.parts) addEndsOutside(acc, e, lo, hi);
            if (dfa.isAccepting(state)) acc.endsAtRoot = true;
        } else {
            LoopCore core = coreAt(dfa, twin.state());
            CoreWalk cw = coreBelow(core, n, acc.vocabSize);
            CoreWalk.orTokens(cw.tokens, acc);
            addEndsOutside(acc, cw.ends, lo, hi);
            for (int i = 0; i < cw.exitEdges.length; i++) {
                int child = trie.childNode(cw.exitEdges[i]);
                if (!inRanges(child, lo, hi)) walkSharing(acc, dfa, child, core.ports[cw.exitPorts[i]]);
            }
            if (dfa.isAccepting(state)) for (int c = first; c < end; c++) acc.endEdges.add(c);
        }
        // the twin's tokens below the differing children are not this state's
        for (int i = 0; i < lo.length; i++) {
            for (int k = trie.subtreeTokenStart(lo[i]), ke = trie.subtreeTokenEnd(lo[i]); k < ke; k++) {
                int id = trie.token(k);
                long bit = 1L << id;
                if ((acc.bits[id >>> 6] & bit) != 0) { acc.bits[id >>> 6] &= ~bit; acc.tokenCount--; }
            }
        }
        for (int i = 0; i < differing.size; i++) {
            int c = differing.a[i], s2 = dfa.step(state, trie.childByte(c));
            if (s2 < 0) continue;
            Twin t2 = twinOf(dfa, s2);
            if (t2 != null) walkTwin(acc, dfa, trie.childNode(c), s2, t2);
            else walkSharing(acc, dfa, trie.childNode(c), s2);
        }
    }

    private static boolean inRanges(int node, int[] lo, int[] hi) {
        for (int i = 0; i < lo.length; i++) if (node >= lo[i] && node < hi[i]) return true;
        return false;
    }

    /** Adds the ends outside the trie node ranges: shared as they are when none is inside one. */
    private void addEndsOutside(Acc acc, Ends e, int[] lo, int[] hi) {
        if (e.count() == 0) return;
        boolean inside = false;
        if (lo.length > 0) {
            for (int i = 0; i < e.node.length && !inside; i++) inside = inRanges(e.node[i], lo, hi);
            for (int i = 0; i < e.loopNodes.length && !inside; i++) inside = inRanges(e.loopNodes[i], lo, hi);
        }
        if (!inside) { acc.parts.add(e); return; }
        int[] start = new int[257];
        int[] node = new int[e.node.length];
        int k = 0;
        for (int b = 0; b < 256; b++) {
            start[b] = k;
            for (int i = e.start[b]; i < e.start[b + 1]; i++) if (!inRanges(e.node[i], lo, hi)) node[k++] = e.node[i];
        }
        start[256] = k;
        IntList loops = new IntList();
        long[] loopBytes = new long[2 * e.loopNodes.length];
        for (int i = 0; i < e.loopNodes.length; i++) {
            if (inRanges(e.loopNodes[i], lo, hi)) continue;
            loopBytes[2 * loops.size] = e.loopBytes[2 * i];
            loopBytes[2 * loops.size + 1] = e.loopBytes[2 * i + 1];
            loops.add(e.loopNodes[i]);
        }
        acc.parts.add(new Ends(start, Arrays.copyOf(node, k), loops.toArray(), Arrays.copyOf(loopBytes, 2 * loops.size)));
    }

    /** Subtrees below this many trie nodes are walked rather than looked up by loop core. */
    private static final int CORE_SHARE_MIN_NODES = 256;

    /**
     * {@link #walkInto} that, wherever it enters a loop core at a trie node with a large subtree,
     * adds the core's shared walk below that node ({@link #addCoreBelow}) instead of walking it.
     *
     * <p>Why: "any key but these" has a state per prefix of each declared key, off every cycle;
     * each walked the free string below its prefix again (nearly every token starting with those
     * bytes). Now only the declared prefixes' paths are walked per state, and the string's part
     * below each trie node is walked once for every automaton with that string core.
     */
    private void walkSharing(Acc acc, ByteDfa dfa, int startNode, int startState) {
        if (dfa.isDense()) walkInto(acc, dfa.table(), dfa.acceptingArray(), dfa.asciiLoops(), startNode, startState, Integer.MAX_VALUE, dfa);
        else walkSparse(acc, dfa, startNode, startState, Integer.MAX_VALUE, true);
    }

    /** True (and the core's walk added) when the walk at (n, s) is better looked up by loop core. */
    private boolean sharedCore(Acc acc, ByteDfa dfa, int n, int s) {
        if (n == 0 || trie.subtreeEnd(n) - n < CORE_SHARE_MIN_NODES) return false;
        LoopCore core = coreAt(dfa, s);
        if (core == null) return false;
        addCoreBelow(acc, dfa, core, n, acc.vocabSize);
        return true;
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
            walkSharing(acc, dfa, trie.childNode(cw.exitEdges[i]), core.ports[cw.exitPorts[i]]);
        }
        return acc.finish(vocabSize);
    }

    /**
     * Walks the trie from {@code startNode} in automaton state {@code startState}. The table maps
     * {@code (state << 8) | byte} to the next state, -1 (dead), or {@code -2 - p}: leaves through
     * port p (loop cores only; recorded as an exit, not followed).
     */
    private void walkInto(Acc acc, int[] table, boolean[] accepting, long[] loops, int startNode, int startState) {
        walkInto(acc, table, accepting, loops, startNode, startState, Integer.MAX_VALUE, null);
    }

    /** A terminal automaton's walk: its dense table when it has one, else its byte ranges. */
    private boolean walkInto(Acc acc, ByteDfa dfa, int startNode, int startState, int maxNodes) {
        if (dfa.isDense()) return walkInto(acc, dfa.table(), dfa.acceptingArray(), dfa.asciiLoops(), startNode, startState, maxNodes, null);
        return walkSparse(acc, dfa, startNode, startState, maxNodes, false);
    }

    /**
     * {@link #walkInto} over a sparse automaton: each range of the state is joined with the trie
     * node's children (both sorted by byte), so a trie state with one range costs a binary search
     * and its matching children, not one lookup per child; where the state has more ranges than
     * the node has children, each child finds its range instead.
     */
    private boolean walkSparse(Acc acc, ByteDfa dfa, int startNode, int startState, int maxNodes, boolean shareCores) {
        boolean[] accepting = dfa.acceptingArray();
        long[] loops = dfa.asciiLoops();
        int visited = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = startNode; stackState[sp++] = startState;
        while (sp > 0) {
            if (++visited > maxNodes) return false;
            acc.tick();
            int n = stackNode[--sp], s = stackState[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long loLoop = loops[2 * s], hiLoop = loops[2 * s + 1];
            if (n != 0 && (loLoop | hiLoop) != 0 && trie.subtreeWithin(n, loLoop, hiLoop)) {
                acc.addTokens(trie, trie.tokenStart(n), trie.subtreeTokenEnd(n));
                if (accepting[s] && first < end) acc.addLoopEnd(n, loLoop, hiLoop);
                continue;
            }
            if (shareCores && sharedCore(acc, dfa, n, s)) continue;
            if (n != 0) acc.addTokens(trie, trie.tokenStart(n), trie.tokenEnd(n));
            if (first == end) continue;
            if (accepting[s]) {
                if (n == 0) acc.endsAtRoot = true;
                else for (int c = first; c < end; c++) acc.endEdges.add(c);
            }
            int rs = dfa.firstRange(s), re = dfa.endRange(s);
            if (re - rs > end - first) {
                // more ranges than children (a pattern's state, a trie node deep in a token): each child's range, galloping
                // over the ranges from the previous child's, instead of passing every range below the last child
                int r = rs;
                for (int c = first; c < end && r < re; c++) {
                    int b = trie.childByte(c);
                    if (dfa.rangeHi(r) < b) r = firstRangeReaching(dfa, r, re, b);
                    if (r == re) break;
                    if (dfa.rangeLo(r) > b) continue;
                    if (sp == stackNode.length) { stackNode = Arrays.copyOf(stackNode, sp * 2); stackState = Arrays.copyOf(stackState, sp * 2); }
                    stackNode[sp] = trie.childNode(c); stackState[sp++] = dfa.rangeTarget(r);
                }
                continue;
            }
            int c = first;
            for (int r = rs; r < re && c < end; r++) {
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

    /** The first range in (r, re) whose last byte is at least b (re if none), range r's being below b: galloping. */
    private static int firstRangeReaching(ByteDfa dfa, int r, int re, int b) {
        int step = 1, a = r;
        while (a + step < re && dfa.rangeHi(a + step) < b) { a += step; step <<= 1; }
        int z = Math.min(re, a + step); // rangeHi(a) < b; rangeHi(z) >= b or z == re
        a++;
        while (a < z) { int m = (a + z) >>> 1; if (dfa.rangeHi(m) < b) a = m + 1; else z = m; }
        return a;
    }

    /**
     * @param shareIn the automaton whose table this is, to share its loop cores' walks (see {@link #walkSharing}); null: walk all
     * @return false when the walk gave up after visiting {@code maxNodes} trie nodes ({@code acc} is then partial)
     */
    private boolean walkInto(Acc acc, int[] table, boolean[] accepting, long[] loops, int startNode, int startState, int maxNodes,
                             ByteDfa shareIn) {
        int visited = 0;
        int[] stackNode = new int[256], stackState = new int[256];
        int sp = 0;
        stackNode[sp] = startNode; stackState[sp++] = startState;
        while (sp > 0) {
            if (++visited > maxNodes) return false;
            acc.tick();
            int n = stackNode[--sp], s = stackState[sp];
            int first = trie.firstChild(n), end = trie.endChild(n);
            long loLoop = loops[2 * s], hiLoop = loops[2 * s + 1];
            if (n != 0 && (loLoop | hiLoop) != 0 && trie.subtreeWithin(n, loLoop, hiLoop)) {
                // every byte below n loops on s: the whole subtree stays in state s
                acc.addTokens(trie, trie.tokenStart(n), trie.subtreeTokenEnd(n));
                if (accepting[s] && first < end) acc.addLoopEnd(n, loLoop, hiLoop);
                continue;
            }
            if (shareIn != null && sharedCore(acc, shareIn, n, s)) continue;
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
    final class Acc {
        private static final int SPARSE_LIMIT = 1024;
        public final int vocabSize;
        /** Tokens as a list while few (most walks), as a bitmap once many. */
        public long[] bits;
        public int[] ids = new int[64];
        public int tokenCount;
        public boolean endsAtRoot;
        public final IntList endEdges = new IntList(), loopNodes = new IntList(), exitEdges = new IntList(), exitPorts = new IntList();
        public long[] loopBytes = new long[16];
        /** Ends of loop core walks this walk contains (shared, not copied). */
        public final java.util.List<Ends> parts = new java.util.ArrayList<>(0);

        /** The walk's work against the thread's build budget: a walk a mask's tree build computes gives up with the build ({@link BuildBudget}). */
        private final BuildBudget.Meter budget = new BuildBudget.Meter();

        public Acc(int vocabSize) { this.vocabSize = vocabSize; }

        /** Counts a trie node visited. */
        void tick() { budget.tick(); }

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

        /** This walk's own ends (not its parts'). */
        public Ends ownEnds() {
            if (endEdges.size == 0 && loopNodes.size == 0) return Ends.NONE;
            return Ends.of(trie, endEdges.toArray(), loopNodes.toArray(), Arrays.copyOf(loopBytes, 2 * loopNodes.size));
        }

        public Walk finish(int vocabSize) {
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
            Ends own = ownEnds();
            java.util.List<Ends> all = new java.util.ArrayList<>(parts.size() + 1);
            for (Ends e : parts) if (e.count() > 0) all.add(e);
            if (own.count() > 0) all.add(own);
            return new Walk(continuation, endsAtRoot, all.toArray(new Ends[0]));
        }
    }

    /** The shared part of a loop core's walk: everything but the per-automaton walks past its exits. */
    private final class CoreWalk {
        public final Acc tokens; // never modified after construction: copies are taken
        public final boolean endsAtRoot;
        /** Its ends, referred to by every walk that contains this one. */
        public final Ends ends;
        public final int[] exitEdges, exitPorts;

        public CoreWalk(Acc a) {
            tokens = a;
            endsAtRoot = a.endsAtRoot;
            ends = a.ownEnds();
            ends.shared = true;
            exitEdges = a.exitEdges.toArray();
            exitPorts = a.exitPorts.toArray();
        }

        public long estimatedBytes() {
            return 64 + (tokens.bits != null ? 8L * tokens.bits.length : 4L * tokens.ids.length) + ends.estimatedBytes()
                    + 4L * (exitEdges.length + exitPorts.length);
        }

        /** ORs t's tokens into a's bitmap (a's tokens distinct from t's). */
        static void orTokens(Acc t, Acc a) {
            if (t.bits != null) {
                for (int w = 0; w < a.bits.length; w++) a.bits[w] |= t.bits[w];
            } else {
                for (int i = 0; i < t.tokenCount; i++) a.bits[t.ids[i] >>> 6] |= 1L << t.ids[i];
            }
            a.tokenCount += t.tokenCount;
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
            if (ends.count() > 0) a.parts.add(ends);
        }

        public Acc copy() {
            Acc a = new Acc(tokens.vocabSize);
            a.tokenCount = tokens.tokenCount;
            if (tokens.bits != null) { a.bits = tokens.bits.clone(); a.ids = null; }
            else a.ids = Arrays.copyOf(tokens.ids, Math.max(64, tokens.tokenCount));
            a.endsAtRoot = endsAtRoot;
            if (ends.count() > 0) a.parts.add(ends);
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
