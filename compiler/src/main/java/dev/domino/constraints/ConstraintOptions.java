package dev.domino.constraints;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;

import java.util.TreeSet;

/**
 * How request constraints are compiled; its {@link #key()} is part of the cache key.
 *
 * @param compile the compile options ({@link CompileOptions#forRequests()} by default: lazy trees,
 *                about 1 s of them prebuilt, one thread, as a server compiling several requests at once wants)
 */
public record ConstraintOptions(CompileOptions compile) {
    public ConstraintOptions {
        if (compile == null) throw new IllegalArgumentException("compile options missing");
    }

    /** Lazy trees, 1 s of them prebuilt (what {@code bench maskbench} measures as TTFM), one thread. */
    public static ConstraintOptions defaults() { return new ConstraintOptions(CompileOptions.forRequests()); }

    public JsonSchemaOptions jsonSchema() { return compile.jsonSchema(); }
    public boolean lazy() { return compile.lazy(); }
    public long prebuildMillis() { return compile.prebuildMillis(); }
    public int threads() { return compile.threads(); }
    public int dynamicCap() { return compile.dynamicCap(); }

    public ConstraintOptions withJsonSchema(JsonSchemaOptions o) { return new ConstraintOptions(compile.withJsonSchema(o)); }
    public ConstraintOptions withLazy(boolean l) { return new ConstraintOptions(compile.withLazy(l)); }
    public ConstraintOptions withPrebuildMillis(long ms) { return new ConstraintOptions(compile.withPrebuildMillis(ms)); }
    public ConstraintOptions withDynamicCap(int cap) { return new ConstraintOptions(compile.withDynamicCap(cap)); }
    public ConstraintOptions withThreads(int n) { return new ConstraintOptions(compile.withThreads(n)); }

    /**
     * The options that change the grammar, as one string (cache key part, recorded in artifacts
     * as {@code request.options}). Tree-building settings are left out: masks do not depend on them.
     */
    public String key() {
        return jsonSchema().recorded() + " ignore=" + new TreeSet<>(jsonSchema().ignoredKeywords());
    }
}
