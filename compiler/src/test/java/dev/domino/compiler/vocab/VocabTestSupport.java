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

    /** A file from ../shared/vocab of the repository root; skips the test when absent (as on CI). */
    static Path sharedVocab(String name) {
        // Tests run with the module directory as working directory; the repo root is its parent.
        for (Path root : new Path[] {Path.of("..").toAbsolutePath().normalize(), Path.of("").toAbsolutePath()}) {
            Path p = root.resolve("../shared/vocab").resolve(name).normalize();
            if (Files.isRegularFile(p)) return p;
        }
        Assumptions.assumeTrue(false, "../shared/vocab/" + name + " not present");
        return null;
    }
}
