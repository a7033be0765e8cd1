package dev.domino.compiler.jsonschema;

import java.util.Set;

/**
 * Options for {@link JsonSchemaGrammar}.
 *
 * @param whitespace      where whitespace may appear in the generated JSON
 * @param itemSeparator   separator between array items / object members in {@link Whitespace#FIXED} mode
 * @param keySeparator    separator between a key and its value in {@link Whitespace#FIXED} mode
 * @param ignoredKeywords keywords that are skipped (and reported) instead of raising an error
 * @param allStringEscapes when true (default) every valid JSON escaping of a string is accepted
 *                        (e.g. {@code "backslash-u0061"} for {@code "a"}); when false only the canonical
 *                        (minimally escaped) form is accepted for literal strings (const/enum/keys)
 * @param propertyOrder   order of an object's declared properties: {@link PropertyOrder#ANY} (default) accepts
 *                        them in any order, {@link PropertyOrder#SCHEMA} only in the order {@code properties}
 *                        lists them; see {@link PropertyOrder} for the size limit of ANY
 * @param maxWhitespace   in {@link Whitespace#FLEXIBLE} mode, the most whitespace characters in a row
 *                        ({@link #UNBOUNDED_WHITESPACE} for no limit); default {@link #DEFAULT_MAX_WHITESPACE}
 * @param keyEscapes      how object keys may be spelled: {@link KeyEscapes#PLAIN} (default) or {@link KeyEscapes#ANY}
 * @param unknownFormats  what an unknown {@code format} does: {@link UnknownFormats#ERROR} (default) or
 *                        {@link UnknownFormats#IGNORE} (an annotation, as draft 2019-09 and 2020-12 define it)
 * @param defaultDialect  the dialect of a schema whose root has no {@code $schema}; null (default): 2020-12, where a
 *                        draft 4 {@code id} still names a subschema that no {@code $id} names
 */
public record JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                                Set<String> ignoredKeywords, boolean allStringEscapes, PropertyOrder propertyOrder,
                                int maxWhitespace, KeyEscapes keyEscapes, UnknownFormats unknownFormats,
                                Dialect defaultDialect) {

    /** {@link #maxWhitespace} value for no limit. */
    public static final int UNBOUNDED_WHITESPACE = -1;

    /**
     * Default limit on consecutive whitespace: a newline and the indentation of depth 20 at 4 spaces (81
     * characters) fit, with room for CRLF. Why a limit: with unbounded whitespace a model that is unsure can
     * emit newline tokens forever (a random-weight Llama through jlama emitted the ten-newline token 200
     * times and never reached the first brace); llama.cpp's JSON grammars bound whitespace the same way.
     */
    public static final int DEFAULT_MAX_WHITESPACE = 100;

    /**
     * A JSON Schema dialect, as a root's {@code $schema} names it. Where the drafts differ: keywords beside
     * {@code $ref} (ignored up to draft 7), {@code id} (draft 4) or {@code $id}, {@code if/then/else} (from draft
     * 7), {@code dependentRequired/dependentSchemas} (from 2019-09), boolean {@code exclusiveMinimum} (draft 4),
     * the array form of {@code items} with {@code additionalItems} (up to 2019-09) or {@code prefixItems} (2020-12).
     */
    public enum Dialect {
        DRAFT_04("http://json-schema.org/draft-04/schema#"),
        DRAFT_06("http://json-schema.org/draft-06/schema#"),
        DRAFT_07("http://json-schema.org/draft-07/schema#"),
        DRAFT_2019_09("https://json-schema.org/draft/2019-09/schema"),
        DRAFT_2020_12("https://json-schema.org/draft/2020-12/schema");

        private final String uri;

        Dialect(String uri) { this.uri = uri; }

        /** The meta-schema URI ({@code $schema}) of the dialect. */
        public String uri() { return uri; }

        /** The dialect of a name: 4, 6, 7, 2019-09, 2020-12 (or draft-07, draft2020-12 ...); null if unknown. */
        public static Dialect named(String name) {
            String n = name.toLowerCase(java.util.Locale.ROOT).replace("draft", "").replace("-", "").replace("_", "");
            return switch (n) {
                case "4", "04" -> DRAFT_04;
                case "6", "06" -> DRAFT_06;
                case "7", "07" -> DRAFT_07;
                case "201909" -> DRAFT_2019_09;
                case "202012" -> DRAFT_2020_12;
                default -> null;
            };
        }
    }

    /** How an object key may be spelled. */
    public enum KeyEscapes {
        /**
         * Only its plain (canonical, minimally escaped) spelling, as JSON serializers write it: a key
         * the schema fixes is then a forced string ({@code "\u0061"} for key {@code a} is rejected).
         */
        PLAIN,
        /** Every JSON spelling of the key (any character may be written as a backslash-u escape). */
        ANY
    }

    /** What an unknown {@code format} value does. */
    public enum UnknownFormats {
        /** A compile error naming the format and its JSON pointer. */
        ERROR,
        /** Ignored (reported in {@link JsonSchemaGrammar#ignoredKeywords()}): any string. */
        IGNORE
    }

    public enum Whitespace {
        /** Any JSON whitespace {@code [ \t\n\r]*} wherever JSON allows it. */
        FLEXIBLE,
        /** No whitespace at all. */
        COMPACT,
        /** Exactly {@code itemSeparator} / {@code keySeparator}, no other whitespace. */
        FIXED
    }

    /**
     * Order in which an object's declared properties ({@code properties}, plus names only listed in
     * {@code required}) may appear. Either way each appears at most once and every required one is present.
     */
    public enum PropertyOrder {
        /** Only in the order {@code properties} lists them (optional ones may be skipped), additional / pattern properties after them. */
        SCHEMA,
        /**
         * In any order, with additional / pattern properties anywhere between them, for any number of
         * properties, also with {@code minProperties} / {@code maxProperties} (one permutation in the
         * grammar whose parser items carry the keys seen and the number of members, see {@code Expr.Perm}).
         */
        ANY
    }

    public JsonSchemaOptions {
        ignoredKeywords = Set.copyOf(ignoredKeywords);
        if (propertyOrder == null) propertyOrder = PropertyOrder.ANY;
        if (keyEscapes == null) keyEscapes = KeyEscapes.PLAIN;
        if (unknownFormats == null) unknownFormats = UnknownFormats.ERROR;
        if (maxWhitespace < UNBOUNDED_WHITESPACE) throw new IllegalArgumentException("maxWhitespace must be >= 0 or UNBOUNDED_WHITESPACE");
    }

    /** The options before {@code defaultDialect} existed (2020-12 for a schema without {@code $schema}). */
    public JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator, Set<String> ignoredKeywords,
                             boolean allStringEscapes, PropertyOrder propertyOrder, int maxWhitespace, KeyEscapes keyEscapes,
                             UnknownFormats unknownFormats) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder, maxWhitespace, keyEscapes,
            unknownFormats, null);
    }

    /** The options before {@code maxWhitespace}, {@code keyEscapes} and {@code unknownFormats} existed (their defaults). */
    public JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                             Set<String> ignoredKeywords, boolean allStringEscapes, PropertyOrder propertyOrder) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            DEFAULT_MAX_WHITESPACE, KeyEscapes.PLAIN, UnknownFormats.ERROR, null);
    }

    /** The options before {@code propertyOrder} existed; property order defaults to {@link PropertyOrder#ANY}. */
    public JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                             Set<String> ignoredKeywords, boolean allStringEscapes) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, PropertyOrder.ANY);
    }

    public static JsonSchemaOptions defaults() {
        return new JsonSchemaOptions(Whitespace.FLEXIBLE, ",", ":", Set.of(), true, PropertyOrder.ANY);
    }

    public static JsonSchemaOptions compact() { return defaults().withWhitespace(Whitespace.COMPACT); }

    /** FIXED mode with the given separators, e.g. {@code ", "} and {@code ": "}. */
    public static JsonSchemaOptions fixed(String itemSeparator, String keySeparator) {
        return new JsonSchemaOptions(Whitespace.FIXED, itemSeparator, keySeparator, Set.of(), true, PropertyOrder.ANY);
    }

    public JsonSchemaOptions withWhitespace(Whitespace w) {
        return new JsonSchemaOptions(w, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            maxWhitespace, keyEscapes, unknownFormats, defaultDialect);
    }

    public JsonSchemaOptions withIgnoredKeywords(Set<String> keywords) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, keywords, allStringEscapes, propertyOrder,
            maxWhitespace, keyEscapes, unknownFormats, defaultDialect);
    }

    public JsonSchemaOptions withAllStringEscapes(boolean all) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, all, propertyOrder,
            maxWhitespace, keyEscapes, unknownFormats, defaultDialect);
    }

    public JsonSchemaOptions withPropertyOrder(PropertyOrder order) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, order,
            maxWhitespace, keyEscapes, unknownFormats, defaultDialect);
    }

    /** At most {@code n} whitespace characters in a row, or {@link #UNBOUNDED_WHITESPACE}. */
    public JsonSchemaOptions withMaxWhitespace(int n) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            n, keyEscapes, unknownFormats, defaultDialect);
    }

    public JsonSchemaOptions withKeyEscapes(KeyEscapes k) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            maxWhitespace, k, unknownFormats, defaultDialect);
    }

    public JsonSchemaOptions withUnknownFormats(UnknownFormats u) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            maxWhitespace, keyEscapes, u, defaultDialect);
    }

    /** The dialect of a schema without {@code $schema}. */
    public JsonSchemaOptions withDefaultDialect(Dialect d) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder,
            maxWhitespace, keyEscapes, unknownFormats, d);
    }
}
