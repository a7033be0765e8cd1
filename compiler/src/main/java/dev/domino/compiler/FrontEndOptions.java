package dev.domino.compiler;

import java.util.List;

/**
 * Settings of the JSON Schema front-end (ignored by the others).
 *
 * @param whitespace      flexible (any JSON whitespace), compact (none) or fixed
 * @param itemSeparator   with fixed whitespace: between array items / properties, e.g. ", "
 * @param keySeparator    with fixed whitespace: between key and value, e.g. ": "
 * @param ignoredKeywords keywords to skip instead of failing on them
 */
public record FrontEndOptions(String whitespace, String itemSeparator, String keySeparator, List<String> ignoredKeywords) {
    public FrontEndOptions { ignoredKeywords = List.copyOf(ignoredKeywords); }

    public static FrontEndOptions defaults() { return new FrontEndOptions("flexible", ", ", ": ", List.of()); }
}
