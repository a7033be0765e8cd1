package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.BatchMasks;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The parallel batch fill must give exactly the sequential masks. */
class BatchMasksTest {
    static Tokenizer o200k;
    static ExecutorService pool;

    static final String TEXT = "{\"name\": \"Jo Smith\", \"age\": 42, \"scores\": [1, 2.5e3, -0.75, true, null],"
            + " \"address\": {\"street\": \"1 Main St\", \"city\": \"Springfield\", \"zip\": \"12345\"},"
            + " \"tags\": [\"a\", \"b\\u00e9\", \"\\n\"], \"nested\": {\"x\": {\"y\": [[], {}, \"z\"]}}, \"ok\": false}";

    @BeforeAll static void setUp() {
        o200k = VocabularyLoader.load("o200k_base", null);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll static void tearDown() { pool.shutdownNow(); }

    static Artifact compileJson(boolean lazy) throws Exception {
        String text = Files.readString(Path.of("../grammars/json.gbnf"), StandardCharsets.UTF_8);
        GrammarSources.Parsed parsed = GrammarSources.parse(text, SourceFormat.GBNF, JsonSchemaOptions.defaults());
        return GrammarCompiler.compile(parsed.grammar(), o200k.vocabulary(), "json.gbnf", "gbnf", text,
                parsed.applyTo(CompileOptions.defaults()).withLazy(lazy));
    }

    /** 64 matchers at different prefixes of one JSON text (forks of one history, plus fresh ones). */
    static Matcher[] matchers(Artifact a) {
        int[] tokens = o200k.encode(TEXT);
        Matcher[] out = new Matcher[64];
        Matcher walker = a.newMatcher();
        int done = 0;
        for (int i = 0; i < out.length; i++) {
            int target = (int) ((long) i * tokens.length / out.length);
            if (i % 3 == 2) { // some independent matchers too
                Matcher fresh = a.newMatcher();
                for (int k = 0; k < target; k++) assertThat(fresh.acceptToken(tokens[k])).isTrue();
                out[i] = fresh;
                continue;
            }
            while (done < target) assertThat(walker.acceptToken(tokens[done++])).isTrue();
            out[i] = walker.fork();
        }
        return out;
    }

    static void check(Artifact a) {
        Matcher[] ms = matchers(a);
        int ints = ms[0].bitmaskInts();
        int[] expected = new int[ms.length * ints];
        for (int i = 0; i < ms.length; i++) ms[i].fillNextTokenBitmask(expected, i);
        // the masks differ from one prefix to another (the test is not trivially satisfied)
        java.util.Set<java.util.List<Integer>> distinct = new java.util.HashSet<>();
        for (int i = 0; i < ms.length; i++) {
            distinct.add(java.util.Arrays.stream(expected, i * ints, (i + 1) * ints).boxed().toList());
        }
        assertThat(distinct.size()).isGreaterThan(5);

        for (int round = 0; round < 5; round++) {
            int[] flat = new int[ms.length * ints];
            java.util.Arrays.fill(flat, 0xdeadbeef);
            BatchMasks.fillNextTokenBitmasks(ms, flat, pool);
            assertThat(flat).isEqualTo(expected);

            int[][] rows = new int[ms.length][ints];
            BatchMasks.fillNextTokenBitmasks(ms, rows, pool, 2 + round);
            for (int i = 0; i < ms.length; i++) {
                assertThat(rows[i]).as("row %d", i).isEqualTo(java.util.Arrays.copyOfRange(expected, i * ints, (i + 1) * ints));
            }
        }
    }

    @Test void equalsSequentialFillEager() throws Exception { check(compileJson(false)); }

    /** Lazy trees are built concurrently on first use: still the same masks. */
    @Test void equalsSequentialFillLazy() throws Exception {
        Artifact eager = compileJson(false);
        Artifact lazy = compileJson(true);
        Matcher[] ms = matchers(lazy);
        Matcher[] ref = matchers(eager);
        int ints = ms[0].bitmaskInts();
        int[][] rows = new int[ms.length][ints];
        BatchMasks.fillNextTokenBitmasks(ms, rows, pool);
        for (int i = 0; i < ms.length; i++) {
            int[] expected = new int[ints];
            ref[i].fillNextTokenBitmask(expected, 0);
            assertThat(rows[i]).as("row %d", i).isEqualTo(expected);
        }
    }

    @Test void sameThreadAndRejectingExecutors() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] ms = matchers(a);
        int ints = ms[0].bitmaskInts();
        int[] expected = new int[ms.length * ints];
        for (int i = 0; i < ms.length; i++) ms[i].fillNextTokenBitmask(expected, i);
        int[] flat = new int[ms.length * ints];
        BatchMasks.fillNextTokenBitmasks(ms, flat, Runnable::run);
        assertThat(flat).isEqualTo(expected);
        flat = new int[ms.length * ints];
        BatchMasks.fillNextTokenBitmasks(ms, flat, r -> { throw new java.util.concurrent.RejectedExecutionException(); });
        assertThat(flat).isEqualTo(expected);
        flat = new int[ms.length * ints];
        BatchMasks.fillNextTokenBitmasks(ms, flat, null);
        assertThat(flat).isEqualTo(expected);
    }

    @Test void nullMatchersLeaveRowsUntouched() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] ms = matchers(a);
        ms[3] = null;
        int ints = ms[0].bitmaskInts();
        int[][] rows = new int[ms.length][ints];
        java.util.Arrays.fill(rows[3], 7);
        BatchMasks.fillNextTokenBitmasks(ms, rows, pool);
        assertThat(rows[3]).containsOnly(7);
    }

    @Test void exceptionsPropagate() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] ms = matchers(a);
        int ints = ms[0].bitmaskInts();
        int[][] rows = new int[ms.length][ints];
        rows[10] = new int[1]; // too small: that matcher throws
        rows[50] = new int[2];
        assertThatThrownBy(() -> BatchMasks.fillNextTokenBitmasks(ms, rows, pool))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bitmask too small");
        // the other rows were still filled
        int[] expected = new int[ints];
        ms[11].fillNextTokenBitmask(expected, 0);
        assertThat(rows[11]).isEqualTo(expected);
    }

    @Test void sameMatcherTwiceIsRejected() throws Exception {
        Artifact a = compileJson(false);
        Matcher m = a.newMatcher();
        assertThatThrownBy(() -> BatchMasks.fillNextTokenBitmasks(new Matcher[] {m, m}, new int[2][m.bitmaskInts()], pool))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Expected rows of {@code ms}, filled one by one on this thread. */
    static int[][] sequentialRows(Matcher[] ms) {
        int[][] rows = new int[ms.length][];
        for (int i = 0; i < ms.length; i++) {
            rows[i] = new int[ms[i].bitmaskInts()];
            ms[i].fillNextTokenBitmask(rows[i], 0);
        }
        return rows;
    }

    /**
     * Batches of random sizes and parallelism, back to back and after pauses: exercises helpers
     * that linger and take the next batch, helpers that arrive after the caller took every row,
     * and fresh executor tasks.
     */
    @Test void randomBatchesBackToBackAndAfterPauses() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] all = matchers(a);
        int[][] expected = sequentialRows(all);
        java.util.Random random = new java.util.Random(8);
        for (int round = 0; round < 300; round++) {
            int size = 1 + random.nextInt(all.length);
            int from = random.nextInt(all.length - size + 1);
            Matcher[] ms = java.util.Arrays.copyOfRange(all, from, from + size);
            int[][] rows = new int[size][all[0].bitmaskInts()];
            BatchMasks.fillNextTokenBitmasks(ms, rows, pool, 1 + random.nextInt(3));
            for (int i = 0; i < size; i++) assertThat(rows[i]).as("round %d row %d", round, from + i).isEqualTo(expected[from + i]);
            if (random.nextInt(10) == 0) Thread.sleep(1);
        }
    }

    /** Callers on several threads share one pool (and its lingering helpers) at once. */
    @Test void concurrentCallersShareOnePool() throws Exception {
        Artifact a = compileJson(false);
        int callers = 3;
        java.util.List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
        ExecutorService callerThreads = Executors.newFixedThreadPool(callers);
        try {
            for (int c = 0; c < callers; c++) {
                Matcher[] ms = matchers(a);
                int[][] expected = sequentialRows(ms);
                futures.add(callerThreads.submit(() -> {
                    for (int round = 0; round < 40; round++) {
                        int[][] rows = new int[ms.length][ms[0].bitmaskInts()];
                        BatchMasks.fillNextTokenBitmasks(ms, rows, pool);
                        for (int i = 0; i < ms.length; i++) assertThat(rows[i]).as("row %d", i).isEqualTo(expected[i]);
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : futures) f.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            callerThreads.shutdownNow();
        }
    }

    /** An executor that starts tasks late: the caller fills every row itself and does not wait for them. */
    @Test void lateHelpersFindNothingLeft() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] ms = matchers(a);
        int[][] expected = sequentialRows(ms);
        java.util.concurrent.Executor late = task -> {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                task.run();
            });
            t.setDaemon(true);
            t.start();
        };
        for (int round = 0; round < 3; round++) {
            int[][] rows = new int[ms.length][ms[0].bitmaskInts()];
            BatchMasks.fillNextTokenBitmasks(ms, rows, late);
            for (int i = 0; i < ms.length; i++) assertThat(rows[i]).as("row %d", i).isEqualTo(expected[i]);
        }
    }

    /** The caller's interrupt flag is kept (not swallowed, not thrown), and the batch completes. */
    @Test void interruptFlagSurvives() throws Exception {
        Artifact a = compileJson(false);
        Matcher[] ms = matchers(a);
        int[][] expected = sequentialRows(ms);
        int[][] rows = new int[ms.length][ms[0].bitmaskInts()];
        Thread.currentThread().interrupt();
        try {
            BatchMasks.fillNextTokenBitmasks(ms, rows, pool);
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
        for (int i = 0; i < ms.length; i++) assertThat(rows[i]).as("row %d", i).isEqualTo(expected[i]);
    }
}
