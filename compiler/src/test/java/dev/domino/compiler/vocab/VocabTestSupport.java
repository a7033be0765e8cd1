package dev.domino.compiler.vocab;

import dev.domino.runtime.Vocabulary;
import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

final class VocabTestSupport {
    private VocabTestSupport() {}

    static byte[] concat(Vocabulary v, int[] ids) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int id : ids) out.writeBytes(v.bytes(id));
        return out.toByteArray();
    }

    static Path resource(String name) {
        try {
            return Path.of(VocabTestSupport.class.getResource("/vocab/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A file from {@code ../shared/vocab} next to the repository (found by walking up from the
     * working directory, so git worktrees nested deeper work too); skips the test when absent, as on CI.
     */
    static Path sharedVocab(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("shared").resolve("vocab").resolve(name);
            if (Files.isRegularFile(p)) return p;
        }
        Assumptions.assumeTrue(false, "../shared/vocab/" + name + " not present");
        return null;
    }
}
