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
 */
public record JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                                Set<String> ignoredKeywords, boolean allStringEscapes, PropertyOrder propertyOrder) {

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
     * {@code required}) may appear. Either way each appears at most once, every required one is present, and
     * additional / pattern properties (when allowed) may only follow the declared ones.
     */
    public enum PropertyOrder {
        /** Only in the order {@code properties} lists them (optional ones may be skipped). */
        SCHEMA,
        /**
         * In any order. The grammar needs one rule per subset of the properties still to come (up to 2^n rules
         * of n alternatives), so this applies only to objects with at most {@value #MAX_ANY_ORDER_PROPERTIES}
         * declared properties; larger objects fall back to {@link #SCHEMA} order.
         */
        ANY;

        /** Largest number of declared properties for which {@link #ANY} order is applied. */
        public static final int MAX_ANY_ORDER_PROPERTIES = 8;
    }

    public JsonSchemaOptions {
        ignoredKeywords = Set.copyOf(ignoredKeywords);
        if (propertyOrder == null) propertyOrder = PropertyOrder.ANY;
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
        return new JsonSchemaOptions(w, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, propertyOrder);
    }

    public JsonSchemaOptions withIgnoredKeywords(Set<String> keywords) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, keywords, allStringEscapes, propertyOrder);
    }

    public JsonSchemaOptions withAllStringEscapes(boolean all) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, all, propertyOrder);
    }

    public JsonSchemaOptions withPropertyOrder(PropertyOrder order) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes, order);
    }
}
