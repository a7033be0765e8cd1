package dev.domino.runtime.internal;

import dev.domino.runtime.internal.format.*;
import dev.domino.runtime.internal.mask.*;
import dev.domino.runtime.internal.parse.*;
import dev.domino.runtime.internal.scan.*;
import dev.domino.runtime.internal.trees.*;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactInfo;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.util.BitSet;
import java.util.List;

/**
 * The internals of the API classes ({@link Artifact}, {@link Matcher}, {@link Vocabulary}) as the
 * runtime's own packages, the compiler, the CLI and the tools reach them: the "shared secrets"
 * pattern of the JDK ({@code jdk.internal.access.SharedSecrets}). The API classes keep their
 * internals package-private, and {@code Artifact}'s static initializer registers an implementation
 * of this class; this package is exported only to the compiler and CLI modules, so a
 * server that embeds the runtime sees none of it. Not part of the API: no compatibility promise.
 *
 * <p>Thread-safe: the accessor is registered once, during {@code Artifact}'s class initialization.
 */
public abstract class RuntimeAccess {
    private static volatile RuntimeAccess access;

    /** Called once, by {@code Artifact}'s static initializer. */
    public static void register(RuntimeAccess implementation) {
        if (access != null) throw new IllegalStateException("runtime access registered twice");
        access = implementation;
    }

    /** The registered accessor (initializes {@code Artifact} when nothing has used it yet). */
    public static RuntimeAccess get() {
        RuntimeAccess a = access;
        if (a != null) return a;
        try {
            Class.forName(Artifact.class.getName(), true, RuntimeAccess.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return access;
    }

    /** The artifact's terminals, parser, trees and scanner-state numbering. */
    public static ArtifactInternals of(Artifact artifact) { return get().internals(artifact); }

    /** A new artifact (checks the parts as the artifact loader does; see {@code ArtifactFormat}). */
    public abstract Artifact newArtifact(ArtifactInfo info, Vocabulary vocabulary, Terminal[] terminals, ParserGrammar grammar,
                                         BitSet[] follow, BitSet first, TokenTree[] trees, int[] treeOfSlot,
                                         int[] rootTreeOfTerminal);

    public abstract ArtifactInternals internals(Artifact artifact);

    /** The matcher's live configurations (shared, immutable). */
    public abstract Configurations configurations(Matcher matcher);

    /** Steps every configuration over the bytes with the matcher's artifact; null when none survives. */
    public abstract Configurations advance(Matcher matcher, Configurations start, byte[] bytes);

    /** Whether some live configuration expects a token terminal (a token reference). */
    public abstract boolean expectsTokenTerminal(Matcher matcher);

    /** Adds the parser states of every history node of the matcher (for reachability counts). */
    public abstract void collectParserStates(Matcher matcher, List<EarleyState> out);

    /** Live configurations as pairs {scannerState, parserItemCount}, for inspection. */
    public abstract int[][] liveConfigurations(Matcher matcher);

    /** The matcher's work counters, created (and counting from then on) on the first call. */
    public abstract MaskWork countWork(Matcher matcher);

    /** The vocabulary's encoded artifact section, once written or read; null before (see {@link VocabularySection}). */
    public abstract byte[] sectionBlob(Vocabulary vocabulary);

    public abstract void setSectionBlob(Vocabulary vocabulary, byte[] blob);
}
