package dev.domino.runtime.internal.format;

import dev.domino.runtime.internal.trees.TokenTree;

/**
 * A stored tree written as an earlier stored tree renamed at the root ({@link TokenTree#renamedRoot}): states of
 * different terminals with the same walk and followers share one built tree but for the root terminal's name, and
 * read back as such they keep {@link TokenTree#unrenamed}, by which a mask walks their configurations together.
 * Also one tree's arrays instead of a copy per terminal.
 */
record RootRenaming(int tree, int from, int to) {

    /** Trees read as renamings of tree {@code base}: checked like every other part of a tree. */
    static TokenTree apply(TokenTree base, int from, int to) {
        try {
            return base.renamedRoot(from, to);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("bad renamed tree: " + e.getMessage());
        }
    }

    /** The trees written so far, by the tree they rename (their {@link TokenTree#unrenamed}): the first one written. */
    static final class Written {
        private final java.util.IdentityHashMap<TokenTree, Integer> firstByOrigin = new java.util.IdentityHashMap<>();
        private final java.util.List<TokenTree> trees = new java.util.ArrayList<>();

        /** How {@code t} is an earlier tree renamed at the root, exactly, or null. */
        RootRenaming renamingOf(TokenTree t) {
            Integer i = firstByOrigin.get(t.unrenamed);
            if (i == null) return null;
            TokenTree base = trees.get(i);
            if (base == t) return null;
            int from = -1, to = -1;
            for (int g = 0; g < t.groupStart[1] && from < 0; g++) {
                if (base.groupTerminal[g] != t.groupTerminal[g]) { from = base.groupTerminal[g]; to = t.groupTerminal[g]; }
            }
            for (int e = 0; e < t.edgeStart[1] && from < 0; e++) {
                if (base.edgeTerminal[e] != t.edgeTerminal[e]) { from = base.edgeTerminal[e]; to = t.edgeTerminal[e]; }
            }
            if (from < 0) { from = 0; to = 0; } // the same names: renaming nothing
            if (to < 0) return null;
            TokenTree again;
            try {
                again = base.renamedRoot(from, to);
            } catch (IllegalStateException e) {
                return null;
            }
            boolean same = again.edgeStart == t.edgeStart && again.edgeChild == t.edgeChild && again.groupStart == t.groupStart
                    && again.groupSet == t.groupSet && again.dynamicTokens == t.dynamicTokens && again.sets == t.sets
                    && again.terminalClasses == t.terminalClasses && again.rootStart == t.rootStart && again.rootTerminal == t.rootTerminal
                    && java.util.Arrays.equals(again.edgeTerminal, t.edgeTerminal)
                    && java.util.Arrays.equals(again.groupTerminal, t.groupTerminal)
                    && again.copies == t.copies;
            return same ? new RootRenaming(i, from, to) : null;
        }

        void add(TokenTree t) {
            firstByOrigin.putIfAbsent(t.unrenamed, trees.size());
            trees.add(t);
        }
    }
}
