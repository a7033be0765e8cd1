package dev.domino.cli;

import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.ArtifactFormatException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The artifacts that {@code mvn -Pgrammars package} wrote to {@code artifacts/}: each one present
 * loads, and runs its grammar's examples. Absent artifacts are skipped, and so are stale ones
 * (compiled from a different grammar text than the one in {@code grammars/} now, or unreadable
 * because written by another version of the artifact format).
 */
class LibraryArtifactsTest {
    private static final java.util.Map<String, Tokenizer> TOKENIZERS = new java.util.concurrent.ConcurrentHashMap<>();

    @TestFactory Stream<DynamicTest> compiledArtifactsRunTheirExamples() throws Exception {
        Path root = GrammarExamples.repoRoot();
        Path artifacts = root.resolve("artifacts");
        return GrammarLibrary.list(root.resolve("grammars")).stream().map(e -> DynamicTest.dynamicTest(e.name() + ".domino", () -> {
            Path file = e.artifactIn(artifacts);
            Assumptions.assumeTrue(Files.exists(file), () -> file + " not built (mvn -Pgrammars package)");
            Artifact artifact;
            try {
                artifact = ArtifactFormat.read(file);
            } catch (ArtifactFormatException ex) {
                // artifacts/ holds build outputs: one written by another version of the format is stale,
                // not a bug (reading what this version writes is covered by GrammarLibraryTest)
                Assumptions.abort(file + " unreadable, probably written by another version (rebuild with -Pgrammars): "
                        + ex.getMessage());
                return;
            }
            Assumptions.assumeTrue(artifact.info().sourceSha256().equals(Sha.of(e.text())), () -> file + " is stale");
            Tokenizer tokenizer = TOKENIZERS.computeIfAbsent(artifact.vocabulary().name(), n -> VocabularyLoader.load(n, null));
            assertThat(tokenizer.vocabulary().fingerprint()).isEqualTo(artifact.vocabulary().fingerprint());
            GrammarLibraryTest.checkExamples(e, artifact, null, tokenizer);
        }));
    }

    /** The same digest {@link GrammarCompiler} records. */
    static final class Sha {
        static String of(String text) throws Exception {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }
}
