package dev.domino.runtime.internal.json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The canonical form of a JSON value under JSON equality, as bytes: two texts are equal values exactly
 * when their canonical forms are equal. Numbers by value ({@code 1}, {@code 1.0}, {@code 1e0} and
 * {@code -0} vs {@code 0} alike: digits without leading or trailing zeros and a decimal exponent, of any
 * size), strings by their decoded code points (escapes, surrogate pairs), objects by their members sorted
 * (member order does not count), arrays element by element; whitespace outside strings ignored.
 * Every part is tagged and length-prefixed, so no two values share a form.
 */
public final class CanonicalJson {
    private final byte[] text;
    private int at;

    private CanonicalJson(byte[] text, int from) { this.text = text; this.at = from; }

    /**
     * The canonical form of the JSON value {@code text[from, to)}, or null when it is not exactly one
     * JSON value (with optional surrounding whitespace).
     */
    public static byte[] of(byte[] text, int from, int to) {
        CanonicalJson c = new CanonicalJson(Arrays.copyOfRange(text, from, to), 0);
        try {
            Buf out = new Buf();
            c.skipWs();
            c.value(out);
            c.skipWs();
            return c.at == c.text.length ? out.toArray() : null;
        } catch (RuntimeException malformed) {
            return null; // malformed or truncated text: not a complete value
        }
    }

    private void skipWs() {
        while (at < text.length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) at++;
    }

    private int peek() {
        if (at >= text.length) throw new IllegalStateException("truncated");
        return text[at] & 0xFF;
    }

    private void expect(String word) {
        for (int i = 0; i < word.length(); i++) if (peek() != word.charAt(i)) throw new IllegalStateException("bad literal"); else at++;
    }

    private void value(Buf out) {
        int c = peek();
        switch (c) {
            case '"' -> { out.add('s'); out.part(string()); }
            case '{' -> object(out);
            case '[' -> array(out);
            case 't' -> { expect("true"); out.add('t'); }
            case 'f' -> { expect("false"); out.add('f'); }
            case 'n' -> { expect("null"); out.add('z'); }
            default -> { out.add('n'); out.part(number()); }
        }
    }

    private void array(Buf out) {
        at++;
        List<byte[]> items = new ArrayList<>();
        skipWs();
        if (peek() == ']') at++;
        else {
            while (true) {
                skipWs();
                Buf item = new Buf();
                value(item);
                items.add(item.toArray());
                skipWs();
                int c = peek();
                at++;
                if (c == ']') break;
                if (c != ',') throw new IllegalStateException("bad array");
            }
        }
        out.add('a');
        out.count(items.size());
        for (byte[] item : items) out.part(item);
    }

    private void object(Buf out) {
        at++;
        List<byte[]> members = new ArrayList<>();
        skipWs();
        if (peek() == '}') at++;
        else {
            while (true) {
                skipWs();
                if (peek() != '"') throw new IllegalStateException("bad key");
                Buf member = new Buf();
                member.part(string());
                skipWs();
                if (peek() != ':') throw new IllegalStateException("bad member");
                at++;
                skipWs();
                Buf v = new Buf();
                value(v);
                member.part(v.toArray());
                members.add(member.toArray());
                skipWs();
                int c = peek();
                at++;
                if (c == '}') break;
                if (c != ',') throw new IllegalStateException("bad object");
            }
        }
        members.sort(Arrays::compare);
        out.add('o');
        out.count(members.size());
        for (byte[] m : members) out.part(m);
    }

    /** The decoded UTF-8 of a string (the quotes consumed); lone surrogate escapes as 3-byte sequences, which valid UTF-8 text never holds. */
    private byte[] string() {
        at++;
        Buf out = new Buf();
        while (true) {
            int c = peek();
            at++;
            if (c == '"') return out.toArray();
            if (c != '\\') { out.add(c); continue; }
            int e = peek();
            at++;
            switch (e) {
                case '"', '\\', '/' -> out.add(e);
                case 'b' -> out.add('\b');
                case 'f' -> out.add('\f');
                case 'n' -> out.add('\n');
                case 'r' -> out.add('\r');
                case 't' -> out.add('\t');
                case 'u' -> {
                    int u = hex4();
                    if (Character.isHighSurrogate((char) u) && at + 1 < text.length && text[at] == '\\' && text[at + 1] == 'u') {
                        int save = at;
                        at += 2;
                        int low = hex4();
                        if (Character.isLowSurrogate((char) low)) u = Character.toCodePoint((char) u, (char) low);
                        else at = save;
                    }
                    utf8(u, out);
                }
                default -> throw new IllegalStateException("bad escape");
            }
        }
    }

    private int hex4() {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(peek(), 16);
            if (d < 0) throw new IllegalStateException("bad \\u escape");
            at++;
            v = v * 16 + d;
        }
        return v;
    }

    private static void utf8(int cp, Buf out) {
        if (cp < 0x80) out.add(cp);
        else if (cp < 0x800) { out.add(0xC0 | cp >> 6); out.add(0x80 | cp & 0x3F); }
        else if (cp < 0x10000) { out.add(0xE0 | cp >> 12); out.add(0x80 | cp >> 6 & 0x3F); out.add(0x80 | cp & 0x3F); }
        else { out.add(0xF0 | cp >> 18); out.add(0x80 | cp >> 12 & 0x3F); out.add(0x80 | cp >> 6 & 0x3F); out.add(0x80 | cp & 0x3F); }
    }

    /** A JSON number as sign, significant digits and exponent: "0" for every zero, else "-"? digits "e" exponent. */
    private byte[] number() {
        boolean negative = false;
        if (peek() == '-') { negative = true; at++; }
        StringBuilder digits = new StringBuilder();
        int fraction = 0;
        if (!isDigit(peek())) throw new IllegalStateException("bad number");
        while (at < text.length && isDigit(text[at])) digits.append((char) text[at++]);
        if (at < text.length && text[at] == '.') {
            at++;
            if (!isDigit(peek())) throw new IllegalStateException("bad fraction");
            while (at < text.length && isDigit(text[at])) { digits.append((char) text[at++]); fraction++; }
        }
        BigInteger exponent = BigInteger.ZERO;
        if (at < text.length && (text[at] == 'e' || text[at] == 'E')) {
            at++;
            boolean negativeExponent = false;
            if (peek() == '+' || peek() == '-') { negativeExponent = peek() == '-'; at++; }
            int start = at;
            if (!isDigit(peek())) throw new IllegalStateException("bad exponent");
            while (at < text.length && isDigit(text[at])) at++;
            exponent = new BigInteger(new String(text, start, at - start, java.nio.charset.StandardCharsets.US_ASCII));
            if (negativeExponent) exponent = exponent.negate();
        }
        int first = 0;
        while (first < digits.length() && digits.charAt(first) == '0') first++;
        if (first == digits.length()) return new byte[] {'0'};
        int last = digits.length();
        while (digits.charAt(last - 1) == '0') last--;
        exponent = exponent.subtract(BigInteger.valueOf(fraction)).add(BigInteger.valueOf(digits.length() - last));
        String form = (negative ? "-" : "") + digits.substring(first, last) + "e" + exponent;
        return form.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static boolean isDigit(int c) { return c >= '0' && c <= '9'; }

    /** A growable byte buffer with length-prefixed parts. */
    private static final class Buf {
        byte[] bytes = new byte[16];
        int size;

        void add(int b) {
            if (size == bytes.length) bytes = Arrays.copyOf(bytes, size * 2);
            bytes[size++] = (byte) b;
        }

        void count(int n) { for (int shift = 28; shift >= 0; shift -= 7) add(0x80 | (n >>> shift) & 0x7F); }

        void part(byte[] p) {
            count(p.length);
            for (byte b : p) add(b);
        }

        byte[] toArray() { return Arrays.copyOf(bytes, size); }
    }
}
