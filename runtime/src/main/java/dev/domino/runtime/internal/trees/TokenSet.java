package dev.domino.runtime.internal.trees;

import dev.domino.runtime.*;

import java.util.Arrays;

/**
 * One immutable set of token ids, stored the smaller way: sorted ids, or a bitmap over the
 * vocabulary (64 ids per long). Large sets (e.g. "every token that stays inside a JSON string")
 * are shared by many trees and artifacts.
 */
public final class TokenSet {
    private static final java.util.concurrent.atomic.AtomicInteger IDS = new java.util.concurrent.atomic.AtomicInteger();

    private final int[] ids;    // null when bitmap
    /**
     * Bitmap as 32 tokens per int, the layout of the masks it is ORed into (a plain loop the JIT
     * vectorizes), trailing zero words dropped; null when ids.
     */
    private final int[] words;
    private final int size;
    /** Process-unique, so a mask can tell it already ORed this very set (see {@link Matcher}). */
    public final int serial = IDS.incrementAndGet();
    private int hash; // lazily, 0 = not yet

    private TokenSet(int[] ids, long[] bits) {
        this.ids = ids;
        if (ids != null) {
            words = null;
            size = ids.length;
        } else {
            int n = 0, last = -1;
            for (int i = 0; i < bits.length; i++) {
                n += Long.bitCount(bits[i]);
                if (bits[i] != 0) last = i;
            }
            size = n;
            int len = last < 0 ? 0 : 2 * last + ((bits[last] >>> 32) != 0 ? 2 : 1);
            words = new int[len];
            for (int i = 0; i < len; i++) words[i] = (int) (bits[i >>> 1] >>> ((i & 1) << 5));
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

    public static TokenSet ofIds(int[] sortedIds) { return new TokenSet(sortedIds, null); }

    public static TokenSet ofBitmap(long[] bits) { return new TokenSet(null, bits); }

    public int size() { return size; }

    /** Estimated heap bytes (header, fields, and the ids or words array). */
    public long estimatedBytes() { return 48 + 4L * (ids != null ? ids.length : words.length); }
    public boolean isBitmap() { return words != null; }
    public int[] ids() { return ids; }

    /** The largest id in the set, -1 when empty. */
    public int maxId() {
        if (ids != null) return ids.length == 0 ? -1 : ids[ids.length - 1];
        return words.length == 0 ? -1 : (words.length - 1) * 32 + 31 - Integer.numberOfLeadingZeros(words[words.length - 1]);
    }

    /** The bitmap as 64 tokens per long (for writing); only for bitmaps. */
    public long[] bitmap() {
        long[] out = new long[(words.length + 1) >>> 1];
        for (int i = 0; i < words.length; i++) out[i >>> 1] |= (words[i] & 0xFFFFFFFFL) << ((i & 1) << 5);
        return out;
    }

    public void orInto(long[] mask) {
        if (words != null) {
            for (int i = 0; i < words.length; i++) mask[i >>> 1] |= (words[i] & 0xFFFFFFFFL) << ((i & 1) << 5);
        } else {
            for (int id : ids) mask[id >>> 6] |= 1L << id;
        }
    }

    /** ORs the set into an int bitmask (32 tokens per int) starting at {@code base}. */
    public void orInto(int[] mask, int base) {
        if (words != null) {
            int[] w = words;
            for (int i = 0; i < w.length; i++) mask[base + i] |= w[i];
        } else {
            for (int id : ids) mask[base + (id >>> 5)] |= 1 << id;
        }
    }

    public boolean contains(int token) {
        if (words != null) return token >= 0 && (token >>> 5) < words.length && (words[token >>> 5] & (1 << token)) != 0;
        return Arrays.binarySearch(ids, token) >= 0;
    }

    public int[] toArray() {
        if (ids != null) return ids.clone();
        int[] out = new int[size];
        int n = 0;
        for (int w = 0; w < words.length; w++) {
            int word = words[w];
            while (word != 0) { out[n++] = (w << 5) + Integer.numberOfTrailingZeros(word); word &= word - 1; }
        }
        return out;
    }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof TokenSet s && hashCode() == s.hashCode() && size == s.size
                && Arrays.equals(ids, s.ids) && Arrays.equals(words, s.words);
    }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = ids != null ? Arrays.hashCode(ids) : Arrays.hashCode(words);
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }
}
