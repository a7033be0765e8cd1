package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;

import dev.domino.runtime.*;

/**
 * The subterminal prefix tree of one scanner state (DOMINO's T_q), flattened into arrays.
 *
 * <p>Node 0 is the root. An <em>edge</em> labelled t means "terminal t ends here and the token
 * goes on"; it is followed only if the parser can scan t. A <em>group</em> (t, set) at a node
 * holds the tokens that end inside terminal t after the edges on the path; they are allowed if
 * the parser can accept t next. A group may instead name a <em>terminal class</em> (a negative
 * group terminal c, the class {@code terminalClasses[~c]}): its tokens end inside each terminal of
 * the class and are allowed if the parser can accept any of them. Classes keep a node whose many
 * follow terminals share most of their tokens (the whitespace before each of 100 optional keys)
 * from ORing the shared tokens once per terminal. Tokens whose traversals were too many to precompute are
 * <em>dynamic</em>: checked at run time by stepping bytes. Group sets live in {@link #tokenSets()}
 * (shared by all trees of an eagerly compiled artifact).
 *
 * <p>A <em>root reference</em> t at a node stands for terminal t started at the token's first
 * byte (the terminals on the path ended before it): the subtree is the artifact's <em>root
 * tree</em> of t, walked in its place when the parser can accept t. Wide terminals (a string's
 * characters, a key complement) are referenced instead of copied into a tree whose terminal may
 * end before the next token when more than two of them may follow it (see
 * {@link TreeBuilder#MAX_COPIED_WIDE}): a shared terminal such as a key's opening quote is followed by
 * every object's key complement, and copying all of them into its tree costs far more than
 * walking the one the parser allows.
 */
public final class TokenTree {
    public final int[] edgeStart;     // per node, index into edge arrays; length nodes+1
    public final int[] edgeTerminal;
    public final int[] edgeChild;
    public final int[] groupStart;    // per node, index into group arrays; length nodes+1
    public final int[] groupTerminal;
    public final int[] groupSet;      // index into tokenSets()
    /** Sorted distinct terminals per class; group terminal c < 0 names class ~c. */
    public final int[][] terminalClasses;
    public final int[] dynamicTokens;
    public final TokenSets sets;
    /**
     * Null, or for the tree of a counted terminal's loop state (see {@link CountedLoop}): per
     * group, the copies of the terminal each token's path starts ({@link Copies}).
     */
    public final Copies[] copies;
    /** Per node, index into {@link #rootTerminal}; length nodes+1. */
    public final int[] rootStart;
    /** Root references: terminals whose root trees stand for their subtrees here. */
    public final int[] rootTerminal;
    /**
     * The tree this one renames at its root ({@link #renamedRoot}), or this tree. Trees with one such origin
     * differ only in the terminal their root names: configurations in them at one parser state are walked
     * together (see {@code Matcher}).
     */
    public final TokenTree unrenamed;

    /**
     * A group's tokens ordered by the copies of the counted root terminal their paths start: a
     * state with {@code need} copies still missing and room for {@code room} more allows the
     * tokens with need ≤ copies ≤ room of every group but the root's own, where tokens stay
     * inside the terminal and only room counts.
     */
    public record Copies(int[] ids, int[] copies) {
        public int min() { return copies.length == 0 ? 0 : copies[0]; }
        public int max() { return copies.length == 0 ? 0 : copies[copies.length - 1]; }
        /** First index with copies ≥ k. */
        public int from(int k) {
            int lo = 0, hi = copies.length;
            while (lo < hi) { int mid = (lo + hi) >>> 1; if (copies[mid] < k) lo = mid + 1; else hi = mid; }
            return lo;
        }
    }

    /** A tree with, per group, the copies of its tokens aligned with the set's ascending ids (see {@link #copies}). */
    public TokenTree withCopies(int[][] copiesOfGroup) {
        if (copiesOfGroup.length != groupCount()) throw new IllegalArgumentException("copies for " + copiesOfGroup.length + " groups, tree has " + groupCount());
        Copies[] out = new Copies[copiesOfGroup.length];
        for (int g = 0; g < out.length; g++) {
            int[] ids = groupTokens(g).toArray();
            int[] k = copiesOfGroup[g];
            if (k.length != ids.length) throw new IllegalArgumentException("copies do not match group " + g);
            out[g] = sortedByCopies(ids, k);
        }
        return new TokenTree(this, edgeTerminal, groupTerminal, out, null);
    }

    /**
     * A tree with per group the given copies, shared with other trees (as read from an artifact,
     * whose reader checked each against its group's token set).
     */
    public TokenTree withSharedCopies(Copies[] ofGroup) {
        if (ofGroup.length != groupCount()) throw new IllegalArgumentException("copies for " + ofGroup.length + " groups, tree has " + groupCount());
        for (int g = 0; g < ofGroup.length; g++) {
            if (ofGroup[g].ids().length != groupTokens(g).size()) throw new IllegalArgumentException("copies do not match group " + g);
        }
        return new TokenTree(this, edgeTerminal, groupTerminal, ofGroup.clone(), null);
    }

    /**
     * The ids (ascending) ordered by their copies, ids ascending within equal copies. Copies are
     * small (at most a token's bytes plus a pattern's slack), so a counting sort: a string's
     * annotated trees hold groups of the whole vocabulary, and a comparison sort of them per group
     * dominated building such a tree.
     */
    static Copies sortedByCopies(int[] ids, int[] k) {
        int most = 0;
        for (int v : k) {
            if (v < 0) throw new IllegalArgumentException("negative copies");
            most = Math.max(most, v);
        }
        int[] sortedIds = new int[ids.length], sortedK = new int[ids.length];
        if (most > Math.max(1024, ids.length)) { // not from a tree builder: sort
            long[] packed = new long[ids.length];
            for (int i = 0; i < ids.length; i++) packed[i] = (long) k[i] << 32 | ids[i];
            java.util.Arrays.sort(packed);
            for (int i = 0; i < ids.length; i++) { sortedIds[i] = (int) packed[i]; sortedK[i] = (int) (packed[i] >>> 32); }
            return new Copies(sortedIds, sortedK);
        }
        int[] start = new int[most + 2];
        for (int v : k) start[v + 1]++;
        for (int v = 0; v <= most; v++) start[v + 1] += start[v];
        for (int i = 0; i < ids.length; i++) { // stable: ids stay ascending within a copies value
            int at = start[k[i]]++;
            sortedIds[at] = ids[i];
            sortedK[at] = k[i];
        }
        return new Copies(sortedIds, sortedK);
    }

    /** The same tree naming another terminal at its root (counted terminals with equal loops and followers). */
    public TokenTree renamedRoot(int from, int to) {
        int[] groups = groupTerminal.clone(), edges = edgeTerminal.clone();
        for (int g = 0; g < groupStart[1]; g++) {
            if (groups[g] == from) groups[g] = to;
            else if (groups[g] < 0 && java.util.Arrays.binarySearch(terminalClasses[~groups[g]], from) >= 0) {
                throw new IllegalStateException("a root group names a terminal class"); // the builder never makes one
            }
        }
        for (int e = 0; e < edgeStart[1]; e++) if (edges[e] == from) edges[e] = to;
        return new TokenTree(this, edges, groups, copies, unrenamed);
    }

    public boolean hasCopies() { return copies != null; }

    /**
     * What a walk below a node may add to a mask: the tokens of every group in the node's subtree,
     * and the terminals whose root trees the subtree references (their tokens come from those
     * trees). A walk may skip an edge whose child's tokens are all in the mask already, and so
     * the Earley scan it would take: where many configurations share tokens (a key's closing
     * quote and colon, after each of 40 object keys) most of a mask's scans are such.
     * {@code tokens} is null for a subtree of more than {@link #MAX_BELOW_TOKENS} group tokens:
     * checking it could cost more than the scan it would save.
     */
    public record Below(int[] tokens, int[] rootTerminals) {
        /** Whether every token is set in the int bitmask (32 tokens per int) starting at {@code base}; false when too wide to say. */
        public boolean tokensWithin(int[] mask, int base) {
            if (tokens == null) return false;
            for (int id : tokens) if ((mask[base + (id >>> 5)] & (1 << id)) == 0) return false;
            return true;
        }
    }

    /** Group tokens (counted per group, with repeats) past which a subtree's {@link Below} is not kept. */
    public static final int MAX_BELOW_TOKENS = 1024;

    private static final Below TOO_WIDE = new Below(null, new int[0]);

    /** Per node, {@link #below}, computed on first use (a race computes one twice; entries are immutable). */
    private volatile Below[] below;

    /** What a walk below {@code node} may add (see {@link Below}). */
    public Below below(int node) {
        Below[] cache = below;
        if (cache == null) below = cache = new Below[nodeCount()];
        Below b = cache[node];
        if (b == null) cache[node] = b = computeBelow(node);
        return b;
    }

    private Below computeBelow(int node) {
        int[] ids = new int[64];
        int n = 0;
        int[] roots = new int[0];
        int[] stack = new int[16];
        int top = 0;
        stack[top++] = node;
        while (top > 0) {
            int at = stack[--top];
            for (int g = groupStart[at]; g < groupStart[at + 1]; g++) {
                TokenSet set = sets.get(groupSet[g]);
                if (n + set.size() > MAX_BELOW_TOKENS) return TOO_WIDE;
                if (n + set.size() > ids.length) ids = java.util.Arrays.copyOf(ids, Math.max(2 * ids.length, n + set.size()));
                int[] add = set.toArray();
                System.arraycopy(add, 0, ids, n, add.length);
                n += add.length;
            }
            for (int r = rootStart[at]; r < rootStart[at + 1]; r++) {
                roots = java.util.Arrays.copyOf(roots, roots.length + 1);
                roots[roots.length - 1] = rootTerminal[r];
            }
            for (int e = edgeStart[at]; e < edgeStart[at + 1]; e++) {
                if (top == stack.length) stack = java.util.Arrays.copyOf(stack, 2 * top);
                stack[top++] = edgeChild[e];
            }
        }
        return new Below(java.util.Arrays.stream(ids, 0, n).sorted().distinct().toArray(), java.util.Arrays.stream(roots).sorted().distinct().toArray());
    }


    private TokenTree(TokenTree t, int[] edgeTerminal, int[] groupTerminal, Copies[] copies, TokenTree unrenamed) {
        this.unrenamed = unrenamed == null ? this : unrenamed;
        this.edgeStart = t.edgeStart;
        this.edgeTerminal = edgeTerminal;
        this.edgeChild = t.edgeChild;
        this.groupStart = t.groupStart;
        this.groupTerminal = groupTerminal;
        this.groupSet = t.groupSet;
        this.dynamicTokens = t.dynamicTokens;
        this.sets = t.sets;
        this.copies = copies;
        this.terminalClasses = t.terminalClasses;
        this.rootStart = t.rootStart;
        this.rootTerminal = t.rootTerminal;
    }

    public TokenTree(int[] edgeStart, int[] edgeTerminal, int[] edgeChild,
                     int[] groupStart, int[] groupTerminal, int[] groupSet, int[] dynamicTokens, TokenSets sets) {
        this(edgeStart, edgeTerminal, edgeChild, groupStart, groupTerminal, groupSet, dynamicTokens, sets, NO_CLASSES);
    }

    private static final int[][] NO_CLASSES = new int[0][];

    public TokenTree(int[] edgeStart, int[] edgeTerminal, int[] edgeChild, int[] groupStart, int[] groupTerminal,
                     int[] groupSet, int[] dynamicTokens, TokenSets sets, int[][] terminalClasses) {
        this(edgeStart, edgeTerminal, edgeChild, groupStart, groupTerminal, groupSet, dynamicTokens, sets, terminalClasses,
                new int[edgeStart.length], new int[0]);
    }

    public TokenTree(int[] edgeStart, int[] edgeTerminal, int[] edgeChild, int[] groupStart, int[] groupTerminal,
                     int[] groupSet, int[] dynamicTokens, TokenSets sets, int[][] terminalClasses, int[] rootStart, int[] rootTerminal) {
        int nodes = edgeStart.length - 1;
        if (nodes < 1 || rootStart.length != nodes + 1 || rootStart[0] != 0 || rootStart[nodes] != rootTerminal.length) {
            throw new IllegalArgumentException("inconsistent tree arrays");
        }
        for (int i = 0; i < nodes; i++) if (rootStart[i] > rootStart[i + 1]) throw new IllegalArgumentException("inconsistent tree arrays");
        for (int t : rootTerminal) if (t < 0) throw new IllegalArgumentException("bad root reference " + t);
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
        // a tree: every edge leads to a later node, and every node but the root has exactly one parent
        // (so a walk always terminates and never revisits a node)
        boolean[] hasParent = new boolean[nodes];
        for (int i = 0; i < nodes; i++) {
            for (int e = edgeStart[i]; e < edgeStart[i + 1]; e++) {
                int c = edgeChild[e];
                if (c <= i || c >= nodes || hasParent[c]) throw new IllegalArgumentException("bad tree edge");
                hasParent[c] = true;
            }
        }
        for (int g : groupSet) if (g < 0 || g >= sets.count()) throw new IllegalArgumentException("tree names unknown token set " + g);
        for (int[] c : terminalClasses) {
            if (c.length < 2) throw new IllegalArgumentException("terminal class of fewer than two terminals");
            for (int i = 0; i < c.length; i++) {
                if (c[i] < 0 || (i > 0 && c[i] <= c[i - 1])) throw new IllegalArgumentException("bad terminal class");
            }
        }
        for (int t : groupTerminal) if (t < 0 && ~t >= terminalClasses.length) throw new IllegalArgumentException("tree names unknown terminal class " + ~t);
        this.unrenamed = this;
        this.terminalClasses = terminalClasses;
        this.edgeStart = edgeStart;
        this.edgeTerminal = edgeTerminal;
        this.edgeChild = edgeChild;
        this.groupStart = groupStart;
        this.groupTerminal = groupTerminal;
        this.groupSet = groupSet;
        this.dynamicTokens = dynamicTokens;
        this.sets = sets;
        this.copies = null;
        this.rootStart = rootStart;
        this.rootTerminal = rootTerminal;
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
    /** The group's terminal, or a negative c for the terminal class {@code terminalClass(~c)}. */
    public int groupTerminal(int group) { return groupTerminal[group]; }
    /** The terminals a group's tokens end inside (any of them accepted allows the tokens). */
    public int[] groupTerminals(int group) {
        int t = groupTerminal[group];
        return t >= 0 ? new int[] {t} : terminalClasses[~t].clone();
    }
    public int terminalClassCount() { return terminalClasses.length; }
    public int[] terminalClass(int c) { return terminalClasses[c].clone(); }
    public int groupSet(int group) { return groupSet[group]; }
    public int firstRoot(int node) { return rootStart[node]; }
    public int endRoot(int node) { return rootStart[node + 1]; }
    /** The terminal of a root reference: its root tree stands for the subtree here. */
    public int rootTerminal(int reference) { return rootTerminal[reference]; }
    public int rootReferenceCount() { return rootTerminal.length; }
}
