package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.scan.BoundedFutures;
import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.vocab.VocabTrie;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One automaton's states grouped by near future, to share vocabulary walks that are equal though
 * the states' bounded futures differ: two states that no string of at most {@link #depth} bytes
 * tells apart ({@link BoundedFutures} at that depth) walk the trie alike down to that depth;
 * below it lie only the paths of the vocabulary's few long tokens, which {@link #sameBelow}
 * compares node by node (alive, accepting) from both states. Where they agree, so do the walks.
 *
 * <p>Why: the positions of a long unrolled string within a long token's length of its end
 * ({@code [0-9a-zA-Z_-]{1,255}} as a key: Llama 3 has a token of 96 dashes, so 96 positions)
 * are all different bounded futures, yet most of them differ only on paths at which
 * no token of their length ends: each walked nearly the whole vocabulary (2-8 ms) to find its
 * walk equal to one computed before.
 *
 * <p>The depth is the vocabulary's: the smallest at which the trie nodes on deeper paths are at
 * most a 64th of the trie, so a comparison costs at most that (and never more than the walk it
 * replaces: it visits only nodes alive from the state). Per class a few computed walks are kept
 * as candidates; a state that matches none is walked and becomes the first.
 */
final class NearFutures {
    /** Candidates per class: a comparison that fails costs up to a 64th of a whole-trie walk. */
    static final int MAX_CANDIDATES = 4;

    final int depth;
    /** Per state, the smallest state of its class at {@link #depth}. */
    private final int[] rep;
    /** Per class (by its smallest state), the states whose walks were computed (candidates). */
    private final AtomicReferenceArray<int[]> walked;

    private NearFutures(int depth, int[] rep) {
        this.depth = depth;
        this.rep = rep;
        this.walked = new AtomicReferenceArray<>(rep.length);
    }

    /** The classes of dfa at {@code depth} (see {@link #depthOf}); null when refining would cost more than {@code maxWork}. */
    static NearFutures of(ByteDfa dfa, int depth, long maxWork) {
        int[] rep = BoundedFutures.representatives(dfa, depth, maxWork);
        return rep == null ? null : new NearFutures(depth, rep);
    }

    long estimatedBytes() { return 64 + 8L * rep.length + 4L * MAX_CANDIDATES * rep.length; }

    /** States of state's class whose walks were computed (do not modify). */
    int[] candidates(int state) {
        int[] c = walked.get(rep[state]);
        return c == null ? new int[0] : c;
    }

    /**
     * Records that state's walk was computed: the first candidate of its class, the oldest of
     * {@link #MAX_CANDIDATES} dropped. Most recent first, because states are mostly walked in
     * order along a chain, where a state's walk is most often its last walked neighbour's.
     */
    void walked(int state) {
        int r = rep[state];
        while (true) {
            int[] before = walked.get(r);
            int kept = before == null ? 0 : Math.min(before.length, MAX_CANDIDATES - 1);
            int[] after = new int[kept + 1];
            after[0] = state;
            if (kept > 0) System.arraycopy(before, 0, after, 1, kept);
            if (walked.compareAndSet(r, before, after)) return;
        }
    }

    /**
     * Whether the walks from states a and b of one class hold the same tokens and ends: at every
     * trie node both dead, or both alive and both accepting or neither, or where one is dead, the
     * other's walk below adds nothing (the path of a long token that neither reaches the end of).
     * Nodes no deeper than {@link #depth} agree by the class; only the paths to deeper nodes are
     * followed, and compared below that depth.
     */
    boolean sameBelow(VocabTrie trie, ByteDfa dfa, int a, int b) {
        if (rep[a] != rep[b]) return false;
        int[] stack = new int[3 * 64];
        int sp = 0;
        stack[sp++] = 0; stack[sp++] = a; stack[sp++] = b;
        while (sp > 0) {
            int sb = stack[--sp], sa = stack[--sp], n = stack[--sp];
            boolean hasChildren = trie.firstChild(n) < trie.endChild(n);
            if (trie.depth(n) > depth && hasChildren && dfa.isAccepting(sa) != dfa.isAccepting(sb)) return false;
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int child = trie.childNode(c);
                if (trie.depth(child) + trie.height(child) <= depth) continue; // agree by the class
                int byteValue = trie.childByte(c);
                int ta = dfa.step(sa, byteValue), tb = dfa.step(sb, byteValue);
                if (ta < 0 && tb < 0) continue;
                if (ta < 0 || tb < 0) {
                    if (adds(trie, dfa, child, ta < 0 ? tb : ta)) return false;
                    continue;
                }
                if (sp + 3 > stack.length) stack = Arrays.copyOf(stack, 2 * stack.length);
                stack[sp++] = child; stack[sp++] = ta; stack[sp++] = tb;
            }
        }
        return true;
    }

    /** Whether a walk entering trie node {@code node} in {@code state} adds anything: a token, or an end with a byte after it. */
    private static boolean adds(VocabTrie trie, ByteDfa dfa, int node, int state) {
        int[] stack = new int[2 * 64];
        int sp = 0;
        stack[sp++] = node; stack[sp++] = state;
        while (sp > 0) {
            int s = stack[--sp], n = stack[--sp];
            if (trie.tokenStart(n) < trie.tokenEnd(n)) return true;
            if (trie.firstChild(n) < trie.endChild(n) && dfa.isAccepting(s)) return true;
            for (int c = trie.firstChild(n); c < trie.endChild(n); c++) {
                int t = dfa.step(s, trie.childByte(c));
                if (t < 0) continue;
                if (sp + 2 > stack.length) stack = Arrays.copyOf(stack, 2 * stack.length);
                stack[sp++] = trie.childNode(c); stack[sp++] = t;
            }
        }
        return false;
    }

    /** The smallest depth whose deeper paths hold at most a 64th of the trie's nodes. */
    static int depthOf(VocabTrie trie) {
        int max = trie.maxTokenBytes();
        int[] deeper = new int[max + 2]; // nodes whose deepest descendant is at that depth
        for (int n = 0; n < trie.nodeCount(); n++) deeper[Math.min(max + 1, trie.depth(n) + trie.height(n))]++;
        int onDeeperPaths = 0, k = max + 1;
        while (k > 0 && onDeeperPaths + deeper[k] <= trie.nodeCount() / 64) onDeeperPaths += deeper[k--];
        return k;
    }
}
