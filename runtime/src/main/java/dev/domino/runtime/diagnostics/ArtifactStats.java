package dev.domino.runtime.diagnostics;

import dev.domino.runtime.*;
import dev.domino.runtime.internal.*;
import dev.domino.runtime.internal.trees.*;

/**
 * Size figures of an artifact, for compile summaries and inspection.
 *
 * @param terminals      terminals of the parser-level grammar
 * @param scannerStates  scanner states (between-terminals state included)
 * @param trees          distinct trees (identical trees are shared between states; lazy: built so far)
 * @param treeNodes      nodes over all distinct trees
 * @param tokenEntries   token ids over all distinct trees' groups (before set sharing)
 * @param tokenSets      distinct token sets in the pool
 * @param dynamicTokens  dynamic token entries over all distinct trees
 * @param productions    parser-level productions
 *
 * <p>Immutable, so thread-safe.
 */
public record ArtifactStats(int terminals, int scannerStates, int trees, long treeNodes, long tokenEntries,
                            int tokenSets, long dynamicTokens, int productions) {

    public static ArtifactStats of(Artifact artifact) {
        ArtifactInternals a = RuntimeAccess.of(artifact);
        long nodes = 0, entries = 0, dynamic = 0;
        int trees = 0;
        java.util.Set<TokenSet> sets = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int i = 0; i < a.treeCount(); i++) {
            TokenTree t = a.tree(i);
            if (t == null) continue; // lazy artifact: not built yet
            trees++;
            nodes += t.nodeCount();
            dynamic += t.dynamicTokenCount();
            for (int g = 0; g < t.groupCount(); g++) {
                entries += t.groupTokens(g).size();
                sets.add(t.groupTokens(g));
            }
        }
        return new ArtifactStats(a.terminalCount(), a.scannerStateCount(), trees, nodes, entries,
                sets.size(), dynamic, a.grammar().productionCount());
    }
}
