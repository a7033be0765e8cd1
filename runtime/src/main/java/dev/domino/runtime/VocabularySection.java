package dev.domino.runtime;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The vocabulary section of an artifact file: one length-prefixed blob (name, fingerprint,
 * token lengths, all token bytes as one block, specials, EOS).
 *
 * <p>Every artifact embeds its vocabulary (1 MB and more), but a server loads many artifacts
 * for few vocabularies. So the blob of each vocabulary seen in this process is kept (weakly,
 * with the vocabulary), writing an artifact copies it instead of re-encoding, and loading an
 * artifact whose blob equals a known one returns that same {@link Vocabulary} instance: no
 * per-token arrays, no fingerprint hashing, and the vocabulary trie and walks cached for it
 * are found again.
 */
final class VocabularySection {
    /** Vocabulary → its encoded blob; weak keys, so vocabularies nobody uses are forgotten. */
    private static final Map<Vocabulary, byte[]> KNOWN = new WeakHashMap<>();

    private VocabularySection() {}

    static void write(Output out, Vocabulary v) {
        byte[] blob = blobOf(v);
        out.writeVarInt(blob.length, true);
        out.writeBytes(blob);
    }

    static Vocabulary read(Input in) {
        int n = ArtifactFormat.arrayLength(in, 8);
        byte[] buffer = in.getBuffer();
        int pos = in.position();
        synchronized (KNOWN) {
            for (Map.Entry<Vocabulary, byte[]> e : KNOWN.entrySet()) {
                byte[] blob = e.getValue();
                Vocabulary known = e.getKey();
                if (known != null && blob.length == n && Arrays.equals(buffer, pos, pos + n, blob, 0, n)) {
                    in.setPosition(pos + n);
                    return known;
                }
            }
        }
        byte[] blob = in.readBytes(n);
        Vocabulary v = decode(blob);
        synchronized (KNOWN) { KNOWN.put(v, blob); }
        return v;
    }

    private static byte[] blobOf(Vocabulary v) {
        synchronized (KNOWN) {
            byte[] blob = KNOWN.get(v);
            if (blob != null) return blob;
        }
        byte[] blob = encode(v);
        synchronized (KNOWN) { KNOWN.putIfAbsent(v, blob); }
        return blob;
    }

    private static byte[] encode(Vocabulary v) {
        Output out = new Output(1 << 20, -1);
        out.writeString(v.name());
        out.writeString(v.fingerprint());
        out.writeVarInt(v.size(), true);
        int total = 0;
        int[] lengths = new int[v.size()];
        for (int i = 0; i < v.size(); i++) { lengths[i] = v.bytes(i).length; total += lengths[i]; }
        ArtifactFormat.writeInts(out, lengths);
        byte[] block = new byte[total];
        for (int i = 0, at = 0; i < v.size(); i++) { System.arraycopy(v.bytes(i), 0, block, at, lengths[i]); at += lengths[i]; }
        ArtifactFormat.writeBytes(out, block);
        ArtifactFormat.writeLongs(out, v.specialIds().toLongArray());
        ArtifactFormat.writeInts(out, v.eosIds());
        return out.toBytes();
    }

    private static Vocabulary decode(byte[] blob) {
        try (Input in = new Input(blob)) {
            String name = ArtifactFormat.readString(in);
            ArtifactFormat.readString(in); // fingerprint: informational (the checksum guards the bytes)
            int size = ArtifactFormat.length(in, 1 << 24);
            int[] lengths = ArtifactFormat.readInts(in);
            if (lengths.length != size) throw new IllegalArgumentException("token length table does not match the vocabulary");
            byte[] block = ArtifactFormat.readBytes(in);
            byte[][] tokenBytes = new byte[size][];
            for (int i = 0, at = 0; i < size; i++) {
                int len = lengths[i];
                if (len < 0 || len > block.length - at) throw new IllegalArgumentException("token bytes out of bounds");
                tokenBytes[i] = Arrays.copyOfRange(block, at, at + len);
                at += len;
            }
            BitSet special = BitSet.valueOf(ArtifactFormat.readLongs(in));
            int[] eos = ArtifactFormat.readInts(in);
            if (in.position() != blob.length) throw new IllegalArgumentException("trailing bytes in the vocabulary section");
            return new Vocabulary(name, tokenBytes, special, eos);
        }
    }
}
