/**
 * The Domino runtime: load an artifact, create one matcher per request, fill token masks.
 *
 * <p>{@code dev.domino.runtime} is the API a server embeds ({@code Artifact}, {@code ArtifactRegistry},
 * {@code Matcher}, {@code BatchMasks}, {@code Vocabulary}, {@code Speculator}, {@code SpeculationPriors},
 * {@code RuntimeCaches}, the exceptions and info records); {@code dev.domino.runtime.diagnostics} explains
 * masks and counts their work. {@code dev.domino.runtime.internal} and its sub-packages (parser, scanner
 * automata, byte-stepping kernel and masks, trees and tree builder, vocabulary trie, artifact format) are
 * exported only to the compiler (which builds artifacts from those parts) and the CLI (whose inspect commands
 * show them): no compatibility promise. The API classes keep their internals package-private and hand them
 * to those modules through {@code RuntimeAccess} (the JDK's "shared secrets" pattern), so the exported
 * packages show no internal type (checked by {@code PublicApiTest}).
 */
module dev.domino.runtime {
    requires com.esotericsoftware.kryo;
    requires java.management; // TreeDemand: the cost rule charges direct walks in the mask thread's CPU time

    exports dev.domino.runtime;
    exports dev.domino.runtime.diagnostics;
    // the internals, to the modules that build artifacts from them (compiler) or show them (the CLI's inspect
    // commands and bench maskbench); format and parse reach the CLI and format the compiler for their tests
    exports dev.domino.runtime.internal to dev.domino.compiler, dev.domino.cli;
    exports dev.domino.runtime.internal.parse to dev.domino.compiler, dev.domino.cli;
    exports dev.domino.runtime.internal.scan to dev.domino.compiler, dev.domino.cli;
    exports dev.domino.runtime.internal.trees to dev.domino.compiler, dev.domino.cli;
    exports dev.domino.runtime.internal.format to dev.domino.compiler, dev.domino.cli;
    exports dev.domino.runtime.internal.vocab to dev.domino.compiler;
    exports dev.domino.runtime.internal.util to dev.domino.compiler;
    exports dev.domino.runtime.internal.mask to dev.domino.compiler, dev.domino.cli;
}
