package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.util.*;
import dev.domino.runtime.internal.vocab.*;

import dev.domino.runtime.*;

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
 * <p>A plain state's tree reads nothing but its terminal's walk from that state and the
 * terminal's followers, so states (of any terminals) with equal walks and equal followers get one
 * build, renamed at the root ({@link SameFuture}): whitespace states of
 * {@code [ \t\n\r]{0,100} ","}-like terminals and key-complement string states deep in the
 * string are many, and alike.
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
    /**
     * Per terminal, non-null for a counted terminal whose bounds a token entering it can reach
     * (see {@link CountedLoop#plainEntry}): walks into it count copies. Other terminals, counted
     * ones included, are walked on their automaton alone.
     */
    private final CountedLoop[] countedEntry;

    public TreeBuilder(Terminal[] terminals, BitSet[] follow, BitSet first, VocabTrie trie, int cap, int vocabSize) {
        this(terminals, follow, first, trie, cap, vocabSize, Terminal.startersByByte(terminals));
    }

    /**
     * @param startersByByte {@link Terminal#startersByByte} of {@code terminals}, when the caller has it
     *                       (a large schema's thousands of terminals take milliseconds to scan again)
     */
    public TreeBuilder(Terminal[] terminals, BitSet[] follow, BitSet first, VocabTrie trie, int cap, int vocabSize, int[][] startersByByte) {
        this.terminals = terminals;
        this.follow = follow;
        this.first = first;
        this.trie = trie;
        this.cap = cap;
        this.vocabSize = vocabSize;
        this.startersByByte = startersByByte;
        countedEntry = new CountedLoop[terminals.length];
        for (int t = 0; t < terminals.length; t++) {
            CountedLoop counted = terminals[t].counted();
            if (counted != null && !counted.plainEntry(trie.maxTokenBytes())) countedEntry[t] = counted;
        }
        followStartersCache = new java.util.concurrent.atomic.AtomicReferenceArray<>(terminals.length);
        wideness = new byte[terminals.length];
        manyWide = new byte[terminals.length + 1];
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
        public final TreeMap<Integer, Node> children = new TreeMap<>();
        public final Map<Integer, IntList> groups = new java.util.HashMap<>(); // order comes from flatten
        public final TreeMap<Integer, TokenSet> sharedGroups = new TreeMap<>();
        /** Annotated builds: per shared group, the fewest copies of the root terminal its tokens used. */
        public final TreeMap<Integer, Integer> sharedCopies = new TreeMap<>();
        /** Annotated builds: shared groups merged from walks with different copies (see {@link #mergeSharedCopies}). */
        public BitSet mixedSharedCopies;

        void mergeSharedCopies(int t, int copies) {
            Integer before = sharedCopies.put(t, copies);
            if (before != null && before != copies) {
                sharedCopies.put(t, Math.min(before, copies));
                if (mixedSharedCopies == null) mixedSharedCopies = new BitSet();
                mixedSharedCopies.set(t);
            }
        }
        /** Root references: wide terminals entered at the trie root, walked from their root trees (see {@link #buildRoot}). */
        public BitSet roots;

        void addRoots(BitSet more) {
            if (roots == null) roots = new BitSet();
            roots.or(more);
        }
    }

    private final class Walk {
        public final Node root = new Node();
        public final VisitCounter visits;
        public final List<Integer> dynamicSubtrees = new ArrayList<>();
        /** Paths per trie node above which its tokens become dynamic. */
        public int nodeCap;
        /** Set once the excess budget ran out and the cap came down to the configured one. */
        private java.util.BitSet overLoweredCap;
        /** Visits beyond the configured cap still allowed in this build (see {@link #build}). */
        public long excessBudget;
        /**
         * Annotated builds (see {@link #annotated}): every token added is recorded with the copies
         * of the counted root terminal its path used, {@link #copies} for the path being walked.
         */
        public boolean annotate;
        public int copies;

        public Walk(int nodeCap, long excessBudget) {
            this.nodeCap = nodeCap;
            this.excessBudget = excessBudget;
            budget.checkNow(); // a build whose budget is spent does not start another walk
            visits = VisitCounter.forTrie(trie); // borrowed after the check: a walk that never starts has nothing to give back
        }

        /** This walk's work against the thread's build budget (see {@link BuildBudget}). */
        private final BuildBudget.Meter budget = new BuildBudget.Meter();

        /** Counts a trie node visited; every {@link BuildBudget#CHECK_EVERY}, gives the build up when it is over its budget. */
        private void tick() { budget.tick(); }

        /** {@link #tick()} for work worth {@code nodes} trie nodes (a clock read costs about a microsecond). */
        private void tick(int nodes) { budget.tick(nodes); }

        /** Terminal t from state s of automaton dfa at the trie root, hanging at tree node {@code node}, via the shared walk. */
        public void fromRoot(Node node, int t, ByteDfa dfa, int s) {
            tick(BuildBudget.CHECK_EVERY / 4); // a walk not computed yet may take milliseconds
            TerminalWalks.Walk w = trie.walks().get(dfa, s, vocabSize);
            if (w.continuation().size() > 0) {
                if (annotate) node.mergeSharedCopies(t, copies);
                TokenSet before = node.sharedGroups.get(t);
                node.sharedGroups.put(t, before == null ? w.continuation()
                        : TokenSet.of(union(before.toArray(), w.continuation().toArray()), vocabSize));
            }
            if (w.endsAtRoot()) {
                // ended before the token's first byte: what follows is a whole-trie walk of each
                // next terminal, which the shared walks already know
                Node ended = node.children.computeIfAbsent(t, k -> new Node());
                boolean reference = manyWide(t);
                for (int t2 = follow[t].nextSetBit(0); t2 >= 0; t2 = follow[t].nextSetBit(t2 + 1)) enterAtRoot(ended, t2, reference);
            }
            if (w.endChildCount() == 0) return;
            Node ended = null;
            int[][] next = followStarters(t);
            for (int b = 0; b < 256; b++) {
                if (!w.endsBefore(b) || next[b].length == 0) continue;
                if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                for (int child : w.endChildren(b)) startNext(child, b, next[b], ended);
            }
            if (!w.hasLoopEnds()) return;
            long startLo = 0, startHi = 0; // ASCII bytes some follow terminal starts with
            for (int b = 0; b < 128; b++) {
                if (next[b].length == 0) continue;
                if (b < 64) startLo |= 1L << b; else startHi |= 1L << b;
            }
            if (!w.loopEndsStart(startLo, startHi)) return;
            int[] loopNodes = w.loopEndNodes();
            long[] loopBytes = w.loopEndBytes();
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
        public void afterEnd(int n, int t, Node node) {
            Node ended = null;
            int[][] next = followStarters(t);
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int b = trie.childByte(c);
                if (next[b].length == 0) continue;
                if (ended == null) ended = node.children.computeIfAbsent(t, k -> new Node());
                startNext(trie.childNode(c), b, next[b], ended);
            }
        }

        /** Terminal t starting at the trie root (the previous one ended before the token's first byte). */
        public void enterAtRoot(Node node, int t, boolean referenceWide) {
            if (referenceWide && !annotate && wide(t)) {
                // the same for every tree and large: referenced, walked from its root tree (see TokenTree)
                if (node.roots == null) node.roots = new BitSet();
                node.roots.set(t);
                return;
            }
            // the same for every tree: walked once, then copied in (see enteredAtRoot)
            Entered e = enteredAtRoot(t);
            graft(node, e.node());
            for (int n : e.dynamicSubtrees()) dynamicSubtrees.add(n);
        }

        /** Walks counted terminal t from the trie root into {@code node} (see enteredAtRoot). */
        public void walkCountedFromRoot(Node node, int t) {
            ByteDfa dfa = terminals[t].dfa();
            for (int c = trie.firstChild(0); c < trie.endChild(0); c++) {
                int s2 = dfa.step(dfa.start(), trie.childByte(c));
                if (s2 >= 0) dfsCounted(trie.childNode(c), t, countedEntry[t], s2, countedEntry[t].firstCopies(), node);
            }
        }

        /** Adds the sets of a detached subtree ({@link Frozen}) to {@code to}, recursively. */
        public void graft(Node to, Frozen from) {
            for (int i = 0; i < from.groupTerminals.length; i++) {
                int t = from.groupTerminals[i];
                if (annotate) to.mergeSharedCopies(t, copies);
                TokenSet before = to.sharedGroups.get(t);
                to.sharedGroups.put(t, before == null ? from.groupSets[i] : TokenSet.of(union(before.toArray(), from.groupSets[i].toArray()), vocabSize));
            }
            for (int i = 0; i < from.childTerminals.length; i++) graft(to.children.computeIfAbsent(from.childTerminals[i], k -> new Node()), from.children[i]);
            if (from.roots != null) to.addRoots(from.roots);
        }

        /** The terminals {@code starters} begin with byte b, which led to trie node {@code child}. */
        public void startNext(int child, int b, int[] starters, Node ended) {
            for (int t2 : starters) {
                ByteDfa dfa2 = terminals[t2].dfa();
                int s2 = dfa2.step(dfa2.start(), b);
                if (countedEntry[t2] != null) dfsCounted(child, t2, countedEntry[t2], s2, countedEntry[t2].firstCopies(), ended);
                else dfs(child, t2, s2, ended);
            }
        }

        /** Like {@link #dfs}, in a counted terminal whose bounds matter: {@code used} copies started. */
        public void dfsCounted(int n, int t, CountedLoop counted, int s, int used, Node node) {
            if (!visit(n)) return;
            addTokens(n, node, t);
            ByteDfa dfa = terminals[t].dfa();
            boolean starts = counted.startsCopy(s);
            if (!starts || used < counted.max()) {
                int next = starts ? used + 1 : used;
                for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                    int s2 = dfa.step(s, trie.childByte(c));
                    if (s2 >= 0 && next + counted.unitsToFinish(s2) <= counted.max()) dfsCounted(trie.childNode(c), t, counted, s2, next, node);
                }
            }
            if (counted.endsAt(s, used)) afterEnd(n, t, node);
        }

        // the group last looked up: a dfs adds to the same (node, terminal) many times in a row
        private Node lastNode;
        private int lastTerminal;
        private IntList lastGroup;

        public IntList group(Node node, int t) {
            if (node != lastNode || t != lastTerminal) {
                lastGroup = node.groups.computeIfAbsent(t, k -> new IntList());
                lastNode = node;
                lastTerminal = t;
            }
            return lastGroup;
        }

        public void addTokens(int n, Node node, int t) {
            if (trie.tokenEnd(n) == trie.tokenStart(n)) return;
            IntList group = group(node, t);
            for (int i = trie.tokenStart(n); i < trie.tokenEnd(n); i++) {
                if (annotate) group.add(trie.token(i), copies);
                else group.add(trie.token(i));
            }
        }

        /**
         * The counted root terminal t from loop state s, walked directly (not via the shared
         * walks) to know the copies each path has started when a token ends inside t or t ends.
         */
        public void countedRoot(int n, int t, CountedLoop counted, ByteDfa loop, int s, int used, Node node) {
            tick();
            copies = used + counted.unitsToFinish(s); // a token ending here needs room for those too
            addTokens(n, node, t);
            int next = used + (counted.startsCopy(s) ? 1 : 0);
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int s2 = loop.step(s, trie.childByte(c));
                if (s2 >= 0) countedRoot(trie.childNode(c), t, counted, loop, s2, next, node);
            }
            if (loop.isAccepting(s)) {
                copies = used + counted.finalWeight(s); // an end there counts its final weight too
                afterEnd(n, t, node);
            }
        }

        /**
         * Counts a path through trie node n; false when the node has had more than the cap (its
         * tokens become dynamic). Over the configured cap, spends the build's excess budget.
         */
        public boolean visit(int n) {
            tick();
            int v = visits.increment(n);
            if (v > nodeCap) {
                if (v == nodeCap + 1) dynamicSubtrees.add(n);
                else if (overLoweredCap != null && !overLoweredCap.get(n)) { overLoweredCap.set(n); dynamicSubtrees.add(n); }
                return false;
            }
            if (v > cap && --excessBudget < 0) {
                // paths grow like a lexically ambiguous grammar's: the configured cap from here on.
                // Nodes already past it keep the paths they have (complete unless visited again:
                // then their tokens become dynamic too, and dynamic tokens leave every group)
                nodeCap = cap;
                overLoweredCap = new java.util.BitSet();
                overLoweredCap.set(n);
                dynamicSubtrees.add(n);
                return false;
            }
            return true;
        }

        public void dfs(int n, int t, int s, Node node) {
            if (!visit(n)) return;
            addTokens(n, node, t);
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
    public static final int WIDE_CAP = 1024;
    /** A tree's walk: {@link #WIDE_CAP} paths per trie node until the excess budget runs out, then the configured cap. */
    private Walk newWalk() { return cap < WIDE_CAP ? new Walk(WIDE_CAP, EXCESS_BUDGET) : new Walk(cap, 0); }

    /** Visits beyond the configured cap one build may spend before falling back to it. */
    public static final long EXCESS_BUDGET = 1 << 18;

    /**
     * Visits beyond the configured cap that all walks of terminals entered at the root may spend,
     * per builder (see enteredAtRoot): each walk may take up to {@link #EXCESS_BUDGET} of it, so a
     * tree that enters a thousand terminals stays bounded (a few hundred ms at worst, once) while
     * a large object's keys (hundreds of terminals after one separator) keep their groups.
     */
    public static final long ENTERED_EXCESS_BUDGET = 64 * EXCESS_BUDGET;
    private final java.util.concurrent.atomic.AtomicLong enteredExcess = new java.util.concurrent.atomic.AtomicLong(ENTERED_EXCESS_BUDGET);


    /** @param terminal -1 for the between-terminals state, else the terminal of local scanner state {@code state} */
    public TokenTree build(int terminal, int state) {
        CountedLoop counted = terminal < 0 ? null : terminals[terminal].counted();
        if (counted != null && !counted.sharesLoopTree(state, trie.maxTokenBytes())) {
            Annotated a = annotated(terminal, counted.loopState(state));
            return a.builtFor() == terminal ? a.tree() : a.tree().renamedRoot(a.builtFor(), terminal);
        }
        if (terminal < 0) return build(terminal, state, newWalk());
        // a plain state's tree is a function of its terminal walk and its terminal's followers
        // (fromRoot reads nothing else): equal ones are built once (see SameFuture)
        TerminalWalks.Walk walk = trie.walks().get(terminals[terminal].dfa(), counted == null ? state : counted.loopState(state), vocabSize);
        SameFuture key = new SameFuture(walk, follow[terminal]);
        Built b = builtByFuture.get(key);
        if (b == null) {
            b = new Built(build(terminal, state, newWalk()), terminal);
            Built known = builtByFuture.putIfAbsent(key, b);
            if (known != null) b = known;
        } else {
            shared.incrementAndGet();
        }
        return b.builtFor() == terminal ? b.tree() : b.tree().renamedRoot(b.builtFor(), terminal);
    }

    /**
     * What a plain scanner state's tree depends on: the vocabulary's walk inside its terminal from
     * that state (by content) and the terminals that may follow it. States of different terminals
     * with the same key have the same tree but for the root terminal's name.
     */
    private static final class SameFuture {
        private final TerminalWalks.Walk w;
        private final BitSet follow;
        private final int hash;

        SameFuture(TerminalWalks.Walk w, BitSet follow) {
            this.w = w;
            this.follow = follow;
            int h = w.continuation().hashCode();
            h = 31 * h + Boolean.hashCode(w.endsAtRoot());
            h = 31 * h + w.endsHash();
            this.hash = 31 * h + follow.hashCode();
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            if (!(o instanceof SameFuture k) || k.hash != hash) return false;
            TerminalWalks.Walk v = k.w;
            return (v == w || v.endsAtRoot() == w.endsAtRoot() && v.continuation().equals(w.continuation())
                    && v.sameEnds(w))
                    && k.follow.equals(follow);
        }
    }

    /** A tree and the terminal it was built for (its root names that terminal). */
    private record Built(TokenTree tree, int builtFor) {}

    private final java.util.concurrent.ConcurrentHashMap<SameFuture, Built> builtByFuture = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger shared = new java.util.concurrent.atomic.AtomicInteger();

    /** Trees this builder took from an earlier build of a state with the same future (diagnostics, tests). */
    public int sharedTrees() { return shared.get(); }

    /**
     * The tree of a counted terminal's loop state with, per group, the copies of the terminal
     * each token's path started (see {@link CountedLoop}). Every state of that loop state below
     * the minimum or within a token's length of the maximum uses it: masks keep the tokens whose
     * copies fit the state's count (see Matcher), instead of a walk over the whole vocabulary
     * per count. Built once per loop state and terminals alike but for their name.
     */
    private Annotated annotated(int terminal, int loopState) {
        // terminals with the same loop and the same followers have the same tree but for their
        // own name at the root (strings with different bounds): built once
        AnnotatedKey key = new AnnotatedKey(terminals[terminal].dfa(), terminals[terminal].counted().boundaryKey(),
                follow[terminal], loopState);
        Annotated a = annotatedTrees.get(key);
        if (a == null) {
            a = buildAnnotated(terminal, loopState);
            Annotated known = annotatedTrees.putIfAbsent(key, a);
            if (known != null) a = known;
        }
        return a;
    }

    private record AnnotatedKey(ByteDfa loop, java.util.List<Integer> boundaries, BitSet follow, int loopState) {}

    private final java.util.concurrent.ConcurrentHashMap<AnnotatedKey, Annotated> annotatedTrees = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What a terminal contributes when it starts at the trie root (in a tree whose terminal ends
     * before the token's first byte: a key literal followed by a string value, whitespace that
     * may be empty followed by any of a large object's keys): the same subtree in every such
     * tree, so walked once per terminal and copied in.
     *
     * <p>Why for plain terminals too: walking the followers of states that may end before the
     * next token repeats the same walks in every tree.
     */
    private record Entered(Frozen node, int[] dynamicSubtrees) {}

    /**
     * A detached subtree in arrays: kept between trees (see {@link #entered}), so few objects.
     * Why: kept as {@link Node}s (four maps each), the subtrees of a Kubernetes schema's
     * terminals filled the heap with millions of live map entries, and garbage collection
     * pauses landed in other schemas' masks.
     */
    private static final class Frozen {
        private static final int[] NONE = new int[0];
        final int[] groupTerminals;
        final TokenSet[] groupSets;
        final int[] childTerminals;
        final Frozen[] children;
        final BitSet roots;

        /** A node whose token lists were turned into sets ({@link #toShared}). */
        Frozen(Node node) {
            int g = node.sharedGroups.size(), c = node.children.size();
            groupTerminals = g == 0 ? NONE : new int[g];
            groupSets = new TokenSet[g];
            int i = 0;
            for (Map.Entry<Integer, TokenSet> e : node.sharedGroups.entrySet()) { groupTerminals[i] = e.getKey(); groupSets[i++] = e.getValue(); }
            childTerminals = c == 0 ? NONE : new int[c];
            children = new Frozen[c];
            i = 0;
            for (Map.Entry<Integer, Node> e : node.children.entrySet()) { childTerminals[i] = e.getKey(); children[i++] = new Frozen(e.getValue()); }
            roots = node.roots;
        }

        /** Estimated heap bytes (shared sets counted each time). */
        long bytes() {
            long b = 64 + 4L * (groupTerminals.length + childTerminals.length) + 8L * (groupSets.length + children.length);
            for (TokenSet set : groupSets) b += set.estimatedBytes();
            for (Frozen child : children) b += child.bytes();
            return b;
        }
    }

    /**
     * Bound of the subtrees kept per builder ({@code RuntimeLimits.enteredCacheBytes}, estimated): a
     * Kubernetes schema enters thousands of terminals at the root; past the bound the least
     * recently used are walked again when needed.
     */
    private static volatile long ENTERED_MAX_BYTES = 64L << 20;

    /** See {@link #ENTERED_MAX_BYTES}; for builders made from then on. */
    public static void setEnteredMaxBytes(long bytes) { ENTERED_MAX_BYTES = Math.max(0, bytes); }

    private final BoundedCache<Integer, Entered> entered = new BoundedCache<>("terminals entered at the root", ENTERED_MAX_BYTES);

    /** Turns a detached subtree's token lists into sets, so trees grafting it share them instead of copying and sorting. */
    private void toShared(Node node) {
        for (Map.Entry<Integer, IntList> g : node.groups.entrySet()) {
            TokenSet before = node.sharedGroups.get(g.getKey());
            int[] ids = g.getValue().sortedDistinct();
            node.sharedGroups.put(g.getKey(), TokenSet.of(before == null ? ids : union(before.toArray(), ids), vocabSize));
        }
        node.groups.clear();
        for (Node child : node.children.values()) toShared(child);
    }

    private Entered enteredAtRoot(int t) {
        Entered e = entered.get(t);
        if (e == null) {
            Walk w;
            if (countedEntry[t] != null) {
                w = new Walk(cap, 0);
                try {
                    w.walkCountedFromRoot(w.root, t);
                } finally {
                    w.visits.release();
                }
            } else {
                // the excess over the configured cap comes from one budget for all of them: a
                // lexically ambiguous grammar would otherwise spend a tree's budget once per follower
                long budget = cap < WIDE_CAP ? Math.min(EXCESS_BUDGET, Math.max(0, enteredExcess.get())) : 0;
                w = budget > 0 ? new Walk(WIDE_CAP, budget) : new Walk(cap, 0);
                try {
                    enterPlain(w, t);
                } finally {
                    w.visits.release();
                }
                if (budget > 0) enteredExcess.addAndGet(-(budget - Math.max(0, w.excessBudget)));
            }
            toShared(w.root);
            e = new Entered(new Frozen(w.root), w.dynamicSubtrees.stream().mapToInt(Integer::intValue).toArray());
            e = entered.putIfAbsent(t, e, e.node().bytes() + 4L * e.dynamicSubtrees().length);
        }
        return e;
    }

    /** Walks plain terminal t from its start at the trie root into the walk's root node. */
    private void enterPlain(Walk w, int t) {
        ByteDfa dfa = terminals[t].dfa();
        w.fromRoot(w.root, t, dfa, dfa.start());
    }

    /**
     * The root tree of terminal t (see {@link TokenTree}): the subtree of t started at the token's
     * first byte, which trees reference where t is wide. Walked like a state's tree, with its own
     * excess budget: built once per terminal, like a state's tree, and only when a mask needs it.
     */
    public TokenTree buildRoot(int t) {
        Walk w = countedEntry[t] != null ? new Walk(cap, 0) : newWalk();
        try {
            if (countedEntry[t] != null) w.walkCountedFromRoot(w.root, t);
            else enterPlain(w, t);
        } finally {
            w.visits.release(); // also when a build is given up (BuildBudget): the counts go back zeroed
        }
        BitSet dynamic = new BitSet();
        int[] dynamicTokens = dynamicTokens(w, dynamic);
        prune(w.root, dynamic);
        return flatten(w.root, dynamicTokens, null);
    }

    /**
     * Trie nodes a terminal's own automaton reaches from its start beyond which it is walked from
     * its root tree where it is entered at the root, instead of copied into the tree: a JSON string
     * or a key complement reaches most of the vocabulary (10^5 nodes of Llama 3's trie), a key
     * literal after optional whitespace a few hundred, a number about 1,200.
     */
    public static final int WIDE_NODES = 2048;

    /**
     * Wide followers entered at the root beyond which they are referenced rather than copied: one
     * or two (a value's string, a union's strings) are copied into the tree as before, so a tree
     * built ahead (in the background) leaves nothing for the mask to build; a key's opening quote
     * followed by every object's key complement references them all.
     */
    public static final int MAX_COPIED_WIDE = 2;

    /** Per terminal (and at the end, for the first terminals): 0 not yet known, 1 copied, 2 referenced. */
    private final byte[] manyWide;

    /** True when the wide terminals that may follow t (t = -1: that may begin the output) are referenced. */
    private boolean manyWide(int t) {
        int i = t < 0 ? terminals.length : t;
        byte m = manyWide[i];
        if (m == 0) {
            BitSet next = t < 0 ? first : follow[t];
            int wideCount = 0;
            BuildBudget.Meter budget = new BuildBudget.Meter(); // a large object's followers are thousands of bounded walks
            for (int t2 = next.nextSetBit(0); t2 >= 0 && wideCount <= MAX_COPIED_WIDE; t2 = next.nextSetBit(t2 + 1)) {
                if (wideness[t2] == 0) budget.tick(BuildBudget.CHECK_EVERY / 16); // a probe walks up to WIDE_NODES
                if (wide(t2)) wideCount++;
            }
            m = wideCount > MAX_COPIED_WIDE ? (byte) 2 : (byte) 1;
            manyWide[i] = m;
        }
        return m == 2;
    }

    /** Per terminal: 0 not yet known, 1 narrow, 2 wide (a function of the automaton and the trie: races are harmless). */
    private final byte[] wideness;

    /** True when terminal t reaches more than {@link #WIDE_NODES} trie nodes from its start (a bounded walk). */
    boolean wide(int t) {
        byte w = wideness[t];
        if (w == 0) {
            ByteDfa dfa = terminals[t].dfa();
            w = reach(0, dfa, dfa.start(), new int[] {WIDE_NODES}) ? (byte) 1 : (byte) 2;
            wideness[t] = w;
        }
        return w == 2;
    }

    /** Counts trie nodes below n reachable in the automaton from s against {@code left[0]}; false once it runs out. */
    private boolean reach(int n, ByteDfa dfa, int s, int[] left) {
        for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
            int s2 = dfa.step(s, trie.childByte(c));
            if (s2 < 0) continue;
            if (--left[0] < 0 || !reach(trie.childNode(c), dfa, s2, left)) return false;
        }
        return true;
    }

    private Annotated buildAnnotated(int terminal, int loopState) {
        return buildAnnotated(terminal, loopState, newWalk());
    }

    private Annotated buildAnnotated(int terminal, int loopState, Walk w) {
        CountedLoop counted = terminals[terminal].counted();
        w.annotate = true;
        try {
            w.countedRoot(0, terminal, counted, terminals[terminal].dfa(), loopState, 0, w.root);
        } finally {
            w.visits.release();
        }
        BitSet dynamic = new BitSet();
        int[] dynamicTokens = dynamicTokens(w, dynamic);
        prune(w.root, dynamic);
        dynamicTokens = withAmbiguousCopies(w.root, dynamicTokens, dynamic);
        List<int[]> copiesOfGroup = new ArrayList<>();
        TokenTree tree = flatten(w.root, dynamicTokens, copiesOfGroup);
        return new Annotated(tree.withCopies(copiesOfGroup.toArray(new int[0][])), terminal);
    }

    /**
     * The dynamic tokens plus those of an annotated walk that reach one group with different
     * copies: a token that can end the counted root terminal at several counts followed by the
     * same terminals (its end is not fixed by what follows, as it is for a string's closing
     * quote: {@code x{40,}} as 40 counted copies then {@code x*}). A group keeps one copies value
     * per token, the fewest, and a mask testing {@code need ≤ copies ≤ room} on it would forbid
     * the token at the counts only its other paths fit; checked byte by byte instead, exact.
     */
    private int[] withAmbiguousCopies(Node root, int[] dynamicTokens, BitSet dynamic) {
        BitSet ambiguous = new BitSet();
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
        int[] seen = null;
        work.addAll(root.children.values()); // at the root only tokens inside the terminal: one path each
        while (!work.isEmpty()) {
            Node node = work.poll();
            work.addAll(node.children.values());
            java.util.TreeSet<Integer> terminalsHere = new java.util.TreeSet<>(node.groups.keySet());
            terminalsHere.addAll(node.sharedGroups.keySet());
            for (int t : terminalsHere) {
                IntList g = node.groups.get(t);
                TokenSet shared = node.sharedGroups.get(t);
                if (shared != null && node.mixedSharedCopies != null && node.mixedSharedCopies.get(t)) {
                    for (int id : shared.toArray()) ambiguous.set(id);
                }
                if (g == null || g.size() < 2 && shared == null) continue;
                if (seen == null) seen = new int[vocabSize];
                // seen[id] = copies + 1 of the token's first entry here, 0 when none
                if (shared != null) { int k = node.sharedCopies.get(t) + 1; for (int id : shared.toArray()) seen[id] = k; }
                for (int i = 0; i < g.size(); i++) {
                    int id = g.a[i], k = g.k[i] + 1;
                    if (seen[id] == 0) seen[id] = k;
                    else if (seen[id] != k) ambiguous.set(id);
                }
                for (int i = 0; i < g.size(); i++) seen[g.a[i]] = 0;
                if (shared != null) for (int id : shared.toArray()) seen[id] = 0;
            }
        }
        ambiguous.andNot(dynamic);
        if (ambiguous.isEmpty()) return dynamicTokens;
        int[] out = Arrays.copyOf(dynamicTokens, dynamicTokens.length + ambiguous.cardinality());
        int n = dynamicTokens.length;
        for (int id = ambiguous.nextSetBit(0); id >= 0; id = ambiguous.nextSetBit(id + 1)) { out[n++] = id; dynamic.set(id); }
        return out;
    }

    /** An annotated tree (see {@link TokenTree#copies}) and the terminal it was built for. */
    private record Annotated(TokenTree tree, int builtFor) {}

    private TokenTree build(int terminal, int state, Walk w) {
        try {
            if (terminal < 0) {
                boolean reference = manyWide(-1);
                for (int t = first.nextSetBit(0); t >= 0; t = first.nextSetBit(t + 1)) w.enterAtRoot(w.root, t, reference);
            } else {
                CountedLoop counted = terminals[terminal].counted();
                // a counted terminal's state here shares the plain loop's tree (see build(int, int))
                w.fromRoot(w.root, terminal, terminals[terminal].dfa(), counted == null ? state : counted.loopState(state));
            }
        } finally {
            w.visits.release();
        }
        BitSet dynamic = new BitSet();
        int[] dynamicTokens = dynamicTokens(w, dynamic);
        prune(w.root, dynamic);
        return flatten(w.root, dynamicTokens, null);
    }

    /** The walk's dynamic tokens, in byte order, also set in {@code dynamic}. */
    private int[] dynamicTokens(Walk w, BitSet dynamic) {
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
        return dynamicInByteOrder.toArray();
    }

    /** @param copiesOfGroup when non-null (annotated build): receives each group's copies, aligned with its set's ids */
    private TokenTree flatten(Node root, int[] dynamicTokens, List<int[]> copiesOfGroup) {
        List<Node> order = new ArrayList<>();
        order.add(root);
        for (int i = 0; i < order.size(); i++) order.addAll(order.get(i).children.values());
        Map<Node, Integer> ids = new IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) ids.put(order.get(i), i);
        int nodes = order.size();
        int[] edgeStart = new int[nodes + 1], groupStart = new int[nodes + 1], rootStart = new int[nodes + 1];
        IntList edgeTerminal = new IntList(), edgeChild = new IntList(), groupTerminal = new IntList(), groupSet = new IntList(),
                rootTerminal = new IntList();
        List<TokenSet> sets = new ArrayList<>();
        Map<IntArrayKey, Integer> classes = new java.util.HashMap<>();
        for (int i = 0; i < nodes; i++) {
            Node node = order.get(i);
            edgeStart[i] = edgeTerminal.size();
            groupStart[i] = groupTerminal.size();
            rootStart[i] = rootTerminal.size();
            if (node.roots != null) for (int t = node.roots.nextSetBit(0); t >= 0; t = node.roots.nextSetBit(t + 1)) rootTerminal.add(t);
            for (Map.Entry<Integer, Node> e : node.children.entrySet()) {
                edgeTerminal.add(e.getKey());
                edgeChild.add(ids.get(e.getValue()));
            }
            List<GroupClasses.Group> perTerminal;
            if (copiesOfGroup != null) {
                perTerminal = annotatedGroups(node);
            } else {
                TreeMap<Integer, TokenSet> all = new TreeMap<>(node.sharedGroups);
                for (Map.Entry<Integer, IntList> g : node.groups.entrySet()) {
                    TokenSet shared = all.get(g.getKey());
                    int[] ids2 = g.getValue().sortedDistinct();
                    if (shared != null) ids2 = union(shared.toArray(), ids2);
                    all.put(g.getKey(), intern(TokenSet.of(ids2, vocabSize)));
                }
                perTerminal = new ArrayList<>();
                for (Map.Entry<Integer, TokenSet> g : all.entrySet()) perTerminal.add(GroupClasses.Group.single(g.getKey(), g.getValue(), null));
            }
            for (GroupClasses.Group g : GroupClasses.regroup(perTerminal, vocabSize, this::intern)) {
                int[] ts = g.terminals();
                groupTerminal.add(ts.length == 1 ? ts[0] : ~classes.computeIfAbsent(new IntArrayKey(ts), k -> classes.size()));
                groupSet.add(sets.size());
                sets.add(g.tokens());
                if (copiesOfGroup != null) copiesOfGroup.add(g.values());
            }
        }
        edgeStart[nodes] = edgeTerminal.size();
        groupStart[nodes] = groupTerminal.size();
        rootStart[nodes] = rootTerminal.size();
        int[][] classArray = new int[classes.size()][];
        for (Map.Entry<IntArrayKey, Integer> c : classes.entrySet()) classArray[c.getValue()] = c.getKey().values();
        return new TokenTree(edgeStart, edgeTerminal.toArray(), edgeChild.toArray(), groupStart, groupTerminal.toArray(),
                groupSet.toArray(), dynamicTokens, new TokenSets(sets.toArray(new TokenSet[0])), classArray, rootStart, rootTerminal.toArray());
    }

    /** One node's groups of an annotated build, one per terminal: per token the fewest copies over its paths. */
    private List<GroupClasses.Group> annotatedGroups(Node node) {
        List<GroupClasses.Group> out = new ArrayList<>();
        java.util.TreeSet<Integer> terminalsHere = new java.util.TreeSet<>(node.groups.keySet());
        terminalsHere.addAll(node.sharedGroups.keySet());
        for (int t : terminalsHere) {
            IntList g = node.groups.get(t);
            TokenSet shared = node.sharedGroups.get(t);
            int[] sharedIds = shared == null ? new int[0] : shared.toArray();
            int sharedK = shared == null ? 0 : node.sharedCopies.get(t);
            int n = (g == null ? 0 : g.size()) + sharedIds.length;
            int[] ids = new int[Math.min(n, vocabSize)], k = new int[ids.length];
            int m = 0;
            if (n * 16L < vocabSize) {
                // (token << 32 | copies), sorted: the first entry of each token has its fewest copies
                long[] packed = new long[n];
                int p = 0;
                if (g != null) for (int i = 0; i < g.size(); i++) packed[p++] = (long) g.a[i] << 32 | g.k[i];
                for (int id : sharedIds) packed[p++] = (long) id << 32 | sharedK;
                Arrays.sort(packed);
                for (long v : packed) {
                    int id = (int) (v >>> 32);
                    if (m > 0 && ids[m - 1] == id) continue;
                    ids[m] = id;
                    k[m++] = (int) v;
                }
            } else {
                // large groups (a string's characters): fewest copies by id in a dense array
                int[] fewest = new int[vocabSize];
                Arrays.fill(fewest, Integer.MAX_VALUE);
                if (g != null) for (int i = 0; i < g.size(); i++) fewest[g.a[i]] = Math.min(fewest[g.a[i]], g.k[i]);
                for (int id : sharedIds) fewest[id] = Math.min(fewest[id], sharedK);
                for (int id = 0; id < vocabSize; id++) {
                    if (fewest[id] == Integer.MAX_VALUE) continue;
                    ids[m] = id;
                    k[m++] = fewest[id];
                }
            }
            out.add(GroupClasses.Group.single(t, TokenSet.of(Arrays.copyOf(ids, m), vocabSize), Arrays.copyOf(k, m)));
        }
        return out;
    }

    /**
     * Equal sets of different trees as one object: less memory for lazily built trees, and a
     * mask with several live configurations ORs each distinct large set once (see Matcher).
     */
    private final java.util.concurrent.ConcurrentHashMap<TokenSet, TokenSet> internedSets = new java.util.concurrent.ConcurrentHashMap<>();

    private TokenSet intern(TokenSet set) {
        if (set.size() < 64) return set; // small sets: cheaper to OR again than to hash
        TokenSet known = internedSets.putIfAbsent(set, set);
        return known == null ? set : known;
    }

    /** The union of two ascending arrays of distinct ids (token sets' {@code toArray}, {@code sortedDistinct}), by merging. */
    private static int[] union(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        int i = 0, j = 0, n = 0;
        while (i < a.length && j < b.length) {
            int x = a[i], y = b[j];
            if (x <= y) i++;
            if (y <= x) j++;
            out[n++] = Math.min(x, y);
        }
        while (i < a.length) out[n++] = a[i++];
        while (j < b.length) out[n++] = b[j++];
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Removes dynamic tokens from walked groups (shared sets stay: union semantics keep masks exact); true when empty. */
    private static boolean prune(Node node, BitSet dynamic) {
        if (!dynamic.isEmpty()) {
            node.groups.values().forEach(g -> g.removeIf(dynamic));
            node.groups.values().removeIf(IntList::isEmpty);
        }
        node.children.values().removeIf(child -> prune(child, dynamic));
        return node.groups.isEmpty() && node.sharedGroups.isEmpty() && node.children.isEmpty() && node.roots == null;
    }

}
