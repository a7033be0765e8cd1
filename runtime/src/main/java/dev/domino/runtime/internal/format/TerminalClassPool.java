package dev.domino.runtime.internal.format;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.domino.runtime.internal.trees.TokenTree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The artifact's one pool of terminal classes ({@link TokenTree#terminalClasses}): equal classes
 * written once, numbered in the order of first use, each as its terminals ascending in gaps.
 *
 * <p>Why a pool: a class is the set of terminals that share most of a node's tokens (the
 * whitespace before each of a large object's optional keys), and the trees of one object all hold
 * the same few classes: a Kubernetes schema's 5,182 stored trees held 2.75 million class entries
 * in 7,260 classes, 35 of them distinct, most of the artifact's bytes and of loading it.
 */
final class TerminalClassPool {
    /** A class by content. */
    private record Key(int[] terminals) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(terminals, k.terminals); }
        @Override public int hashCode() { return Arrays.hashCode(terminals); }
    }

    private final Map<Key, Integer> numbers = new HashMap<>();
    private final Map<int[], Integer> byArray = new IdentityHashMap<>();
    private final List<int[]> classes = new ArrayList<>();

    TerminalClassPool(TokenTree[] trees) {
        for (TokenTree t : trees) for (int[] c : t.terminalClasses) number(c);
    }

    private int number(int[] c) {
        Integer known = byArray.get(c);
        if (known != null) return known;
        int n = numbers.computeIfAbsent(new Key(c), k -> {
            classes.add(c);
            return classes.size() - 1;
        });
        byArray.put(c, n);
        return n;
    }

    /** Per class of a stored tree, its pool number. */
    int[] numbers(TokenTree t) {
        int[] out = new int[t.terminalClasses.length];
        for (int i = 0; i < out.length; i++) out[i] = number(t.terminalClasses[i]);
        return out;
    }

    void write(Output out) {
        out.writeVarInt(classes.size(), true);
        for (int[] c : classes) {
            int[] gaps = new int[c.length];
            for (int i = 0, previous = -1; i < c.length; previous = c[i++]) gaps[i] = c[i] - previous - 1;
            out.writeVarInt(c.length, true);
            VarIntArrays.write(out, gaps, 0, gaps.length, true);
        }
    }

    /** Reads {@link #write}'s form: each class two or more distinct terminals below {@code terminalCount}, ascending. */
    static int[][] read(Input in, int terminalCount) {
        int[][] out = new int[ArtifactFormat.arrayLength(in, 24)][];
        for (int k = 0; k < out.length; k++) {
            int n = ArtifactFormat.arrayLength(in, 8);
            if (n < 2 || n > terminalCount) throw new IllegalArgumentException("terminal class of " + n + " terminals");
            int[] c = new int[n];
            VarIntArrays.read(in, c, 0, n, true);
            for (int i = 0, previous = -1; i < n; i++) {
                if (c[i] < 0 || c[i] >= terminalCount - previous - 1) throw new IllegalArgumentException("bad terminal class");
                c[i] += previous + 1;
                previous = c[i];
            }
            out[k] = c;
        }
        return out;
    }
}
