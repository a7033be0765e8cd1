package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.GrammarException;

import java.util.Arrays;

/**
 * Grammar source text as code points with a cursor, plus the bookkeeping needed to report
 * errors at 1-based line/column positions. Columns count code points, so a non-ASCII character
 * before an error moves the column by one, as a user would count it.
 */
final class GrammarText {
    static final int EOF = -1;

    final int[] cps;
    int pos;
    private final int[] lineStarts;

    GrammarText(String source) {
        // A byte-order mark is invisible in editors; dropping it keeps columns as users see them.
        if (source.startsWith("\uFEFF")) source = source.substring(1);
        this.cps = source.codePoints().toArray();
        int[] starts = new int[16];
        int n = 0;
        starts[n++] = 0;
        for (int i = 0; i < cps.length; i++) {
            if (cps[i] == '\n') {
                if (n == starts.length) starts = Arrays.copyOf(starts, n * 2);
                starts[n++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, n);
    }

    boolean atEnd() { return pos >= cps.length; }

    int peek() { return peek(0); }

    int peek(int ahead) {
        int p = pos + ahead;
        return p >= 0 && p < cps.length ? cps[p] : EOF;
    }

    int next() { return pos < cps.length ? cps[pos++] : EOF; }

    /** True (and consumed) if the text at the cursor is exactly {@code s}. */
    boolean accept(String s) {
        int[] want = s.codePoints().toArray();
        for (int i = 0; i < want.length; i++) if (peek(i) != want[i]) return false;
        pos += want.length;
        return true;
    }

    int line(int p) {
        int i = Arrays.binarySearch(lineStarts, p);
        return (i >= 0 ? i : -i - 2) + 1;
    }

    int column(int p) { return p - lineStarts[line(p) - 1] + 1; }

    GrammarException error(String message, int p) {
        return new GrammarException(message, line(p), column(p));
    }

    String substring(int from, int to) { return new String(cps, from, to - from); }

    /** A character as it should appear in an error message. */
    static String describe(int cp) {
        if (cp == EOF) return "end of input";
        if (cp == '\n') return "end of line";
        if (cp == '\r') return "'\\r'";
        if (cp == '\t') return "'\\t'";
        if (cp < 0x20 || cp == 0x7F) return String.format("U+%04X", cp);
        return "'" + new String(Character.toChars(cp)) + "'";
    }
}
