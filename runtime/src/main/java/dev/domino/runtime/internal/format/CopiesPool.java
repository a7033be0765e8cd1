package dev.domino.runtime.internal.format;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.domino.runtime.internal.trees.TokenSet;
import dev.domino.runtime.internal.trees.TokenTree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The artifact's one pool of counted trees' copies ({@link TokenTree.Copies}): per group of a
 * tree with copies, its tokens ordered by the copies they start, equal ones written once.
 *
 * <p>Why a pool: the annotated trees of one counted terminal's loop states mostly hold the same
 * tokens with the same copies (a string's body counted to 255: every token's characters), so an
 * artifact with a few hundred such trees held millions of copies but a few hundred distinct lists,
 * and writing, reading and re-sorting each group's list per tree was most of serialize + load.
 *
 * <p>An entry is written in its sorted form, which is canonical for its set: the token set's pool
 * number, then runs of equal copies in ascending order, each its copies, its length and its ids
 * ascending as gaps. Reading checks that every entry orders exactly its set's tokens.
 */
final class CopiesPool {
    /** An entry's identity: the token set (pool number) and the copies of its tokens in sorted order. */
    private record Key(int set, int[] ids, int[] copies) {
        @Override public boolean equals(Object o) {
            return o instanceof Key k && set == k.set && Arrays.equals(ids, k.ids) && Arrays.equals(copies, k.copies);
        }
        @Override public int hashCode() { return (set * 31 + Arrays.hashCode(ids)) * 31 + Arrays.hashCode(copies); }
    }

    private final Map<Key, Integer> numbers = new HashMap<>();
    private final List<Key> entries = new ArrayList<>();
    /** Per tree with copies, per group its entry number (hashing a group's copies costs as much as writing them). */
    private final Map<TokenTree, int[]> byTree = new IdentityHashMap<>();

    /** Collects the copies of every stored tree; {@code setNumbers.groupNumbers} gives each group's set. */
    CopiesPool(TokenTree[] trees, TokenSetPool setNumbers) {
        for (TokenTree t : trees) if (t.hasCopies()) byTree.put(t, number(t, setNumbers.groupNumbers(t)));
    }

    /** Per group of a stored tree with copies, its entry number. */
    int[] groupNumbers(TokenTree t) {
        int[] out = byTree.get(t);
        if (out == null) throw new IllegalArgumentException("a tree without pooled copies");
        return out;
    }

    private int[] number(TokenTree t, int[] groupSets) {
        int[] out = new int[t.groupCount()];
        for (int g = 0; g < out.length; g++) {
            TokenTree.Copies c = t.copies[g];
            out[g] = numbers.computeIfAbsent(new Key(groupSets[g], c.ids(), c.copies()), k -> {
                entries.add(k);
                return entries.size() - 1;
            });
        }
        return out;
    }

    void write(Output out) {
        out.writeVarInt(entries.size(), true);
        for (Key k : entries) {
            out.writeVarInt(k.set, true);
            int runs = 0;
            for (int i = 0; i < k.copies.length; i++) if (i == 0 || k.copies[i] != k.copies[i - 1]) runs++;
            out.writeVarInt(runs, true);
            for (int i = 0; i < k.copies.length; ) {
                int end = i;
                while (end < k.copies.length && k.copies[end] == k.copies[i]) end++;
                out.writeVarInt(k.copies[i], true);
                out.writeVarInt(end - i, true);
                int[] gaps = new int[end - i];
                for (int j = i, previous = -1; j < end; previous = k.ids[j++]) gaps[j - i] = k.ids[j] - previous - 1;
                VarIntArrays.write(out, gaps, 0, gaps.length, true);
                i = end;
            }
        }
    }

    /**
     * Reads {@link #write}'s form against the already read token sets: per entry its set number
     * and its copies. Every length is bounded by the set's size, and the ids of an entry must be
     * exactly its set's tokens (each once), copies ascending from run to run.
     */
    static Entry[] read(Input in, TokenSet[] sets, int vocabSize) {
        Entry[] out = new Entry[ArtifactFormat.arrayLength(in, 16)];
        boolean[] seen = new boolean[vocabSize];
        for (int e = 0; e < out.length; e++) {
            int set = in.readVarInt(true);
            if (set < 0 || set >= sets.length) throw new IllegalArgumentException("copies of token set " + set + " outside the pool");
            TokenSet tokens = sets[set];
            int size = tokens.size();
            if (size > in.limit() - in.position()) throw new IllegalArgumentException("copies of " + size + " tokens out of bounds");
            int[] ids = new int[size], copies = new int[size];
            int runs = in.readVarInt(true);
            if (runs < 0 || runs > size) throw new IllegalArgumentException("bad copies run count " + runs);
            int n = 0, value = -1;
            for (int r = 0; r < runs; r++) {
                int v = in.readVarInt(true);
                if (v <= value) throw new IllegalArgumentException("copies runs out of order");
                value = v;
                int length = in.readVarInt(true);
                if (length <= 0 || length > size - n) throw new IllegalArgumentException("bad copies run length " + length);
                VarIntArrays.read(in, ids, n, length, true); // gaps, made ids below
                int id = -1;
                for (int j = n; j < n + length; j++) {
                    int gap = ids[j];
                    if (gap < 0 || gap >= vocabSize - id - 1) throw new IllegalArgumentException("copies name a token outside the vocabulary");
                    id += gap + 1;
                    if (seen[id] || !tokens.contains(id)) throw new IllegalArgumentException("copies do not match their token set");
                    seen[id] = true;
                    ids[j] = id;
                    copies[j] = v;
                }
                n += length;
            }
            if (n != size) throw new IllegalArgumentException("copies do not match their token set");
            for (int id : ids) seen[id] = false;
            out[e] = new Entry(set, new TokenTree.Copies(ids, copies));
        }
        return out;
    }

    /** A read entry: the pool number of its token set and its copies. */
    record Entry(int set, TokenTree.Copies copies) {}
}
