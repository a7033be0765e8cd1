package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.format.*;
import dev.domino.runtime.internal.json.*;
import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;
import dev.domino.runtime.internal.vocab.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * A compiled grammar bound to one vocabulary: load it once ({@link #load}), then create one
 * {@link Matcher} per request. Its terminals, parser and trees are internal (see
 * {@code dev.domino.runtime.internal.RuntimeAccess}); {@link #info()} describes it.
 *
 * <p>Thread-safe: immutable apart from the trees a lazy artifact builds on first use, each built
 * once however many threads need it, and the parser states it shares between requests (bounded).
 * Any number of threads may create and use matchers of one artifact at once.
 */
public final class Artifact {
    /** The scanner state between terminals (see {@link ScannerStates}). */
    static final int BETWEEN = ScannerStates.BETWEEN;

    static {
        RuntimeAccess.register(new Access());
    }

    private final ArtifactInfo info;
    private final Vocabulary vocabulary;
    private final Terminal[] terminals;
    private final ParserGrammar grammar;
    private final BitSet[] follow;
    private final BitSet first;
    /** Stored (precomputed) distinct trees, and per tree slot its index there or -1: built on first use. */
    private final TokenTree[] trees;
    private final int[] treeOfSlot;
    /** The scanner states that own a tree, numbered (see {@link TreeSlots}). */
    private final TreeSlots slots;
    /** Per tree slot, trees built on first use (each once); null when every tree is stored. */
    private final LazyTrees lazyTrees;
    /** Per terminal, its root tree's index in {@code trees} or -1 (see {@link TokenTree}: built on first use). */
    private final int[] rootTreeOfTerminal;
    /** Per terminal, root trees built on first use (each once); null when every terminal's is stored. */
    private final LazyTrees lazyRoots;
    private TreeBuilder lazyBuilder; // guarded by this
    /** Set while trees are built in the background: masks tell it where decoding is. */
    private volatile BackgroundTrees background;
    /** The token budget's shortest-completion tables (see {@link Matcher#setTokenBudget}); built on first use. */
    private volatile dev.domino.runtime.internal.parse.ShortestCompletion shortestCompletion;
    private boolean backgroundStarted; // guarded by this

    // derived
    final ScannerStates scanner;
    final EarleyParser parser;
    final int vocabWords;
    /** The longest token's bytes: how far one token can advance a counted terminal's count. */
    private final int maxTokenBytes;
    private final ArtifactInternals internals = new Internals();

    /**
     * @param follow      per terminal, the terminals that may follow it (tree pruning)
     * @param first       terminals that may begin the output
     * @param trees       stored distinct trees, or null for a lazy artifact (every tree built on first use)
     * @param treeOfSlot per tree slot ({@link TreeSlots}), its tree's index in {@code trees}, or -1
     *                    when that tree is built on first use; null when lazy
     * @param rootTreeOfTerminal per terminal, its root tree's index in {@code trees}, or -1 when it is
     *                    built on first use; null when all are
     */
    private Artifact(ArtifactInfo info, Vocabulary vocabulary, Terminal[] terminals, ParserGrammar grammar,
                     BitSet[] follow, BitSet first, TokenTree[] trees, int[] treeOfSlot, int[] rootTreeOfTerminal) {
        this.info = info;
        this.vocabulary = vocabulary;
        this.terminals = terminals;
        this.grammar = grammar;
        this.follow = follow;
        this.first = first;
        if (grammar.terminalCount() != terminals.length) throw new IllegalArgumentException("terminal count mismatch");
        if (follow.length != terminals.length) throw new IllegalArgumentException("follow sets do not match the terminals");
        // checked here, not at mask time: a lazy artifact's trees read these sets long after loading
        // (an altered follow set used to throw ArrayIndexOutOfBoundsException in the tree builder)
        for (BitSet f : follow) {
            if (f == null || f.length() > terminals.length) throw new IllegalArgumentException("follow set names an unknown terminal");
        }
        if (first == null || first.length() > terminals.length) throw new IllegalArgumentException("first set names an unknown terminal");
        if ((trees == null) != (treeOfSlot == null)) throw new IllegalArgumentException("trees and tree index must both be present or absent");

        scanner = new ScannerStates(terminals);
        vocabWords = (vocabulary.size() + 63) >>> 6;
        maxTokenBytes = vocabulary.maxTokenBytes();
        slots = new TreeSlots(scanner, maxTokenBytes);
        int slotCount = slots.count();
        if (trees == null) {
            trees = new TokenTree[0];
            treeOfSlot = new int[slotCount];
            java.util.Arrays.fill(treeOfSlot, -1);
        }
        if (treeOfSlot.length != slotCount) throw new IllegalArgumentException("tree index has " + treeOfSlot.length + " slots, expected " + slotCount);
        boolean anyLazy = false;
        for (int tree : treeOfSlot) {
            if (tree < -1 || tree >= trees.length) throw new IllegalArgumentException("bad tree index");
            anyLazy |= tree < 0;
        }
        if (rootTreeOfTerminal == null) {
            rootTreeOfTerminal = new int[terminals.length];
            java.util.Arrays.fill(rootTreeOfTerminal, -1);
        }
        if (rootTreeOfTerminal.length != terminals.length) throw new IllegalArgumentException("root tree index has " + rootTreeOfTerminal.length + " terminals, expected " + terminals.length);
        boolean anyLazyRoot = false;
        for (int tree : rootTreeOfTerminal) {
            if (tree < -1 || tree >= trees.length) throw new IllegalArgumentException("bad root tree index");
            anyLazyRoot |= tree < 0;
        }
        // trees loaded from one file share their terminal classes: each checked once
        java.util.Set<int[]> checkedClasses = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (TokenTree tree : trees) validate(tree, checkedClasses);
        this.trees = trees;
        this.treeOfSlot = treeOfSlot;
        this.rootTreeOfTerminal = rootTreeOfTerminal;
        lazyTrees = anyLazy ? new LazyTrees(slotCount, this::buildTree) : null;
        lazyRoots = anyLazyRoot ? new LazyTrees(terminals.length, this::buildRootTree) : null;
        demand = new TreeDemand(slotCount, terminals.length);

        boolean[] ignored = new boolean[terminals.length];
        for (int t = 0; t < terminals.length; t++) ignored[t] = terminals[t].ignored();
        parser = new EarleyParser(grammar, ignored);
        int tokenTerminalCount = 0;
        for (Terminal t : terminals) if (t.tokens() != null) tokenTerminalCount++;
        tokenTerminals = new int[tokenTerminalCount];
        tokenTerminalMasks = new int[tokenTerminalCount][];
        for (int t = 0, k = 0; t < terminals.length; t++) {
            TokenMatch m = terminals[t].tokens();
            if (m == null) continue;
            for (int id : m.ids()) if (id >= vocabulary.size()) throw new IllegalArgumentException("token terminal names token " + id + " outside the vocabulary");
            tokenTerminals[k] = t;
            tokenTerminalMasks[k++] = m.negated() ? m.mask(vocabulary) : null;
        }
        uniqueArrays = UniqueArrays.of(scanner, parser);
        lexemeLimits = LexemeTokenLimits.of(scanner, parser, vocabulary, terminals);
        if (lexemeLimits != null && uniqueArrays != null) {
            throw new IllegalArgumentException("lexemes limited in tokens (max_tokens=) together with arrays of distinct items are not supported");
        }
    }

    /** The lexemes limited in tokens ({@link Terminal#maxTokens()}); null when the grammar has none. */
    final LexemeTokenLimits lexemeLimits;

    /** The distinctness checks of arrays of distinct items ({@code uniqueItems}); null when the grammar has none. */
    final UniqueArrays uniqueArrays;

    /** Terminals that match whole tokens by id ({@link Terminal#tokens()}), in terminal order. */
    final int[] tokenTerminals;
    /** For each token terminal, its negated set as a bitmask (32 tokens per int); null for a positive list. */
    final int[][] tokenTerminalMasks;

    private void validate(TokenTree tree, java.util.Set<int[]> checkedClasses) {
        for (int t : tree.edgeTerminal) if (t < 0 || t >= terminals.length) throw new IllegalArgumentException("tree edge names unknown terminal " + t);
        for (int t : tree.groupTerminal) if (t >= terminals.length) throw new IllegalArgumentException("tree group names unknown terminal " + t);
        for (int[] c : tree.terminalClasses) {
            if (!checkedClasses.add(c)) continue;
            for (int t : c) if (t >= terminals.length) throw new IllegalArgumentException("tree terminal class names unknown terminal " + t);
        }
        for (int g = 0; g < tree.groupCount(); g++) {
            TokenSet set = tree.groupTokens(g);
            if (set.maxId() >= vocabulary.size() || (!set.isBitmap() && set.size() > 0 && set.ids()[0] < 0)) {
                throw new IllegalArgumentException("token set outside the vocabulary");
            }
        }
        for (int id : tree.dynamicTokens) if (id < 0 || id >= vocabulary.size()) throw new IllegalArgumentException("dynamic token outside vocabulary");
        for (int t : tree.rootTerminal) if (t >= terminals.length) throw new IllegalArgumentException("tree root reference names unknown terminal " + t);
    }

    /** Loads an artifact file (errors: {@link ArtifactFormatException} for a bad file, {@link IOException} for I/O). */
    public static Artifact load(Path path) throws IOException { return ArtifactFormat.read(path); }

    /** Loads an artifact from a stream (read to its end, not closed). */
    public static Artifact load(InputStream in) throws IOException { return ArtifactFormat.read(in); }

    /** As {@link #load(Path)}, with this artifact's parser limits ({@link RuntimeLimits} per artifact). */
    public static Artifact load(Path path, RuntimeLimits limits) throws IOException { return ArtifactFormat.read(path).limitedBy(limits); }

    /** As {@link #load(InputStream)}, with this artifact's parser limits. */
    public static Artifact load(InputStream in, RuntimeLimits limits) throws IOException { return ArtifactFormat.read(in).limitedBy(limits); }

    private Artifact limitedBy(RuntimeLimits limits) {
        parser.setMaxStepWork(limits.parserMaxStepWork());
        parser.setSharedBytes(limits.parserSharedBytes());
        return this;
    }

    /** Writes the artifact in the format {@link #load} reads (the stream is not closed). */
    public void write(java.io.OutputStream out) throws IOException { out.write(ArtifactFormat.toBytes(this)); }

    /**
     * Saves the artifact to {@code path} atomically: a temporary file beside it, then a rename, so a
     * failure or an interrupt never leaves a half-written file. A symbolic link, directory or device
     * at {@code path} is refused, not replaced.
     */
    public void save(Path path) throws IOException { ArtifactFormat.write(this, path); }

    /** A fresh matcher at the start of the output, with unlimited lookahead. */
    public Matcher newMatcher() { return new Matcher(this, Matcher.UNLIMITED_LOOKAHEAD, vocabulary.eosIds()); }

    /**
     * A fresh matcher whose output ends with any of {@code stopTokens} (this request's EOS set,
     * replacing the vocabulary's): a stop token is allowed where the output is a sentence, or where
     * the grammar names it ({@code <|eom_id|>}); negated references ({@code !<[id]>}) never match it.
     */
    public Matcher newMatcher(int[] stopTokens) { return new Matcher(this, Matcher.UNLIMITED_LOOKAHEAD, stopTokens); }

    /** A fresh matcher with lookahead k (see {@link #newMatcher(int)}) and this request's stop tokens. */
    public Matcher newMatcher(int lookahead, int[] stopTokens) { return new Matcher(this, lookahead, stopTokens); }

    /**
     * A matcher whose masks admit only tokens that complete at most {@code lookahead + 1}
     * terminals (DOMINO's k; see {@link Matcher}): 0 admits tokens within the next whole
     * terminal, 1 also bridge tokens such as {@code ",}; {@link Matcher#UNLIMITED_LOOKAHEAD}
     * (what {@link #newMatcher()} uses) admits every viable token. {@link Matcher#acceptToken}
     * and {@link Matcher#isAllowed} refuse what the mask refuses.
     *
     * @throws IllegalArgumentException if {@code lookahead < 0}
     */
    public Matcher newMatcher(int lookahead) { return new Matcher(this, lookahead, vocabulary.eosIds()); }

    /**
     * Drops the parser states this artifact shares between requests (running requests keep
     * theirs). Sharing is bounded anyway, by {@link RuntimeLimits#parserSharedBytes} (default 4 MB)
     * per artifact, so a long-running server's memory does not grow with the requests it served.
     */
    public void clearSharedParserStates() { parser.clearSharedStates(); }

    /** Estimated bytes of the parser states this artifact currently shares between requests. */
    public long sharedParserStateBytes() { return parser.sharedStateBytes(); }

    public ArtifactInfo info() { return info; }
    public Vocabulary vocabulary() { return vocabulary; }
    /** True when some trees are built on first use instead of stored in the file. */
    public boolean isLazy() { return lazyTrees != null; }

    /** The tree of a scanner state if it is stored or built, else null (never builds, never waits). */
    TokenTree treeIfBuilt(int scannerState) {
        int slot = treeSlot(scannerState);
        int stored = treeOfSlot[slot];
        return stored >= 0 ? trees[stored] : lazyTrees.ifBuilt(slot);
    }

    /** The tree slot a scanner state's tree is in (see {@link TreeSlots}). */
    int treeSlot(int scannerState) {
        int t = scanner.terminalOf(scannerState);
        if (t < 0) return 0;
        int local = scannerState - scanner.offset(t);
        CountedLoop counted = terminals[t].counted();
        return slots.slotOf(t, counted == null ? local : counted.canonical(local, maxTokenBytes));
    }

    /**
     * Called after each commit: while trees are built in the background, the background builds
     * what the matcher's next mask walks (its trees, and the root trees its parser allows) before
     * anything else, by computing that mask on a snapshot of the matcher. A server's mask comes
     * after the model's forward pass (milliseconds), which is time enough for most trees; the
     * hint a mask gives ({@link BackgroundTrees#near}) comes when the mask already needs them.
     */
    void maskAhead(Matcher m) {
        BackgroundTrees bg = background;
        if (bg != null) {
            Matcher snapshot = m.fork();
            bg.ahead(snapshot::buildAheadOfMask);
        }
    }

    /** When masks build missing trees, and whether they walk directly instead (see {@link TreeDemand}). */
    private final TreeDemand demand;

    /**
     * The tree a mask walks for a scanner state, or null when the mask walks that configuration
     * directly ({@link DirectMask}): never waits for a tree being built (see {@link TreeDemand}).
     * {@code build}: build it if missing (masks computed ahead, in the background).
     */
    TokenTree treeForMask(int scannerState, boolean build) {
        TreeDemand.Mode mode = demand.mode();
        if (mode == TreeDemand.Mode.DIRECT_ONLY && !build) return null;
        int slot = treeSlot(scannerState);
        int stored = treeOfSlot[slot];
        if (stored >= 0) return trees[stored];
        TokenTree built = lazyTrees.ifBuilt(slot);
        if (built != null) return built;
        if (build || mode == TreeDemand.Mode.BUILD_ON_FIRST_USE) {
            if (!build) MaskServing.note(lazyTrees.claimed(slot) ? MaskServing.WAITED : MaskServing.BUILT);
            return treeOfState(scannerState);
        }
        BackgroundTrees bg = background;
        if (bg != null) {
            bg.near(scannerState);
        } else if (demand.useTree(slot)) {
            long start = TreeDemand.clockNanos();
            try {
                built = lazyTrees.buildIfUnclaimed(slot, demand.treeBudgetNanos(slot));
                if (built != null) MaskServing.note(MaskServing.BUILT);
            } catch (BuildBudget.Exceeded over) {
                demand.treeBuildGivenUp(slot);
                treeBuilds.givenUp(TreeDemand.clockNanos() - start);
            }
        }
        return built;
    }

    /**
     * Charges the CPU time of a direct walk of a configuration whose tree {@link #treeForMask} did not
     * give (see {@link TreeDemand}); {@code computedWalks}: the walk computed terminal walks.
     */
    void chargeDirect(int scannerState, long nanos, boolean computedWalks) {
        if (background == null) demand.chargeTree(treeSlot(scannerState), nanos, computedWalks);
    }

    /** {@link #chargeDirect} for the root tree of terminal t. */
    void chargeRootDirect(int t, long nanos, boolean computedWalks) {
        if (background == null) demand.chargeRoot(t, nanos, computedWalks);
    }

    /** The root tree of a terminal if it is stored or built, else null (never builds). */
    TokenTree rootTreeIfBuilt(int t) {
        int stored = rootTreeOfTerminal[t];
        return stored >= 0 ? trees[stored] : lazyRoots.ifBuilt(t);
    }

    /** {@link #treeForMask} for the root tree of terminal t. */
    TokenTree rootTreeForMask(int t, boolean build) {
        TreeDemand.Mode mode = demand.mode();
        if (mode == TreeDemand.Mode.DIRECT_ONLY && !build) return null;
        int stored = rootTreeOfTerminal[t];
        if (stored >= 0) return trees[stored];
        TokenTree built = lazyRoots.ifBuilt(t);
        if (built != null) return built;
        if (build || mode == TreeDemand.Mode.BUILD_ON_FIRST_USE) {
            if (!build) MaskServing.note(lazyRoots.claimed(t) ? MaskServing.WAITED : MaskServing.BUILT);
            return lazyRoots.get(t);
        }
        if (background == null && demand.useRoot(t)) {
            long start = TreeDemand.clockNanos();
            try {
                built = lazyRoots.buildIfUnclaimed(t, demand.rootBudgetNanos(t));
                if (built != null) MaskServing.note(MaskServing.BUILT);
            } catch (BuildBudget.Exceeded over) {
                demand.rootBuildGivenUp(t);
                treeBuilds.givenUp(TreeDemand.clockNanos() - start);
            }
        }
        return built;
    }

    /** The tree of a scanner state (built now if the artifact is lazy and nobody needed it yet). */
    TokenTree treeOfState(int scannerState) {
        int slot = treeSlot(scannerState);
        int stored = treeOfSlot[slot];
        if (stored >= 0) return trees[stored];
        BackgroundTrees bg = background;
        if (bg != null) bg.near(scannerState);
        return lazyTrees.get(slot);
    }

    /** The shortest-completion tables of this artifact's grammar, built once (racing threads build equal tables). */
    dev.domino.runtime.internal.parse.ShortestCompletion shortestCompletion() {
        dev.domino.runtime.internal.parse.ShortestCompletion c = shortestCompletion;
        if (c == null) {
            synchronized (this) {
                c = shortestCompletion;
                if (c == null) shortestCompletion = c = new dev.domino.runtime.internal.parse.ShortestCompletion(scanner, RuntimeAccess.of(this).grammar(), parser);
            }
        }
        return c;
    }

    /** True when the root tree of terminal t is stored or built. */
    boolean rootTreeBuilt(int t) { return rootTreeOfTerminal[t] >= 0 || lazyRoots != null && lazyRoots.ifBuilt(t) != null; }

    /** The root tree of terminal t (see {@link TokenTree}; built now if nobody needed it yet). */
    TokenTree rootTree(int t) {
        int stored = rootTreeOfTerminal[t];
        return stored >= 0 ? trees[stored] : lazyRoots.get(t);
    }

    /** Builds the root tree of a terminal: called once per terminal by {@link LazyTrees}. */
    private TokenTree buildRootTree(int t) {
        long t0 = System.nanoTime();
        TokenTree tree = lazyTreeBuilder().buildRoot(t);
        treeBuilds.built(System.nanoTime() - t0);
        return tree;
    }

    /** Builds the tree of a slot's (canonical) scanner state: called once per slot by {@link LazyTrees}. */
    private TokenTree buildTree(int slot) {
        int scannerState = slots.state(slot);
        long t0 = System.nanoTime();
        TokenTree t = lazyTreeBuilder().build(scanner.terminalOf(scannerState), scanner.localOf(scannerState));
        Runnable hook = onLazyBuild;
        if (hook != null) hook.run();
        treeBuilds.built(System.nanoTime() - t0);
        return t;
    }

    /**
     * Builds the trees not stored in this lazy artifact on {@code executor} with {@code tasks}
     * tasks, and returns at once: nearest to the states masks are at first, then in the order
     * decoding usually needs them. Masks keep working meanwhile; one that needs a tree being
     * built waits for that tree only. Without this call every tree is built by the first mask
     * that needs it. Call it at most once per artifact; returns a finished handle when nothing is
     * left to build.
     */
    public synchronized BackgroundBuild buildTreesInBackground(java.util.concurrent.Executor executor, int tasks) {
        if (tasks < 1) throw new IllegalArgumentException("tasks must be at least 1: " + tasks);
        if (backgroundStarted) throw new IllegalStateException("trees are already built in the background");
        backgroundStarted = true;
        BackgroundTrees bg = new BackgroundTrees(internals, lazyTrees, maxTokenBytes, VocabTrie.of(vocabulary), vocabulary.size());
        if (lazyTrees == null) {
            bg.start(Runnable::run, 1); // nothing to build: done at once
            return bg;
        }
        background = bg;
        // first what the first mask walks (its root trees: the between state's tree is always built at
        // compile time), during the server's prefill
        bg.ahead(newMatcher()::buildAheadOfMask);
        bg.start(executor, tasks);
        return bg;
    }

    /**
     * The scanner state whose tree this state uses: itself, except in a counted terminal far
     * from its maximum, where every count shares the loop automaton's tree (see {@link CountedLoop}).
     */
    int canonicalState(int scannerState) {
        int t = scanner.terminalOf(scannerState);
        if (t < 0) return scannerState;
        CountedLoop counted = terminals[t].counted();
        return counted == null ? scannerState : scanner.offset(t) + counted.canonical(scanner.localOf(scannerState), maxTokenBytes);
    }

    /** One builder per artifact (it caches per-terminal tables), made by the first build. */
    private synchronized TreeBuilder lazyTreeBuilder() {
        if (lazyBuilder == null) {
            lazyBuilder = new TreeBuilder(terminals, follow, first, VocabTrie.of(vocabulary), info.dynamicCap(), vocabulary.size(),
                    scanner.startersByByte());
        }
        return lazyBuilder;
    }

    /** Tests: called after each lazy tree build. */
    private volatile Runnable onLazyBuild;

    /** The lazy trees built so far and their build time (profiling). */
    private final TreeBuildCounter treeBuilds = new TreeBuildCounter();

    /** The internals, for {@link RuntimeAccess}. */
    private final class Internals implements ArtifactInternals {
        @Override public ScannerStates scanner() { return scanner; }
        @Override public EarleyParser parser() { return parser; }
        @Override public ParserGrammar grammar() { return grammar; }
        @Override public Terminal[] terminals() { return terminals; }
        @Override public int terminalCount() { return terminals.length; }
        @Override public Terminal terminal(int t) { return terminals[t]; }
        @Override public BitSet[] follow() { return follow; }
        @Override public BitSet first() { return (BitSet) first.clone(); }
        @Override public int scannerStateCount() { return scanner.count(); }
        @Override public int stateOffset(int terminal) { return scanner.offset(terminal); }
        @Override public int stateTerminal(int scannerState) { return scanner.terminalOf(scannerState); }
        @Override public int stateLocal(int scannerState) { return scanner.localOf(scannerState); }
        @Override public String stateName(int scannerState) { return scanner.name(scannerState); }
        @Override public int canonicalState(int scannerState) { return Artifact.this.canonicalState(scannerState); }
        @Override public TokenTree[] storedTrees() { return trees; }
        @Override public int[] storedTreeIndex() { return treeOfSlot; }
        @Override public boolean isStored(int scannerState) { return treeOfSlot[treeSlot(scannerState)] >= 0; }
        @Override public TreeSlots treeSlots() { return slots; }
        @Override public int treeSlot(int scannerState) { return Artifact.this.treeSlot(scannerState); }
        @Override public int[] storedRootTreeIndex() { return rootTreeOfTerminal; }
        @Override public TokenTree rootTree(int terminal) { return Artifact.this.rootTree(terminal); }
        @Override public TokenTree rootTreeIfBuilt(int terminal) { return Artifact.this.rootTreeIfBuilt(terminal); }
        @Override public TokenTree buildRootTreeIfUnclaimed(int terminal) {
            return rootTreeOfTerminal[terminal] >= 0 ? null : lazyRoots.buildIfUnclaimed(terminal);
        }
        @Override public int storedTreeStates() {
            int n = 0;
            for (int tree : treeOfSlot) if (tree >= 0) n++;
            return n;
        }
        @Override public int treeCount() { return lazyTrees == null ? trees.length : lazyTrees.length(); }
        @Override public TokenTree tree(int index) {
            if (lazyTrees == null) return trees[index];
            return treeOfSlot[index] >= 0 ? trees[treeOfSlot[index]] : lazyTrees.ifBuilt(index);
        }
        @Override public TokenTree treeOfState(int scannerState) { return Artifact.this.treeOfState(scannerState); }
        @Override public int treeIndexOfState(int scannerState) {
            int slot = treeSlot(scannerState);
            return lazyTrees == null ? treeOfSlot[slot] : slot;
        }
        @Override public void backgroundFinished(BackgroundTrees bg) {
            synchronized (Artifact.this) {
                if (background == bg) background = null;
            }
        }
        @Override public void onLazyBuild(Runnable hook) { onLazyBuild = hook; }
        @Override public TreeDemand treeDemand() { return demand; }
        @Override public TreeBuildCounter treeBuilds() { return treeBuilds; }
    }

    /** The shared secrets of this package's API classes (see {@link RuntimeAccess}). */
    private static final class Access extends RuntimeAccess {
        @Override public Artifact newArtifact(ArtifactInfo info, Vocabulary vocabulary, Terminal[] terminals, ParserGrammar grammar,
                                              BitSet[] follow, BitSet first, TokenTree[] trees, int[] treeOfSlot, int[] rootTreeOfTerminal) {
            return new Artifact(info, vocabulary, terminals, grammar, follow, first, trees, treeOfSlot, rootTreeOfTerminal);
        }
        @Override public ArtifactInternals internals(Artifact artifact) { return artifact.internals; }
        @Override public Configurations configurations(Matcher matcher) { return matcher.configurations(); }
        @Override public Configurations advance(Matcher matcher, Configurations start, byte[] bytes) { return matcher.advance(start, bytes); }
        @Override public boolean expectsTokenTerminal(Matcher matcher) { return matcher.expectsTokenTerminal(); }
        @Override public void collectParserStates(Matcher matcher, java.util.List<EarleyState> out) { matcher.collectParserStates(out); }
        @Override public int[][] liveConfigurations(Matcher matcher) { return matcher.liveConfigurations(); }
        @Override public MaskWork countWork(Matcher matcher) { return matcher.countWork(); }
        @Override public byte[] sectionBlob(Vocabulary vocabulary) { return vocabulary.sectionBlob; }
        @Override public void setSectionBlob(Vocabulary vocabulary, byte[] blob) { vocabulary.sectionBlob = blob; }
    }
}
