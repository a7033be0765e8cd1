package dev.domino.compiler;

import java.util.List;

/**
 * Settings of the JSON Schema front-end (ignored by the others).
 *
 * @param whitespace      flexible (any JSON whitespace), compact (none) or fixed
 * @param itemSeparator   with fixed whitespace: between array items / properties, e.g. ", "
 * @param keySeparator    with fixed whitespace: between key and value, e.g. ": "
 * @param ignoredKeywords keywords to skip instead of failing on them
 * @param propertyOrder   order of an object's declared properties: "any" (default; objects with at most 8
 *                        declared properties, larger ones keep schema order) or "schema"
 * @param maxWhitespace   with flexible whitespace: the most whitespace characters in a row, a number or
 *                        "unbounded" (default "100")
 * @param keyEscapes      object keys: "plain" (default; only their plain spelling, so a fixed key is forced)
 *                        or "any" (every JSON spelling)
 * @param unknownFormats  an unknown JSON Schema format: "error" (default) or "ignore"
 */
public record FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords,
                              String propertyOrder, String maxWhitespace, String keyEscapes, String unknownFormats) {
    public FrontEndOptions {
        ignoredKeywords = List.copyOf(ignoredKeywords);
        if (propertyOrder == null) propertyOrder = "any";
        if (maxWhitespace == null) maxWhitespace = "100";
        if (keyEscapes == null) keyEscapes = "plain";
        if (unknownFormats == null) unknownFormats = "error";
    }

    /** With the defaults of the later options. */
    public FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords,
                           String propertyOrder) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, propertyOrder, null, null, null);
    }

    /** With the default property order ("any"). */
    public FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, "any");
    }

    public static FrontEndOptions defaults() { return new FrontEndOptions("flexible", ", ", ": ", List.of(), "any"); }

    public FrontEndOptions withPropertyOrder(String order) {
        return new FrontEndOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, order, maxWhitespace, keyEscapes, unknownFormats);
    }

    public FrontEndOptions withMaxWhitespace(String max) {
        return new FrontEndOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, propertyOrder, max, keyEscapes, unknownFormats);
    }

    public FrontEndOptions withKeyEscapes(String escapes) {
        return new FrontEndOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, propertyOrder, maxWhitespace, escapes, unknownFormats);
    }

    public FrontEndOptions withUnknownFormats(String formats) {
        return new FrontEndOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, propertyOrder, maxWhitespace, keyEscapes, formats);
    }
}
