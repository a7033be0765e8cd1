package dev.domino.runtime;

/**
 * The subterminal prefix tree of one scanner state (DOMINO's T_q), flattened into arrays.
 *
 * <p>Node 0 is the root. An <em>edge</em> labelled t means "terminal t ends here and the token
 * goes on"; it is followed only if the parser can scan t. A <em>group</em> (t, set) at a node
 * holds the tokens that end inside terminal t after the edges on the path; they are allowed if
 * the parser can accept t next. Tokens whose traversals were too many to precompute are
 * <em>dynamic</em>: checked at run time by stepping bytes. Group sets live in {@link #tokenSets()}
 * (shared by all trees of an eagerly compiled artifact).
 */
public final class TokenTree {
    final int[] edgeStart;     // per node, index into edge arrays; length nodes+1
    final int[] edgeTerminal;
    final int[] edgeChild;
    final int[] groupStart;    // per node, index into group arrays; length nodes+1
    final int[] groupTerminal;
    final int[] groupSet;      // index into tokenSets()
    final int[] dynamicTokens;
    final TokenSets sets;

    public TokenTree(int[] edgeStart, int[] edgeTerminal, int[] edgeChild,
                     int[] groupStart, int[] groupTerminal, int[] groupSet, int[] dynamicTokens, TokenSets sets) {
        int nodes = edgeStart.length - 1;
        if (nodes < 1 || groupStart.length != nodes + 1 || edgeTerminal.length != edgeChild.length
                || groupTerminal.length != groupSet.length
                || edgeStart[nodes] != edgeTerminal.length || groupStart[nodes] != groupTerminal.length) {
            throw new IllegalArgumentException("inconsistent tree arrays");
        }
        for (int i = 0; i < nodes; i++) {
            if (edgeStart[i] > edgeStart[i + 1] || groupStart[i] > groupStart[i + 1] || edgeStart[i] < 0 || groupStart[i] < 0) {
                throw new IllegalArgumentException("inconsistent tree arrays");
            }
        }
        for (int c : edgeChild) if (c <= 0 || c >= nodes) throw new IllegalArgumentException("bad tree edge");
        for (int g : groupSet) if (g < 0 || g >= sets.count()) throw new IllegalArgumentException("tree names unknown token set " + g);
        this.edgeStart = edgeStart;
        this.edgeTerminal = edgeTerminal;
        this.edgeChild = edgeChild;
        this.groupStart = groupStart;
        this.groupTerminal = groupTerminal;
        this.groupSet = groupSet;
        this.dynamicTokens = dynamicTokens;
        this.sets = sets;
    }

    /** The token sets this tree's groups refer to. */
    public TokenSets tokenSets() { return sets; }
    /** The token set of a group. */
    public TokenSet groupTokens(int group) { return sets.get(groupSet[group]); }

    public int nodeCount() { return edgeStart.length - 1; }
    public int edgeCount() { return edgeTerminal.length; }
    public int groupCount() { return groupTerminal.length; }
    public int[] dynamicTokens() { return dynamicTokens.clone(); }
    public int dynamicTokenCount() { return dynamicTokens.length; }

    public int firstEdge(int node) { return edgeStart[node]; }
    public int endEdge(int node) { return edgeStart[node + 1]; }
    public int edgeTerminal(int edge) { return edgeTerminal[edge]; }
    public int edgeChild(int edge) { return edgeChild[edge]; }
    public int firstGroup(int node) { return groupStart[node]; }
    public int endGroup(int node) { return groupStart[node + 1]; }
    public int groupTerminal(int group) { return groupTerminal[group]; }
    public int groupSet(int group) { return groupSet[group]; }
}
