package dev.domino.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes a file atomically: a temporary file in the same directory, then a rename. A failure never leaves a half-written file. */
public final class AtomicFiles {
    private AtomicFiles() {}

    public static void write(Path path, byte[] bytes) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp");
        try {
            try (OutputStream os = Files.newOutputStream(tmp)) { os.write(bytes); }
            try {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
