package dev.domino.constraints;

import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;

/**
 * What the first masks in a process pay once per vocabulary, paid ahead: the vocabulary's byte trie and its list of
 * deep nodes, the walks of JSON's whitespace, keys, strings, numbers and literals, and the counted walks of strings
 * with length bounds (shared by every bound: a schema's {@code maxLength: 255} reuses the warm-up's), and the walk of a
 * bounded string's characters far from its bounds (where no token reaches a bound, the count is not looked at). A lazy artifact
 * compiled for a request walks these on its first masks, so without a warm-up the first request of a server
 * (or the first file of a benchmark) waits tens of milliseconds in single masks. {@link #masksAlong} computes a
 * mask after every character of an output of {@link #SCHEMA}, which builds them.
 */
public final class WarmUp {
    private WarmUp() {}

    /** A schema with the lexemes most JSON outputs use (an open object's values are any JSON). */
    public static final String SCHEMA = "{\"type\": \"object\", \"properties\": {\"s\": {\"type\": \"string\"}, \"n\": {\"type\": \"number\"}, "
            + "\"i\": {\"type\": \"integer\"}, \"b\": {\"type\": \"boolean\"}, \"a\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
            + "\"c\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 64}, \"d\": {\"type\": \"string\", \"maxLength\": 4096}, "
            + "\"o\": {\"type\": \"object\"}}}";

    /**
     * Outputs of {@link #SCHEMA} touching each of its lexemes: spaced as Python's {@code json.dumps} spaces them, and
     * without whitespace (for options that allow none).
     */
    static final String[] OUTPUTS = {
        "{\"s\": \"Warm-up text, with \\\"quotes\\\", \\u00e9 and caf\u00e9.\", \"n\": -12.5e3, \"i\": 42, \"b\": true, "
            + "\"a\": [\"x\", \"y z\"], \"c\": \"a bounded string\", \"d\": \"a string far from its bounds\", \"o\": {\"key\": [1, 2.0, null, false, {\"k\": \"v\"}]}}",
        "{\"s\":\"Warm-up text, with \\\"quotes\\\", \\u00e9 and caf\u00e9.\",\"n\":-12.5e3,\"i\":42,\"b\":true,"
            + "\"a\":[\"x\",\"y z\"],\"c\":\"a bounded string\",\"d\":\"a string far from its bounds\",\"o\":{\"key\":[1,2.0,null,false,{\"k\":\"v\"}]}}",
    };

    /**
     * Computes a mask before every character of an output of {@link #SCHEMA} on a new matcher of {@code artifact}
     * (compiled from that schema), trying the spaced output, then the compact one where the artifact refuses a
     * character. What was computed stays built either way. True when one output was taken whole.
     */
    public static boolean masksAlong(Artifact artifact) {
        for (String output : OUTPUTS) if (masksAlong(artifact, output)) return true;
        return false;
    }

    private static boolean masksAlong(Artifact artifact, String output) {
        Matcher m = artifact.newMatcher();
        int[] mask = new int[m.bitmaskInts()];
        for (int i = 0; i < output.length(); ) {
            m.fillNextTokenBitmask(mask, 0);
            int end = i + Character.charCount(output.codePointAt(i));
            if (!m.acceptString(output.substring(i, end))) return false;
            i = end;
        }
        m.fillNextTokenBitmask(mask, 0);
        return m.isAccepting();
    }
}
