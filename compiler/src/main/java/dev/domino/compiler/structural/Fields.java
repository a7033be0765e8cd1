package dev.domino.compiler.structural;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields each structural-tag format takes (XGrammar's format reference). A field that is not
 * one of them is refused by name: an ignored field would be a constraint silently dropped.
 */
final class Fields {
    private Fields() {}

    private static final Map<String, Set<String>> BY_TYPE = byType();

    private static Map<String, Set<String>> byType() {
        Map<String, Set<String>> BY_TYPE = new LinkedHashMap<>();
        BY_TYPE.put("const_string", Set.of("value"));
        BY_TYPE.put("json_schema", Set.of("json_schema", "style", "any_order"));
        BY_TYPE.put("qwen_xml_parameter", Set.of("json_schema"));
        BY_TYPE.put("grammar", Set.of("grammar"));
        BY_TYPE.put("regex", Set.of("pattern"));
        BY_TYPE.put("any_text", Set.of("excludes", "max_tokens", "max_chars"));
        BY_TYPE.put("sequence", Set.of("elements"));
        BY_TYPE.put("or", Set.of("elements"));
        BY_TYPE.put("optional", Set.of("content"));
        BY_TYPE.put("plus", Set.of("content"));
        BY_TYPE.put("star", Set.of("content"));
        BY_TYPE.put("repeat", Set.of("content", "min", "max"));
        BY_TYPE.put("tag", Set.of("begin", "content", "end"));
        BY_TYPE.put("triggered_tags", Set.of("triggers", "tags", "at_least_one", "stop_after_first", "excludes"));
        BY_TYPE.put("tags_with_separator", Set.of("tags", "separator", "at_least_one", "stop_after_first"));
        BY_TYPE.put("dispatch", Set.of("rules", "loop", "excludes"));
        BY_TYPE.put("token", Set.of("token"));
        BY_TYPE.put("exclude_token", Set.of("exclude_tokens"));
        BY_TYPE.put("any_tokens", Set.of("exclude_tokens", "max_tokens"));
        BY_TYPE.put("token_triggered_tags", Set.of("trigger_tokens", "tags", "exclude_tokens", "at_least_one", "stop_after_first"));
        BY_TYPE.put("token_dispatch", Set.of("rules", "loop", "exclude_tokens"));
        return java.util.Collections.unmodifiableMap(BY_TYPE);
    }

    /** Every format type, in the reference's order. */
    static final List<String> TYPES = List.copyOf(BY_TYPE.keySet());

    /** Refuses a field the format type does not take (an unknown type is reported by the caller). */
    static void checkFormat(JsonNode f, String at, String type) {
        Set<String> known = BY_TYPE.get(type);
        if (known == null) return;
        for (Iterator<String> it = f.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (field.equals("type") || known.contains(field)) continue;
            if (field.equals("max_tokens")) {
                throw refused(at, "'max_tokens' is not a field of '" + type + "': a token budget goes on the content, "
                        + "{\"type\": \"any_text\", \"max_tokens\": N} (or any_tokens)");
            }
            throw refused(at, "unknown field '" + field + "' for type '" + type + "' (it takes " + String.join(", ", known.stream().sorted().toList()) + ")");
        }
    }

    /** Refuses a field not in {@code known} on an object that is not a format (the spec's top, a legacy structure). */
    static void check(JsonNode n, String at, String what, String... known) {
        Set<String> ok = Set.of(known);
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!ok.contains(field)) throw refused(at, "unknown field '" + field + "' in " + what + " (it takes " + String.join(", ", known) + ")");
        }
    }

    private static GrammarException refused(String at, String message) {
        return new GrammarException("structural tag" + (at.isEmpty() ? "" : " at " + at) + ": " + message);
    }
}
