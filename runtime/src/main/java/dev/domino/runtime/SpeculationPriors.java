package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.format.*;
import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * Counts for DOMINO's count-based speculation (§3.6):
 * {@code P(token | α, β) = #(token chosen in context) / #(context reached)}, keyed by
 * {@link SpeculationContext}. Learned offline from example outputs ({@link #train}) and online
 * from committed tokens ({@link #observe}); thread-safe, so one instance can serve all requests
 * of an artifact.
 *
 * <p>Priors are bound to one artifact: they carry its {@link #fingerprint(Artifact)} (vocabulary
 * fingerprint, grammar source hash, compiled parser grammar and scanner layout), because context
 * keys are made of its rule ids and scanner states. Loading them for another artifact fails.
 *
 * <h2>File format</h2>
 * <pre>
 * header (24 bytes): magic "DOMSPEC\0" | int version | long payloadLength | int crc32c(payload)
 * payload (big-endian): UTF fingerprint | UTF sourceName | UTF vocabularyName | int vocabularySize
 *                       | int contexts | per context: long key, int n, n × (int token, int count)
 * </pre>
 * Every count and length is bounded by the payload size before anything is allocated.
 */
public final class SpeculationPriors {
    public static final int FORMAT_VERSION = 1;
    private static final byte[] MAGIC = {'D', 'O', 'M', 'S', 'P', 'E', 'C', 0};
    private static final int HEADER = 24;
    static final long MAX_PAYLOAD = (1L << 31) - 1;

    private final String fingerprint;
    private final String sourceName;
    private final String vocabularyName;
    private final int vocabularySize;
    private final ConcurrentHashMap<Long, Counts> table = new ConcurrentHashMap<>();

    private SpeculationPriors(String fingerprint, String sourceName, String vocabularyName, int vocabularySize) {
        this.fingerprint = fingerprint;
        this.sourceName = sourceName;
        this.vocabularyName = vocabularyName;
        this.vocabularySize = vocabularySize;
    }

    /** Empty priors for an artifact. */
    public static SpeculationPriors empty(Artifact artifact) {
        return new SpeculationPriors(fingerprint(artifact), artifact.info().sourceName(), artifact.vocabulary().name(),
                artifact.vocabulary().size());
    }

    public String fingerprint() { return fingerprint; }
    public String sourceName() { return sourceName; }

    /** Number of distinct contexts seen. */
    public int contexts() { return table.size(); }

    /** Number of (context, token) observations. */
    public long observations() {
        long n = 0;
        for (Counts c : table.values()) n += c.total();
        return n;
    }

    /** True when these priors were made for {@code artifact}. */
    public boolean matches(Artifact artifact) { return fingerprint.equals(fingerprint(artifact)); }

    /** Throws a clear IllegalArgumentException unless these priors belong to {@code artifact}. */
    public void checkMatches(Artifact artifact) {
        if (!matches(artifact)) {
            throw new IllegalArgumentException("speculation priors were trained for another artifact ('" + sourceName + "', vocabulary "
                    + vocabularyName + ", fingerprint " + shortFp(fingerprint) + ") than '" + artifact.info().sourceName()
                    + "' (vocabulary " + artifact.vocabulary().name() + ", fingerprint " + shortFp(fingerprint(artifact))
                    + "): retrain them with 'domino train'");
        }
    }

    private static String shortFp(String fp) { return fp.length() > 16 ? fp.substring(0, 16) : fp; }

    // ------------------------------------------------------------------ learning

    /** One observation: {@code token} was chosen in context {@code key}. */
    public void observe(long key, int token) {
        if (token < 0 || token >= vocabularySize) throw new IllegalArgumentException("token id " + token + " outside the vocabulary");
        table.computeIfAbsent(key, k -> new Counts()).add(token, 1);
    }

    /** Counts {@code token} in the matcher's current context (call before committing it). */
    public void observe(Matcher matcher, int token) { observe(SpeculationContext.of(matcher), token); }

    /**
     * Learns from one complete example output, given as tokens (EOS included if the model would
     * emit it). The output is first replayed through a fresh matcher; if the grammar rejects any
     * token nothing is learned and false is returned.
     */
    public boolean train(Artifact artifact, int[] tokens) {
        Matcher m = artifact.newMatcher();
        long[] keys = new long[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            keys[i] = SpeculationContext.of(m);
            if (!m.acceptToken(tokens[i])) return false;
        }
        for (int i = 0; i < tokens.length; i++) observe(keys[i], tokens[i]);
        return true;
    }

    /** Adds all counts of {@code other} (same artifact) to these. */
    public void merge(SpeculationPriors other) {
        if (!other.fingerprint.equals(fingerprint)) throw new IllegalArgumentException("cannot merge priors of different artifacts");
        for (Map.Entry<Long, Counts> e : other.table.entrySet()) {
            Counts src = e.getValue();
            Counts dst = table.computeIfAbsent(e.getKey(), k -> new Counts());
            synchronized (src) {
                for (int i = 0; i < src.n; i++) dst.add(src.tokens[i], src.counts[i]);
            }
        }
    }

    // ------------------------------------------------------------------ querying

    /** A token with its estimated probability in a context. */
    public record Candidate(int token, int count, long total) {
        public double probability() { return total == 0 ? 0 : (double) count / total; }
    }

    /**
     * The tokens seen in context {@code key} with P ≥ {@code minProbability}, most frequent
     * first (at most {@code limit}).
     */
    public List<Candidate> candidates(long key, double minProbability, int limit) {
        Counts c = table.get(key);
        if (c == null) return List.of();
        return c.top(minProbability, limit);
    }

    /** How often context {@code key} was reached. */
    public long reached(long key) {
        Counts c = table.get(key);
        return c == null ? 0 : c.total();
    }

    /** Per-context counts, kept sorted by count (descending) as they grow. */
    static final class Counts {
        int[] tokens = new int[2];
        int[] counts = new int[2];
        int n;
        long total;

        synchronized long total() { return total; }

        synchronized void add(int token, int count) {
            total += count;
            int i = 0;
            while (i < n && tokens[i] != token) i++;
            if (i == n) {
                if (n == tokens.length) {
                    tokens = java.util.Arrays.copyOf(tokens, n * 2);
                    counts = java.util.Arrays.copyOf(counts, n * 2);
                }
                tokens[n] = token;
                counts[n] = 0;
                n++;
            }
            counts[i] += count;
            while (i > 0 && counts[i - 1] < counts[i]) { // keep descending order
                int t = tokens[i - 1]; tokens[i - 1] = tokens[i]; tokens[i] = t;
                int c = counts[i - 1]; counts[i - 1] = counts[i]; counts[i] = c;
                i--;
            }
        }

        synchronized List<Candidate> top(double minProbability, int limit) {
            List<Candidate> out = new ArrayList<>(Math.min(limit, n));
            for (int i = 0; i < n && out.size() < limit; i++) {
                if ((double) counts[i] / total < minProbability) break;
                out.add(new Candidate(tokens[i], counts[i], total));
            }
            return out;
        }
    }

    // ------------------------------------------------------------------ fingerprint

    /**
     * What priors depend on: the vocabulary, the grammar source, and the compiled parser grammar
     * and scanner layout (context keys are built from rule ids and scanner state numbers).
     */
    public static String fingerprint(Artifact a) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ByteBuffer buf = ByteBuffer.allocate(8);
            StringBuilder sb = new StringBuilder();
            sb.append("vocab=").append(a.vocabulary().fingerprint()).append('\n');
            sb.append("source=").append(a.info().sourceSha256()).append(' ').append(a.info().sourceFormat()).append('\n');
            sb.append("options=").append(new TreeMap<>(a.info().options())).append('\n');
            ArtifactInternals ai = RuntimeAccess.of(a);
            sb.append("states=").append(ai.scannerStateCount()).append('\n');
            for (Terminal t : ai.terminals()) {
                sb.append("t ").append(t.name()).append(' ').append(t.dfa().stateCount()).append(t.ignored() ? " i" : "").append('\n');
            }
            ParserGrammar g = ai.grammar();
            sb.append("nt=").append(g.nonterminalCount()).append(" start=").append(g.start()).append('\n');
            md.update(sb.toString().getBytes(StandardCharsets.UTF_8));
            for (int p = 0; p < g.productionCount(); p++) {
                md.update(buf.clear().putInt(0, g.lhs(p)).array(), 0, 4);
                for (int s : g.rhs(p)) md.update(buf.clear().putInt(0, s).array(), 0, 4);
                md.update(buf.clear().putInt(0, Integer.MIN_VALUE).array(), 0, 4);
            }
            for (int q = 0; q < g.permutationCount(); q++) {
                md.update(g.permutation(q).toString().getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ persistence

    public byte[] toBytes() {
        try {
            ByteArrayOutputStream payloadBytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(payloadBytes);
            out.writeUTF(fingerprint);
            out.writeUTF(sourceName);
            out.writeUTF(vocabularyName);
            out.writeInt(vocabularySize);
            TreeMap<Long, Counts> sorted = new TreeMap<>(table); // deterministic bytes
            out.writeInt(sorted.size());
            for (Map.Entry<Long, Counts> e : sorted.entrySet()) {
                Counts c = e.getValue();
                synchronized (c) {
                    out.writeLong(e.getKey());
                    out.writeInt(c.n);
                    for (int i = 0; i < c.n; i++) { out.writeInt(c.tokens[i]); out.writeInt(c.counts[i]); }
                }
            }
            out.flush();
            byte[] payload = payloadBytes.toByteArray();
            CRC32C crc = new CRC32C();
            crc.update(payload);
            ByteBuffer all = ByteBuffer.allocate(HEADER + payload.length);
            all.put(MAGIC).putInt(FORMAT_VERSION).putLong(payload.length).putInt((int) crc.getValue()).put(payload);
            return all.array();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes atomically (temporary file, then rename). */
    public void write(Path path) throws IOException {
        byte[] bytes = toBytes();
        AtomicFiles.write(path, bytes);
    }

    /** Loads priors for {@code artifact}; fails clearly if they belong to another artifact. */
    public static SpeculationPriors load(Path path, Artifact artifact) throws IOException {
        SpeculationPriors p;
        try (InputStream in = Files.newInputStream(path)) {
            p = read(in);
        } catch (ArtifactFormatException e) {
            throw new ArtifactFormatException(path + ": " + e.getMessage(), e.getCause());
        }
        try {
            p.checkMatches(artifact);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage());
        }
        return p;
    }

    /** Reads priors without binding them to an artifact (see {@link #checkMatches}). */
    public static SpeculationPriors read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[HEADER];
        try {
            data.readFully(header);
        } catch (EOFException e) {
            throw new ArtifactFormatException("not a Domino priors file (shorter than its header)");
        }
        ByteBuffer h = ByteBuffer.wrap(header);
        for (byte b : MAGIC) if (h.get() != b) throw new ArtifactFormatException("not a Domino priors file (bad magic bytes)");
        int version = h.getInt();
        if (version != FORMAT_VERSION) {
            throw new ArtifactFormatException("priors format version " + version + " is not supported (expects " + FORMAT_VERSION + "): retrain them");
        }
        long length = h.getLong();
        int expectedCrc = h.getInt();
        if (length < 0 || length > MAX_PAYLOAD) throw new ArtifactFormatException("corrupted priors file (payload length " + length + ")");
        byte[] payload = ArtifactFormat.readBounded(data, (int) length, "priors file");
        CRC32C crc = new CRC32C();
        crc.update(payload);
        if ((int) crc.getValue() != expectedCrc) throw new ArtifactFormatException("corrupted priors file (checksum mismatch)");
        if (data.read() != -1) throw new ArtifactFormatException("corrupted priors file (trailing bytes after payload)");
        try {
            DataInputStream p = new DataInputStream(new java.io.ByteArrayInputStream(payload));
            String fp = p.readUTF();
            String source = p.readUTF();
            String vocabName = p.readUTF();
            int vocabSize = p.readInt();
            if (vocabSize <= 0) throw new ArtifactFormatException("corrupted priors file (vocabulary size " + vocabSize + ")");
            SpeculationPriors priors = new SpeculationPriors(fp, source, vocabName, vocabSize);
            int contexts = p.readInt();
            if (contexts < 0 || contexts > payload.length / 12) throw new ArtifactFormatException("corrupted priors file (context count " + contexts + ")");
            for (int i = 0; i < contexts; i++) {
                long key = p.readLong();
                int n = p.readInt();
                if (n <= 0 || n > p.available() / 8) throw new ArtifactFormatException("corrupted priors file (token count " + n + ")");
                Counts c = new Counts();
                for (int j = 0; j < n; j++) {
                    int token = p.readInt();
                    int count = p.readInt();
                    if (token < 0 || token >= vocabSize || count <= 0) {
                        throw new ArtifactFormatException("corrupted priors file (token " + token + ", count " + count + ")");
                    }
                    c.add(token, count);
                }
                if (priors.table.putIfAbsent(key, c) != null) throw new ArtifactFormatException("corrupted priors file (duplicate context)");
            }
            if (p.available() != 0) throw new ArtifactFormatException("corrupted priors file (trailing payload bytes)");
            return priors;
        } catch (EOFException e) {
            throw new ArtifactFormatException("corrupted priors file (payload ends early)");
        }
    }
}
