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
 */
public record JsonSchemaOptions(Whitespace whitespace, String itemSeparator, String keySeparator,
                                Set<String> ignoredKeywords, boolean allStringEscapes) {

    public enum Whitespace {
        /** Any JSON whitespace {@code [ \t\n\r]*} wherever JSON allows it. */
        FLEXIBLE,
        /** No whitespace at all. */
        COMPACT,
        /** Exactly {@code itemSeparator} / {@code keySeparator}, no other whitespace. */
        FIXED
    }

    public JsonSchemaOptions {
        ignoredKeywords = Set.copyOf(ignoredKeywords);
    }

    public static JsonSchemaOptions defaults() {
        return new JsonSchemaOptions(Whitespace.FLEXIBLE, ",", ":", Set.of(), true);
    }

    public static JsonSchemaOptions compact() { return defaults().withWhitespace(Whitespace.COMPACT); }

    /** FIXED mode with the given separators, e.g. {@code ", "} and {@code ": "}. */
    public static JsonSchemaOptions fixed(String itemSeparator, String keySeparator) {
        return new JsonSchemaOptions(Whitespace.FIXED, itemSeparator, keySeparator, Set.of(), true);
    }

    public JsonSchemaOptions withWhitespace(Whitespace w) {
        return new JsonSchemaOptions(w, itemSeparator, keySeparator, ignoredKeywords, allStringEscapes);
    }

    public JsonSchemaOptions withIgnoredKeywords(Set<String> keywords) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, keywords, allStringEscapes);
    }

    public JsonSchemaOptions withAllStringEscapes(boolean all) {
        return new JsonSchemaOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, all);
    }
}
