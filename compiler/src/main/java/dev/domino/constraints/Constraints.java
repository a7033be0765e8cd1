package dev.domino.constraints;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.CompileLimits;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.request.RequestSpec;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One call from an OpenAI-style request to an artifact (see {@link RequestSpec} for the request
 * shapes). For a server, {@link ConstraintCache} adds caching, single flight and a time budget.
 *
 * <pre>{@code
 * Artifact a = Constraints.compile(requestJson, vocabulary);
 * Matcher m = Constraints.newMatcher(a, vocabulary);
 * }</pre>
 */
public final class Constraints {
    private Constraints() {}

    /** Option keys under which an artifact records the request it was compiled from. */
    public static final String SPEC_OPTION = "request.spec", OPTIONS_OPTION = "request.options";

    public static Artifact compile(String requestJson, Vocabulary vocabulary) {
        return compile(RequestSpec.parse(requestJson), vocabulary, ConstraintOptions.defaults());
    }

    public static Artifact compile(String requestJson, Vocabulary vocabulary, ConstraintOptions options) {
        return compile(RequestSpec.parse(requestJson), vocabulary, options);
    }

    public static Artifact compile(JsonNode request, Vocabulary vocabulary) {
        return compile(RequestSpec.of(request), vocabulary, ConstraintOptions.defaults());
    }

    /**
     * Compiles the request's constraint against the vocabulary. Throws
     * {@link dev.domino.compiler.request.RequestSpecException} for a request of no accepted shape,
     * {@link dev.domino.compiler.ir.GrammarException} for a grammar or schema it cannot compile.
     * The artifact records the constraint and options ({@link #SPEC_OPTION}, {@link #OPTIONS_OPTION}),
     * so {@link ConstraintCache#addPrebuilt} can serve it for the same requests.
     */
    public static Artifact compile(RequestSpec spec, Vocabulary vocabulary, ConstraintOptions options) {
        return CompileLimits.in(options.compile().limits(), () -> compileHere(spec, vocabulary, options));
    }

    private static Artifact compileHere(RequestSpec spec, Vocabulary vocabulary, ConstraintOptions options) {
        RequestSpec resolved = spec.resolve(vocabulary, options.toolCallStyle()); // tools in the model's own format, when it has one
        GrammarSources.Parsed parsed = resolved.grammar(options.jsonSchema());
        Map<String, String> recorded = new LinkedHashMap<>(parsed.options());
        recorded.put(SPEC_OPTION, spec.key());
        recorded.put(OPTIONS_OPTION, options.key());
        CompileOptions co = parsed.applyTo(options.compile()).withExtra(recorded);
        if (!co.lazy()) co = co.withPrebuildMillis(0);
        return GrammarCompiler.compile(parsed.grammar(), vocabulary, "request", resolved.sourceFormat(), resolved.sourceText(), co);
    }

    /**
     * A matcher for a model whose vocabulary is {@code modelVocabulary}: when the artifact was
     * compiled for another vocabulary, the matcher starts in the error state (its masks allow EOS
     * only, {@link Matcher#errorReason()} says why) instead of producing masks for the wrong ids.
     */
    public static Matcher newMatcher(Artifact artifact, Vocabulary modelVocabulary) {
        Matcher m = artifact.newMatcher();
        Vocabulary own = artifact.vocabulary();
        if (own != modelVocabulary && !own.fingerprint().equals(modelVocabulary.fingerprint())) {
            m.setError("vocabulary mismatch: the artifact was compiled for '" + own.name() + "' (fingerprint " + own.fingerprint()
                    + "), the model's vocabulary is '" + modelVocabulary.name() + "' (fingerprint " + modelVocabulary.fingerprint() + ")");
        }
        return m;
    }
}
