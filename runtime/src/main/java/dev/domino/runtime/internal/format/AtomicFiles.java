package dev.domino.runtime.internal.format;

import dev.domino.runtime.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file atomically: a temporary file beside the target, then a rename, so a failure never
 * leaves a half-written file. The target must be a regular file or absent: a symlink, FIFO, device
 * or directory is refused rather than replaced. The temporary file is created with the process's
 * umask (as the target would be), and removed on failure, on {@link Pending#close()} and, if the
 * process is interrupted (Ctrl-C, SIGTERM), by a shutdown hook.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path p : PENDING) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException | RuntimeException ignored) {
                    // best effort while the process exits
                }
            }
        }, "domino-temp-cleanup"));
    }

    public static void write(Path path, byte[] bytes) throws IOException {
        try (Pending p = begin(path)) {
            p.commit(bytes);
        }
    }

    /**
     * Checks the target and creates its temporary file now, before the work that produces the
     * bytes: an unwritable directory or a refused target fails at once, not after a long compile.
     */
    public static Pending begin(Path path) throws IOException {
        checkTarget(path);
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        Path tmp = null;
        for (int attempt = 0; tmp == null; attempt++) {
            Path candidate = (dir == null ? Path.of(".") : dir)
                    .resolve("." + path.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + ".tmp");
            try {
                tmp = Files.createFile(candidate); // default mode 0666 & ~umask
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) throw e;
            } catch (java.nio.file.AccessDeniedException e) {
                throw new java.nio.file.AccessDeniedException(String.valueOf(dir), null, "cannot write " + path.getFileName() + " in this directory");
            } catch (FileSystemException e) { // e.g. a directory under /proc: name the target, not the temporary file
                String why = e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                        : e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
                throw new FileSystemException(path.toString(), null, "cannot create a file in " + dir + " (" + why + ")");
            }
        }
        PENDING.add(tmp);
        return new Pending(path, tmp);
    }

    /** Refuses targets that a rename would silently replace with a regular file. */
    public static void checkTarget(Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            throw new FileSystemException(path.toString(), null, "is a symbolic link: refusing to replace it (name the file it points to)");
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(path.toString(), null,
                    "exists and is not a regular file (a directory, FIFO or device): refusing to replace it");
        }
    }

    /** A temporary file waiting for its bytes. */
    public static final class Pending implements AutoCloseable {
        private final Path target;
        private final Path tmp;
        private boolean done;

        private Pending(Path target, Path tmp) {
            this.target = target;
            this.tmp = tmp;
        }

        public Path target() { return target; }

        public void commit(byte[] bytes) throws IOException {
            if (done) throw new IllegalStateException("already committed");
            try (OutputStream os = Files.newOutputStream(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                os.write(bytes);
            }
            checkTarget(target); // it may have changed while the bytes were computed
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
            PENDING.remove(tmp);
        }

        /** Removes the temporary file unless {@link #commit} moved it into place. */
        @Override public void close() throws IOException {
            if (!done) {
                done = true;
                Files.deleteIfExists(tmp);
                PENDING.remove(tmp);
            }
        }
    }
}
