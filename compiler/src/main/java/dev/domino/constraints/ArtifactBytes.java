package dev.domino.constraints;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.ArtifactInternals;
import dev.domino.runtime.internal.RuntimeAccess;
import dev.domino.runtime.internal.trees.TokenSet;
import dev.domino.runtime.internal.trees.TokenTree;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Rough heap bytes of an artifact's own data, for the cache's byte bound: per automaton state its
 * row (256 ints; a counted terminal's counts are numbers only, see ScannerStates), per tree node
 * its arrays, per distinct token set its ids or bitmap.
 * The vocabulary (shared by all artifacts of a model) is not counted, nor trees built on first
 * use after the artifact entered the cache.
 */
final class ArtifactBytes {
    private ArtifactBytes() {}

    static long estimate(Artifact artifact) {
        ArtifactInternals a = RuntimeAccess.of(artifact);
        long automatonStates = 0;
        for (int t = 0; t < a.terminalCount(); t++) automatonStates += a.terminal(t).dfa().stateCount();
        long bytes = 4096 + 1024L * automatonStates + 64L * a.grammar().productionCount();
        Set<TokenSet> sets = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < a.treeCount(); i++) bytes += treeBytes(a.tree(i), sets, artifact);
        // root trees (see TokenTree): an eager artifact's are among its trees above already
        Set<TokenTree> counted = Collections.newSetFromMap(new IdentityHashMap<>());
        if (!artifact.isLazy()) counted.addAll(java.util.Arrays.asList(a.storedTrees()));
        for (int t = 0; t < a.terminalCount(); t++) {
            TokenTree root = a.rootTreeIfBuilt(t);
            if (root != null && counted.add(root)) bytes += treeBytes(root, sets, artifact);
        }
        return bytes;
    }

    private static long treeBytes(TokenTree t, Set<TokenSet> sets, Artifact artifact) {
        if (t == null) return 0;
        long bytes = 48L * t.nodeCount() + 4L * t.dynamicTokenCount();
        for (int g = 0; g < t.groupCount(); g++) {
            TokenSet s = t.groupTokens(g);
            bytes += 16;
            if (sets.add(s)) bytes += s.isBitmap() ? (artifact.vocabulary().size() + 7) / 8 : 4L * s.size();
        }
        return bytes;
    }
}
