package dev.domino.runtime;

import dev.domino.runtime.internal.scan.ByteDfa;
import dev.domino.runtime.internal.trees.TerminalWalks;
import dev.domino.runtime.internal.trees.TreeBuilder;

/**
 * The runtime's limits and bounds as values. The runtime reads no system property: an embedding
 * server passes these ({@link Artifact#load(java.nio.file.Path, RuntimeLimits)} for an artifact's
 * parser, {@link #applyToProcess()} for what the process shares), and the CLI builds them from its
 * {@code -Ddomino.*} properties. Immutable, so thread-safe.
 *
 * <p>Per artifact (two tenants' artifacts may differ):
 *
 * @param parserMaxStepWork    Earley items one step (one terminal at one position) may look at; past it the
 *                             matcher goes to its error state with a one-line reason. Default 1,000,000: real
 *                             grammars' largest steps look at a few thousand; a highly ambiguous grammar
 *                             ({@code s ::= s s | "a"}) reaches it near byte 800 after about 1 s of CPU.
 *                             Cost of raising: CPU per step on ambiguous grammars
 * @param parserSharedBytes    parser-state bytes an artifact's matchers share per generation before the next
 *                             matcher starts a fresh root. Default 4 MB. Cost: heap per artifact; lower
 *                             repeats parser work across requests
 *
 * <p>Process-wide ({@link #applyToProcess()}; caches are shared by all artifacts of a vocabulary):
 *
 * @param trieCacheBytes       vocabulary tries. Default 512 MB. Cost: heap; an evicted trie is rebuilt
 * @param walkCacheBytes       per vocabulary: walks through one terminal from one state (lazy trees). Default 256 MB
 * @param sharedWalkCacheBytes per vocabulary: walks shared by automata that look alike (two caches). Default 64 MB
 * @param coreBelowCacheBytes  per vocabulary: loop-core walks below a first byte. Default 16 MB
 * @param loopCoreCacheBytes   per vocabulary: loop cores. Default 16 MB
 * @param enteredCacheBytes    per tree builder: subtrees of terminals entered at the root. Default 64 MB.
 *                             Cost: heap; past it they are walked again
 * @param denseMaxStates       automata up to this many states also keep dense 1 KB rows. Default 256.
 *                             Cost: 1 KB per state of memory
 * @param batchLingerMicros    how long a {@link BatchMasks} helper spins for the next batch before it parks.
 *                             Default 200 µs. Cost: a pool thread held that long after a batch
 */
public record RuntimeLimits(long parserMaxStepWork, long parserSharedBytes, long trieCacheBytes, long walkCacheBytes,
                            long sharedWalkCacheBytes, long coreBelowCacheBytes, long loopCoreCacheBytes,
                            long enteredCacheBytes, int denseMaxStates, long batchLingerMicros) {
    public static final RuntimeLimits DEFAULTS = new RuntimeLimits(1_000_000, 4L << 20, 512L << 20, 256L << 20,
            64L << 20, 16L << 20, 16L << 20, 64L << 20, 256, 200);

    public RuntimeLimits {
        if (parserMaxStepWork < 1) throw new IllegalArgumentException("parserMaxStepWork must be >= 1");
        for (long v : new long[] {parserSharedBytes, trieCacheBytes, walkCacheBytes, sharedWalkCacheBytes, coreBelowCacheBytes,
                loopCoreCacheBytes, enteredCacheBytes, denseMaxStates, batchLingerMicros}) {
            if (v < 0) throw new IllegalArgumentException("runtime limits must not be negative");
        }
    }

    /** Sets the process-wide bounds: the caches (now and for vocabularies to come), dense rows, batch helpers. */
    public void applyToProcess() {
        RuntimeCaches.setMaxBytes("vocabulary tries", trieCacheBytes);
        RuntimeCaches.setMaxBytes(TerminalWalks.WALKS, walkCacheBytes);
        RuntimeCaches.setMaxBytes(TerminalWalks.BY_RESIDUAL, sharedWalkCacheBytes);
        RuntimeCaches.setMaxBytes(TerminalWalks.BY_CORE, sharedWalkCacheBytes);
        RuntimeCaches.setMaxBytes(TerminalWalks.CORE_BELOW, coreBelowCacheBytes);
        RuntimeCaches.setMaxBytes(TerminalWalks.LOOP_CORES, loopCoreCacheBytes);
        TreeBuilder.setEnteredMaxBytes(enteredCacheBytes);
        ByteDfa.setDenseMaxStates(denseMaxStates);
        BatchMasks.setLingerMicros(batchLingerMicros);
    }
}
