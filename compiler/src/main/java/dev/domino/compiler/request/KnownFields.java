package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.List;

/**
 * Refuses fields an object of a request does not define. Inside a tool or a response format an unknown
 * field is most often a misspelt one ({@code "parameter"}, {@code "shema"}), and reading past it would
 * leave the output less constrained than the user wrote, with no error.
 */
final class KnownFields {
    private KnownFields() {}

    /** Throws, naming the first field of {@code o} (at JSON pointer {@code at}) that is not in {@code known}. */
    static void check(JsonNode o, String at, List<String> known) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw new RequestSpecException(at + "/" + escape(f), "unknown field '" + f + "' (expected " + String.join(", ", known) + ")");
            }
        }
    }

    /** A key as a JSON pointer token. */
    private static String escape(String key) { return key.replace("~", "~0").replace("/", "~1"); }
}
