package dev.domino.runtime.internal;

import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;

import dev.domino.runtime.Artifact;

import java.util.BitSet;

/**
 * What the runtime, the compiler and the tools see of an {@link Artifact} beyond its API (reach it
 * with {@link RuntimeAccess#of}): terminals, parser, trees and the numbering of scanner states.
 * Scanner states are numbered globally: {@link ScannerStates#BETWEEN} (0) is "between terminals";
 * terminal t's automaton state s is {@code stateOffset(t) + s}. Arrays are shared: do not modify them.
 *
 * <p>Thread-safe, as the artifact: everything is immutable except the lazily built trees, which
 * {@link #treeOfState} builds once however many threads ask.
 */
public interface ArtifactInternals {
    ScannerStates scanner();
    EarleyParser parser();
    ParserGrammar grammar();
    Terminal[] terminals();
    int terminalCount();
    Terminal terminal(int terminal);
    /** Per terminal, the terminals that may follow it (tree pruning). */
    BitSet[] follow();
    /** Terminals that may begin the output. */
    BitSet first();
    int scannerStateCount();
    int stateOffset(int terminal);
    /** Terminal of a scanner state, or -1 for {@link ScannerStates#BETWEEN}. */
    int stateTerminal(int scannerState);
    int stateLocal(int scannerState);
    /** Display name of a scanner state: {@code between} or {@code TERMINAL:s}. */
    String stateName(int scannerState);
    /**
     * The scanner state whose tree this state uses: itself, except in a counted terminal far
     * from its maximum, where every count shares the loop automaton's tree (see {@link CountedLoop}).
     */
    int canonicalState(int scannerState);

    /** Stored (precomputed) distinct trees. */
    TokenTree[] storedTrees();
    /** Per tree slot ({@link #treeSlots()}), its tree's index in {@link #storedTrees()}, or -1 when it is built on first use. */
    int[] storedTreeIndex();
    /** True when the scanner state's tree is stored in the artifact (not built lazily). */
    boolean isStored(int scannerState);
    /** The scanner states that own a tree, numbered. */
    TreeSlots treeSlots();
    /** The slot of the tree a scanner state uses. */
    int treeSlot(int scannerState);
    /** Per terminal, its root tree's index in {@link #storedTrees()}, or -1 when it is built on first use (see {@link TokenTree}). */
    int[] storedRootTreeIndex();
    /** The root tree of a terminal (built now if nobody needed it yet). */
    TokenTree rootTree(int terminal);
    /** The root tree of a terminal if stored or built, else null (never waits, never builds). */
    TokenTree rootTreeIfBuilt(int terminal);
    /** Builds a terminal's root tree on this thread unless stored, built or being built; null then. */
    TokenTree buildRootTreeIfUnclaimed(int terminal);
    /** Tree slots whose tree is stored (precomputed) in the artifact. */
    int storedTreeStates();
    /** Fully stored: distinct trees. Otherwise: tree slots (some trees not built yet). */
    int treeCount();
    /** Fully stored: a distinct tree. Otherwise: the tree of slot {@code index}, or null if not built yet. */
    TokenTree tree(int index);
    /** The tree of a scanner state (built now if the artifact is lazy and nobody needed it yet). */
    TokenTree treeOfState(int scannerState);
    /** Fully stored: index of the state's tree among the distinct trees. Otherwise: the slot of the tree it uses. */
    int treeIndexOfState(int scannerState);

    /** Called by {@link BackgroundTrees} when its last task ends: masks stop sending hints. */
    void backgroundFinished(BackgroundTrees background);
    /** Tests: called after each lazy tree build. */
    void onLazyBuild(Runnable hook);
    /** When masks build missing trees, or walk without them (see {@link TreeDemand}). */
    TreeDemand treeDemand();
    /** The lazy trees built so far and their build time. */
    TreeBuildCounter treeBuilds();
}
