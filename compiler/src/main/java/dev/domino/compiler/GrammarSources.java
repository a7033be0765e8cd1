package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;

import java.util.Map;

/** Grammar text in any supported format → grammar IR. */
public final class GrammarSources {
    private GrammarSources() {}

    /**
     * A parsed grammar plus what its front-end chose to record (options, ignored keywords) and
     * whether it wants small terminals (generated grammars do).
     */
    public record Parsed(Grammar grammar, Map<String, String> options, java.util.List<String> ignoredKeywords,
                         boolean fineTerminals) {
        /** Compile options for this grammar. */
        public CompileOptions applyTo(CompileOptions o) {
            return o.withExtra(options).withIgnoredKeywords(ignoredKeywords).withFineTerminals(fineTerminals);
        }
    }

    /** Parses with the JSON Schema options of {@code options} (the other front ends have none). */
    public static Parsed parse(String text, SourceFormat format, CompileOptions options) {
        return CompileLimits.in(options.limits(), () -> parse(text, format, options.jsonSchema()));
    }

    public static Parsed parse(String text, SourceFormat format, JsonSchemaOptions options) {
        CompileLimits.SOURCE_BYTES.check(text.length());
        return DeepStack.call(() -> parseHere(text, format, options));
    }

    private static Parsed parseHere(String text, SourceFormat format, JsonSchemaOptions options) {
        return switch (format) {
            case GBNF -> new Parsed(GbnfParser.parse(text), Map.of(), java.util.List.of(), false);
            case LARK -> lark(text, options);
            case REGEX -> new Parsed(regexGrammar(text.strip()), Map.of(), java.util.List.of(), false);
            case JSON_SCHEMA -> JsonSchemaSource.parse(text, options);
        };
    }

    /** A Lark grammar; when it embeds JSON Schemas ({@code %json}), their options are recorded as for a schema. */
    private static Parsed lark(String text, JsonSchemaOptions options) {
        LarkParser.Result r = LarkParser.read(text, options);
        return new Parsed(r.grammar(), r.embedsJson() ? options.recorded() : Map.of(), r.ignoredKeywords(), false);
    }

    /** A single regex as a whole grammar (whole-output match). */
    static Grammar regexGrammar(String pattern) {
        Expr e = RegexParser.parse(pattern, RegexParser.Flavor.COMMON);
        return Grammar.of("root", Map.of("root", e));
    }
}
