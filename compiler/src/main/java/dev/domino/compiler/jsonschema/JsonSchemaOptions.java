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
 * @param schemaRegistry  documents for remote {@code $ref}s by URI ({@link SchemaRegistry}; default empty: every
 *                        remote reference is an error). Nothing is ever fetched
 * @param formatMode      whether {@code format} asserts ({@link FormatMode#ASSERT}, default) or is an annotation
 * @param zeroFractionIntegers when true, an integer may also be written with a zero fraction ({@code 1.0}, an
 *                        integer from draft 6 on; never in draft 4); default false: models should write {@code 1}
 */
public record JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                                Set<String> ignoredKeywords, boolean allStringEscapes, PropertyOrder propertyOrder,
                                int maxWhitespace, KeyEscapes keyEscapes, UnknownFormats unknownFormats,
                                Dialect defaultDialect, SchemaRegistry schemaRegistry, FormatMode formatMode,
                                boolean zeroFractionIntegers) {

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

    /** What a {@code format} keyword does. */
    public enum FormatMode {
        /**
         * The string must be of the format (what users of constrained decoding expect): enforced exactly where
         * an automaton expresses the format, otherwise a compile error naming it ({@link UnknownFormats}).
         */
        ASSERT,
        /** An annotation that asserts nothing, as draft 2019-09 and 2020-12 define it by default (format-annotation vocabulary). */
        ANNOTATION
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
        if (schemaRegistry == null) schemaRegistry = SchemaRegistry.empty();
        if (formatMode == null) formatMode = FormatMode.ASSERT;
        if (maxWhitespace < UNBOUNDED_WHITESPACE) throw new IllegalArgumentException("maxWhitespace must be >= 0 or UNBOUNDED_WHITESPACE");
    }

    public static JsonSchemaOptions defaults() { return builder().build(); }

    public static JsonSchemaOptions compact() { return builder().whitespace(Whitespace.COMPACT).build(); }

    /** FIXED mode with the given separators, e.g. {@code ", "} and {@code ": "}. */
    public static JsonSchemaOptions fixed(String itemSeparator, String keySeparator) {
        return builder().whitespace(Whitespace.FIXED).itemSeparator(itemSeparator).keySeparator(keySeparator).build();
    }

    /** A builder holding the defaults. */
    public static Builder builder() { return new Builder(); }

    /** A builder holding these options. */
    public Builder toBuilder() { return new Builder(this); }

    public JsonSchemaOptions withWhitespace(Whitespace w) { return toBuilder().whitespace(w).build(); }
    public JsonSchemaOptions withIgnoredKeywords(Set<String> keywords) { return toBuilder().ignoredKeywords(keywords).build(); }
    public JsonSchemaOptions withAllStringEscapes(boolean all) { return toBuilder().allStringEscapes(all).build(); }
    public JsonSchemaOptions withPropertyOrder(PropertyOrder order) { return toBuilder().propertyOrder(order).build(); }
    /** At most {@code n} whitespace characters in a row, or {@link #UNBOUNDED_WHITESPACE}. */
    public JsonSchemaOptions withMaxWhitespace(int n) { return toBuilder().maxWhitespace(n).build(); }
    public JsonSchemaOptions withKeyEscapes(KeyEscapes k) { return toBuilder().keyEscapes(k).build(); }
    public JsonSchemaOptions withUnknownFormats(UnknownFormats u) { return toBuilder().unknownFormats(u).build(); }
    /** The dialect of a schema without {@code $schema}. */
    public JsonSchemaOptions withDefaultDialect(Dialect d) { return toBuilder().defaultDialect(d).build(); }
    /** The documents remote {@code $ref}s may name. */
    public JsonSchemaOptions withSchemaRegistry(SchemaRegistry r) { return toBuilder().schemaRegistry(r).build(); }
    public JsonSchemaOptions withFormatMode(FormatMode f) { return toBuilder().formatMode(f).build(); }
    public JsonSchemaOptions withZeroFractionIntegers(boolean z) { return toBuilder().zeroFractionIntegers(z).build(); }

    /**
     * The options as the artifact records them ({@code json.*} keys; the separators only with fixed
     * whitespace, the whitespace limit only with flexible whitespace), in a fixed order.
     */
    public java.util.Map<String, String> recorded() {
        java.util.Map<String, String> r = new java.util.LinkedHashMap<>();
        r.put("json.whitespace", lower(whitespace));
        if (whitespace == Whitespace.FIXED) {
            r.put("json.item_separator", itemSeparator);
            r.put("json.key_separator", keySeparator);
        }
        r.put("json.property_order", lower(propertyOrder));
        if (whitespace == Whitespace.FLEXIBLE) {
            r.put("json.max_whitespace", maxWhitespace == UNBOUNDED_WHITESPACE ? "unbounded" : Integer.toString(maxWhitespace));
        }
        r.put("json.key_escapes", lower(keyEscapes));
        r.put("json.unknown_formats", lower(unknownFormats));
        if (!allStringEscapes) r.put("json.string_escapes", "canonical");
        if (defaultDialect != null) r.put("json.default_dialect", defaultDialect.uri());
        if (formatMode != FormatMode.ASSERT) r.put("json.formats", lower(formatMode));
        if (zeroFractionIntegers) r.put("json.zero_fraction_integers", "true");
        if (!schemaRegistry.isEmpty()) r.put("json.schema_registry", schemaRegistry.size() + " documents, sha256 " + schemaRegistry.digest());
        return r;
    }

    private static String lower(Enum<?> e) { return e.name().toLowerCase(java.util.Locale.ROOT); }

    /** Builds {@link JsonSchemaOptions}; starts from the defaults. */
    public static final class Builder {
        private Whitespace whitespace = Whitespace.FLEXIBLE;
        private String itemSeparator = ",", keySeparator = ":";
        private Set<String> ignoredKeywords = Set.of();
        private boolean allStringEscapes = true;
        private PropertyOrder propertyOrder = PropertyOrder.ANY;
        private int maxWhitespace = DEFAULT_MAX_WHITESPACE;
        private KeyEscapes keyEscapes = KeyEscapes.PLAIN;
        private UnknownFormats unknownFormats = UnknownFormats.ERROR;
        private Dialect defaultDialect;
        private SchemaRegistry schemaRegistry = SchemaRegistry.empty();
        private FormatMode formatMode = FormatMode.ASSERT;
        private boolean zeroFractionIntegers;

        private Builder() {}

        private Builder(JsonSchemaOptions o) {
            whitespace = o.whitespace;
            itemSeparator = o.itemSeparator;
            keySeparator = o.keySeparator;
            ignoredKeywords = o.ignoredKeywords;
            allStringEscapes = o.allStringEscapes;
            propertyOrder = o.propertyOrder;
            maxWhitespace = o.maxWhitespace;
            keyEscapes = o.keyEscapes;
            unknownFormats = o.unknownFormats;
            defaultDialect = o.defaultDialect;
            schemaRegistry = o.schemaRegistry;
            formatMode = o.formatMode;
            zeroFractionIntegers = o.zeroFractionIntegers;
        }

        public Builder whitespace(Whitespace w) { whitespace = w; return this; }
        /** Between array items / object members with {@link Whitespace#FIXED}. */
        public Builder itemSeparator(String s) { itemSeparator = s; return this; }
        /** Between a key and its value with {@link Whitespace#FIXED}. */
        public Builder keySeparator(String s) { keySeparator = s; return this; }
        public Builder ignoredKeywords(java.util.Collection<String> k) { ignoredKeywords = Set.copyOf(k); return this; }
        public Builder allStringEscapes(boolean all) { allStringEscapes = all; return this; }
        public Builder propertyOrder(PropertyOrder o) { propertyOrder = o; return this; }
        /** At most {@code n} whitespace characters in a row, or {@link #UNBOUNDED_WHITESPACE}. */
        public Builder maxWhitespace(int n) { maxWhitespace = n; return this; }
        public Builder keyEscapes(KeyEscapes k) { keyEscapes = k; return this; }
        public Builder unknownFormats(UnknownFormats u) { unknownFormats = u; return this; }
        /** The dialect of a schema without {@code $schema}; null for 2020-12. */
        public Builder defaultDialect(Dialect d) { defaultDialect = d; return this; }
        /** The documents remote {@code $ref}s may name; null for none. */
        public Builder schemaRegistry(SchemaRegistry r) { schemaRegistry = r; return this; }
        /** Whether {@code format} asserts (default) or is an annotation. */
        public Builder formatMode(FormatMode f) { formatMode = f; return this; }
        /** Integers also with a zero fraction ({@code 1.0}; from draft 6 on). */
        public Builder zeroFractionIntegers(boolean z) { zeroFractionIntegers = z; return this; }

        public JsonSchemaOptions build() {
            return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes,
                    propertyOrder, maxWhitespace, keyEscapes, unknownFormats, defaultDialect, schemaRegistry, formatMode, zeroFractionIntegers);
        }
    }
}
