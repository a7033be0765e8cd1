package dev.domino.runtime.internal.trees;

import dev.domino.runtime.*;

/** An indexed list of token sets: a tree's groups name their sets by index here. */
public final class TokenSets {
    private final TokenSet[] sets;

    public TokenSets(TokenSet[] sets) {
        for (TokenSet s : sets) if (s == null) throw new IllegalArgumentException("missing token set");
        this.sets = sets;
    }

    public int count() { return sets.length; }
    public TokenSet get(int set) { return sets[set]; }
    public int size(int set) { return sets[set].size(); }
    public boolean isBitmap(int set) { return sets[set].isBitmap(); }
    public void orInto(int set, long[] mask) { sets[set].orInto(mask); }
    public boolean contains(int set, int token) { return sets[set].contains(token); }
    public int[] toArray(int set) { return sets[set].toArray(); }
}
