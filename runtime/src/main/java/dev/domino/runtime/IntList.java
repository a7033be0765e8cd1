package dev.domino.runtime;

import java.util.Arrays;
import java.util.BitSet;

/** Growable int array. */
final class IntList {
    int[] a = new int[8];
    int size;
    /** Annotated builds: a value per element (the copies its path used). */
    int[] k;

    void add(int v) {
        if (size == a.length) a = Arrays.copyOf(a, size * 2);
        a[size++] = v;
    }

    void add(int v, int copies) {
        if (k == null) k = new int[a.length];
        if (size == a.length) { a = Arrays.copyOf(a, size * 2); k = Arrays.copyOf(k, size * 2); }
        k[size] = copies;
        a[size++] = v;
    }

    int size() { return size; }
    boolean isEmpty() { return size == 0; }
    int[] toArray() { return Arrays.copyOf(a, size); }

    void removeIf(BitSet drop) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (drop.get(a[i])) continue;
            if (k != null) k[n] = k[i];
            a[n++] = a[i];
        }
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
