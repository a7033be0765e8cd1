package dev.domino.runtime.internal.vocab;

import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.util.*;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A byte trie of the vocabulary's grammar tokens (specials and empty tokens left out).
 * Nodes are numbered in preorder with children in byte order, so node n's subtree is the id
 * range {@code [n, subtreeEnd(n))} and its tokens are a contiguous slice of the token list:
 * marking a whole subtree (e.g. as dynamic) is a range, not a walk.
 *
 * <p>One trie per vocabulary per process ({@link #of}): artifacts for the same vocabulary share
 * it, together with the per-terminal walks cached in {@link #walks()}. The tries are kept in a
 * byte-bounded LRU cache (see {@link RuntimeCaches}); an artifact holds its own trie, so evicting
 * one only stops sharing it with artifacts loaded later.
 */
public final class VocabTrie {
    public static final BoundedCache<String, VocabTrie> CACHE = new BoundedCache<>("vocabulary tries",
            512L << 20);

    private final int[] childStart;   // per node, into childByte/childNode; length nodes+1
    private final byte[] childByte;
    private final int[] childNode;
    private final int[] tokenStart;   // per node, into tokenList; length nodes+1
    private final int[] tokenList;
    private final int[] subtreeEnd;
    /** Per node, its depth (the bytes of the path to it: a token's length at its node). */
    private final int[] depth;
    /** Per node, the edges from it to the deepest node below it (0 for a leaf). */
    private final int[] height;
    /** Per node, the ASCII bytes on edges below it (2 longs per node), and whether any non-ASCII byte is. */
    private final long[] asciiBelow;
    private final java.util.BitSet nonAsciiBelow;
    /** Edge indexes grouped by byte, ascending within a byte: edges of byte b inside a subtree are a range. */
    private final int[] byteEdgeStart;
    private final int[] byteEdges;
    private final TerminalWalks walks = new TerminalWalks(this);
    private final int maxTokenBytes;

    /** The shared trie of a vocabulary (built on first use). */
    public static VocabTrie of(Vocabulary vocab) {
        String key = vocab.fingerprint();
        VocabTrie trie = CACHE.get(key);
        if (trie == null) {
            synchronized (CACHE) { // one build per vocabulary (hundreds of ms, tens of MB)
                trie = CACHE.get(key);
                if (trie == null) {
                    trie = new VocabTrie(vocab);
                    trie = CACHE.putIfAbsent(key, trie, trie.estimatedBytes());
                }
            }
        }
        return trie;
    }

    /** Estimated heap bytes of the trie's arrays (not its walks: those are counted by their own caches). */
    public long estimatedBytes() {
        return 4L * (childStart.length + childNode.length + tokenStart.length + tokenList.length + subtreeEnd.length
                + depth.length + height.length + byteEdgeStart.length + byteEdges.length) + childByte.length + 8L * asciiBelow.length + nonAsciiBelow.size() / 8 + 256;
    }

    /**
     * Idle visit counters of this trie's tree builds (an int per trie node: 1.6 MB for o200k).
     * Pooled, not per thread: a server's request threads would each have kept one per vocabulary;
     * the pool holds at most one per core, and is dropped with the trie.
     */
    private final ConcurrentLinkedQueue<int[]> idleCounters = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger idleCount = new java.util.concurrent.atomic.AtomicInteger();

    /** A zeroed int per node, for one build; give it back zeroed with {@link #releaseCounts}. */
    public int[] borrowCounts() {
        int[] c = idleCounters.poll();
        if (c == null) return new int[nodeCount()];
        idleCount.decrementAndGet();
        return c;
    }

    /**
     * Idle counters kept: one per core, read once (in a container each {@code availableProcessors()}
     * call reads the cgroup files, and builds release counters thousands of times).
     */
    private final int maxIdleCounters = Runtime.getRuntime().availableProcessors();

    public void releaseCounts(int[] counts) {
        if (idleCount.get() >= maxIdleCounters) return;
        idleCount.incrementAndGet();
        idleCounters.add(counts);
    }

    /** Bytes held by idle visit counters. */
    public long idleCounterBytes() { return 4L * nodeCount() * idleCount.get(); }

    public void clearIdleCounters() {
        while (idleCounters.poll() != null) idleCount.decrementAndGet();
    }

    public VocabTrie(Vocabulary vocab) {
        maxTokenBytes = vocab.maxTokenBytes();
        // 1. insert every token into a hashed trie: key (node, byte) -> child
        int capacityGuess = 1024;
        for (int id = 0; id < vocab.size(); id++) capacityGuess += vocab.bytes(id).length;
        LongIntMap edges = new LongIntMap(capacityGuess);
        int[] parent = new int[capacityGuess + 1];
        byte[] byteOf = new byte[capacityGuess + 1];
        int nodes = 1;
        parent[0] = -1;
        int[] tokenNode = new int[vocab.size()];
        Arrays.fill(tokenNode, -1);
        for (int id = 0; id < vocab.size(); id++) {
            if (!vocab.isGrammarToken(id)) continue;
            int n = 0;
            for (byte b : vocab.bytes(id)) {
                long key = ((long) n << 8) | (b & 0xFF);
                int child = edges.get(key);
                if (child < 0) {
                    child = nodes++;
                    parent[child] = n;
                    byteOf[child] = b;
                    edges.put(key, child);
                }
                n = child;
            }
            tokenNode[id] = n;
        }
        // 2. children lists, sorted by byte
        int[] count = new int[nodes + 1];
        for (int n = 1; n < nodes; n++) count[parent[n]]++;
        int[] start = new int[nodes + 1];
        for (int n = 0; n < nodes; n++) start[n + 1] = start[n] + count[n];
        int[] kids = new int[Math.max(0, nodes - 1)];
        int[] fill = Arrays.copyOf(start, nodes);
        for (int n = 1; n < nodes; n++) kids[fill[parent[n]]++] = n;
        for (int n = 0; n < nodes; n++) {
            for (int i = start[n] + 1; i < start[n + 1]; i++) { // insertion sort by unsigned byte
                int k = kids[i], j = i - 1;
                while (j >= start[n] && (byteOf[kids[j]] & 0xFF) > (byteOf[k] & 0xFF)) { kids[j + 1] = kids[j]; j--; }
                kids[j + 1] = k;
            }
        }
        // 3. preorder numbering
        int[] pre = new int[nodes];
        int[] stack = new int[nodes];
        int sp = 0, next = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int n = stack[--sp];
            pre[n] = next++;
            for (int i = start[n + 1] - 1; i >= start[n]; i--) stack[sp++] = kids[i];
        }
        int[] old = new int[nodes];
        for (int n = 0; n < nodes; n++) old[pre[n]] = n;
        childStart = new int[nodes + 1];
        childByte = new byte[Math.max(0, nodes - 1)];
        childNode = new int[Math.max(0, nodes - 1)];
        int e = 0;
        for (int p = 0; p < nodes; p++) {
            childStart[p] = e;
            int n = old[p];
            for (int i = start[n]; i < start[n + 1]; i++) {
                childByte[e] = byteOf[kids[i]];
                childNode[e++] = pre[kids[i]];
            }
        }
        childStart[nodes] = e;
        // 4. tokens per node (ids ascending within a node)
        int[] tokCount = new int[nodes + 1];
        int grammarTokens = 0;
        for (int id = 0; id < tokenNode.length; id++) if (tokenNode[id] >= 0) { tokCount[pre[tokenNode[id]]]++; grammarTokens++; }
        tokenStart = new int[nodes + 1];
        for (int n = 0; n < nodes; n++) tokenStart[n + 1] = tokenStart[n] + tokCount[n];
        tokenList = new int[grammarTokens];
        int[] tfill = Arrays.copyOf(tokenStart, nodes);
        for (int id = 0; id < tokenNode.length; id++) if (tokenNode[id] >= 0) tokenList[tfill[pre[tokenNode[id]]]++] = id;
        subtreeEnd = new int[nodes];
        for (int n = nodes - 1; n >= 0; n--) {
            subtreeEnd[n] = childStart[n + 1] > childStart[n] ? subtreeEnd[childNode[childStart[n + 1] - 1]] : n + 1;
        }
        depth = new int[nodes];
        for (int n = 0; n < nodes; n++) for (int c = childStart[n]; c < childStart[n + 1]; c++) depth[childNode[c]] = depth[n] + 1;
        height = new int[nodes];
        for (int n = nodes - 1; n >= 0; n--) for (int c = childStart[n]; c < childStart[n + 1]; c++) height[n] = Math.max(height[n], height[childNode[c]] + 1);
        byteEdgeStart = new int[257];
        for (int c = 0; c < e; c++) byteEdgeStart[(childByte[c] & 0xFF) + 1]++;
        for (int b = 0; b < 256; b++) byteEdgeStart[b + 1] += byteEdgeStart[b];
        byteEdges = new int[e];
        int[] efill = Arrays.copyOf(byteEdgeStart, 256);
        for (int c = 0; c < e; c++) byteEdges[efill[childByte[c] & 0xFF]++] = c;
        asciiBelow = new long[2 * nodes];
        nonAsciiBelow = new java.util.BitSet(nodes);
        for (int n = nodes - 1; n >= 0; n--) {
            long lo = 0, hi = 0;
            boolean high = false;
            for (int c = childStart[n]; c < childStart[n + 1]; c++) {
                int b = childByte[c] & 0xFF, child = childNode[c];
                if (b < 64) lo |= 1L << b; else if (b < 128) hi |= 1L << b; else high = true;
                lo |= asciiBelow[2 * child];
                hi |= asciiBelow[2 * child + 1];
                high |= nonAsciiBelow.get(child);
            }
            asciiBelow[2 * n] = lo;
            asciiBelow[2 * n + 1] = hi;
            if (high) nonAsciiBelow.set(n);
        }
    }

    /** Length of the vocabulary's longest token. */
    public int maxTokenBytes() { return maxTokenBytes; }
    public int nodeCount() { return subtreeEnd.length; }
    public int firstChild(int node) { return childStart[node]; }
    public int endChild(int node) { return childStart[node + 1]; }
    public int childByte(int index) { return childByte[index] & 0xFF; }
    public int childNode(int index) { return childNode[index]; }
    public int tokenStart(int node) { return tokenStart[node]; }
    public int tokenEnd(int node) { return tokenStart[node + 1]; }
    public int token(int index) { return tokenList[index]; }
    public int subtreeEnd(int node) { return subtreeEnd[node]; }
    /** The node's depth: the length in bytes of the path to it. */
    public int depth(int node) { return depth[node]; }
    /** Edges from the node to the deepest node below it. */
    public int height(int node) { return height[node]; }

    /** Edges labelled {@code b} in the subtree of {@code node} (excluding the edge into it): indexes into {@link #byteEdge}. */
    public int byteEdgesFrom(int b, int node) { return lowerBound(b, childStart[node]); }
    public int byteEdgesTo(int b, int node) { return lowerBound(b, childStart[subtreeEnd[node]]); }
    /** The i-th edge (in edge order) labelled with a given byte; see {@link #byteEdgesFrom}. */
    public int byteEdge(int i) { return byteEdges[i]; }

    private int lowerBound(int b, int edge) {
        int lo = byteEdgeStart[b], hi = byteEdgeStart[b + 1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (byteEdges[mid] < edge) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /**
     * True when every byte below {@code node} is an ASCII byte in {@code lo}/{@code hi} (bytes
     * 0..63 and 64..127): an automaton state that loops on those bytes keeps the whole subtree.
     */
    public boolean subtreeWithin(int node, long lo, long hi) {
        return (asciiBelow[2 * node] & ~lo) == 0 && (asciiBelow[2 * node + 1] & ~hi) == 0 && !nonAsciiBelow.get(node);
    }
    /** Index range in the token list of every token in node's subtree. */
    public int subtreeTokenStart(int node) { return tokenStart[node]; }
    public int subtreeTokenEnd(int node) { return tokenStart[subtreeEnd[node]]; }
    /** Per-terminal walks over this trie, cached for every artifact of the vocabulary. */
    public TerminalWalks walks() { return walks; }

    /** Open-addressing long → int map (-1 = absent). */
    private static final class LongIntMap {
        private long[] keys;
        private int[] values;
        private int size;

        public LongIntMap(int expected) {
            int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
            keys = new long[cap];
            values = new int[cap];
            Arrays.fill(keys, -1L);
        }

        public int get(long key) {
            int mask = keys.length - 1;
            for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
                if (keys[i] == key) return values[i];
                if (keys[i] == -1L) return -1;
            }
        }

        public void put(long key, int value) {
            if ((size + 1) * 2 > keys.length) grow();
            int mask = keys.length - 1;
            int i = mix(key) & mask;
            while (keys[i] != -1L && keys[i] != key) i = (i + 1) & mask;
            if (keys[i] == -1L) size++;
            keys[i] = key;
            values[i] = value;
        }

        private void grow() {
            long[] oldKeys = keys; int[] oldValues = values;
            keys = new long[oldKeys.length * 2];
            values = new int[oldKeys.length * 2];
            Arrays.fill(keys, -1L);
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != -1L) put(oldKeys[i], oldValues[i]);
        }

        private static int mix(long k) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 29));
        }
    }
}
