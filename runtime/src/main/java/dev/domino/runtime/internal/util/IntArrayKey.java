package dev.domino.runtime.internal.util;

import dev.domino.runtime.*;

import java.util.Arrays;

/** An int array compared by content (terminal classes of one tree). */
public record IntArrayKey(int[] values) {
    @Override public boolean equals(Object o) { return o instanceof IntArrayKey k && Arrays.equals(values, k.values); }
    @Override public int hashCode() { return Arrays.hashCode(values); }
}
