package dev.domino.compiler;

import dev.domino.compiler.ir.GrammarException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads grammar and schema files: strict UTF-8 (the first bad byte is an error with its line and
 * column, not the JDK's "Input length = 1"), at most {@link CompileLimits#SOURCE_BYTES} bytes, and
 * only from regular files or special files that end ({@code /proc/...}, whose size reads as 0, works).
 */
public final class SourceFiles {
    private SourceFiles() {}

    public static String readUtf8(Path file) throws IOException { return readUtf8(file, CompileLimits.SOURCE_BYTES.value()); }

    /** At most {@code limit} bytes (a compile's {@link CompileLimits.Values#sourceBytes()}). */
    public static String readUtf8(Path file, long limit) throws IOException {
        if (Files.isDirectory(file)) throw new IllegalArgumentException(file + " is a directory, not a grammar file");
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        }
        if (bytes.length > limit) {
            throw new GrammarException(file + " holds more than " + limit + " bytes, the limit " + CompileLimits.SOURCE_BYTES.id()
                    + " (raise it with --limit " + CompileLimits.SOURCE_BYTES.id() + "=N)");
        }
        return decode(bytes, file.toString());
    }

    /** Strict UTF-8 decoding; {@code name} prefixes the error. A leading byte-order mark is dropped. */
    public static String decode(byte[] bytes, String name) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        var result = d.decode(in, out, true);
        if (result.isError()) {
            int bad = in.position();
            int line = 1;
            int column = 1;
            for (int i = 0; i < bad; i++) {
                if (bytes[i] == '\n') { line++; column = 1; }
                else if ((bytes[i] & 0xC0) != 0x80) column++; // count characters, not continuation bytes
            }
            throw new GrammarException(name + ": invalid UTF-8 (byte 0x" + String.format("%02X", bytes[bad] & 0xFF)
                    + "); grammar and schema files must be UTF-8", line, column);
        }
        d.flush(out);
        out.flip();
        String s = out.toString();
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }
}
