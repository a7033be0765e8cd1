package dev.domino.runtime.internal.mask;

import dev.domino.runtime.internal.parse.*;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * The live (parser state, scanner state) pairs after some output: an immutable, deduplicated
 * set. Lexing is non-deterministic, so several pairs may be live at once; the output is viable
 * while at least one is.
 */
public final class Configurations {
    public final EarleyState[] parsers;
    public final int[] scanStates;

    public Configurations(EarleyState[] parsers, int[] scanStates) {
        this.parsers = parsers;
        this.scanStates = scanStates;
    }

    public int size() { return parsers.length; }
    public boolean isEmpty() { return parsers.length == 0; }

    /**
     * One configuration per scanner state: parser states paired with the same scanner state
     * (the same bytes lexed into different terminal sequences, e.g. a key read as a declared
     * property's literal and as an "any other key" string) become their union. Exact (see
     * {@link EarleyParser#union}), and it keeps such ambiguities from multiplying from one
     * member to the next: every later mask walks each tree once instead of once per lexing.
     */
    public Configurations mergedByScanState(EarleyParser parser) {
        int n = size();
        if (n < 2) return this;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) keys[i] = ((long) scanStates[i] << 32) | i;
        Arrays.sort(keys);
        boolean shared = false;
        for (int i = 1; i < n && !shared; i++) shared = (keys[i] >>> 32) == (keys[i - 1] >>> 32);
        if (!shared) return this;
        Builder out = new Builder();
        for (int i = 0; i < n; ) {
            int q = (int) (keys[i] >>> 32);
            EarleyState p = parsers[(int) keys[i]];
            int j = i + 1;
            for (; j < n && (int) (keys[j] >>> 32) == q; j++) p = parser.union(p, parsers[(int) keys[j]]);
            out.add(p, q);
            i = j;
        }
        return out.build();
    }

    /**
     * Collects configurations, dropping duplicates (equal parser sets, same scanner state).
     * Small sets are searched linearly; past {@link #INDEXED} entries a hash index keeps each
     * add O(1) (a byte after a JSON value can start 100 optional keys: 100 configurations).
     */
    public static final class Builder {
        private static final int INDEXED = 16;

        public EarleyState[] parsers = new EarleyState[4];
        public int[] scanStates = new int[4];
        public int size;
        /** Open addressing over entry index + 1 (0 = free); null while size <= INDEXED. */
        private int[] index;

        public void clear() {
            size = 0;
            index = null;
        }

        private static int hash(EarleyState p, int scanState) { return (p.hashCode() * 31 + scanState) * 0x9E3779B1; }

        public void add(EarleyState p, int scanState) { addIfAbsent(p, scanState); }

        /** Adds the configuration; false when an equal one was there already. */
        public boolean addIfAbsent(EarleyState p, int scanState) {
            if (index == null) {
                for (int i = 0; i < size; i++) {
                    if (scanStates[i] == scanState && (parsers[i] == p || parsers[i].equals(p))) return false;
                }
            } else {
                int m = index.length - 1;
                for (int h = hash(p, scanState) & m; index[h] != 0; h = (h + 1) & m) {
                    int i = index[h] - 1;
                    if (scanStates[i] == scanState && (parsers[i] == p || parsers[i].equals(p))) return false;
                }
            }
            if (size == parsers.length) {
                parsers = Arrays.copyOf(parsers, size * 2);
                scanStates = Arrays.copyOf(scanStates, size * 2);
            }
            parsers[size] = p;
            scanStates[size] = scanState;
            size++;
            if (size > INDEXED && (index == null || size * 2 > index.length)) reindex();
            else if (index != null) insert(size - 1);
            return true;
        }

        private void reindex() {
            index = new int[Integer.highestOneBit(size * 4 - 1) << 1];
            for (int i = 0; i < size; i++) insert(i);
        }

        private void insert(int i) {
            int m = index.length - 1;
            int h = hash(parsers[i], scanStates[i]) & m;
            while (index[h] != 0) h = (h + 1) & m;
            index[h] = i + 1;
        }

        public Configurations build() {
            return new Configurations(Arrays.copyOf(parsers, size), Arrays.copyOf(scanStates, size));
        }
    }
}
