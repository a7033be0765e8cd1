package dev.domino.compiler.testing;

import dev.domino.compiler.ir.CodePointSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns code point ranges into sequences of byte ranges whose concatenation matches exactly the
 * UTF-8 encodings of the range (the classic construction of Lucene's UTF32ToUTF8 and Rust's
 * {@code regex-syntax} Utf8Sequences). Part of the test oracle: written for clarity, not speed.
 *
 * <p>Each sequence is an {@code int[]} of {@code [lo0, hi0, lo1, hi1, ...]}, one inclusive byte
 * range (0..255) per position.
 */
public final class Utf8Ranges {
    private Utf8Ranges() {}

    /** The byte-range sequences for every code point of {@code set} (surrogates are never in a set). */
    public static List<int[]> sequences(CodePointSet set) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < set.rangeCount(); i++) split(set.lo(i), set.hi(i), out);
        return out;
    }

    /** The byte-range sequences for {@code lo..hi}; the range must not contain surrogates. */
    public static List<int[]> sequences(int lo, int hi) {
        List<int[]> out = new ArrayList<>();
        split(lo, hi, out);
        return out;
    }

    private static void split(int lo, int hi, List<int[]> out) {
        if (lo > hi) return;
        // 1. A range must not mix encoding lengths: cut at the last code point of each length.
        for (int boundary : new int[] {0x7F, 0x7FF, 0xFFFF}) {
            if (lo <= boundary && hi > boundary) {
                split(lo, boundary, out);
                split(boundary + 1, hi, out);
                return;
            }
        }
        if (hi <= 0x7F) {
            out.add(new int[] {lo, hi});
            return;
        }
        // 2. Within one length, the range is a clean product of byte ranges only if, for every
        //    continuation suffix of 6*i bits, lo's suffix is all zeros and hi's is all ones
        //    (or the prefixes agree). Otherwise cut so that it is.
        int n = length(lo);
        for (int i = 1; i < n; i++) {
            int m = (1 << (6 * i)) - 1;
            if ((lo & ~m) != (hi & ~m)) {
                if ((lo & m) != 0) {
                    split(lo, lo | m, out);
                    split((lo | m) + 1, hi, out);
                    return;
                }
                if ((hi & m) != m) {
                    split(lo, (hi & ~m) - 1, out);
                    split(hi & ~m, hi, out);
                    return;
                }
            }
        }
        // 3. Now position k of the encoding ranges independently over [enc(lo)[k], enc(hi)[k]].
        int[] a = encode(lo), b = encode(hi);
        int[] seq = new int[2 * n];
        for (int k = 0; k < n; k++) {
            seq[2 * k] = a[k];
            seq[2 * k + 1] = b[k];
        }
        out.add(seq);
    }

    static int length(int cp) {
        return cp <= 0x7F ? 1 : cp <= 0x7FF ? 2 : cp <= 0xFFFF ? 3 : 4;
    }

    /** UTF-8 bytes (as 0..255 ints) of one code point. */
    static int[] encode(int cp) {
        switch (length(cp)) {
            case 1: return new int[] {cp};
            case 2: return new int[] {0xC0 | (cp >> 6), 0x80 | (cp & 0x3F)};
            case 3: return new int[] {0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F)};
            default: return new int[] {0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3F),
                    0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F)};
        }
    }

    /** Whether {@code bytes} (the whole array) matches the sequence. */
    public static boolean matches(int[] seq, byte[] bytes) {
        if (bytes.length * 2 != seq.length) return false;
        for (int k = 0; k < bytes.length; k++) {
            int b = bytes[k] & 0xFF;
            if (b < seq[2 * k] || b > seq[2 * k + 1]) return false;
        }
        return true;
    }
}
