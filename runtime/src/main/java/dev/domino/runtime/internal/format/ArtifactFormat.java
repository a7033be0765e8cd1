package dev.domino.runtime.internal.format;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;

import dev.domino.runtime.*;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The artifact file format.
 *
 * <pre>
 * header (24 bytes): magic "DOMINO\0\1" | int formatVersion | long payloadLength | int crc32c(payload)
 * payload: Kryo, registration required, one registered class (Artifact) with a hand-written
 *          serializer: every length read is bounded before anything is allocated.
 * </pre>
 * A foreign, truncated or corrupted file fails with {@link ArtifactFormatException} before any
 * parsing: the checksum covers the whole payload. Writing goes to a temporary file that is
 * renamed into place, so a failure never leaves a half-written artifact.
 */
public final class ArtifactFormat {
    public static final int FORMAT_VERSION = 17; // 17: trees stored as another tree renamed at the root (TokenTree.unrenamed); 16: one pool of counted trees' copies (CopiesPool), one of terminal classes (TerminalClassPool), automata by column; 15: final weights of counted loops (CountedLoop.weights); 14: lexemes limited in tokens (Terminal.maxTokens), hidden stop texts (Terminal.hiddenTail); 13: terminals marking arrays of distinct items (Terminal.uniqueRole); 12: 12: counted terminals without a maximum (CountedLoop.UNBOUNDED); 11: root references and root trees (see TokenTree)
    private static final byte[] MAGIC = {'D', 'O', 'M', 'I', 'N', 'O', 0, 1};
    private static final int HEADER = 24;
    /** Upper bound for a payload: far above any real artifact, far below a memory blow-up. */
    public static final long MAX_PAYLOAD = 1L << 30;
    private static final int MAX_ARRAY = 1 << 28;

    private ArtifactFormat() {}

    private static Kryo kryo() { return kryo(new ArtifactSerializer()); }

    private static Kryo kryo(ArtifactSerializer serializer) {
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        kryo.register(Artifact.class, serializer, 100);
        return kryo;
    }

    /**
     * Bytes of each section of the artifact file, in file order (header, info, vocabulary,
     * terminals, parser grammar, token sets, trees, tree index), measured by serializing it.
     * The values add up to the file size.
     */
    public static Map<String, Long> sectionSizes(Artifact artifact) {
        ArtifactSerializer serializer = new ArtifactSerializer();
        serializer.sections = new LinkedHashMap<>();
        serializer.sections.put("header", (long) HEADER);
        Output out = new Output(1 << 16, -1);
        kryo(serializer).writeObject(out, artifact);
        serializer.mark(out, null);
        return serializer.sections;
    }

    // ------------------------------------------------------------------ write

    public static byte[] toBytes(Artifact artifact) {
        Output out = new Output(1 << 16, -1);
        kryo().writeObject(out, artifact);
        byte[] payload = out.toBytes();
        CRC32C crc = new CRC32C();
        crc.update(payload);
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        header.put(MAGIC).putInt(FORMAT_VERSION).putLong(payload.length).putInt((int) crc.getValue());
        byte[] all = new byte[HEADER + payload.length];
        System.arraycopy(header.array(), 0, all, 0, HEADER);
        System.arraycopy(payload, 0, all, HEADER, payload.length);
        return all;
    }

    /** Writes atomically: temp file in the same directory, then rename. */
    public static void write(Artifact artifact, Path path) throws IOException {
        byte[] bytes = toBytes(artifact);
        AtomicFiles.write(path, bytes);
    }

    // ------------------------------------------------------------------ read

    /** Reads an artifact file; regular files only, checked before opening (see {@link ArtifactFiles}). */
    public static Artifact read(Path path) throws IOException {
        try {
            return decode(ArtifactFiles.payload(path, HEADER, ArtifactFormat::header));
        } catch (ArtifactFormatException e) {
            throw new ArtifactFormatException(path + ": " + e.getMessage(), e.getCause());
        } catch (UncheckedIOException e) {
            throw new ArtifactFormatException(path + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    public static Artifact read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[HEADER];
        try {
            data.readFully(header);
        } catch (EOFException e) {
            throw new ArtifactFormatException("not a Domino artifact (file shorter than its header)");
        }
        long[] lengthAndCrc;
        try {
            lengthAndCrc = header(header);
        } catch (UncheckedIOException e) {
            throw (ArtifactFormatException) e.getCause();
        }
        byte[] payload = readBounded(data, (int) lengthAndCrc[0], "artifact");
        CRC32C crc = new CRC32C();
        crc.update(payload);
        if ((int) crc.getValue() != (int) lengthAndCrc[1]) throw new ArtifactFormatException("corrupted artifact (checksum mismatch)");
        if (data.read() != -1) throw new ArtifactFormatException("corrupted artifact (trailing bytes after payload)");
        return decode(payload);
    }

    /** The header's payload length and checksum; a foreign, damaged or other-version header is an ArtifactFormatException (unchecked-wrapped). */
    private static long[] header(byte[] header) {
        ByteBuffer h = ByteBuffer.wrap(header);
        for (int i = 0; i < MAGIC.length; i++) {
            if (h.get() != MAGIC[i]) throw new UncheckedIOException(new ArtifactFormatException("not a Domino artifact (bad magic bytes)"));
        }
        int version = h.getInt();
        if (version != FORMAT_VERSION) {
            throw new UncheckedIOException(new ArtifactFormatException("artifact format version " + version + " is not supported by this runtime (expects "
                    + FORMAT_VERSION + "); recompile the grammar with a matching compiler"));
        }
        long length = h.getLong();
        int expectedCrc = h.getInt();
        if (length < 0 || length > MAX_PAYLOAD) throw new UncheckedIOException(new ArtifactFormatException("corrupted artifact (payload length " + length + ")"));
        return new long[] {length, expectedCrc};
    }

    private static Artifact decode(byte[] payload) throws ArtifactFormatException {
        try (Input input = new Input(payload)) {
            return kryo().readObject(input, Artifact.class);
        } catch (RuntimeException e) {
            // KryoException, IllegalArgumentException from validation, IndexOutOfBounds...: all mean a bad payload
            throw new ArtifactFormatException("corrupted artifact (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Reads exactly n bytes without trusting n for a single up-front allocation (a damaged length field must not
     * allocate gigabytes before the stream ends); {@code what} names the file in the error ("artifact").
     */
    public static byte[] readBounded(DataInputStream in, int n, String what) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(Math.min(n, 1 << 20));
        byte[] chunk = new byte[1 << 16];
        int remaining = n;
        while (remaining > 0) {
            int r = in.read(chunk, 0, Math.min(chunk.length, remaining));
            if (r < 0) throw new ArtifactFormatException("truncated " + what + " (" + (n - remaining) + " of " + n + " payload bytes)");
            buf.write(chunk, 0, r);
            remaining -= r;
        }
        return buf.toByteArray();
    }

    // ------------------------------------------------------------------ payload

    private static final class ArtifactSerializer extends Serializer<Artifact> {
        /** When set, {@link #mark} records the bytes written per section. */
        public Map<String, Long> sections;
        private String section;
        private long sectionStart;

        public void mark(Output out, String next) {
            if (sections == null) return;
            if (section != null) sections.merge(section, out.total() - sectionStart, Long::sum);
            section = next;
            sectionStart = out.total();
        }

        @Override public void write(Kryo kryo, Output out, Artifact artifact) {
            ArtifactInternals a = RuntimeAccess.of(artifact);
            mark(out, "info");
            ArtifactInfo info = artifact.info();
            out.writeString(info.sourceName());
            out.writeString(info.sourceFormat());
            out.writeString(info.sourceSha256());
            out.writeVarInt(info.options().size(), true);
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(info.options()).entrySet()) {
                out.writeString(e.getKey());
                out.writeString(e.getValue());
            }
            out.writeVarInt(info.ignoredKeywords().size(), true);
            for (String s : info.ignoredKeywords()) out.writeString(s);
            out.writeVarInt(info.dynamicCap(), true);

            mark(out, "vocabulary");
            VocabularySection.write(out, artifact.vocabulary());

            mark(out, "terminals");
            out.writeVarInt(a.terminalCount(), true);
            for (Terminal t : a.terminals()) {
                out.writeString(t.name());
                out.writeString(t.description());
                out.writeBoolean(t.ignored());
                writeAutomaton(out, t.dfa());
                out.writeVarInt(t.counted() == null ? 0 : t.counted().max(), true);
                if (t.counted() != null) {
                    out.writeVarInt(t.counted().min(), true);
                    boolean[] units = t.counted().boundaries();
                    out.writeBoolean(units != null);
                    if (units != null) {
                        for (boolean u : units) out.writeBoolean(u);
                        int[] weights = t.counted().weights();
                        out.writeBoolean(weights != null);
                        if (weights != null) for (int w : weights) out.writeVarInt(w, true);
                    }
                }
                out.writeBoolean(t.tokens() != null);
                if (t.tokens() != null) {
                    out.writeBoolean(t.tokens().negated());
                    writeInts(out, t.tokens().ids());
                }
                out.writeByte(t.uniqueRole());
                out.writeVarInt(t.maxTokens(), true);
                out.writeVarInt(t.hiddenTail(), true);
            }

            mark(out, "parser_grammar");
            ParserGrammar g = a.grammar();
            out.writeVarInt(g.nonterminalCount(), true);
            for (String name : g.nonterminalNamesArray()) out.writeString(name);
            out.writeVarInt(g.start(), true);
            out.writeVarInt(g.productionCount(), true);
            for (int p = 0; p < g.productionCount(); p++) {
                out.writeVarInt(g.lhs(p), true);
                writeInts(out, g.rhs(p));
            }
            out.writeVarInt(g.permutationCount(), true);
            for (int q = 0; q < g.permutationCount(); q++) {
                Permutation perm = g.permutation(q);
                out.writeVarInt(perm.lhs(), true);
                writeInts(out, perm.members());
                boolean[] required = perm.required();
                for (boolean r : required) out.writeBoolean(r);
                out.writeVarInt(perm.other() + 1, true);
                out.writeBoolean(perm.separator() != Permutation.NO_SEPARATOR);
                if (perm.separator() != Permutation.NO_SEPARATOR) out.writeVarInt(perm.separator(), false);
                out.writeVarInt(perm.minCount(), true);
                out.writeVarInt(perm.maxCount() + 1, true);
            }

            mark(out, "follow_sets");
            for (BitSet f : a.follow()) writeLongs(out, f.toLongArray());
            writeLongs(out, a.first().toLongArray());

            mark(out, "token_sets");
            // one pool for all trees: shared sets are written once
            TokenSetPool pool = new TokenSetPool(a.storedTrees());
            out.writeVarInt(pool.size(), true);
            for (TokenSet set : pool.sets()) {
                out.writeBoolean(set.isBitmap());
                if (set.isBitmap()) writeLongs(out, set.bitmap());
                else writeInts(out, set.ids());
            }

            mark(out, "copies");
            CopiesPool copiesPool = new CopiesPool(a.storedTrees(), pool);
            copiesPool.write(out);

            mark(out, "terminal_classes");
            TerminalClassPool classPool = new TerminalClassPool(a.storedTrees());
            classPool.write(out);

            mark(out, "trees");
            out.writeVarInt(a.storedTrees().length, true);
            RootRenaming.Written written = new RootRenaming.Written();
            for (TokenTree t : a.storedTrees()) {
                RootRenaming renaming = written.renamingOf(t); // then t is written as that renaming, else in full
                written.add(t);
                out.writeVarInt(renaming == null ? 0 : renaming.tree() + 1, true);
                if (renaming != null) {
                    out.writeVarInt(renaming.from(), true);
                    out.writeVarInt(renaming.to(), true);
                    continue;
                }
                int[] globalSets = pool.groupNumbers(t);
                writeInts(out, t.edgeStart);
                writeInts(out, t.edgeTerminal);
                writeInts(out, t.edgeChild);
                writeInts(out, t.groupStart);
                writeInts(out, t.groupTerminal);
                writeInts(out, globalSets);
                writeInts(out, t.dynamicTokens);
                writeInts(out, classPool.numbers(t));
                out.writeBoolean(t.hasCopies());
                if (t.hasCopies()) writeInts(out, copiesPool.groupNumbers(t));
                writeInts(out, t.rootStart);
                writeInts(out, t.rootTerminal);
            }
            mark(out, "tree_index");
            writeInts(out, a.storedTreeIndex());
            writeInts(out, a.storedRootTreeIndex());
        }

        @Override public Artifact read(Kryo kryo, Input in, Class<? extends Artifact> type) {
            String sourceName = readString(in);
            String sourceFormat = readString(in);
            String sourceSha = readString(in);
            int optionCount = length(in, 10_000);
            Map<String, String> options = new LinkedHashMap<>();
            for (int i = 0; i < optionCount; i++) options.put(readString(in), readString(in));
            int ignoredCount = length(in, 100_000);
            List<String> ignored = new ArrayList<>();
            for (int i = 0; i < ignoredCount; i++) ignored.add(readString(in));
            int cap = in.readVarInt(true);
            ArtifactInfo info = new ArtifactInfo(sourceName, sourceFormat, sourceSha, options, ignored, cap);

            Vocabulary vocabulary = VocabularySection.read(in);
            int vocabSize = vocabulary.size();

            int terminalCount = length(in, 1 << 20);
            Terminal[] terminals = new Terminal[terminalCount];
            for (int t = 0; t < terminalCount; t++) {
                String name = readString(in);
                String description = readString(in);
                boolean isIgnored = in.readBoolean();
                ByteDfa dfa = readAutomaton(in);
                int countedMax = in.readVarInt(true); // 0: not counted
                if (countedMax < 0 || countedMax > CountedLoop.MAX_STATES && countedMax != CountedLoop.UNBOUNDED) throw new IllegalArgumentException("bad repeat count " + countedMax);
                int countedMin = countedMax == 0 ? 0 : in.readVarInt(true);
                boolean[] units = null;
                int[] weights = null;
                if (countedMax != 0 && in.readBoolean()) {
                    units = new boolean[dfa.stateCount()]; // bounded: the automaton was read
                    for (int s = 0; s < units.length; s++) units[s] = in.readBoolean();
                    if (in.readBoolean()) {
                        weights = new int[dfa.stateCount()]; // bounded: the automaton was read; values checked by CountedLoop
                        for (int s = 0; s < weights.length; s++) weights[s] = in.readVarInt(true);
                    }
                }
                TokenMatch tokens = null;
                if (in.readBoolean()) {
                    boolean negated = in.readBoolean();
                    int[] ids = readInts(in);
                    for (int id : ids) if (id < 0 || id >= vocabSize) throw new IllegalArgumentException("token terminal names token " + id + " outside the vocabulary");
                    tokens = new TokenMatch(ids, negated);
                }
                int uniqueRole = in.readByte();
                if (uniqueRole < Terminal.UNIQUE_NONE || uniqueRole > Terminal.UNIQUE_CLOSE) throw new IllegalArgumentException("bad unique-array role " + uniqueRole);
                int maxTokens = in.readVarInt(true);
                if (maxTokens < 0 || maxTokens > Terminal.MAX_LEXEME_TOKENS) throw new IllegalArgumentException("bad lexeme token limit " + maxTokens);
                int hiddenTail = in.readVarInt(true);
                if (hiddenTail < 0 || hiddenTail > Terminal.MAX_HIDDEN_TAIL) throw new IllegalArgumentException("bad hidden stop length " + hiddenTail);
                terminals[t] = new Terminal(name, description, dfa, isIgnored, countedMax == 0 ? null : new CountedLoop(dfa, units, weights, countedMin, countedMax),
                        tokens, uniqueRole, maxTokens, hiddenTail);
            }

            int nonterminals = length(in, 1 << 24);
            String[] names = new String[nonterminals];
            for (int i = 0; i < nonterminals; i++) names[i] = readString(in);
            int start = in.readVarInt(true);
            int productions = length(in, 1 << 24);
            int[] lhs = new int[productions];
            int[][] rhs = new int[productions][];
            for (int p = 0; p < productions; p++) { lhs[p] = in.readVarInt(true); rhs[p] = readInts(in); }
            // permutations: every number is checked by the ParserGrammar constructor
            Permutation[] permutations = new Permutation[length(in, nonterminals)];
            for (int q = 0; q < permutations.length; q++) {
                int permLhs = in.readVarInt(true);
                int[] members = readInts(in);
                if (members.length > nonterminals) throw new IllegalArgumentException("permutation of " + members.length + " members out of bounds");
                boolean[] required = new boolean[members.length];
                for (int i = 0; i < required.length; i++) required[i] = in.readBoolean();
                int other = in.readVarInt(true) - 1;
                int separator = in.readBoolean() ? in.readVarInt(false) : Permutation.NO_SEPARATOR;
                int minCount = in.readVarInt(true);
                int maxCount = in.readVarInt(true) - 1; // the Permutation constructor rejects negative bounds
                permutations[q] = new Permutation(permLhs, members, required, other, separator, minCount, maxCount);
            }
            ParserGrammar grammar = new ParserGrammar(names, terminalCount, start, lhs, rhs, permutations);

            BitSet[] follow = new BitSet[terminalCount];
            for (int t = 0; t < terminalCount; t++) follow[t] = BitSet.valueOf(readLongs(in));
            BitSet first = BitSet.valueOf(readLongs(in));

            int setCount = length(in, 1 << 26);
            TokenSet[] pool = new TokenSet[setCount];
            int vocabWords = (vocabSize + 63) / 64;
            for (int s = 0; s < setCount; s++) {
                if (in.readBoolean()) {
                    long[] bits = readLongs(in);
                    if (bits.length > vocabWords) throw new IllegalArgumentException("token bitmap larger than vocabulary");
                    pool[s] = TokenSet.ofBitmap(bits);
                    if (pool[s].maxId() >= vocabSize) throw new IllegalArgumentException("token bitmap larger than vocabulary");
                } else {
                    int[] ids = readInts(in);
                    for (int i = 0; i < ids.length; i++) {
                        if (ids[i] < 0 || ids[i] >= vocabSize || (i > 0 && ids[i] <= ids[i - 1])) throw new IllegalArgumentException("bad token id list");
                    }
                    pool[s] = TokenSet.ofIds(ids);
                }
            }
            TokenSets sets = new TokenSets(pool);
            CopiesPool.Entry[] copiesPool = CopiesPool.read(in, pool, vocabSize);
            int[][] classPool = TerminalClassPool.read(in, terminalCount);
            int treeCount = length(in, 1 << 24);
            TokenTree[] trees = new TokenTree[treeCount];
            for (int i = 0; i < treeCount; i++) {
                int renamedFrom = in.readVarInt(true); // 0: stored whole; else 1 + the index of the earlier tree it renames
                if (renamedFrom < 0 || renamedFrom > i) throw new IllegalArgumentException("bad renamed tree " + i);
                if (renamedFrom > 0) {
                    int from = in.readVarInt(true), to = in.readVarInt(true);
                    if (from < 0 || to < 0 || from >= terminalCount || to >= terminalCount) throw new IllegalArgumentException("bad renamed tree " + i);
                    trees[i] = RootRenaming.apply(trees[renamedFrom - 1], from, to);
                    continue;
                }
                int[] edgeStart = readInts(in), edgeTerminal = readInts(in), edgeChild = readInts(in), groupStart = readInts(in),
                        groupTerminal = readInts(in), groupSet = readInts(in), dynamic = readInts(in);
                int[] classNumbers = readInts(in);
                int[][] classes = new int[classNumbers.length][];
                for (int c = 0; c < classes.length; c++) {
                    if (classNumbers[c] < 0 || classNumbers[c] >= classPool.length) throw new IllegalArgumentException("tree names unknown terminal class " + classNumbers[c]);
                    classes[c] = classPool[classNumbers[c]];
                }
                TokenTree.Copies[] copies = null;
                if (in.readBoolean()) {
                    int[] entries = readInts(in);
                    if (entries.length != groupTerminal.length) throw new IllegalArgumentException("copies for " + entries.length + " groups, tree has " + groupTerminal.length);
                    copies = new TokenTree.Copies[entries.length];
                    for (int g = 0; g < copies.length; g++) {
                        int e = entries[g];
                        if (e < 0 || e >= copiesPool.length || copiesPool[e].set() != groupSet[g]) throw new IllegalArgumentException("copies do not match group " + g);
                        copies[g] = copiesPool[e].copies();
                    }
                }
                int[] rootStart = readInts(in), rootTerminal = readInts(in);
                trees[i] = new TokenTree(edgeStart, edgeTerminal, edgeChild, groupStart, groupTerminal, groupSet, dynamic, sets, classes,
                        rootStart, rootTerminal);
                if (copies != null) trees[i] = trees[i].withSharedCopies(copies);
            }
            int[] treeOfSlot = readInts(in); // per tree slot (TreeSlots); the artifact checks its length
            int[] rootTreeOfTerminal = readInts(in);
            return RuntimeAccess.get().newArtifact(info, vocabulary, terminals, grammar, follow, first, trees, treeOfSlot, rootTreeOfTerminal);
        }
    }

    /**
     * An automaton as byte ranges per state (format 8; dense tables cost 1 KB per state and made a
     * 10,000-value enum a 250 MB artifact), column by column so that each column is one loop
     * (format 16): states, start, the accepting flags, each state's range count, then every
     * range's lo, every range's hi and every range's target.
     */
    static void writeAutomaton(Output out, ByteDfa d) {
        int states = d.stateCount(), ranges = d.endRange(states - 1);
        out.writeVarInt(states, true);
        out.writeVarInt(d.start(), true);
        byte[] accepting = new byte[states];
        int[] counts = new int[states];
        for (int s = 0; s < states; s++) {
            accepting[s] = (byte) (d.isAccepting(s) ? 1 : 0);
            counts[s] = d.endRange(s) - d.firstRange(s);
        }
        out.writeBytes(accepting);
        VarIntArrays.write(out, counts, 0, states, true);
        byte[] lo = new byte[ranges], hi = new byte[ranges];
        int[] target = new int[ranges];
        for (int r = 0; r < ranges; r++) {
            lo[r] = (byte) d.rangeLo(r);
            hi[r] = (byte) d.rangeHi(r);
            target[r] = d.rangeTarget(r);
        }
        out.writeBytes(lo);
        out.writeBytes(hi);
        VarIntArrays.write(out, target, 0, ranges, true);
    }

    /** Reads {@link #writeAutomaton}'s form; every count bounded, every range checked by {@link ByteDfa#ofRanges}. */
    static ByteDfa readAutomaton(Input in) {
        int states = length(in, 1 << 24);
        int start = in.readVarInt(true);
        if (states > in.limit() - in.position()) throw new IllegalArgumentException("automaton of " + states + " states out of bounds");
        byte[] flags = in.readBytes(states);
        boolean[] accepting = new boolean[states];
        for (int s = 0; s < states; s++) {
            if ((flags[s] & ~1) != 0) throw new IllegalArgumentException("bad accepting flag in state " + s);
            accepting[s] = flags[s] == 1;
        }
        if (states > in.limit() - in.position()) throw new IllegalArgumentException("automaton of " + states + " states out of bounds");
        int[] rangeStart = new int[states + 1];
        VarIntArrays.read(in, rangeStart, 1, states, true); // counts, summed below
        long left = in.limit() - in.position();
        for (int s = 0; s < states; s++) {
            int count = rangeStart[s + 1];
            if (count < 0 || count > 256) throw new IllegalArgumentException("length " + count + " out of bounds");
            rangeStart[s + 1] = rangeStart[s] + count;
            if (3L * rangeStart[s + 1] > left) throw new IllegalArgumentException("automaton ranges out of bounds"); // three bytes each at least
        }
        int ranges = rangeStart[states];
        byte[] lo = in.readBytes(ranges), hi = in.readBytes(ranges);
        int[] target = new int[ranges];
        VarIntArrays.read(in, target, 0, ranges, true);
        return ByteDfa.ofRanges(states, start, accepting, rangeStart, lo, hi, target);
    }

    public static int length(Input in, int max) {
        int n = in.readVarInt(true);
        if (n < 0 || n > max || n > in.limit() - in.position()) throw new IllegalArgumentException("length " + n + " out of bounds");
        return n;
    }

    /** Kryo's readString allocates the declared char count up front: check it against the bytes left first. */
    public static String readString(Input in) {
        int pos = in.position();
        if (pos < in.limit() && in.readVarIntFlag()) {
            int n = in.readVarIntFlag(true) - 1;
            if (n < -1 || n > in.limit() - in.position()) throw new IllegalArgumentException("string length " + n + " out of bounds");
            in.setPosition(pos);
        }
        return in.readString();
    }

    /** Bounded by the bytes actually left in the payload: a hostile length cannot over-allocate. */
    public static int arrayLength(Input in, int elementBytes) {
        int n = in.readVarInt(true);
        long left = (long) in.limit() - in.position();
        if (n < 0 || n > MAX_ARRAY || (long) n * elementBytes > left * 8 + 8) {
            throw new IllegalArgumentException("array length " + n + " out of bounds");
        }
        return n;
    }

    public static void writeBytes(Output out, byte[] b) { out.writeVarInt(b.length, true); out.writeBytes(b); }

    public static byte[] readBytes(Input in) { int n = arrayLength(in, 8); return in.readBytes(n); }

    public static void writeInts(Output out, int[] a) {
        out.writeVarInt(a.length, true);
        VarIntArrays.write(out, a, 0, a.length, false);
    }

    public static int[] readInts(Input in) {
        int n = arrayLength(in, 8);
        int[] a = new int[n];
        VarIntArrays.read(in, a, 0, n, false);
        return a;
    }

    public static void writeLongs(Output out, long[] a) {
        out.writeVarInt(a.length, true);
        out.writeLongs(a, 0, a.length);
    }

    public static long[] readLongs(Input in) {
        int n = arrayLength(in, 64);
        return in.readLongs(n);
    }
}
