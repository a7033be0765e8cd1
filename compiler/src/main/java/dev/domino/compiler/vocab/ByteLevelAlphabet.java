package dev.domino.compiler.vocab;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * GPT-2's byte-to-unicode map, used by byte-level BPE vocabularies: every byte is written as a
 * printable character (printable Latin-1 bytes as themselves, the rest shifted to U+0100...),
 * so {@code Ġ} (U+0120) is the space byte and {@code Ċ} (U+010A) is newline.
 */
final class ByteLevelAlphabet {
    private ByteLevelAlphabet() {}

    private static final char[] BYTE_TO_CHAR = new char[256];
    /** Inverse map indexed by char; -1 where a char stands for no byte. */
    private static final short[] CHAR_TO_BYTE = new short[0x200];

    static {
        java.util.Arrays.fill(CHAR_TO_BYTE, (short) -1);
        int shifted = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) (256 + shifted++);
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = (short) b;
        }
    }

    static char charOf(int b) { return BYTE_TO_CHAR[b & 0xFF]; }

    /**
     * The bytes a vocabulary string stands for. Characters outside the alphabet (seen in some
     * hand-edited vocabularies) are kept as their UTF-8 encoding rather than rejected.
     */
    static byte[] decode(String token) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(token.length());
        for (int i = 0; i < token.length(); ) {
            int cp = token.codePointAt(i);
            if (cp < CHAR_TO_BYTE.length && CHAR_TO_BYTE[cp] >= 0) {
                out.write(CHAR_TO_BYTE[cp]);
            } else {
                out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
            }
            i += Character.charCount(cp);
        }
        return out.toByteArray();
    }
}
