package dev.domino.runtime.internal.format;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

/**
 * Arrays of Kryo variable-length ints, encoded and decoded in one loop over the bytes: the same
 * bytes as {@code Output.writeVarInt} per value (7 bits a byte, low first; zigzag unless
 * {@code optimizePositive}), without its per-value buffer checks, which made int arrays (the
 * trees) the largest part of writing and loading an artifact.
 */
final class VarIntArrays {
    private static final int CHUNK = 4096; // values encoded per scratch buffer

    private VarIntArrays() {}

    static void write(Output out, int[] values, int from, int count, boolean optimizePositive) {
        byte[] scratch = new byte[5 * Math.min(count, CHUNK)];
        for (int start = from, end = from + count; start < end; start += CHUNK) {
            int n = 0;
            for (int i = start, stop = Math.min(end, start + CHUNK); i < stop; i++) {
                int v = optimizePositive ? values[i] : (values[i] << 1) ^ (values[i] >> 31);
                while ((v & ~0x7F) != 0) {
                    scratch[n++] = (byte) ((v & 0x7F) | 0x80);
                    v >>>= 7;
                }
                scratch[n++] = (byte) v;
            }
            out.writeBytes(scratch, 0, n);
        }
    }

    /** Reads {@code count} values into {@code into[from..]}; a truncated input is an error, never a partial read. */
    static void read(Input in, int[] into, int from, int count, boolean optimizePositive) {
        if (in.getInputStream() != null) { // a streaming input refills its buffer: value by value
            for (int i = from; i < from + count; i++) into[i] = in.readVarInt(optimizePositive);
            return;
        }
        byte[] buffer = in.getBuffer();
        int p = in.position(), limit = in.limit();
        for (int i = from, end = from + count; i < end; i++) {
            int result = 0;
            for (int shift = 0; ; shift += 7) {
                if (p >= limit) throw new IllegalArgumentException("truncated int array");
                int b = buffer[p++];
                result |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0 || shift == 28) break; // Kryo reads at most five bytes
            }
            into[i] = optimizePositive ? result : (result >>> 1) ^ -(result & 1);
        }
        in.setPosition(p);
    }
}
