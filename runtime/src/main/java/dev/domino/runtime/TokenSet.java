package dev.domino.runtime;

import java.util.Arrays;

/**
 * One immutable set of token ids, stored the smaller way: sorted ids, or a bitmap over the
 * vocabulary (64 ids per long). Large sets (e.g. "every token that stays inside a JSON string")
 * are shared by many trees and artifacts.
 */
public final class TokenSet {
    private final int[] ids;    // null when bitmap
    private final long[] bits;  // null when ids
    private final int size;
    private int hash; // lazily, 0 = not yet

    private TokenSet(int[] ids, long[] bits) {
        this.ids = ids;
        this.bits = bits;
        if (ids != null) {
            size = ids.length;
        } else {
            int n = 0;
            for (long w : bits) n += Long.bitCount(w);
            size = n;
        }
    }

    /** From sorted distinct ids; picks a bitmap when that is smaller. */
    public static TokenSet of(int[] sortedIds, int vocabSize) {
        if ((long) sortedIds.length * 32 > vocabSize) {
            long[] b = new long[(vocabSize + 63) >>> 6];
            for (int t : sortedIds) b[t >>> 6] |= 1L << t;
            return new TokenSet(null, b);
        }
        return new TokenSet(sortedIds, null);
    }

    static TokenSet ofIds(int[] sortedIds) { return new TokenSet(sortedIds, null); }

    static TokenSet ofBitmap(long[] bits) { return new TokenSet(null, bits); }

    public int size() { return size; }
    public boolean isBitmap() { return bits != null; }
    int[] ids() { return ids; }
    long[] bitmap() { return bits; }

    public void orInto(long[] mask) {
        if (bits != null) {
            for (int i = 0; i < bits.length; i++) mask[i] |= bits[i];
        } else {
            for (int id : ids) mask[id >>> 6] |= 1L << id;
        }
    }

    /** ORs the set into an int bitmask (32 tokens per int) starting at {@code base}. */
    public void orInto(int[] mask, int base) {
        if (bits != null) {
            int ints = mask.length - base;
            for (int i = 0; i < bits.length; i++) {
                long w = bits[i];
                if (w == 0) continue;
                int k = base + 2 * i;
                mask[k] |= (int) w;
                if (2 * i + 1 < ints) mask[k + 1] |= (int) (w >>> 32);
            }
        } else {
            for (int id : ids) mask[base + (id >>> 5)] |= 1 << id;
        }
    }

    public boolean contains(int token) {
        if (bits != null) return (token >>> 6) < bits.length && (bits[token >>> 6] & (1L << token)) != 0;
        return Arrays.binarySearch(ids, token) >= 0;
    }

    public int[] toArray() {
        if (ids != null) return ids.clone();
        int[] out = new int[size];
        int n = 0;
        for (int w = 0; w < bits.length; w++) {
            long word = bits[w];
            while (word != 0) { out[n++] = (w << 6) + Long.numberOfTrailingZeros(word); word &= word - 1; }
        }
        return out;
    }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof TokenSet s && hashCode() == s.hashCode() && size == s.size
                && Arrays.equals(ids, s.ids) && Arrays.equals(bits, s.bits);
    }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = ids != null ? Arrays.hashCode(ids) : Arrays.hashCode(bits);
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }
}
