package dev.domino.cli;

import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.ArtifactFormatException;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Turns exceptions into the one-line messages and exit codes the CLI promises. */
public final class Errors {
    private Errors() {}

    /** The message on one line: a library's multi-line message (Jackson's "at [Source: ...]") is joined. */
    public static String describe(Throwable e) {
        return describeRaw(e).replaceAll("\\s*\\R\\s*", " ");
    }

    private static String describeRaw(Throwable e) {
        if (e instanceof NoSuchFileException n) return "file not found: " + n.getFile();
        if (e instanceof java.nio.file.AccessDeniedException a) return "permission denied: " + a.getFile() + (a.getReason() == null ? "" : " (" + a.getReason() + ")");
        if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) return describeRaw(u.getCause());
        if (e instanceof GrammarException g) return "bad grammar: " + g.getMessage();
        if (e instanceof ArtifactFormatException a) return a.getMessage();
        if (e instanceof OutOfMemoryError) {
            return "out of memory (" + (Runtime.getRuntime().maxMemory() >> 20) + " MB heap): raise -Xmx, or lower the compile limits (--limit)";
        }
        if (e instanceof StackOverflowError) return "grammar or input nested too deeply (stack overflow): lower --limit nesting-depth";
        String m = e.getMessage();
        if (m == null || m.isBlank()) m = e.getClass().getSimpleName();
        if (e instanceof IOException) return "I/O error: " + m;
        return m;
    }

    /** 2: bad input (grammar, schema, vocabulary, options, input files); 3: bad artifact; 1: anything else. */
    static int exitCode(Throwable e) {
        if (e instanceof GrammarException || e instanceof IllegalArgumentException) return 2;
        if (e instanceof ArtifactFormatException) return 3;
        if (e instanceof java.nio.file.FileSystemException) return 2; // missing file, permission, refused target
        if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) return exitCode(u.getCause());
        if (e instanceof StackOverflowError) return 2; // nesting the limits did not catch
        return 1;
    }
}
