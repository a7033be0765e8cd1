package dev.domino.compiler.tokens;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Llama 3 vocabulary for token-reference tests: a 100 KB subset of the real tokenizer.json
 * (ids below 5000 and every added token, real ids kept), so CI needs nothing from ../shared.
 * Text is tokenized greedily (longest token first); the oracle checks every mask exactly.
 */
public final class Llama3Fixture {
    public static final int PYTHON_TAG = 128010, EOM_ID = 128008, EOT_ID = 128009, END_OF_TEXT = 128001;

    private static Vocabulary subset;

    private Llama3Fixture() {}

    public static synchronized Vocabulary vocabulary() {
        if (subset == null) subset = VocabularyLoader.load(resource("/vocab/llama3-subset.tokenizer.json").toString(), null).vocabulary();
        return subset;
    }

    /** The full Llama 3 vocabulary from ../shared/vocab, or null when absent (CI). */
    public static Vocabulary fullOrNull() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("shared").resolve("vocab").resolve("llama3-tokenizer.json");
            if (Files.isRegularFile(p)) return VocabularyLoader.load(p.toString(), null).vocabulary();
        }
        return null;
    }

    static Path resource(String name) {
        try {
            return Path.of(Llama3Fixture.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Artifact compile(String text, SourceFormat format, Vocabulary v) {
        GrammarSources.Parsed parsed = GrammarSources.parse(text, format, JsonSchemaOptions.defaults());
        return GrammarCompiler.compile(parsed.grammar(), v, "test", format.name(), text, parsed.applyTo(CompileOptions.defaults().withThreads(1)));
    }

    private static final java.util.Map<Vocabulary, int[][]> BY_FIRST_BYTE = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** The vocabulary's ordinary tokens by their first byte, in id order. */
    private static int[][] byFirstByte(Vocabulary v) {
        return BY_FIRST_BYTE.computeIfAbsent(v, k -> {
            List<List<Integer>> lists = new ArrayList<>();
            for (int c = 0; c < 256; c++) lists.add(new ArrayList<>());
            for (int id = 0; id < v.size(); id++) if (v.isGrammarToken(id)) lists.get(v.bytes(id)[0] & 0xFF).add(id);
            int[][] out = new int[256][];
            for (int c = 0; c < 256; c++) out[c] = lists.get(c).stream().mapToInt(Integer::intValue).toArray();
            return out;
        });
    }

    /** Greedy longest-match tokenization of text over the vocabulary's ordinary tokens (the lowest id among equals). */
    public static int[] tokens(Vocabulary v, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int[][] index = byFirstByte(v);
        List<Integer> out = new ArrayList<>();
        int i = 0;
        while (i < b.length) {
            int best = -1, bestLength = 0;
            for (int id : index[b[i] & 0xFF]) {
                byte[] t = v.bytes(id);
                if (t.length <= bestLength || i + t.length > b.length) continue;
                if (java.util.Arrays.equals(t, 0, t.length, b, i, i + t.length)) { best = id; bestLength = t.length; }
            }
            if (best < 0) throw new IllegalArgumentException("no token for byte " + (b[i] & 0xFF));
            out.add(best);
            i += bestLength;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Tokens: text pieces (strings) and special tokens (Integers), concatenated. */
    public static int[] sequence(Vocabulary v, Object... parts) {
        List<Integer> out = new ArrayList<>();
        for (Object p : parts) {
            if (p instanceof Integer id) out.add(id);
            else for (int id : tokens(v, (String) p)) out.add(id);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Feeds the tokens one by one, checking before each that the matcher's mask equals the
     * oracle's allowed set exactly, and that the token is allowed. Returns the matcher.
     */
    public static Matcher acceptChecked(Artifact a, ByteEarleyOracle oracle, int[] stops, int[] tokens) {
        Matcher m = a.newMatcher(stops);
        OracleCursor cursor = new OracleCursor(oracle, stops);
        for (int k = 0; k < tokens.length; k++) {
            BitSet mask = m.nextTokenMask();
            assertThat(mask).as("mask before token %d (%s)", k, a.vocabulary().display(tokens[k])).isEqualTo(cursor.allowed());
            assertThat(m.isAllowed(tokens[k])).as("token %d (%s) allowed", k, a.vocabulary().display(tokens[k])).isTrue();
            assertThat(m.acceptToken(tokens[k])).isTrue();
            cursor.accept(tokens[k]);
        }
        if (!m.isTerminated()) assertThat(m.nextTokenMask()).isEqualTo(cursor.allowed());
        return m;
    }

    /** Whether the token sequence is rejected somewhere (the first refused token is not committed). */
    public static boolean rejected(Artifact a, int[] stops, int[] tokens) {
        Matcher m = a.newMatcher(stops);
        for (int t : tokens) {
            boolean allowed = m.isAllowed(t);
            boolean accepted = m.acceptToken(t);
            assertThat(accepted).isEqualTo(allowed);
            if (!accepted) return true;
        }
        return false;
    }

    /** Random walks through the mask, each mask compared with the oracle's. */
    public static void randomWalks(Artifact a, ByteEarleyOracle oracle, int[] stops, int walks, int steps, long seed) {
        Random random = new Random(seed);
        for (int w = 0; w < walks; w++) {
            Matcher m = a.newMatcher(stops);
            OracleCursor cursor = new OracleCursor(oracle, stops);
            for (int s = 0; s < steps && !m.isTerminated(); s++) {
                BitSet mask = m.nextTokenMask();
                assertThat(mask).as("walk %d step %d", w, s).isEqualTo(cursor.allowed());
                if (mask.isEmpty()) break;
                // favour special and short tokens so walks reach the structure
                int[] ids = mask.stream().toArray();
                int pick = ids[random.nextInt(ids.length)];
                int special = mask.nextSetBit(128000);
                if (special >= 0 && random.nextInt(3) == 0) pick = special;
                assertThat(m.acceptToken(pick)).isTrue();
                cursor.accept(pick);
            }
        }
    }

    /** The oracle's view of a token sequence, with the stop-token rule of {@link Matcher}. */
    public static final class OracleCursor {
        private final ByteEarleyOracle oracle;
        private final int[] stops;
        private ByteEarleyOracle.State state;
        private boolean terminated;

        public OracleCursor(ByteEarleyOracle oracle, int[] stops) {
            this.oracle = oracle;
            this.stops = stops.clone();
            this.state = oracle.start();
        }

        public BitSet allowed() { return terminated ? new BitSet() : oracle.allowedTokens(state, stops); }

        public void accept(int id) {
            boolean stop = java.util.Arrays.stream(stops).anyMatch(s -> s == id);
            if (stop && oracle.isComplete(state)) { terminated = true; return; }
            state = stop ? oracle.advanceNamedToken(state, id) : oracle.advanceToken(state, id);
            assertThat(oracle.isViable(state)).as("oracle viable after %d", id).isTrue();
        }
    }
}
