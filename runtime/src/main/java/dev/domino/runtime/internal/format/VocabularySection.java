package dev.domino.runtime.internal.format;

import dev.domino.runtime.internal.*;

import dev.domino.runtime.*;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vocabulary section of an artifact file: one length-prefixed blob (name, fingerprint,
 * token lengths, all token bytes as one block, specials, EOS).
 *
 * <p>Every artifact embeds its vocabulary (1 MB and more), but a server loads many artifacts
 * for few vocabularies. So the blob of each vocabulary seen in this process is kept with the
 * vocabulary, writing an artifact copies it instead of re-encoding, and loading an artifact
 * whose blob equals a known one returns that same {@link Vocabulary} instance: no per-token
 * arrays, no fingerprint hashing, and the vocabulary trie and walks cached for it are found
 * again. Known vocabularies are found by the (fingerprint, length) the blob starts with, then
 * compared byte for byte: no lock, no scan of every known vocabulary.
 */
public final class VocabularySection {
    /** "fingerprint/blob length" → the vocabulary (weakly: vocabularies nobody uses are forgotten). */
    private static final ConcurrentHashMap<String, WeakReference<Vocabulary>> KNOWN = new ConcurrentHashMap<>();

    private VocabularySection() {}

    public static void write(Output out, Vocabulary v) {
        byte[] blob = blobOf(v);
        out.writeVarInt(blob.length, true);
        out.writeBytes(blob);
    }

    public static Vocabulary read(Input in) {
        int n = ArtifactFormat.arrayLength(in, 8);
        byte[] buffer = in.getBuffer();
        int pos = in.position();
        String key = keyOf(buffer, pos, n);
        WeakReference<Vocabulary> ref = key == null ? null : KNOWN.get(key);
        Vocabulary known = ref == null ? null : ref.get();
        if (known != null) {
            byte[] blob = RuntimeAccess.get().sectionBlob(known);
            if (blob != null && blob.length == n && Arrays.equals(buffer, pos, pos + n, blob, 0, n)) {
                in.setPosition(pos + n);
                return known;
            }
        }
        byte[] blob = in.readBytes(n);
        Vocabulary v = decode(blob);
        RuntimeAccess.get().setSectionBlob(v, blob);
        KNOWN.put(keyOf(blob, 0, n), new WeakReference<>(v)); // decode read the same two strings: not null
        return v;
    }

    /** The blob's key: its fingerprint (second string) and length; null when the strings do not parse. */
    private static String keyOf(byte[] buffer, int pos, int n) {
        try (Input head = new Input(buffer, pos, n)) {
            ArtifactFormat.readString(head);
            String fingerprint = ArtifactFormat.readString(head);
            return fingerprint == null ? null : fingerprint + "/" + n;
        } catch (RuntimeException e) {
            return null; // decode reports a malformed section
        }
    }

    /** Forgets every known vocabulary (for {@link RuntimeCaches#clear}). */
    public static void clearKnown() { KNOWN.clear(); }

    public static int knownCount() { return KNOWN.size(); }

    private static byte[] blobOf(Vocabulary v) {
        byte[] blob = RuntimeAccess.get().sectionBlob(v);
        if (blob != null) return blob;
        blob = encode(v);
        RuntimeAccess.get().setSectionBlob(v, blob);
        KNOWN.compute(keyOf(blob, 0, blob.length), (k, old) -> old == null || old.get() == null ? new WeakReference<>(v) : old);
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
