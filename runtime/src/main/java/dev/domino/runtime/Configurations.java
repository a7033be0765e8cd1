package dev.domino.runtime;

import java.util.Arrays;

/**
 * The live (parser state, scanner state) pairs after some output: an immutable, deduplicated
 * set. Lexing is non-deterministic, so several pairs may be live at once; the output is viable
 * while at least one is.
 */
final class Configurations {
    final EarleyState[] parsers;
    final int[] scanStates;

    Configurations(EarleyState[] parsers, int[] scanStates) {
        this.parsers = parsers;
        this.scanStates = scanStates;
    }

    int size() { return parsers.length; }
    boolean isEmpty() { return parsers.length == 0; }

    /** Collects configurations, dropping duplicates (equal parser sets, same scanner state). */
    static final class Builder {
        EarleyState[] parsers = new EarleyState[4];
        int[] scanStates = new int[4];
        int size;

        void clear() { size = 0; }

        void add(EarleyState p, int scanState) {
            for (int i = 0; i < size; i++) {
                if (scanStates[i] == scanState && (parsers[i] == p || parsers[i].equals(p))) return;
            }
            if (size == parsers.length) {
                parsers = Arrays.copyOf(parsers, size * 2);
                scanStates = Arrays.copyOf(scanStates, size * 2);
            }
            parsers[size] = p;
            scanStates[size] = scanState;
            size++;
        }

        Configurations build() {
            return new Configurations(Arrays.copyOf(parsers, size), Arrays.copyOf(scanStates, size));
        }
    }
}
