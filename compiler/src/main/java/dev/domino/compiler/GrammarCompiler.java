package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.compiler.trees.TreeBuilder;
import dev.domino.compiler.trees.VocabTrie;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.Terminal;
import dev.domino.runtime.TokenSets;
import dev.domino.runtime.TokenTree;
import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The offline pipeline: grammar IR → terminals + parser grammar → byte automata → one
 * subterminal tree per scanner state → artifact. Deterministic: the same grammar and
 * vocabulary always give the same artifact bytes.
 */
public final class GrammarCompiler {
    private GrammarCompiler() {}

    /** A compiled grammar for a source text, with the name/format recorded in the artifact. */
    public static Artifact compile(Grammar grammar, Vocabulary vocab, String sourceName, String sourceFormat,
                                   String sourceText, CompileOptions options) {
        LexedGrammar lexed = TerminalDerivation.derive(grammar);
        VocabTrie trie = new VocabTrie(vocab);
        TreeBuilder builder = new TreeBuilder(lexed, trie, options.dynamicCap());
        List<Terminal> terminals = lexed.terminals();

        // scanner states: 0 = between, then each terminal's automaton states
        List<int[]> states = new ArrayList<>();
        states.add(new int[] {-1, 0});
        for (int t = 0; t < terminals.size(); t++) {
            for (int s = 0; s < terminals.get(t).dfa().stateCount(); s++) states.add(new int[] {t, s});
        }
        TreeBuilder.BuiltTree[] built = buildAll(builder, states, options);

        // pool token sets and dedupe trees, sequentially in state order (reproducible ids)
        SetPool pool = new SetPool(vocab.size());
        Map<String, Integer> treeIds = new HashMap<>();
        List<TokenTree> trees = new ArrayList<>();
        int[] treeOfState = new int[states.size()];
        for (int q = 0; q < built.length; q++) {
            TreeBuilder.BuiltTree b = built[q];
            int[] sets = new int[b.groupTokens().length];
            for (int g = 0; g < sets.length; g++) sets[g] = pool.intern(b.groupTokens()[g]);
            TokenTree tree = new TokenTree(b.edgeStart(), b.edgeTerminal(), b.edgeChild(), b.groupStart(),
                    b.groupTerminal(), sets, b.dynamicTokens());
            String key = Arrays.toString(b.edgeStart()) + Arrays.toString(b.edgeTerminal()) + Arrays.toString(b.edgeChild())
                    + Arrays.toString(b.groupStart()) + Arrays.toString(b.groupTerminal()) + Arrays.toString(sets)
                    + Arrays.toString(b.dynamicTokens());
            Integer id = treeIds.get(key);
            if (id == null) {
                id = trees.size();
                treeIds.put(key, id);
                trees.add(tree);
            }
            treeOfState[q] = id;
        }
        Map<String, String> recorded = new java.util.TreeMap<>(options.extra());
        ArtifactInfo info = new ArtifactInfo(sourceName, sourceFormat, sha256(sourceText), recorded,
                options.ignoredKeywords(), options.dynamicCap());
        return new Artifact(info, vocab, terminals.toArray(new Terminal[0]), lexed.grammar(), pool.build(),
                trees.toArray(new TokenTree[0]), treeOfState);
    }

    private static TreeBuilder.BuiltTree[] buildAll(TreeBuilder builder, List<int[]> states, CompileOptions options) {
        TreeBuilder.BuiltTree[] built = new TreeBuilder.BuiltTree[states.size()];
        AtomicInteger done = new AtomicInteger();
        int threads = Math.max(1, Math.min(options.threads(), states.size()));
        if (threads == 1) {
            for (int q = 0; q < built.length; q++) {
                built[q] = builder.build(states.get(q)[0], states.get(q)[1]);
                if (options.progress() != null) options.progress().accept(done.incrementAndGet());
            }
            return built;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(null, r, "domino-compile", 64L << 20); // deep tokens recurse deeply
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int q = 0; q < built.length; q++) {
                final int index = q;
                futures.add(pool.submit(() -> {
                    built[index] = builder.build(states.get(index)[0], states.get(index)[1]);
                    if (options.progress() != null) options.progress().accept(done.incrementAndGet());
                }));
            }
            for (Future<?> f : futures) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("compilation interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return built;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Deduplicates token sets and picks the smaller storage for each. */
    private static final class SetPool {
        private final int vocabSize;
        private final Map<IntArrayKey, Integer> ids = new HashMap<>();
        private final List<int[]> lists = new ArrayList<>();
        private final List<long[]> bitmaps = new ArrayList<>();

        SetPool(int vocabSize) { this.vocabSize = vocabSize; }

        int intern(int[] sortedIds) {
            IntArrayKey key = new IntArrayKey(sortedIds);
            Integer id = ids.get(key);
            if (id != null) return id;
            id = lists.size();
            ids.put(key, id);
            // bitmap costs V/8 bytes, a list ~3 bytes per id on disk and 4 in memory
            if ((long) sortedIds.length * 32 > vocabSize) {
                long[] bits = new long[(vocabSize + 63) >>> 6];
                for (int t : sortedIds) bits[t >>> 6] |= 1L << t;
                lists.add(null);
                bitmaps.add(bits);
            } else {
                lists.add(sortedIds);
                bitmaps.add(null);
            }
            return id;
        }

        TokenSets build() { return new TokenSets(lists.toArray(new int[0][]), bitmaps.toArray(new long[0][])); }
    }

    private record IntArrayKey(int[] a) {
        @Override public boolean equals(Object o) { return o instanceof IntArrayKey k && Arrays.equals(a, k.a); }
        @Override public int hashCode() { return Arrays.hashCode(a); }
    }
}
