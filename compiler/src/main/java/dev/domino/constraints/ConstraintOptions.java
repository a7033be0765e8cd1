package dev.domino.constraints;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.request.ToolCallStyle;

import java.util.TreeSet;

/**
 * How request constraints are compiled; its {@link #key()} is part of the cache key.
 *
 * @param compile the compile options ({@link CompileOptions#forRequests()} by default: lazy trees,
 *                about 1 s of them prebuilt, one thread, as a server compiling several requests at once wants)
 * @param toolCallStyle the server's tool-call style for requests that name none (null: detected from the
 *                vocabulary's special tokens; {@link ToolCallStyle#DOMINO_JSON}: Domino's own JSON array, no detection)
 */
public record ConstraintOptions(CompileOptions compile, ToolCallStyle toolCallStyle) {
    public ConstraintOptions {
        if (compile == null) throw new IllegalArgumentException("compile options missing");
    }

    /** No server tool-call style: a request's tools take the style it names, else the one its vocabulary's special tokens show. */
    public ConstraintOptions(CompileOptions compile) { this(compile, null); }

    /** Lazy trees, 1 s of them prebuilt (what {@code bench maskbench} measures as TTFM), one thread. */
    public static ConstraintOptions defaults() { return new ConstraintOptions(CompileOptions.forRequests()); }

    /**
     * Lazy trees, none prebuilt, one thread: for a cache whose background threads build the trees while masks run
     * ({@link ConstraintCache.Builder#backgroundTreeThreads}), what {@code bench maskbench --background-threads} measures.
     */
    public static ConstraintOptions serving() { return new ConstraintOptions(CompileOptions.forRequests().withPrebuildMillis(0)); }

    public JsonSchemaOptions jsonSchema() { return compile.jsonSchema(); }
    public boolean lazy() { return compile.lazy(); }
    public long prebuildMillis() { return compile.prebuildMillis(); }
    public int threads() { return compile.threads(); }
    public int dynamicCap() { return compile.dynamicCap(); }

    public ConstraintOptions withJsonSchema(JsonSchemaOptions o) { return new ConstraintOptions(compile.withJsonSchema(o), toolCallStyle); }
    public ConstraintOptions withLazy(boolean l) { return new ConstraintOptions(compile.withLazy(l), toolCallStyle); }
    public ConstraintOptions withPrebuildMillis(long ms) { return new ConstraintOptions(compile.withPrebuildMillis(ms), toolCallStyle); }
    public ConstraintOptions withDynamicCap(int cap) { return new ConstraintOptions(compile.withDynamicCap(cap), toolCallStyle); }
    public ConstraintOptions withToolCallStyle(ToolCallStyle style) { return new ConstraintOptions(compile, style); }
    public ConstraintOptions withThreads(int n) { return new ConstraintOptions(compile.withThreads(n), toolCallStyle); }

    /**
     * The options that change the grammar, as one string (cache key part, recorded in artifacts
     * as {@code request.options}). Tree-building settings are left out: masks do not depend on them.
     */
    public String key() {
        String key = jsonSchema().recorded() + " ignore=" + new TreeSet<>(jsonSchema().ignoredKeywords());
        return toolCallStyle == null ? key : key + " tool_call_style=" + toolCallStyle.id();
    }
}
