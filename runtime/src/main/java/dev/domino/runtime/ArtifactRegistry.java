package dev.domino.runtime;

import dev.domino.runtime.internal.format.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Every artifact of a directory, loaded in parallel at server start and keyed by file name
 * without the {@code .domino} extension. A file that fails to load is reported in
 * {@link #failures()} and does not stop the others.
 *
 * <p>Thread-safe: loaded once, then read by any number of threads.
 */
public final class ArtifactRegistry {
    public static final String EXTENSION = ".domino";

    private final Map<String, Artifact> artifacts;
    private final Map<String, String> failures;

    private ArtifactRegistry(Map<String, Artifact> artifacts, Map<String, String> failures) {
        this.artifacts = Collections.unmodifiableMap(artifacts);
        this.failures = Collections.unmodifiableMap(failures);
    }

    /**
     * Loads every {@code *.domino} file of the directory. Only regular files (or links to them) are
     * opened: a FIFO, device, socket, directory or dangling link is reported in {@link #failures()}
     * without being opened, so a stray special file cannot hang a server's start; a header whose
     * payload length disagrees with the file's size, or whose checksum fails, is reported before the
     * payload is allocated.
     */
    public static ArtifactRegistry loadDirectory(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(EXTENSION)).sorted().toList();
        }
        Map<String, Artifact> ok = new TreeMap<>();
        Map<String, String> failed = new TreeMap<>();
        List<Path> regular = new ArrayList<>();
        for (Path f : files) {
            String bad = ArtifactFiles.notRegular(f);
            if (bad == null) regular.add(f);
            else failed.put(baseName(f), f + ": " + bad);
        }
        int threads = Math.max(1, Math.min(regular.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Artifact>> futures = new ArrayList<>();
            for (Path f : regular) futures.add(pool.submit(() -> Artifact.load(f)));
            for (int i = 0; i < regular.size(); i++) {
                String name = baseName(regular.get(i));
                try {
                    ok.put(name, futures.get(i).get());
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    String reason = c instanceof OutOfMemoryError ? "not enough heap to load it"
                            : c.getMessage() == null ? c.toString() : c.getMessage();
                    failed.put(name, reason.startsWith(regular.get(i).toString()) ? reason : regular.get(i) + ": " + reason);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while loading artifacts", e);
                }
            }
            return new ArtifactRegistry(ok, failed);
        } finally {
            pool.shutdownNow();
        }
    }

    private static String baseName(Path f) {
        String name = f.getFileName().toString();
        return name.substring(0, name.length() - EXTENSION.length());
    }

    public Artifact get(String name) { return artifacts.get(name); }
    public Map<String, Artifact> artifacts() { return artifacts; }
    /** File name (without extension) → one-line reason it could not be loaded, naming the file. */
    public Map<String, String> failures() { return failures; }
}
