package dev.domino.compiler.trees;

import dev.domino.runtime.Vocabulary;

import java.util.Arrays;

/**
 * A byte trie of the vocabulary's grammar tokens (specials and empty tokens left out).
 * Nodes are numbered in preorder, so node n's subtree is the id range
 * {@code [n, subtreeEnd(n))} and its tokens are a contiguous slice of {@link #tokenList}:
 * marking a whole subtree (e.g. as dynamic) is a range, not a walk.
 */
public final class VocabTrie {
    private final int[] childStart;   // per node, into childByte/childNode; length nodes+1
    private final int[] childByte;
    private final int[] childNode;
    private final int[] tokenStart;   // per node, into tokenList; length nodes+1
    private final int[] tokenList;
    private final int[] subtreeEnd;

    public VocabTrie(Vocabulary vocab) {
        Integer[] ids = java.util.stream.IntStream.range(0, vocab.size())
                .filter(vocab::isGrammarToken).boxed().toArray(Integer[]::new);
        Arrays.sort(ids, (a, b) -> {
            int c = Arrays.compareUnsigned(vocab.bytes(a), vocab.bytes(b));
            return c != 0 ? c : Integer.compare(a, b);
        });
        // build in preorder: sorted tokens share prefixes with their predecessor
        int cap = 1024;
        int[] parent = new int[cap], byteOf = new int[cap], depth = new int[cap];
        int nodes = 1;
        parent[0] = -1;
        int[] tokenNode = new int[ids.length];
        int[] path = new int[256 + 1]; // node at each depth along the current path
        int pathLen = 1; // path[0] = root
        byte[] prev = new byte[0];
        for (int k = 0; k < ids.length; k++) {
            byte[] b = vocab.bytes(ids[k]);
            int common = 0;
            while (common < prev.length && common < b.length && common < pathLen - 1 && prev[common] == b[common]) common++;
            pathLen = common + 1;
            if (path.length < b.length + 1) path = Arrays.copyOf(path, b.length + 1);
            for (int i = common; i < b.length; i++) {
                if (nodes == cap) {
                    cap *= 2;
                    parent = Arrays.copyOf(parent, cap); byteOf = Arrays.copyOf(byteOf, cap); depth = Arrays.copyOf(depth, cap);
                }
                parent[nodes] = path[pathLen - 1];
                byteOf[nodes] = b[i] & 0xFF;
                depth[nodes] = i + 1;
                path[pathLen++] = nodes++;
            }
            tokenNode[k] = path[b.length];
            prev = b;
        }
        // children lists (CSR); preorder means children appear in increasing id order
        int[] childCount = new int[nodes + 1];
        for (int n = 1; n < nodes; n++) childCount[parent[n]]++;
        childStart = new int[nodes + 1];
        for (int n = 0; n < nodes; n++) childStart[n + 1] = childStart[n] + childCount[n];
        childByte = new int[nodes - 1];
        childNode = new int[nodes - 1];
        int[] fill = Arrays.copyOf(childStart, nodes);
        for (int n = 1; n < nodes; n++) {
            int p = parent[n];
            childByte[fill[p]] = byteOf[n];
            childNode[fill[p]++] = n;
        }
        int[] tokCount = new int[nodes + 1];
        for (int node : tokenNode) tokCount[node]++;
        tokenStart = new int[nodes + 1];
        for (int n = 0; n < nodes; n++) tokenStart[n + 1] = tokenStart[n] + tokCount[n];
        tokenList = new int[ids.length];
        int[] tfill = Arrays.copyOf(tokenStart, nodes);
        for (int k = 0; k < ids.length; k++) tokenList[tfill[tokenNode[k]]++] = ids[k];
        subtreeEnd = new int[nodes];
        for (int n = nodes - 1; n >= 0; n--) {
            int end = n + 1;
            if (childStart[n + 1] > childStart[n]) end = subtreeEnd[childNode[childStart[n + 1] - 1]];
            subtreeEnd[n] = end;
        }
    }

    public int nodeCount() { return subtreeEnd.length; }
    public int firstChild(int node) { return childStart[node]; }
    public int endChild(int node) { return childStart[node + 1]; }
    public int childByte(int index) { return childByte[index]; }
    public int childNode(int index) { return childNode[index]; }
    public int tokenStart(int node) { return tokenStart[node]; }
    public int tokenEnd(int node) { return tokenStart[node + 1]; }
    public int token(int index) { return tokenList[index]; }
    public int subtreeEnd(int node) { return subtreeEnd[node]; }
    /** Index range in the token list of every token in node's subtree. */
    public int subtreeTokenStart(int node) { return tokenStart[node]; }
    public int subtreeTokenEnd(int node) { return tokenStart[subtreeEnd[node]]; }
}
