package dev.domino.compiler.frontend;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * The options of llguidance's {@code %llguidance { ... }} header, merged over every header of a
 * grammar (a later value wins). Each option is honoured or refused by name, never dropped:
 * <ul>
 *   <li>{@code no_forcing}: how llguidance feeds forced text to the model, not which texts are
 *   allowed; Domino's masks allow every tokenization of the allowed texts either way.</li>
 *   <li>{@code allow_invalid_utf8}: {@code false} is what Domino does; {@code true} is refused
 *   (Domino's languages are valid UTF-8 text).</li>
 *   <li>{@code allow_initial_skip}, {@code ignore_once}: where {@code %ignore} text may stand, both values
 *   exact (see LarkParser and IgnorePlacement); with a header, an unset {@code allow_initial_skip} is
 *   llguidance's default, false.</li>
 *   <li>{@code skip_repetition: "once"}: the name llguidance's syntax reference gives ("Grammar options")
 *   for {@code ignore_once: true}; any other value is refused by name.</li>
 * </ul>
 */
final class LarkHeader {
    private static final java.util.List<String> NAMES = java.util.List.of("no_forcing", "allow_invalid_utf8", "allow_initial_skip", "ignore_once", "skip_repetition");
    static final String SUPPORTED = String.join(", ", NAMES);

    /** null when no header set it. */
    Boolean noForcing, allowInvalidUtf8, allowInitialSkip, ignoreOnce;

    /** Whether the grammar has a header: it is llguidance's, with llguidance's defaults. */
    boolean seen;

    /** Merges one header; returns null when fine, else the refusal (one line). */
    String merge(JsonNode options, int at) {
        seen = true;
        if (!options.isObject()) return "%llguidance takes a JSON object of options, e.g. %llguidance {}";
        for (Iterator<Map.Entry<String, JsonNode>> it = options.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey();
            JsonNode v = f.getValue();
            if (!NAMES.contains(name)) {
                return "%llguidance option '" + name + "' is not supported (supported: " + SUPPORTED + ")";
            }
            if (name.equals("skip_repetition")) {
                if (!v.isTextual() || !v.textValue().equals("once")) {
                    return "%llguidance option skip_repetition: " + v + " is not supported (supported: \"once\", the same as ignore_once: true)";
                }
                ignoreOnce = true;
                continue;
            }
            if (!v.isBoolean()) return "%llguidance option '" + name + "' takes true or false";
            boolean b = v.booleanValue();
            switch (name) {
                case "no_forcing" -> noForcing = b;
                case "allow_invalid_utf8" -> {
                    if (b) return "%llguidance option allow_invalid_utf8: true is not supported: Domino's grammars describe valid UTF-8 text";
                    allowInvalidUtf8 = false;
                }
                case "allow_initial_skip" -> allowInitialSkip = b;
                case "ignore_once" -> ignoreOnce = b;
                default -> throw new IllegalStateException(name);
            }
        }
        return null;
    }
}
