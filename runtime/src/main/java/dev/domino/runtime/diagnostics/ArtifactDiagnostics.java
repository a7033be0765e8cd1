package dev.domino.runtime.diagnostics;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.internal.RuntimeAccess;

import java.util.Map;

/**
 * Figures of the artifact file and of a matcher's parse for inspection and profiling tools
 * ({@code domino inspect artifact}, {@code bench maskbench --profile}), so they need no internal class.
 * No compatibility promise beyond the meaning of each figure. Stateless, so thread-safe; a matcher's
 * figures are read as its other methods are, by the thread that uses it.
 */
public final class ArtifactDiagnostics {
    private ArtifactDiagnostics() {}

    /** The artifact format version this runtime writes and reads. */
    public static int formatVersion() { return ArtifactFormat.FORMAT_VERSION; }

    /**
     * Bytes of each section of the artifact file, in file order (header, info, vocabulary, terminals,
     * parser grammar, token sets, trees, tree index), measured by serializing it; they add up to the file size.
     */
    public static Map<String, Long> sectionSizes(Artifact artifact) { return ArtifactFormat.sectionSizes(artifact); }

    /**
     * Uses of a tree missing from a lazy artifact after which the mask that uses it builds it (0: never;
     * masks walk such trees directly until a background build has them), instead of the runtime's
     * default cost rule (see {@link #setBuildAfterDirectMicros}). For benchmarks that compare the policy.
     */
    public static void setBuildAfterUses(Artifact artifact, int uses) { RuntimeAccess.of(artifact).treeDemand().setBuildAfterUses(uses); }

    /**
     * The cost rule: a mask builds a tree missing from a lazy artifact once direct walks of its state
     * (after the first) have cost this much CPU time; the runtime's default is
     * {@value dev.domino.runtime.internal.trees.TreeDemand#BUILD_AFTER_DIRECT_MICROS} µs. For benchmarks that compare the policy.
     */
    public static void setBuildAfterDirectMicros(Artifact artifact, long micros) { RuntimeAccess.of(artifact).treeDemand().setBuildAfterDirectMicros(micros); }

    /** Parser configurations the matcher holds now (a mask's work grows with them). */
    public static int liveConfigurations(Matcher matcher) { return RuntimeAccess.get().liveConfigurations(matcher).length; }
}
