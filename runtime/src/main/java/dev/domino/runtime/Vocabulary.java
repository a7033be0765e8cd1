package dev.domino.runtime;

import dev.domino.runtime.internal.format.*;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;

/**
 * A model's vocabulary as the engine sees it: token id to exact bytes, which ids are special
 * (never produced by grammar text), and which ids end the output (EOS).
 * Immutable; the arrays handed in are not copied, so callers must not change them afterwards.
 *
 * <p>Immutable, so thread-safe: one instance is shared by every artifact of the vocabulary.
 */
public final class Vocabulary {
    private final String name;
    private final byte[][] tokenBytes;
    private final BitSet special;
    private final int[] eosIds;
    /** Whether every byte value is a grammar token of its own: null until first asked (see {@link #hasEverySingleByte}). */
    private volatile Boolean everySingleByte;
    /** This vocabulary's encoded artifact section, once written or read (see {@link VocabularySection}). */
    volatile byte[] sectionBlob;
    private volatile String fingerprint; // computed on first use: loading stays cheap

    /**
     * @param tokenBytes bytes of each id; {@code null} or empty for ids that have no bytes
     *                   (holes in the id space, or special tokens)
     * @param special    ids that grammar text never matches (added/control tokens), EOS included
     * @param eosIds     ids that end the output
     */
    public Vocabulary(String name, byte[][] tokenBytes, BitSet special, int[] eosIds) {
        this.name = name;
        this.tokenBytes = tokenBytes;
        for (int i = 0; i < tokenBytes.length; i++) if (tokenBytes[i] == null) tokenBytes[i] = new byte[0];
        this.special = (BitSet) special.clone();
        this.eosIds = eosIds.clone();
        for (int id : eosIds) {
            if (id < 0 || id >= tokenBytes.length) {
                throw new IllegalArgumentException("EOS id " + id + " outside the vocabulary (size " + tokenBytes.length + ")");
            }
            this.special.set(id);
        }
    }

    public String name() { return name; }
    public int size() { return tokenBytes.length; }
    /** The token's bytes (shared array: do not modify). */
    public byte[] bytes(int id) { return tokenBytes[id]; }
    public boolean isSpecial(int id) { return special.get(id); }

    /** Length of the longest token's bytes. */
    public int maxTokenBytes() {
        int m = maxTokenBytes;
        if (m < 0) {
            m = 0;
            for (byte[] b : tokenBytes) m = Math.max(m, b.length);
            maxTokenBytes = m;
        }
        return m;
    }

    private volatile int maxTokenBytes = -1;
    public BitSet specialIds() { return (BitSet) special.clone(); }
    public int[] eosIds() { return eosIds.clone(); }

    public boolean isEos(int id) {
        for (int e : eosIds) if (e == id) return true;
        return false;
    }

    /** True when the token may be matched by grammar text: not special and not empty. */
    public boolean isGrammarToken(int id) { return !special.get(id) && tokenBytes[id].length > 0; }

    /** Stable hash of ids, bytes, specials and EOS: artifacts are bound to it. */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) fingerprint = f = computeFingerprint();
        return f;
    }

    /** Human-readable form of a token's bytes (invalid UTF-8 shown as \xNN). */
    public String display(int id) { return displayBytes(tokenBytes[id]); }

    public static String displayBytes(byte[] b) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            int len = c < 0x80 ? 1 : c >= 0xF0 && c < 0xF8 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
            boolean ok = len > 0 && i + len <= b.length;
            for (int j = 1; ok && j < len; j++) ok = (b[i + j] & 0xC0) == 0x80;
            if (ok && len == 1 && (c < 0x20 || c == 0x7F)) {
                switch (c) {
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    case '\r' -> sb.append("\\r");
                    default -> sb.append(String.format("\\x%02X", c));
                }
                i++;
            } else if (ok) {
                sb.append(new String(b, i, len, StandardCharsets.UTF_8));
                i += len;
            } else {
                sb.append(String.format("\\x%02X", c));
                i++;
            }
        }
        return sb.toString();
    }

    private String computeFingerprint() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] len = new byte[4];
            for (int i = 0; i < tokenBytes.length; i++) {
                byte[] b = tokenBytes[i];
                putInt(len, b.length);
                md.update(len);
                md.update(b);
                md.update((byte) (special.get(i) ? 1 : 0));
            }
            int[] eos = eosIds.clone();
            Arrays.sort(eos);
            for (int e : eos) { putInt(len, e); md.update(len); }
            return HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void putInt(byte[] out, int v) {
        out[0] = (byte) (v >>> 24); out[1] = (byte) (v >>> 16); out[2] = (byte) (v >>> 8); out[3] = (byte) v;
    }

    /** Whether every byte value is a grammar token of its own, so that n bytes take at most n tokens (the token budget). */
    boolean hasEverySingleByte() {
        Boolean b = everySingleByte;
        if (b == null) {
            boolean[] seen = new boolean[256];
            int n = 0;
            for (int id = 0; id < size(); id++) {
                byte[] t = bytes(id);
                if (t.length == 1 && isGrammarToken(id) && !seen[t[0] & 0xFF]) { seen[t[0] & 0xFF] = true; n++; }
            }
            everySingleByte = b = n == 256;
        }
        return b;
    }
}
