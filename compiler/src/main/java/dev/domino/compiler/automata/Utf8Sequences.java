package dev.domino.compiler.automata;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a code point range into UTF-8 byte-range sequences: each sequence is a list of
 * {lo, hi} byte ranges, one per byte position, and the sequences together match exactly the
 * UTF-8 encodings of the range (the construction Lucene calls UTF32ToUTF8). The range must
 * not contain surrogates.
 */
public final class Utf8Sequences {
    private Utf8Sequences() {}

    public static List<int[][]> of(int lo, int hi) {
        List<int[][]> out = new ArrayList<>();
        split(lo, hi, out);
        return out;
    }

    private static void split(int lo, int hi, List<int[][]> out) {
        if (lo > hi) return;
        for (int max : new int[] {0x7F, 0x7FF, 0xFFFF}) {
            if (lo <= max && hi > max) {
                split(lo, max, out);
                split(max + 1, hi, out);
                return;
            }
        }
        if (hi <= 0x7F) {
            out.add(new int[][] {{lo, hi}});
            return;
        }
        int n = length(lo);
        for (int i = 1; i < n; i++) {
            int m = (1 << (6 * i)) - 1; // the low i continuation bytes
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
        byte[] a = encode(lo), b = encode(hi);
        int[][] seq = new int[n][];
        for (int i = 0; i < n; i++) seq[i] = new int[] {a[i] & 0xFF, b[i] & 0xFF};
        out.add(seq);
    }

    static int length(int cp) { return cp <= 0x7F ? 1 : cp <= 0x7FF ? 2 : cp <= 0xFFFF ? 3 : 4; }

    public static byte[] encode(int cp) {
        return switch (length(cp)) {
            case 1 -> new byte[] {(byte) cp};
            case 2 -> new byte[] {(byte) (0xC0 | cp >> 6), (byte) (0x80 | cp & 0x3F)};
            case 3 -> new byte[] {(byte) (0xE0 | cp >> 12), (byte) (0x80 | cp >> 6 & 0x3F), (byte) (0x80 | cp & 0x3F)};
            default -> new byte[] {(byte) (0xF0 | cp >> 18), (byte) (0x80 | cp >> 12 & 0x3F), (byte) (0x80 | cp >> 6 & 0x3F), (byte) (0x80 | cp & 0x3F)};
        };
    }
}
