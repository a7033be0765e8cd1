package dev.domino.constraints;

import dev.domino.compiler.FrontEndOptions;

/**
 * How request constraints are compiled; part of the cache key.
 *
 * @param frontEnd       JSON Schema front-end settings (whitespace, property order, ...)
 * @param lazy           build trees on first use (request-time grammars: fast compiles)
 * @param prebuildMillis with {@code lazy}: build trees for about this long at compile time, the rest on first use
 * @param threads        tree-building threads of one compile (a server compiles several specs at once: 1)
 * @param dynamicCap     paths per vocabulary-trie node above which tokens are checked at run time
 */
public record ConstraintOptions(FrontEndOptions frontEnd, boolean lazy, long prebuildMillis, int threads, int dynamicCap) {
    public ConstraintOptions {
        if (frontEnd == null) throw new IllegalArgumentException("frontEnd options missing");
        if (prebuildMillis < 0) throw new IllegalArgumentException("prebuildMillis must be >= 0");
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1");
        if (dynamicCap < 1) throw new IllegalArgumentException("dynamicCap must be >= 1");
    }

    /** Lazy trees, 1 s of them prebuilt (what {@code bench maskbench} measures as TTFM), one thread. */
    public static ConstraintOptions defaults() { return new ConstraintOptions(FrontEndOptions.defaults(), true, 1000, 1, dev.domino.compiler.CompileOptions.DEFAULT_DYNAMIC_CAP); }

    public ConstraintOptions withFrontEnd(FrontEndOptions f) { return new ConstraintOptions(f, lazy, prebuildMillis, threads, dynamicCap); }
    public ConstraintOptions withLazy(boolean l) { return new ConstraintOptions(frontEnd, l, prebuildMillis, threads, dynamicCap); }
    public ConstraintOptions withPrebuildMillis(long ms) { return new ConstraintOptions(frontEnd, lazy, ms, threads, dynamicCap); }
    public ConstraintOptions withDynamicCap(int cap) { return new ConstraintOptions(frontEnd, lazy, prebuildMillis, threads, cap); }
    public ConstraintOptions withThreads(int n) { return new ConstraintOptions(frontEnd, lazy, prebuildMillis, n, dynamicCap); }

    /**
     * The options that change the grammar, as one string (cache key part, recorded in artifacts
     * as {@code request.options}). Tree-building settings are left out: masks do not depend on them.
     */
    public String key() { return frontEnd.toString(); }
}
