package dev.domino.compiler.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of Unicode code points, stored as sorted, disjoint, non-adjacent
 * inclusive ranges {@code [lo0, hi0, lo1, hi1, ...]}. Surrogates (U+D800..U+DFFF) are never
 * members: they have no UTF-8 encoding.
 */
public final class CodePointSet {
    public static final int MAX = 0x10FFFF;
    public static final CodePointSet EMPTY = new CodePointSet(new int[0]);
    /** Every encodable code point. */
    public static final CodePointSet ANY = range(0, MAX);

    private final int[] ranges;

    private CodePointSet(int[] normalizedRanges) { this.ranges = normalizedRanges; }

    public static CodePointSet of(int codePoint) { return range(codePoint, codePoint); }

    public static CodePointSet range(int lo, int hi) { return fromRanges(new int[] {lo, hi}); }

    /** Builds a set from arbitrary (unsorted, overlapping) ranges; drops surrogates. */
    public static CodePointSet fromRanges(int[] pairs) {
        if (pairs.length % 2 != 0) throw new IllegalArgumentException("odd range array");
        List<int[]> list = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            int lo = Math.max(0, pairs[i]), hi = Math.min(MAX, pairs[i + 1]);
            if (lo > hi) continue;
            // cut out surrogates
            if (lo < 0xD800 && hi >= 0xD800) { list.add(new int[] {lo, 0xD7FF}); lo = 0xD800; }
            if (lo >= 0xD800 && lo <= 0xDFFF) lo = Math.max(lo, 0xE000);
            if (hi >= 0xD800 && hi <= 0xDFFF) hi = 0xD7FF;
            if (lo <= hi) list.add(new int[] {lo, hi});
        }
        list.sort((a, b) -> Integer.compare(a[0], b[0]));
        int[] out = new int[list.size() * 2];
        int n = 0;
        for (int[] r : list) {
            if (n > 0 && r[0] <= out[n - 1] + 1) {
                out[n - 1] = Math.max(out[n - 1], r[1]);
            } else {
                out[n++] = r[0];
                out[n++] = r[1];
            }
        }
        return new CodePointSet(Arrays.copyOf(out, n));
    }

    public CodePointSet union(CodePointSet other) {
        int[] all = Arrays.copyOf(ranges, ranges.length + other.ranges.length);
        System.arraycopy(other.ranges, 0, all, ranges.length, other.ranges.length);
        return fromRanges(all);
    }

    /** Complement within all encodable code points. */
    public CodePointSet complement() {
        List<Integer> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            if (ranges[i] > next) { out.add(next); out.add(ranges[i] - 1); }
            next = ranges[i + 1] + 1;
        }
        if (next <= MAX) { out.add(next); out.add(MAX); }
        return fromRanges(out.stream().mapToInt(Integer::intValue).toArray());
    }

    public CodePointSet intersect(CodePointSet other) {
        return complement().union(other.complement()).complement();
    }

    public CodePointSet minus(CodePointSet other) { return intersect(other.complement()); }

    public boolean contains(int cp) {
        for (int i = 0; i < ranges.length; i += 2) {
            if (cp < ranges[i]) return false;
            if (cp <= ranges[i + 1]) return true;
        }
        return false;
    }

    public boolean isEmpty() { return ranges.length == 0; }

    public int rangeCount() { return ranges.length / 2; }
    public int lo(int i) { return ranges[2 * i]; }
    public int hi(int i) { return ranges[2 * i + 1]; }

    /** Number of code points in the set. */
    public long size() {
        long n = 0;
        for (int i = 0; i < ranges.length; i += 2) n += ranges[i + 1] - ranges[i] + 1;
        return n;
    }

    @Override public boolean equals(Object o) {
        return o instanceof CodePointSet c && Arrays.equals(ranges, c.ranges);
    }

    @Override public int hashCode() { return Arrays.hashCode(ranges); }

    @Override public String toString() {
        StringBuilder sb = new StringBuilder();
        appendTo(sb, Integer.MAX_VALUE);
        return sb.toString();
    }

    /**
     * Appends {@link #toString()}, or a prefix of it once {@code sb} is longer than {@code limit}
     * (printers that cut their text: a large set prints long).
     */
    public void appendTo(StringBuilder sb, int limit) {
        sb.append('[');
        for (int i = 0; i < ranges.length; i += 2) {
            if (sb.length() > limit) return;
            appendCp(sb, ranges[i]);
            if (ranges[i + 1] != ranges[i]) { sb.append('-'); appendCp(sb, ranges[i + 1]); }
        }
        sb.append(']');
    }

    private static void appendCp(StringBuilder sb, int cp) {
        if (cp >= 0x21 && cp < 0x7F && cp != '-' && cp != ']' && cp != '\\' && cp != '^') sb.appendCodePoint(cp);
        else if (cp <= 0xFF) appendHex(sb.append("\\x"), cp, 2);
        else if (cp <= 0xFFFF) appendHex(sb.append("\\u"), cp, 4);
        else appendHex(sb.append("\\U"), cp, 8);
    }

    /** {@code digits} uppercase hex digits of {@code v}, zero-padded (as {@code %0nX}, without a Formatter). */
    public static void appendHex(StringBuilder sb, int v, int digits) {
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) sb.append(Character.toUpperCase(Character.forDigit((v >>> shift) & 0xF, 16)));
    }
}
