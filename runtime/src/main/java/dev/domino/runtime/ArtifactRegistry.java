package dev.domino.runtime;

import dev.domino.runtime.internal.*;
import dev.domino.runtime.diagnostics.*;

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

    public static ArtifactRegistry loadDirectory(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(EXTENSION)).sorted().toList();
        }
        int threads = Math.max(1, Math.min(files.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Artifact>> futures = new ArrayList<>();
            for (Path f : files) futures.add(pool.submit(() -> Artifact.load(f)));
            Map<String, Artifact> ok = new TreeMap<>();
            Map<String, String> failed = new TreeMap<>();
            for (int i = 0; i < files.size(); i++) {
                String name = files.get(i).getFileName().toString();
                name = name.substring(0, name.length() - EXTENSION.length());
                try {
                    ok.put(name, futures.get(i).get());
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    failed.put(name, c.getMessage() == null ? c.toString() : c.getMessage());
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

    public Artifact get(String name) { return artifacts.get(name); }
    public Map<String, Artifact> artifacts() { return artifacts; }
    /** File name (without extension) → one-line reason it could not be loaded. */
    public Map<String, String> failures() { return failures; }
}
