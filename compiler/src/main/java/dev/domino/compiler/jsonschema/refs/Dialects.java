package dev.domino.compiler.jsonschema.refs;

import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.jsonschema.SchemaCompiler;
import dev.domino.compiler.jsonschema.algebra.ConditionalSchemas;
import dev.domino.compiler.jsonschema.algebra.UnevaluatedKeywords;

/**
 * Which validation keywords a dialect defines, for the keywords that later drafts added: in an earlier
 * dialect such a keyword is unknown, so it asserts nothing (reported in {@link JsonSchemaGrammar#unknownKeywords()}).
 * The dialect is the root's {@code $schema} or {@link JsonSchemaOptions#defaultDialect()}; an empty name is
 * 2020-12. (if/then/else and dependentRequired/dependentSchemas: {@link ConditionalSchemas#defined};
 * unevaluatedProperties/unevaluatedItems: {@link UnevaluatedKeywords#defined}; keywords beside {@code $ref}
 * and draft 4's {@code id}: {@link SchemaCompiler}, {@link RefResolver}.)
 */
public final class Dialects {
    private Dialects() {}

    // compiled once: String.matches compiles its pattern on every call, and every schema asks several times
    private static final java.util.regex.Pattern DRAFT_3_4 = java.util.regex.Pattern.compile(".*draft-0[34].*");
    private static final java.util.regex.Pattern DRAFT_3_6 = java.util.regex.Pattern.compile(".*draft-0[3-6].*");
    private static final java.util.regex.Pattern DRAFT_3_7 = java.util.regex.Pattern.compile(".*draft-0[3-7].*");
    private static final java.util.regex.Pattern DRAFT_6 = java.util.regex.Pattern.compile(".*draft-06.*");

    public static boolean draft4OrEarlier(String draft) { return DRAFT_3_4.matcher(draft).matches(); }

    public static boolean draft6OrEarlier(String draft) { return DRAFT_3_6.matcher(draft).matches(); }

    public static boolean draft7OrEarlier(String draft) { return DRAFT_3_7.matcher(draft).matches(); }

    public static boolean draft2019OrEarlier(String draft) { return draft7OrEarlier(draft) || draft.contains("2019-09"); }

    /** The dialect a {@code $schema} value names as the compiler reads it (unknown or empty: 2020-12). */
    public static JsonSchemaOptions.Dialect of(String draft) {
        if (draft4OrEarlier(draft)) return JsonSchemaOptions.Dialect.DRAFT_04;
        if (DRAFT_6.matcher(draft).matches()) return JsonSchemaOptions.Dialect.DRAFT_06;
        if (draft7OrEarlier(draft)) return JsonSchemaOptions.Dialect.DRAFT_07;
        if (draft.contains("2019-09")) return JsonSchemaOptions.Dialect.DRAFT_2019_09;
        return JsonSchemaOptions.Dialect.DRAFT_2020_12;
    }

    /** Whether the dialect defines the keyword (true for keywords every dialect has). */
    public static boolean defines(String keyword, String draft) {
        return switch (keyword) {
            // draft 6: const, contains, propertyNames
            case "const", "contains", "propertyNames" -> !draft4OrEarlier(draft);
            // 2019-09: minContains, maxContains
            case "minContains", "maxContains" -> !draft7OrEarlier(draft);
            // 2020-12: prefixItems (before it, the array form of items with additionalItems)
            case "prefixItems" -> !draft2019OrEarlier(draft);
            default -> true;
        };
    }
}
