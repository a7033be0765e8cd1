package dev.domino.runtime;

import dev.domino.runtime.internal.scan.ScannerStates;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.util.BoundedCache;
import dev.domino.runtime.internal.util.IntList;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.BitSet;

/**
 * What the vocabulary does inside one terminal from one automaton state, with the token's first byte
 * read from that state, whatever the parser: the tokens that stay inside the terminal to their last
 * byte, grouped by the state they end in, and the trie nodes where the terminal may end with more
 * bytes to come. Used by {@link LexemeTokenLimits} to find the tokens that pass a limit without
 * stepping the parser through the (often nearly whole) trie inside a lexeme: whether a token staying
 * inside passes depends only on the state it ends in, and the parser is stepped only where the
 * lexeme ends inside a token. One walk of the automaton alone over the trie per (terminal, state),
 * kept per artifact.
 */
final class LexemeInsideWalks {
    /**
     * One walk's result. {@code endStates[i]}'s tokens are {@code denseTokens[i]} (mask words) or
     * {@code sparseTokens[i]} (ids), whichever is smaller. {@code endNodes}: trie nodes (the root
     * included) where the automaton is in an accepting state; {@code endNodeChildren}: their children
     * below the root, counted.
     */
    record Inside(int[] endStates, int[][] denseTokens, int[][] sparseTokens, BitSet endNodes, long endNodeChildren) {
        long estimatedBytes() {
            long bytes = 64L + endNodes.size() / 8 + 8L * endStates.length;
            for (int i = 0; i < endStates.length; i++) {
                bytes += 16 + 4L * (denseTokens[i] != null ? denseTokens[i].length : sparseTokens[i].length);
            }
            return bytes;
        }

        /** ORs the tokens that end in {@code endStates[i]} into {@code words}. */
        void addTokens(int i, int[] words) {
            if (denseTokens[i] != null) {
                int[] d = denseTokens[i];
                for (int w = 0; w < d.length; w++) words[w] |= d[w];
            } else {
                for (int id : sparseTokens[i]) words[id >>> 5] |= 1 << id;
            }
        }
    }

    private final ScannerStates scanner;
    private final VocabTrie trie;
    private final int words;
    private final BoundedCache<Long, Inside> cache = new BoundedCache<>("lexeme inside walks", 16L << 20);
    /** Per trie edge, the node it leaves (built on first use). */
    private volatile int[] edgeParent;

    LexemeInsideWalks(ScannerStates scanner, VocabTrie trie, int words) {
        this.scanner = scanner;
        this.trie = trie;
        this.words = words;
    }

    VocabTrie trie() { return trie; }

    /** The walk of terminal {@code t} from its local state {@code local}, at the trie's root. */
    Inside inside(int t, int local) {
        long key = ((long) t << 32) | local;
        Inside in = cache.get(key);
        if (in != null) return in;
        in = walk(scanner.terminal(t), local);
        return cache.putIfAbsent(key, in, in.estimatedBytes());
    }

    /** The node an edge leaves. */
    int parentOf(int edge) {
        int[] parents = edgeParent;
        if (parents == null) {
            int nodes = trie.nodeCount();
            parents = new int[trie.endChild(nodes - 1)];
            for (int n = 0; n < nodes; n++) {
                for (int e = trie.firstChild(n), last = trie.endChild(n); e < last; e++) parents[e] = n;
            }
            edgeParent = parents;
        }
        return parents[edge];
    }

    private static long[] asciiLoop(Terminal automaton, int state) {
        long[] loop = new long[2];
        for (int b = 0; b < 128; b++) if (automaton.step(state, b) == state) loop[b >>> 6] |= 1L << b;
        return loop;
    }

    private Inside walk(Terminal automaton, int local) {
        int states = automaton.stateCount();
        // a counted terminal may have many local states: a map then, an array otherwise
        java.util.Map<Integer, IntList> byEndMap = states > (1 << 16) ? new java.util.TreeMap<>() : null;
        IntList[] byEnd = byEndMap == null ? new IntList[states] : null;
        BitSet endNodes = new BitSet();
        long endNodeChildren = 0;
        // depth-first with an explicit stack of (node, state) pairs
        int[] stack = new int[64];
        int top = 0;
        stack[top++] = 0;
        stack[top++] = local;
        // per state reached, the ASCII bytes that keep it (bytes 0-63, 64-127)
        long[][] loops = byEnd != null ? new long[states][] : null;
        java.util.Map<Integer, long[]> loopMap = byEnd != null ? null : new java.util.HashMap<>();
        while (top > 0) {
            int state = stack[--top], node = stack[--top];
            long[] loop = loops != null ? loops[state] : loopMap.computeIfAbsent(state, k -> asciiLoop(automaton, k));
            if (loop == null) loops[state] = loop = asciiLoop(automaton, state);
            boolean whole = node != 0 && (loop[0] | loop[1]) != 0 && trie.subtreeWithin(node, loop[0], loop[1]);
            // a subtree whose every byte keeps the state: all of it at once (free text: most of the vocabulary)
            int last = whole ? trie.subtreeEnd(node) : node + 1;
            if (automaton.isAccepting(state)) {
                endNodes.set(node, last);
                if (node != 0) endNodeChildren += trie.firstChild(last) - trie.firstChild(node);
            }
            int start = trie.tokenStart(node), end = whole ? trie.subtreeTokenEnd(node) : trie.tokenEnd(node);
            if (start < end) {
                IntList list = byEnd != null ? byEnd[state] : byEndMap.computeIfAbsent(state, k -> new IntList());
                if (list == null) byEnd[state] = list = new IntList();
                for (int i = start; i < end; i++) list.add(trie.token(i));
            }
            if (whole) continue;
            int first = trie.firstChild(node), lastChild = trie.endChild(node);
            if (top + 2 * (lastChild - first) > stack.length) stack = java.util.Arrays.copyOf(stack, Math.max(2 * stack.length, top + 2 * (lastChild - first)));
            for (int e = first; e < lastChild; e++) {
                int s2 = automaton.step(state, trie.childByte(e));
                if (s2 < 0) continue;
                stack[top++] = trie.childNode(e);
                stack[top++] = s2;
            }
        }
        if (byEndMap == null) {
            byEndMap = new java.util.TreeMap<>();
            for (int s = 0; s < states; s++) if (byEnd[s] != null) byEndMap.put(s, byEnd[s]);
        }
        int groups = byEndMap.size();
        int[] endStates = new int[groups];
        int[][] dense = new int[groups][], sparse = new int[groups][];
        int g = 0;
        for (java.util.Map.Entry<Integer, IntList> entry : byEndMap.entrySet()) {
            int s = entry.getKey();
            IntList l = entry.getValue();
            endStates[g] = s;
            if (l.size() >= words) {
                int[] d = new int[words];
                for (int i = 0; i < l.size; i++) { int id = l.a[i]; d[id >>> 5] |= 1 << id; }
                dense[g] = d;
            } else {
                sparse[g] = l.toArray();
            }
            g++;
        }
        return new Inside(endStates, dense, sparse, endNodes, endNodeChildren);
    }
}
