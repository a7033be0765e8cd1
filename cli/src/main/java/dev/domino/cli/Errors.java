package dev.domino.cli;

import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.ArtifactFormatException;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Turns exceptions into the one-line messages and exit codes the CLI promises. */
final class Errors {
    private Errors() {}

    static String describe(Throwable e) {
        if (e instanceof NoSuchFileException n) return "file not found: " + n.getFile();
        if (e instanceof GrammarException g) return "bad grammar: " + g.getMessage();
        if (e instanceof ArtifactFormatException a) return a.getMessage();
        if (e instanceof OutOfMemoryError) return "out of memory: raise -Xmx or simplify the grammar";
        if (e instanceof StackOverflowError) return "grammar or input nested too deeply (stack overflow)";
        String m = e.getMessage();
        if (m == null || m.isBlank()) m = e.getClass().getSimpleName();
        if (e instanceof IOException) return "I/O error: " + m;
        return m;
    }

    static int exitCode(Throwable e) {
        if (e instanceof GrammarException || e instanceof IllegalArgumentException) return 2;
        if (e instanceof ArtifactFormatException) return 3;
        return 1;
    }
}
