package dev.domino.compiler;

import dev.domino.compiler.request.RequestSpec;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;

/**
 * The compiler's front door, bound to one vocabulary: grammar text (GBNF, Lark, regex, JSON Schema)
 * or an OpenAI-style request in, artifact out. Front end, terminal derivation and tree building
 * are wired here once, so no caller wires them by hand.
 *
 * <pre>{@code
 * DominoCompiler compiler = DominoCompiler.forVocabulary(vocabulary);
 * Artifact a = compiler.compile(schemaText, SourceFormat.JSON_SCHEMA, CompileOptions.defaults());
 * Matcher m = a.newMatcher();
 * }</pre>
 *
 * <p>Errors: {@link dev.domino.compiler.ir.GrammarException} (with line and column, or a JSON
 * pointer) for a grammar it cannot compile, {@link CompileLimits.LimitExceededException} naming
 * the limit passed, {@link dev.domino.compiler.request.RequestSpecException} for a request of no
 * accepted shape. Thread-safe: it holds only the vocabulary.
 */
public final class DominoCompiler {
    private final Vocabulary vocabulary;

    private DominoCompiler(Vocabulary vocabulary) {
        if (vocabulary == null) throw new IllegalArgumentException("vocabulary missing");
        this.vocabulary = vocabulary;
    }

    public static DominoCompiler forVocabulary(Vocabulary vocabulary) { return new DominoCompiler(vocabulary); }

    public Vocabulary vocabulary() { return vocabulary; }

    /** Grammar text after its front end: the first half of {@link #compile(String, String, SourceFormat, CompileOptions)}. */
    public record ParsedSource(String name, String text, SourceFormat format, GrammarSources.Parsed parsed) {}

    /** Compiles grammar text; the artifact records the source name "grammar". */
    public Artifact compile(String source, SourceFormat format, CompileOptions options) {
        return compile("grammar", source, format, options);
    }

    /** Compiles grammar text; the artifact records {@code sourceName} (a file name, no directories). */
    public Artifact compile(String sourceName, String source, SourceFormat format, CompileOptions options) {
        return compile(parse(sourceName, source, format, options), options);
    }

    /** As {@link #compile(String, SourceFormat, CompileOptions)} with lazy trees: a fast compile, trees built on first use. */
    public Artifact compileLazy(String source, SourceFormat format, CompileOptions options) {
        return compile(source, format, options.withLazy(true));
    }

    /** Runs the front end only, no vocabulary needed (callers that time it apart from the compile, or want the grammar IR). */
    public static ParsedSource parse(String sourceName, String source, SourceFormat format, CompileOptions options) {
        return new ParsedSource(sourceName, source, format, GrammarSources.parse(source, format, options));
    }

    /** Compiles what {@link #parse} returned; {@code options} should be those it was parsed with. */
    public Artifact compile(ParsedSource source, CompileOptions options) {
        return GrammarCompiler.compile(source.parsed().grammar(), vocabulary, source.name(), source.format().id(),
                source.text(), source.parsed().applyTo(options));
    }

    /** The output constraint of an OpenAI-style request (JSON text), with {@link CompileOptions#forRequests()}. */
    public Artifact compileRequest(String requestJson) {
        return compileRequest(RequestSpec.parse(requestJson), CompileOptions.forRequests());
    }

    /**
     * The output constraint of a request. The artifact records the constraint and its options, so
     * {@code ConstraintCache.addPrebuilt} serves it for the same requests.
     */
    public Artifact compileRequest(RequestSpec request, CompileOptions options) {
        return Constraints.compile(request, vocabulary, new ConstraintOptions(options));
    }
}
