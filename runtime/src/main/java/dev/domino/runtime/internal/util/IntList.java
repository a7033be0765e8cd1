package dev.domino.runtime.internal.util;

import dev.domino.runtime.*;

import java.util.Arrays;
import java.util.BitSet;

/** Growable int array. */
public final class IntList {
    public int[] a = new int[8];
    public int size;
    /** Annotated builds: a value per element (the copies its path used). */
    public int[] k;

    public void add(int v) {
        if (size == a.length) a = Arrays.copyOf(a, size * 2);
        a[size++] = v;
    }

    public void add(int v, int copies) {
        if (k == null) k = new int[a.length];
        if (size == a.length) { a = Arrays.copyOf(a, size * 2); k = Arrays.copyOf(k, size * 2); }
        k[size] = copies;
        a[size++] = v;
    }

    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public int[] toArray() { return Arrays.copyOf(a, size); }

    public void removeIf(BitSet drop) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (drop.get(a[i])) continue;
            if (k != null) k[n] = k[i];
            a[n++] = a[i];
        }
        size = n;
    }

    /**
     * The distinct values, ascending. Long lists of small non-negative values (a tree group's token
     * ids: a string's characters are most of the vocabulary) go through a bitmap instead of a sort:
     * sorting them showed in the profile of first-use masks.
     */
    public int[] sortedDistinct() {
        if (size >= 256) {
            int min = Integer.MAX_VALUE, max = Integer.MIN_VALUE;
            for (int i = 0; i < size; i++) { min = Math.min(min, a[i]); max = Math.max(max, a[i]); }
            if (min >= 0 && (max >>> 6) <= 4L * size) {
                long[] bits = new long[(max >>> 6) + 1];
                for (int i = 0; i < size; i++) bits[a[i] >>> 6] |= 1L << a[i];
                int n = 0;
                for (long w : bits) n += Long.bitCount(w);
                int[] out = new int[n];
                int j = 0;
                for (int w = 0; w < bits.length; w++) {
                    for (long x = bits[w]; x != 0; x &= x - 1) out[j++] = (w << 6) | Long.numberOfTrailingZeros(x);
                }
                return out;
            }
        }
        int[] s = Arrays.copyOf(a, size);
        Arrays.sort(s);
        int n = 0;
        for (int i = 0; i < s.length; i++) if (n == 0 || s[n - 1] != s[i]) s[n++] = s[i];
        return Arrays.copyOf(s, n);
    }
}
