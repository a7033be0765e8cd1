package dev.domino.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the subterminal prefix tree T_q of one scanner state by walking the vocabulary trie
 * with the scanner: a dead scanner branch prunes every token below that trie node at once.
 *
 * <p>From position (t, s) a byte either continues t, or, when s is accepting, ends t (an edge
 * labelled t) and starts a terminal that may follow t. Tokens are recorded at the node of the
 * path in a group keyed by the terminal they end inside. The first terminal's part comes from
 * {@link TerminalWalks} (computed once per automaton state and shared); only what happens after
 * it ends is walked here. When one trie node is reached by more than {@code cap} paths
 * (lexically ambiguous grammars can make that exponential), every token below it becomes
 * <em>dynamic</em> instead: the runtime checks it byte by byte.
 *
 * <p>Used by the compiler for eager artifacts and by {@link Artifact} for lazy ones.
 */
public final class TreeBuilder {
    private final Terminal[] terminals;
    private final BitSet[] follow;
    private final BitSet first;
    private final VocabTrie trie;
    private final int cap;
    private final int vocabSize;
    private final int[][] startersByByte;

    public TreeBuilder(Terminal[] terminals, BitSet[] follow, BitSet first, VocabTrie trie, int cap, int vocabSize) {
        this.terminals = terminals;
        this.follow = follow;
        this.first = first;
        this.trie = trie;
        this.cap = cap;
        this.vocabSize = vocabSize;
        startersByByte = Terminal.startersByByte(terminals);
        followStartersCache = new java.util.concurrent.atomic.AtomicReferenceArray<>(terminals.length);
    }

    private final java.util.concurrent.atomic.AtomicReferenceArray<int[][]> followStartersCache;

    /** Per byte, the terminals that may follow t and start with that byte (computed once per t). */
    private int[][] followStarters(int t) {
        int[][] r = followStartersCache.get(t);
        if (r == null) {
            r = new int[256][];
            for (int b = 0; b < 256; b++) {
                int[] all = startersByByte[b];
                int n = 0;
                int[] keep = new int[all.length];
                for (int t2 : all) if (follow[t].get(t2)) keep[n++] = t2;
                r[b] = Arrays.copyOf(keep, n);
            }
            followStartersCache.set(t, r);
        }
        return r;
    }

    private static final class Node {
        final TreeMap<Integer, Node> children = new TreeMap<>();
        final TreeMap<Integer, IntList> groups = new TreeMap<>();
        final TreeMap<Integer, TokenSet> sharedGroups = new TreeMap<>();
    }

    private final class Walk {
        final Node root = new Node();
        final VisitCounter visits = VisitCounter.forTrie(trie.nodeCount());
        final List<Integer> dynamicSubtrees = new ArrayList<>();
        /** Paths per trie node above which its tokens become dynamic. */
        final int nodeCap;
        /** Visits beyond the configured cap still allowed in this build (see {@link #build}). */
        long excessBudget;

        Walk(int nodeCap, long excessBudget) {
            this.nodeCap = nodeCap;
            this.excessBudget = excessBudget;
        }

        /** Terminal t from automaton state s at the trie root, hanging at tree node {@code node}, via the shared walk. */
        void fromRoot(Node node, int t, int s) {
            TerminalWalks.Walk w = trie.walks().get(terminals[t].dfa(), s, vocabSize);
            if (w.continuation().size() > 0) {
                TokenSet before = node.sharedGroups.get(t);
                node.sharedGroups.put(t, before == null ? w.continuation()
                        : TokenSet.of(union(before.toArray(), w.continuation().toArray()), vocabSize));
            }
            if (w.endsAtRoot()) {
                // ended before the token's first byte: what follows is a whole-trie walk of each
                // next terminal, which the shared walks already know
                Node ended = node.children.computeIfAbsent(t, k -> new Node());
                for (int t2 = follow[t].nextSetBit(0); t2 >= 0; t2 = follow[t].nextSetBit(t2 + 1)) {
                    fromRoot(ended, t2, terminals[t2].dfa().start());
                }
            }
            if (w.endChildCount() == 0) return;
            Node ended = null;
            int[][] next = followStarters(t);
            int[] byteStart = w.endChildStart(), children = w.endChildNode();
            for (int b = 0; b < 256; b++) {
                int from = byteStart[b], to = byteStart[b + 1];
                if (from == to || next[b].length == 0) continue;
                if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                for (int i = from; i < to; i++) startNext(children[i], b, next[b], ended);
            }
            int[] loopNodes = w.loopEndNodes();
            if (loopNodes.length == 0) return;
            long[] loopBytes = w.loopEndBytes();
            long startLo = 0, startHi = 0; // ASCII bytes some follow terminal starts with
            for (int b = 0; b < 128; b++) {
                if (next[b].length == 0) continue;
                if (b < 64) startLo |= 1L << b; else startHi |= 1L << b;
            }
            for (int i = 0; i < loopNodes.length; i++) {
                long lo = loopBytes[2 * i] & startLo, hi = loopBytes[2 * i + 1] & startHi;
                while ((lo | hi) != 0) {
                    int b;
                    if (lo != 0) { b = Long.numberOfTrailingZeros(lo); lo &= lo - 1; }
                    else { b = 64 + Long.numberOfTrailingZeros(hi); hi &= hi - 1; }
                    if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                    for (int e = trie.byteEdgesFrom(b, loopNodes[i]), to = trie.byteEdgesTo(b, loopNodes[i]); e < to; e++) {
                        startNext(trie.childNode(trie.byteEdge(e)), b, next[b], ended);
                    }
                }
            }
        }

        /** Terminal t ended at trie node n (not the root), inside a walk: start every terminal that may follow it. */
        void afterEnd(int n, int t, Node node) {
            Node ended = null;
            int[][] next = followStarters(t);
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int b = trie.childByte(c);
                if (next[b].length == 0) continue;
                if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                startNext(trie.childNode(c), b, next[b], ended);
            }
        }

        /** The terminals {@code starters} begin with byte b, which led to trie node {@code child}. */
        void startNext(int child, int b, int[] starters, Node ended) {
            for (int t2 : starters) {
                ByteDfa dfa2 = terminals[t2].dfa();
                dfs(child, t2, dfa2.step(dfa2.start(), b), ended);
            }
        }

        // the group last looked up: a dfs adds to the same (node, terminal) many times in a row
        private Node lastNode;
        private int lastTerminal;
        private IntList lastGroup;

        IntList group(Node node, int t) {
            if (node != lastNode || t != lastTerminal) {
                lastGroup = node.groups.computeIfAbsent(t, k -> new IntList());
                lastNode = node;
                lastTerminal = t;
            }
            return lastGroup;
        }

        void dfs(int n, int t, int s, Node node) {
            int v = visits.increment(n);
            if (v > nodeCap) {
                if (v == nodeCap + 1) dynamicSubtrees.add(n);
                return;
            }
            if (v > cap && --excessBudget < 0) throw OverBudget.INSTANCE;
            if (trie.tokenEnd(n) > trie.tokenStart(n)) {
                IntList group = group(node, t);
                for (int i = trie.tokenStart(n); i < trie.tokenEnd(n); i++) group.add(trie.token(i));
            }
            ByteDfa dfa = terminals[t].dfa();
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int s2 = dfa.step(s, trie.childByte(c));
                if (s2 >= 0) dfs(trie.childNode(c), t, s2, node);
            }
            if (dfa.isAccepting(s)) afterEnd(n, t, node);
        }
    }

    /**
     * Paths per trie node tried first. Many terminals sharing a prefix (the keys of a large
     * object all start with {@code "}) reach a node once per terminal: linear, not the
     * exponential path growth the configured cap guards against, and checking those tokens
     * byte by byte at run time costs far more than a group per terminal in the tree.
     */
    static final int WIDE_CAP = 1024;
    /** Visits beyond the configured cap one build may spend before falling back to it. */
    static final long EXCESS_BUDGET = 1 << 18;

    /** Signals a build whose paths grow like a lexically ambiguous grammar's. */
    private static final class OverBudget extends RuntimeException {
        static final OverBudget INSTANCE = new OverBudget();
        private OverBudget() { super(null, null, false, false); }
    }

    /** @param terminal -1 for the between-terminals state, else the terminal of automaton state {@code state} */
    public TokenTree build(int terminal, int state) {
        if (cap < WIDE_CAP) {
            try {
                return build(terminal, state, new Walk(WIDE_CAP, EXCESS_BUDGET));
            } catch (OverBudget ambiguous) {
                // fall through: the configured cap bounds the work
            }
        }
        return build(terminal, state, new Walk(cap, 0));
    }

    private TokenTree build(int terminal, int state, Walk w) {
        if (terminal < 0) {
            for (int t = first.nextSetBit(0); t >= 0; t = first.nextSetBit(t + 1)) w.fromRoot(w.root, t, terminals[t].dfa().start());
        } else {
            w.fromRoot(w.root, terminal, state);
        }
        BitSet dynamic = new BitSet();
        // dynamic tokens in trie preorder, i.e. sorted by their bytes: the runtime checks them with
        // shared prefixes stepped once (subtrees nested in an earlier one are already covered)
        int[] order = w.dynamicSubtrees.stream().mapToInt(Integer::intValue).sorted().toArray();
        IntList dynamicInByteOrder = new IntList();
        int coveredEnd = 0;
        for (int n : order) {
            if (n < coveredEnd) continue;
            coveredEnd = trie.subtreeEnd(n);
            for (int i = trie.subtreeTokenStart(n); i < trie.subtreeTokenEnd(n); i++) {
                dynamic.set(trie.token(i));
                dynamicInByteOrder.add(trie.token(i));
            }
        }
        return flatten(w.root, dynamic, dynamicInByteOrder.toArray());
    }

    private TokenTree flatten(Node root, BitSet dynamic, int[] dynamicTokens) {
        prune(root, dynamic);
        List<Node> order = new ArrayList<>();
        order.add(root);
        for (int i = 0; i < order.size(); i++) order.addAll(order.get(i).children.values());
        Map<Node, Integer> ids = new IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) ids.put(order.get(i), i);
        int nodes = order.size();
        int[] edgeStart = new int[nodes + 1], groupStart = new int[nodes + 1];
        IntList edgeTerminal = new IntList(), edgeChild = new IntList(), groupTerminal = new IntList(), groupSet = new IntList();
        List<TokenSet> sets = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            Node node = order.get(i);
            edgeStart[i] = edgeTerminal.size();
            groupStart[i] = groupTerminal.size();
            for (Map.Entry<Integer, Node> e : node.children.entrySet()) {
                edgeTerminal.add(e.getKey());
                edgeChild.add(ids.get(e.getValue()));
            }
            TreeMap<Integer, TokenSet> all = new TreeMap<>(node.sharedGroups);
            for (Map.Entry<Integer, IntList> g : node.groups.entrySet()) {
                TokenSet shared = all.get(g.getKey());
                int[] ids2 = g.getValue().sortedDistinct();
                if (shared != null) ids2 = union(shared.toArray(), ids2);
                all.put(g.getKey(), TokenSet.of(ids2, vocabSize));
            }
            for (Map.Entry<Integer, TokenSet> g : all.entrySet()) {
                groupTerminal.add(g.getKey());
                groupSet.add(sets.size());
                sets.add(g.getValue());
            }
        }
        edgeStart[nodes] = edgeTerminal.size();
        groupStart[nodes] = groupTerminal.size();
        return new TokenTree(edgeStart, edgeTerminal.toArray(), edgeChild.toArray(), groupStart, groupTerminal.toArray(),
                groupSet.toArray(), dynamicTokens, new TokenSets(sets.toArray(new TokenSet[0])));
    }

    private static int[] union(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        Arrays.sort(out);
        int n = 0;
        for (int i = 0; i < out.length; i++) if (n == 0 || out[n - 1] != out[i]) out[n++] = out[i];
        return Arrays.copyOf(out, n);
    }

    /** Removes dynamic tokens from walked groups (shared sets stay: union semantics keep masks exact); true when empty. */
    private static boolean prune(Node node, BitSet dynamic) {
        if (!dynamic.isEmpty()) {
            node.groups.values().forEach(g -> g.removeIf(dynamic));
            node.groups.values().removeIf(IntList::isEmpty);
        }
        node.children.values().removeIf(child -> prune(child, dynamic));
        return node.groups.isEmpty() && node.sharedGroups.isEmpty() && node.children.isEmpty();
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

    /**
     * Paths per trie node in one build: a dense array per thread (reset through the list of
     * touched nodes), because hashing every visited node cost more than the rest of the dfs.
     */
    private static final class VisitCounter {
        private static final ThreadLocal<VisitCounter> PER_THREAD = new ThreadLocal<>();
        private final int[] counts;
        private int[] touched = new int[256];
        private int size;

        private VisitCounter(int nodes) { counts = new int[nodes]; }

        static VisitCounter forTrie(int nodes) {
            VisitCounter c = PER_THREAD.get();
            if (c == null || c.counts.length != nodes) {
                c = new VisitCounter(nodes);
                PER_THREAD.set(c);
            }
            c.clear();
            return c;
        }

        int increment(int node) {
            if (counts[node]++ == 0) {
                if (size == touched.length) touched = Arrays.copyOf(touched, size * 2);
                touched[size++] = node;
            }
            return counts[node];
        }

        void clear() {
            for (int i = 0; i < size; i++) counts[touched[i]] = 0;
            size = 0;
        }
    }
}
