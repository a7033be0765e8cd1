package dev.domino.runtime.internal.trees;

import dev.domino.runtime.internal.parse.EarleyState;

/**
 * Groups a mask's configurations that may be walked together: one parser state, and trees that are one
 * built tree renamed at the root ({@link TokenTree#unrenamed}). Such trees agree on every node but the root's
 * terminal name, so a walk below the root serves them all from the union of the parser states after each
 * member's terminal (see {@code Matcher.walkTogether}). Counted trees (with copies) are walked alone: their
 * groups depend on the configuration's count.
 */
public final class SameRootedTrees {
    private SameRootedTrees() {}

    /** Per configuration, the first configuration of its group (itself when alone, not built or not {@code eligible}). */
    public static int[] leaders(EarleyState[] parsers, TokenTree[] trees, boolean[] eligible, int n) {
        int[] leader = new int[n];
        java.util.HashMap<Key, Integer> first = n > 32 ? new java.util.HashMap<>() : null;
        for (int i = 0; i < n; i++) {
            leader[i] = i;
            TokenTree t = trees[i];
            if (t == null || t.copies != null || !eligible[i]) continue;
            if (first != null) {
                Integer j = first.putIfAbsent(new Key(parsers[i], t.unrenamed), i);
                if (j != null) leader[i] = j;
                continue;
            }
            for (int j = 0; j < i; j++) {
                TokenTree u = trees[j];
                if (leader[j] == j && eligible[j] && parsers[j] == parsers[i] && u != null && u.copies == null && u.unrenamed == t.unrenamed) {
                    leader[i] = j;
                    break;
                }
            }
        }
        return leader;
    }

    /** Per configuration, how many configurations it leads (0 when it has a leader other than itself). */
    public static int[] sizes(int[] leader, int n) {
        int[] size = new int[n];
        for (int i = 0; i < n; i++) size[leader[i]]++;
        return size;
    }

    /** Fills {@code out} with the configurations led by {@code lead}, in order (the leader first); returns how many. */
    public static int members(int[] leader, int lead, int n, int[] out) {
        int k = 0;
        for (int i = lead; i < n; i++) if (leader[i] == lead) out[k++] = i;
        return k;
    }

    private static final java.util.concurrent.atomic.AtomicLong TOGETHER = new java.util.concurrent.atomic.AtomicLong();

    /** Counts configurations a mask walked with others (tests check that the mechanism is exercised). */
    public static void walkedTogether(int members) { TOGETHER.addAndGet(members); }

    /** How many configurations this process walked together with others. */
    public static long walkedTogetherCount() { return TOGETHER.get(); }

    /** A group's identity: by reference (a parser state and a tree are compared as objects). */
    private record Key(EarleyState parser, TokenTree tree) {
        @Override public boolean equals(Object o) { return o instanceof Key k && k.parser == parser && k.tree == tree; }
        @Override public int hashCode() { return 31 * System.identityHashCode(parser) + System.identityHashCode(tree); }
    }
}
