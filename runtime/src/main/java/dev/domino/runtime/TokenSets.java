package dev.domino.runtime;

/**
 * The artifact's pool of token sets, deduplicated at compile time. Each set is stored the
 * smaller way: sorted ids, or a bitmap over the vocabulary (64 ids per long).
 */
public final class TokenSets {
    private final int[][] sortedIds;   // null entry when the set is a bitmap
    private final long[][] bitmaps;    // null entry when the set is an id list
    private final int[] sizes;

    public TokenSets(int[][] sortedIds, long[][] bitmaps) {
        if (sortedIds.length != bitmaps.length) throw new IllegalArgumentException("token set arrays differ in length");
        this.sortedIds = sortedIds;
        this.bitmaps = bitmaps;
        this.sizes = new int[sortedIds.length];
        for (int i = 0; i < sizes.length; i++) {
            if ((sortedIds[i] == null) == (bitmaps[i] == null)) throw new IllegalArgumentException("token set " + i + " malformed");
            if (sortedIds[i] != null) sizes[i] = sortedIds[i].length;
            else { int n = 0; for (long w : bitmaps[i]) n += Long.bitCount(w); sizes[i] = n; }
        }
    }

    public int count() { return sizes.length; }
    public int size(int set) { return sizes[set]; }
    public boolean isBitmap(int set) { return bitmaps[set] != null; }
    int[] ids(int set) { return sortedIds[set]; }
    long[] bitmap(int set) { return bitmaps[set]; }

    /** ORs the set into a vocabulary bitmap. */
    public void orInto(int set, long[] mask) {
        long[] bits = bitmaps[set];
        if (bits != null) {
            for (int i = 0; i < bits.length; i++) mask[i] |= bits[i];
        } else {
            for (int id : sortedIds[set]) mask[id >>> 6] |= 1L << id;
        }
    }

    public boolean contains(int set, int token) {
        long[] bits = bitmaps[set];
        if (bits != null) return (token >>> 6) < bits.length && (bits[token >>> 6] & (1L << token)) != 0;
        return java.util.Arrays.binarySearch(sortedIds[set], token) >= 0;
    }

    /** Ids of the set in increasing order. */
    public int[] toArray(int set) {
        if (sortedIds[set] != null) return sortedIds[set].clone();
        int[] out = new int[sizes[set]];
        int n = 0;
        long[] bits = bitmaps[set];
        for (int w = 0; w < bits.length; w++) {
            long word = bits[w];
            while (word != 0) { out[n++] = (w << 6) + Long.numberOfTrailingZeros(word); word &= word - 1; }
        }
        return out;
    }
}
