package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.CountedLoop;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.Terminal;
import dev.domino.runtime.TokenTree;
import dev.domino.runtime.TreeBuilder;
import dev.domino.runtime.VocabTrie;
import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The offline pipeline: grammar IR → terminals + parser grammar → byte automata → one
 * subterminal tree per scanner state → artifact. Deterministic: the same grammar and
 * vocabulary always give the same artifact bytes, whatever the thread count.
 */
public final class GrammarCompiler {
    private GrammarCompiler() {}

    /** A compiled grammar for a source text, with the name/format recorded in the artifact. */
    public static Artifact compile(Grammar grammar, Vocabulary vocab, String sourceName, String sourceFormat,
                                   String sourceText, CompileOptions options) {
        LexedGrammar lexed = options.fineTerminals() ? TerminalDerivation.deriveFine(grammar) : TerminalDerivation.derive(grammar);
        Terminal[] terminals = lexed.terminals().toArray(new Terminal[0]);
        Map<String, String> recorded = new TreeMap<>(options.extra());
        ArtifactInfo info = new ArtifactInfo(sourceName, sourceFormat, sha256(sourceText), recorded,
                options.ignoredKeywords(), options.dynamicCap());
        if (options.lazy() && options.prebuildMillis() <= 0) {
            return new Artifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(), null, null);
        }
        TreeBuilder builder = new TreeBuilder(terminals, lexed.follow(), lexed.first(), VocabTrie.of(vocab),
                options.dynamicCap(), vocab.size());
        // scanner states {terminal, local state, global number}: 0 = between, then each terminal's
        // automaton states; a counted terminal's further states share these trees or are built on
        // first use (see CountedLoop)
        List<int[]> states = new ArrayList<>();
        states.add(new int[] {-1, 0, 0});
        int stateTotal = 1;
        for (int t = 0; t < terminals.length; t++) {
            CountedLoop counted = terminals[t].counted();
            if (counted == null) {
                for (int s = 0; s < terminals[t].dfa().stateCount(); s++) states.add(new int[] {t, s, stateTotal + s});
            } else {
                // representatives (see CountedLoop.canonical): annotated trees at count 0, and the
                // plain loop's trees at count min
                int loopStates = terminals[t].dfa().stateCount();
                for (int s = 0; s < loopStates; s++) states.add(new int[] {t, s, stateTotal + s});
                if (counted.hasLoopTrees(vocab.maxTokenBytes())) {
                    int base = counted.min() * loopStates;
                    for (int s = 0; s < loopStates; s++) states.add(new int[] {t, base + s, stateTotal + base + s});
                }
            }
            stateTotal += terminals[t].stateCount();
        }
        if (options.lazy()) return prebuilt(info, vocab, terminals, lexed, builder, states, stateTotal, options.prebuildMillis());
        TokenTree[] trees = buildAll(builder, states, options);
        int[] treeOfState = new int[stateTotal];
        java.util.Arrays.fill(treeOfState, -1);
        for (int q = 0; q < trees.length; q++) treeOfState[states.get(q)[2]] = q;
        return new Artifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(), trees, treeOfState);
    }

    /**
     * Lazy with a time budget: trees in scanner-state order (the between state first, then terminals
     * roughly in grammar order) until the budget is spent; the rest are built on first use.
     */
    private static Artifact prebuilt(ArtifactInfo info, Vocabulary vocab, Terminal[] terminals, LexedGrammar lexed,
                                     TreeBuilder builder, List<int[]> states, int stateTotal, long budgetMillis) {
        long deadline = System.nanoTime() + budgetMillis * 1_000_000L;
        List<TokenTree> stored = new ArrayList<>();
        int[] treeOfState = new int[stateTotal];
        java.util.Arrays.fill(treeOfState, -1);
        for (int q : prebuildOrder(terminals, states)) {
            if (System.nanoTime() >= deadline) break;
            if (Thread.currentThread().isInterrupted()) throw new java.util.concurrent.CancellationException("compile interrupted");
            treeOfState[states.get(q)[2]] = stored.size();
            stored.add(builder.build(states.get(q)[0], states.get(q)[1]));
        }
        return new Artifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(),
                stored.toArray(new TokenTree[0]), treeOfState);
    }

    /**
     * Scanner states to prebuild, most used first: between terminals, then by distance from their
     * terminal's start (escapes count more, see {@link #depths}), counted terminals' annotated trees last. Every member of a large object passes the first states of every key
     * terminal that may come next, but only the deep states of the key it writes. Start states
     * are left out: a configuration enters a terminal with its first byte, so never sits there.
     */
    static int[] prebuildOrder(Terminal[] terminals, List<int[]> states) {
        int[][] depth = new int[terminals.length][];
        for (int t = 0; t < terminals.length; t++) depth[t] = depths(terminals[t].dfa());
        long[] keys = new long[states.size()];
        int n = 0;
        for (int q = 0; q < states.size(); q++) {
            int t = states.get(q)[0], s = states.get(q)[1];
            int d = t < 0 ? 0 : depth[t][s % terminals[t].dfa().stateCount()];
            if (t >= 0 && d <= 0) continue; // a start state, or unreachable
            // a counted terminal's annotated trees (count 0) last: each walks the whole vocabulary
            // for states only the ends of strings use, while cheap trees wait
            if (t >= 0 && terminals[t].counted() != null && s < terminals[t].dfa().stateCount()) d += 1 << 20;
            keys[n++] = ((long) d << 32) | q;
        }
        keys = java.util.Arrays.copyOf(keys, n);
        java.util.Arrays.sort(keys);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = (int) keys[i];
        return order;
    }

    /**
     * A backslash costs this many steps in {@link #depths}: outputs rarely escape characters that
     * need no escaping, so a key's plain spelling comes before its {@code \u0061} spellings, which
     * have five states per character where the plain one has one.
     */
    static final int ESCAPE_STEPS = 8;

    /** Distance of each state from the start (a backslash counts {@link #ESCAPE_STEPS}); -1 when unreachable. */
    private static int[] depths(dev.domino.runtime.ByteDfa dfa) {
        int[] d = new int[dfa.stateCount()];
        java.util.Arrays.fill(d, -1);
        // Dijkstra over (distance << 32 | state)
        java.util.PriorityQueue<Long> queue = new java.util.PriorityQueue<>();
        d[dfa.start()] = 0;
        queue.add((long) dfa.start());
        while (!queue.isEmpty()) {
            long top = queue.poll();
            int s = (int) top, ds = (int) (top >>> 32);
            if (ds > d[s]) continue;
            for (int b = 0; b < 256; b++) {
                int s2 = dfa.step(s, b);
                if (s2 < 0) continue;
                int d2 = ds + (b == '\\' ? ESCAPE_STEPS : 1);
                if (d[s2] < 0 || d2 < d[s2]) { d[s2] = d2; queue.add(((long) d2 << 32) | s2); }
            }
        }
        return d;
    }

    private static TokenTree[] buildAll(TreeBuilder builder, List<int[]> states, CompileOptions options) {
        TokenTree[] built = new TokenTree[states.size()];
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
            Thread t = new Thread(null, r, "domino-compile", 64L << 20); // long tokens recurse deeply
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
            if (e.getCause() instanceof Error err) throw err;
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
}
