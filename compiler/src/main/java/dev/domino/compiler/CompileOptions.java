package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaOptions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Every option of a compile, typed: the front end's ({@link JsonSchemaOptions}; the other front ends
 * have none) and the tree builder's. Immutable; make one with {@link #builder()} or change one with
 * {@link #toBuilder()} (the {@code with…} methods are shorthands for one field).
 *
 * @param jsonSchema      JSON Schema front end: whitespace, property order, key escapes, unknown formats, ...
 * @param dynamicCap      paths per vocabulary-trie node above which tokens are checked at run time
 *                        (default {@link #DEFAULT_DYNAMIC_CAP}; masks do not depend on it, only their cost)
 * @param threads         worker threads for tree building (1 = deterministic single thread;
 *                        results are identical either way; default: all cores)
 * @param lazy            do not store every tree: the runtime builds the missing ones on first use
 *                        (fast compiles for grammars made on request, e.g. per-request JSON Schemas)
 * @param prebuildMillis  with {@code lazy}: still build trees, in scanner-state order, for about this
 *                        many milliseconds of the compiling thread's CPU time (not wall time, so a
 *                        loaded machine stores the same trees), and store them (0 = none). Moves
 *                        first-use cost out of the first masks into compile time; which trees get
 *                        stored depends on timing, masks do not
 * @param progress        called with the number of scanner states finished (may be null)
 * @param fineTerminals   only reference-free regular pieces become terminals (see
 *                        {@code TerminalDerivation.deriveFine}); generated grammars want this.
 *                        {@link DominoCompiler} sets it from the front end; set it only when calling
 *                        {@link GrammarCompiler} directly
 * @param extra           options recorded in the artifact: {@link DominoCompiler} fills it from the front end
 * @param ignoredKeywords front-end keywords ignored at the user's request, recorded in the artifact;
 *                        {@link DominoCompiler} fills it from the front end
 * @param limits          the compile budget ({@link CompileLimits.Values#DEFAULTS}), in force for this compile only
 */
public record CompileOptions(JsonSchemaOptions jsonSchema, int dynamicCap, int threads, boolean lazy, long prebuildMillis,
                             IntConsumer progress, boolean fineTerminals, Map<String, String> extra,
                             List<String> ignoredKeywords, CompileLimits.Values limits) {
    public static final int DEFAULT_DYNAMIC_CAP = 32;

    public CompileOptions {
        if (jsonSchema == null) jsonSchema = JsonSchemaOptions.defaults();
        if (limits == null) limits = CompileLimits.Values.DEFAULTS;
        extra = new LinkedHashMap<>(extra);
        ignoredKeywords = List.copyOf(ignoredKeywords);
        if (dynamicCap < 1) throw new IllegalArgumentException("dynamicCap must be >= 1");
        if (prebuildMillis < 0) throw new IllegalArgumentException("prebuildMillis must be >= 0");
    }

    /** Every tree built at compile time, on all cores. */
    public static CompileOptions defaults() { return builder().build(); }

    /**
     * For grammars made per request (what {@code ConstraintCache} and {@code compile --spec} use):
     * lazy trees, about 1 s of them prebuilt, one thread (a server compiles several requests at once).
     */
    public static CompileOptions forRequests() { return builder().lazy(true).prebuildMillis(1000).threads(1).build(); }

    public static Builder builder() { return new Builder(); }

    public Builder toBuilder() { return new Builder(this); }

    public CompileOptions withJsonSchema(JsonSchemaOptions o) { return toBuilder().jsonSchema(o).build(); }
    public CompileOptions withProgress(IntConsumer p) { return toBuilder().progress(p).build(); }
    public CompileOptions withThreads(int n) { return toBuilder().threads(n).build(); }
    public CompileOptions withDynamicCap(int cap) { return toBuilder().dynamicCap(cap).build(); }
    public CompileOptions withExtra(Map<String, String> e) { return toBuilder().extra(e).build(); }
    public CompileOptions withIgnoredKeywords(List<String> k) { return toBuilder().ignoredKeywords(k).build(); }
    public CompileOptions withLazy(boolean l) { return toBuilder().lazy(l).build(); }
    public CompileOptions withPrebuildMillis(long ms) { return toBuilder().prebuildMillis(ms).build(); }
    public CompileOptions withFineTerminals(boolean f) { return toBuilder().fineTerminals(f).build(); }
    public CompileOptions withLimits(CompileLimits.Values l) { return toBuilder().limits(l).build(); }

    /** Builds {@link CompileOptions}; starts from {@link #defaults()}. */
    public static final class Builder {
        private JsonSchemaOptions jsonSchema = JsonSchemaOptions.defaults();
        private int dynamicCap = DEFAULT_DYNAMIC_CAP;
        private int threads = Runtime.getRuntime().availableProcessors();
        private boolean lazy;
        private long prebuildMillis;
        private IntConsumer progress;
        private boolean fineTerminals;
        private Map<String, String> extra = Map.of();
        private List<String> ignoredKeywords = List.of();
        private CompileLimits.Values limits = CompileLimits.Values.DEFAULTS;

        private Builder() {}

        private Builder(CompileOptions o) {
            jsonSchema = o.jsonSchema;
            dynamicCap = o.dynamicCap;
            threads = o.threads;
            lazy = o.lazy;
            prebuildMillis = o.prebuildMillis;
            progress = o.progress;
            fineTerminals = o.fineTerminals;
            extra = o.extra;
            ignoredKeywords = o.ignoredKeywords;
            limits = o.limits;
        }

        public Builder jsonSchema(JsonSchemaOptions o) { jsonSchema = o; return this; }
        public Builder dynamicCap(int cap) { dynamicCap = cap; return this; }
        public Builder threads(int n) { threads = Math.max(1, n); return this; }
        public Builder lazy(boolean l) { lazy = l; return this; }
        public Builder prebuildMillis(long ms) { prebuildMillis = ms; return this; }
        public Builder progress(IntConsumer p) { progress = p; return this; }
        public Builder fineTerminals(boolean f) { fineTerminals = f; return this; }
        public Builder extra(Map<String, String> e) { extra = e; return this; }
        public Builder ignoredKeywords(List<String> k) { ignoredKeywords = k; return this; }
        public Builder limits(CompileLimits.Values l) { limits = l; return this; }

        public CompileOptions build() {
            return new CompileOptions(jsonSchema, dynamicCap, threads, lazy, prebuildMillis, progress, fineTerminals,
                    extra, ignoredKeywords, limits);
        }
    }
}
