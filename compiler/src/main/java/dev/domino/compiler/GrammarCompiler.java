package dev.domino.compiler;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.lexer.LexedGrammar;
import dev.domino.compiler.lexer.TerminalDerivation;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.scan.Terminal;
import dev.domino.runtime.internal.trees.TokenTree;
import dev.domino.runtime.internal.trees.TreeBuilder;
import dev.domino.runtime.internal.trees.TreeOrder;
import dev.domino.runtime.internal.vocab.VocabTrie;
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
        return CompileLimits.in(options.limits(),
                () -> DeepStack.call(() -> compileHere(grammar, vocab, sourceName, sourceFormat, sourceText, options)));
    }

    private static Artifact compileHere(Grammar grammar, Vocabulary vocab, String sourceName, String sourceFormat,
                                        String sourceText, CompileOptions options) {
        java.util.function.Function<dev.domino.compiler.ir.Expr.TokenRef, dev.domino.runtime.internal.scan.TokenMatch> tokens =
                ref -> TokenReferences.resolve(ref, vocab);
        LexedGrammar lexed = options.fineTerminals() ? TerminalDerivation.deriveFine(grammar, tokens) : TerminalDerivation.derive(grammar, tokens);
        Terminal[] terminals = lexed.terminals().toArray(new Terminal[0]);
        Map<String, String> recorded = new TreeMap<>(options.extra());
        ArtifactInfo info = new ArtifactInfo(sourceName, sourceFormat, sha256(sourceText), recorded,
                options.ignoredKeywords(), options.dynamicCap());
        if (options.lazy() && options.prebuildMillis() <= 0) {
            return RuntimeAccess.get().newArtifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(), null, null, null);
        }
        TreeBuilder builder = new TreeBuilder(terminals, lexed.follow(), lexed.first(), VocabTrie.of(vocab),
                options.dynamicCap(), vocab.size());
        // scanner states {terminal, local state, global number} that own a tree, in slot order (see TreeSlots)
        List<int[]> states = TreeOrder.treeStates(terminals, vocab.maxTokenBytes());
        if (options.lazy()) return prebuilt(info, vocab, terminals, lexed, builder, states, options.prebuildMillis());
        TokenTree[] stateTrees = buildAll(builder, states, options);
        int[] treeOfSlot = new int[stateTrees.length];
        for (int q = 0; q < stateTrees.length; q++) treeOfSlot[q] = q;
        // the root trees the state trees reference (and those reference), stored too: nothing is built at run time
        List<TokenTree> trees = new ArrayList<>(java.util.Arrays.asList(stateTrees));
        int[] rootTreeOfTerminal = new int[terminals.length];
        java.util.Arrays.fill(rootTreeOfTerminal, -1);
        for (int i = 0; i < trees.size(); i++) {
            CompileLimits.checkClock();
            TokenTree tree = trees.get(i);
            for (int r = 0; r < tree.rootReferenceCount(); r++) {
                int t = tree.rootTerminal(r);
                if (rootTreeOfTerminal[t] >= 0) continue;
                rootTreeOfTerminal[t] = trees.size();
                trees.add(builder.buildRoot(t));
            }
        }
        return RuntimeAccess.get().newArtifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(),
                trees.toArray(new TokenTree[0]), treeOfSlot, rootTreeOfTerminal);
    }

    /**
     * Lazy with a time budget: trees in {@link TreeOrder#prebuildOrder} (the between state first, then
     * by distance from their terminal's start, states deep in whitespace runs left out) until the
     * budget (CPU time of the compiling thread) is spent; the rest are built on first use.
     */
    private static Artifact prebuilt(ArtifactInfo info, Vocabulary vocab, Terminal[] terminals, LexedGrammar lexed,
                                     TreeBuilder builder, List<int[]> states, long budgetMillis) {
        // the budget is this thread's CPU time, not the wall clock: on a loaded machine the same
        // trees get stored, so TTFM and the masks after it do not depend on what else runs
        PrebuildClock clock = PrebuildClock.start(budgetMillis);
        List<TokenTree> stored = new ArrayList<>();
        int[] treeOfSlot = new int[states.size()];
        java.util.Arrays.fill(treeOfSlot, -1);
        // the between-terminals tree always (first in the order); the order itself only when the
        // budget is left after it (serving mode's 1 ms budget: the order walks every automaton)
        int[] rootTreeOfTerminal = new int[terminals.length];
        java.util.Arrays.fill(rootTreeOfTerminal, -1);
        treeOfSlot[0] = 0;
        stored.add(builder.build(-1, 0));
        int[] order = clock.spent() ? new int[0] : TreeOrder.prebuildOrder(terminals, states);
        int rootsDone = 0; // stored trees whose root references were looked at
        for (int q : order) {
            if (states.get(q)[0] < 0) continue; // built above
            // the root trees the trees so far reference first: the first masks walk them
            for (; rootsDone < stored.size() && !clock.spent(); rootsDone++) {
                TokenTree tree = stored.get(rootsDone);
                for (int r = 0; r < tree.rootReferenceCount() && !clock.spent(); r++) {
                    int t = tree.rootTerminal(r);
                    if (rootTreeOfTerminal[t] >= 0) continue;
                    rootTreeOfTerminal[t] = stored.size();
                    stored.add(builder.buildRoot(t));
                }
            }
            if (clock.spent()) break;
            if (Thread.currentThread().isInterrupted()) throw new java.util.concurrent.CancellationException("compile interrupted");
            treeOfSlot[q] = stored.size();
            stored.add(builder.build(states.get(q)[0], states.get(q)[1]));
        }
        return RuntimeAccess.get().newArtifact(info, vocab, terminals, lexed.grammar(), lexed.follow(), lexed.first(),
                stored.toArray(new TokenTree[0]), treeOfSlot, rootTreeOfTerminal);
    }

    private static TokenTree[] buildAll(TreeBuilder builder, List<int[]> states, CompileOptions options) {
        TokenTree[] built = new TokenTree[states.size()];
        AtomicInteger done = new AtomicInteger();
        int threads = Math.max(1, Math.min(options.threads(), states.size()));
        if (threads == 1) {
            for (int q = 0; q < built.length; q++) {
                CompileLimits.checkClock();
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
                    CompileLimits.checkClock();
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
