package dev.domino.jlama;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The text of an output as its tokens arrive: decodes UTF-8 only up to the last complete character, finds stop
 * sequences, and hands a listener only text that can no longer turn out to be part of a stop sequence (the last
 * {@code longest stop - 1} characters are held back until the next token or the end).
 */
final class StreamedText {
    private final List<String> stops;
    private final int holdBack;
    private final ConstrainedGenerator.TextListener listener;
    private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
    private final StringBuilder text = new StringBuilder();
    private int decodedBytes, emitted, stopAt = -1;

    StreamedText(List<String> stops, ConstrainedGenerator.TextListener listener) {
        this.stops = stops;
        this.holdBack = stops.stream().mapToInt(String::length).max().orElse(1) - 1;
        this.listener = listener;
    }

    /** Appends a token's bytes; true when a stop sequence now appears (the text ends before it). */
    boolean append(byte[] bytes) {
        if (stopAt >= 0) return true;
        raw.writeBytes(bytes);
        byte[] all = raw.toByteArray();
        int complete = completeLength(all);
        if (complete > decodedBytes) {
            int searchFrom = Math.max(0, text.length() - holdBack);
            text.append(new String(all, decodedBytes, complete - decodedBytes, StandardCharsets.UTF_8));
            decodedBytes = complete;
            for (String s : stops) {
                int i = text.indexOf(s, searchFrom);
                if (i >= 0 && (stopAt < 0 || i < stopAt)) stopAt = i;
            }
            if (stopAt >= 0) {
                text.setLength(stopAt);
                emit(text.length());
                return true;
            }
            emit(text.length() - holdBack);
        }
        return false;
    }

    /** The whole text; sends what was held back to the listener. */
    String finish() {
        if (stopAt < 0 && raw.size() > decodedBytes) { // an incomplete character at the end: decoded with U+FFFD
            byte[] all = raw.toByteArray();
            text.append(new String(all, decodedBytes, all.length - decodedBytes, StandardCharsets.UTF_8));
            decodedBytes = all.length;
        }
        emit(text.length());
        return text.toString();
    }

    private void emit(int upTo) {
        if (upTo <= emitted) return;
        // never split a surrogate pair between two deltas
        if (upTo < text.length() && Character.isHighSurrogate(text.charAt(upTo - 1))) upTo--;
        if (upTo <= emitted) return;
        if (listener != null) listener.onText(text.substring(emitted, upTo));
        emitted = upTo;
    }

    /** Length of the longest prefix of {@code b} that does not end inside a UTF-8 sequence. */
    static int completeLength(byte[] b) {
        int n = b.length;
        for (int back = 1; back <= Math.min(4, n); back++) {
            int c = b[n - back] & 0xFF;
            if ((c & 0xC0) == 0x80) continue; // continuation byte: look further back for its lead
            int need = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            return back >= need ? n : n - back;
        }
        return n; // only continuation bytes at the end: invalid anyway, decoded as U+FFFD
    }
}
