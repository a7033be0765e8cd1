package dev.domino.runtime;


import java.util.List;
import java.util.Map;

/**
 * What an artifact was compiled from and how: for inspection and reproducibility checks.
 *
 * @param sourceName      file name of the grammar (no directories, so builds are reproducible)
 * @param sourceFormat    gbnf, lark, regex or json-schema
 * @param sourceSha256    hash of the grammar text
 * @param options         compile options as strings (lookahead defaults, whitespace mode, ...)
 * @param ignoredKeywords JSON Schema keywords the user asked to ignore, with their pointers
 * @param dynamicCap      traversals per token above which a token is checked at run time
 *
 * <p>Immutable, so thread-safe.
 */
public record ArtifactInfo(String sourceName, String sourceFormat, String sourceSha256,
                           Map<String, String> options, List<String> ignoredKeywords, int dynamicCap) {
    public ArtifactInfo {
        options = Map.copyOf(options);
        ignoredKeywords = List.copyOf(ignoredKeywords);
    }
}
