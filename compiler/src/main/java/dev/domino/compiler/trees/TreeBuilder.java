package dev.domino.compiler.trees;

import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.runtime.ByteDfa;
import dev.domino.runtime.Terminal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the subterminal prefix tree T_q of one scanner state by walking the vocabulary trie
 * with the scanner: a dead scanner branch prunes every token below that trie node at once.
 *
 * <p>From position (t, s) a byte either continues t, or, when s is accepting, ends t (an edge
 * labelled t) and starts a terminal that may follow t. Tokens are recorded at the node of the
 * path in a group keyed by the terminal they end inside. When one trie node is reached by more
 * than {@code cap} paths (lexically ambiguous grammars can make that exponential), every token
 * below it becomes <em>dynamic</em> instead: the runtime checks it byte by byte.
 */
public final class TreeBuilder {
    private final List<Terminal> terminals;
    private final BitSet[] follow;
    private final BitSet first;
    private final VocabTrie trie;
    private final int cap;
    private final int[][] startersByByte;

    public TreeBuilder(LexedGrammar grammar, VocabTrie trie, int cap) {
        this.terminals = grammar.terminals();
        this.follow = grammar.follow();
        this.first = grammar.first();
        this.trie = trie;
        this.cap = cap;
        startersByByte = new int[256][];
        for (int b = 0; b < 256; b++) {
            List<Integer> list = new ArrayList<>();
            for (int t = 0; t < terminals.size(); t++) {
                ByteDfa dfa = terminals.get(t).dfa();
                if (dfa.step(dfa.start(), b) >= 0) list.add(t);
            }
            startersByByte[b] = list.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** A tree before its token sets are pooled: groups hold sorted token ids. */
    public record BuiltTree(int[] edgeStart, int[] edgeTerminal, int[] edgeChild,
                            int[] groupStart, int[] groupTerminal, int[][] groupTokens, int[] dynamicTokens) {}

    private static final class Node {
        final TreeMap<Integer, Node> children = new TreeMap<>();
        final TreeMap<Integer, IntList> groups = new TreeMap<>();
    }

    private final class Walk {
        final Node root = new Node();
        final int[] visits = new int[trie.nodeCount()];
        final List<Integer> dynamicSubtrees = new ArrayList<>();

        void fromBetween() {
            for (int c = trie.firstChild(0); c < trie.endChild(0); c++) {
                int b = trie.childByte(c);
                for (int t : startersByByte[b]) {
                    if (!first.get(t)) continue;
                    ByteDfa dfa = terminals.get(t).dfa();
                    dfs(trie.childNode(c), t, dfa.step(dfa.start(), b), root);
                }
            }
        }

        void dfs(int n, int t, int s, Node node) {
            if (++visits[n] > cap) {
                if (visits[n] == cap + 1) dynamicSubtrees.add(n);
                return;
            }
            if (trie.tokenEnd(n) > trie.tokenStart(n)) {
                IntList group = node.groups.computeIfAbsent(t, k -> new IntList());
                for (int i = trie.tokenStart(n); i < trie.tokenEnd(n); i++) group.add(trie.token(i));
            }
            ByteDfa dfa = terminals.get(t).dfa();
            boolean canEnd = dfa.isAccepting(s);
            Node ended = null;
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int b = trie.childByte(c);
                int child = trie.childNode(c);
                int s2 = dfa.step(s, b);
                if (s2 >= 0) dfs(child, t, s2, node);
                if (canEnd) {
                    for (int t2 : startersByByte[b]) {
                        if (!follow[t].get(t2)) continue;
                        if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                        ByteDfa dfa2 = terminals.get(t2).dfa();
                        dfs(child, t2, dfa2.step(dfa2.start(), b), ended);
                    }
                }
            }
        }
    }

    /** @param terminal -1 for the between-terminals state, else the terminal of state {@code state} */
    public BuiltTree build(int terminal, int state) {
        Walk w = new Walk();
        if (terminal < 0) w.fromBetween();
        else w.dfs(0, terminal, state, w.root);
        BitSet dynamic = new BitSet();
        for (int n : w.dynamicSubtrees) {
            for (int i = trie.subtreeTokenStart(n); i < trie.subtreeTokenEnd(n); i++) dynamic.set(trie.token(i));
        }
        return flatten(w.root, dynamic);
    }

    private BuiltTree flatten(Node root, BitSet dynamic) {
        // drop dynamic tokens, then empty subtrees
        prune(root, dynamic);
        List<Node> order = new ArrayList<>();
        order.add(root);
        for (int i = 0; i < order.size(); i++) order.addAll(order.get(i).children.values());
        Map<Node, Integer> ids = new java.util.IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) ids.put(order.get(i), i);
        int nodes = order.size();
        int[] edgeStart = new int[nodes + 1], groupStart = new int[nodes + 1];
        IntList edgeTerminal = new IntList(), edgeChild = new IntList(), groupTerminal = new IntList();
        List<int[]> groupTokens = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            Node node = order.get(i);
            edgeStart[i] = edgeTerminal.size();
            groupStart[i] = groupTerminal.size();
            for (Map.Entry<Integer, Node> e : node.children.entrySet()) {
                edgeTerminal.add(e.getKey());
                edgeChild.add(ids.get(e.getValue()));
            }
            for (Map.Entry<Integer, IntList> g : node.groups.entrySet()) {
                groupTerminal.add(g.getKey());
                groupTokens.add(g.getValue().sortedDistinct());
            }
        }
        edgeStart[nodes] = edgeTerminal.size();
        groupStart[nodes] = groupTerminal.size();
        return new BuiltTree(edgeStart, edgeTerminal.toArray(), edgeChild.toArray(), groupStart,
                groupTerminal.toArray(), groupTokens.toArray(new int[0][]), dynamic.stream().toArray());
    }

    /** Removes dynamic tokens; returns true when the subtree holds nothing. */
    private static boolean prune(Node node, BitSet dynamic) {
        if (!dynamic.isEmpty()) {
            node.groups.values().forEach(g -> g.removeIf(dynamic));
            node.groups.values().removeIf(IntList::isEmpty);
        }
        node.children.values().removeIf(child -> prune(child, dynamic));
        return node.groups.isEmpty() && node.children.isEmpty();
    }

    /** Growable int array. */
    static final class IntList {
        int[] a = new int[8];
        int size;

        void add(int v) {
            if (size == a.length) a = Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }

        int size() { return size; }
        boolean isEmpty() { return size == 0; }
        int[] toArray() { return Arrays.copyOf(a, size); }

        void removeIf(BitSet drop) {
            int n = 0;
            for (int i = 0; i < size; i++) if (!drop.get(a[i])) a[n++] = a[i];
            size = n;
        }

        int[] sortedDistinct() {
            int[] s = Arrays.copyOf(a, size);
            Arrays.sort(s);
            int n = 0;
            for (int i = 0; i < s.length; i++) if (n == 0 || s[n - 1] != s[i]) s[n++] = s[i];
            return Arrays.copyOf(s, n);
        }
    }
}
