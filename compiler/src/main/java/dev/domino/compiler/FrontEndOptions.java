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
 */
public record FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords,
                              String propertyOrder) {
    public FrontEndOptions {
        ignoredKeywords = List.copyOf(ignoredKeywords);
        if (propertyOrder == null) propertyOrder = "any";
    }

    /** With the default property order ("any"). */
    public FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords) {
        this(whitespace, itemSeparator, keySeparator, ignoredKeywords, "any");
    }

    public static FrontEndOptions defaults() { return new FrontEndOptions("flexible", ", ", ": ", List.of(), "any"); }

    public FrontEndOptions withPropertyOrder(String order) {
        return new FrontEndOptions(whitespace, itemSeparator, keySeparator, ignoredKeywords, order);
    }
}
