/**
 * The Domino runtime: load an artifact, create one matcher per request, fill token masks.
 *
 * <p>{@code dev.domino.runtime} is the API a server embeds ({@code Artifact}, {@code ArtifactRegistry},
 * {@code Matcher}, {@code BatchMasks}, {@code Vocabulary}, {@code Speculator}, {@code SpeculationPriors},
 * {@code RuntimeCaches}, the exceptions and info records); {@code dev.domino.runtime.diagnostics} explains
 * masks and counts their work. {@code dev.domino.runtime.internal} (the parser, trees, artifact format,
 * tree builder, the byte-stepping kernel) is exported only to the compiler (which builds artifacts from
 * those parts) and the CLI (whose inspect commands show them): no compatibility promise. The API classes keep their internals package-private and hand them to those
 * modules through {@code RuntimeAccess} (the JDK's "shared secrets" pattern), so the exported
 * packages show no internal type (checked by {@code PublicApiTest}).
 */
module dev.domino.runtime {
    requires com.esotericsoftware.kryo;

    exports dev.domino.runtime;
    exports dev.domino.runtime.diagnostics;
    exports dev.domino.runtime.internal to dev.domino.compiler, dev.domino.cli;
}
