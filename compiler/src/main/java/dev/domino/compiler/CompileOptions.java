package dev.domino.compiler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * How to compile.
 *
 * @param dynamicCap      paths per vocabulary-trie node above which tokens are checked at run time
 * @param threads         worker threads for tree building (1 = deterministic single thread;
 *                        results are identical either way)
 * @param progress        called with the number of scanner states finished (may be null)
 * @param extra           options recorded in the artifact (front-end settings)
 * @param ignoredKeywords front-end keywords the user chose to ignore, recorded in the artifact
 * @param lazy            do not store every tree: the runtime builds the missing ones on first use
 *                        (fast compiles for grammars made on request, e.g. per-request JSON Schemas)
 * @param prebuildMillis  with {@code lazy}: still build trees, in scanner-state order, for about this
 *                        long, and store them (0 = none). Moves first-use cost out of the first masks
 *                        into compile time; which trees get stored depends on timing, masks do not
 * @param fineTerminals   only reference-free regular pieces become terminals (see
 *                        {@code TerminalDerivation.deriveFine}); generated grammars want this
 */
public record CompileOptions(int dynamicCap, int threads, IntConsumer progress, Map<String, String> extra,
                             List<String> ignoredKeywords, boolean lazy, boolean fineTerminals, long prebuildMillis) {
    public static final int DEFAULT_DYNAMIC_CAP = 32;

    public CompileOptions {
        extra = new LinkedHashMap<>(extra);
        ignoredKeywords = List.copyOf(ignoredKeywords);
    }

    public static CompileOptions defaults() {
        return new CompileOptions(DEFAULT_DYNAMIC_CAP, Runtime.getRuntime().availableProcessors(), null, Map.of(), List.of(), false, false, 0);
    }

    public CompileOptions withProgress(IntConsumer p) { return new CompileOptions(dynamicCap, threads, p, extra, ignoredKeywords, lazy, fineTerminals, prebuildMillis); }
    public CompileOptions withThreads(int n) { return new CompileOptions(dynamicCap, n, progress, extra, ignoredKeywords, lazy, fineTerminals, prebuildMillis); }
    public CompileOptions withDynamicCap(int cap) { return new CompileOptions(cap, threads, progress, extra, ignoredKeywords, lazy, fineTerminals, prebuildMillis); }
    public CompileOptions withExtra(Map<String, String> e) { return new CompileOptions(dynamicCap, threads, progress, e, ignoredKeywords, lazy, fineTerminals, prebuildMillis); }
    public CompileOptions withIgnoredKeywords(List<String> k) { return new CompileOptions(dynamicCap, threads, progress, extra, k, lazy, fineTerminals, prebuildMillis); }
    public CompileOptions withLazy(boolean l) { return new CompileOptions(dynamicCap, threads, progress, extra, ignoredKeywords, l, fineTerminals, prebuildMillis); }
    public CompileOptions withPrebuildMillis(long ms) { return new CompileOptions(dynamicCap, threads, progress, extra, ignoredKeywords, lazy, fineTerminals, ms); }
    public CompileOptions withFineTerminals(boolean f) { return new CompileOptions(dynamicCap, threads, progress, extra, ignoredKeywords, lazy, f, prebuildMillis); }
}
