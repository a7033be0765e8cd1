package dev.domino.runtime.internal;

import dev.domino.runtime.*;
import dev.domino.runtime.diagnostics.*;

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

    public int[] sortedDistinct() {
        int[] s = Arrays.copyOf(a, size);
        Arrays.sort(s);
        int n = 0;
        for (int i = 0; i < s.length; i++) if (n == 0 || s[n - 1] != s[i]) s[n++] = s[i];
        return Arrays.copyOf(s, n);
    }
}
