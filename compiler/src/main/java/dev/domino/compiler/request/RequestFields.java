package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Set;

/**
 * The request fields that constrain the output, and those refused by name: no field that would
 * change what the model may write is ever silently ignored (an ignored constraint is a wrong mask).
 * Fields that do not constrain the output's language (model, messages, temperature, max_tokens,
 * stop, logit_bias, ...) are accepted and left to the server. The full table is docs/request-fields.md.
 */
final class RequestFields {
    private RequestFields() {}

    /** Top-level fields whose value is (part of) the output constraint: checked as text (no lone surrogates). */
    static final Set<String> CONSTRAINING = Set.of("response_format", "tools", "tool_choice", "parallel_tool_calls",
            "structured_outputs", "regex", "choice", "grammar", "json", "json_object", "structural_tag", "json_schema",
            "guided_json", "guided_regex", "guided_choice", "guided_grammar", "guided_decoding_backend",
            "guided_whitespace_pattern", "whitespace_pattern", "disable_any_whitespace", "disable_additional_properties",
            "disable_fallback", "grammar_lazy", "grammar_triggers", "preserved_tokens", "functions", "function_call", "tool_call_style");

    /** Keys of vLLM's {@code structured_outputs} object that Domino honours. */
    static final Set<String> STRUCTURED_OUTPUTS = Set.of("json", "regex", "choice", "grammar", "json_object", "structural_tag",
            "disable_any_whitespace", "disable_additional_properties", "disable_fallback", "backend", "whitespace_pattern");

    static boolean constrains(String field) { return CONSTRAINING.contains(field) || field.startsWith("guided_"); }

    /** Refuses, by name, the fields that constrain the output in a way Domino does not implement. */
    static void check(JsonNode request) {
        refuseShared(request, "");
        for (Iterator<String> it = request.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (f.startsWith("guided_") && !Set.of("guided_json", "guided_regex", "guided_choice", "guided_grammar",
                    "guided_decoding_backend", "guided_whitespace_pattern").contains(f) && present(request.get(f))) {
                throw new RequestSpecException("/" + f, "unknown guided decoding field: not supported (use json, regex, choice, grammar or structural_tag)");
            }
        }
        if (present(request.get("grammar_lazy")) && request.get("grammar_lazy").asBoolean(true)) {
            throw new RequestSpecException("/grammar_lazy", "lazy grammars (llama.cpp: the grammar applies after a trigger) are not supported; "
                    + "use a structural_tag with triggered_tags");
        }
        if (nonEmpty(request.get("grammar_triggers"))) {
            throw new RequestSpecException("/grammar_triggers", "grammar triggers (llama.cpp) are not supported; use a structural_tag with triggered_tags");
        }
        if (present(request.get("functions")) || present(request.get("function_call"))) {
            String f = present(request.get("functions")) ? "functions" : "function_call";
            throw new RequestSpecException("/" + f, "the legacy functions/function_call fields are not supported; use tools and tool_choice");
        }
        JsonNode so = request.get("structured_outputs");
        if (so != null && so.isObject()) {
            refuseShared(so, "/structured_outputs");
            for (Iterator<String> it = so.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!STRUCTURED_OUTPUTS.contains(f) && !f.startsWith("_")) {
                    throw new RequestSpecException("/structured_outputs/" + f, "unknown structured output field: not supported (honoured: "
                            + String.join(", ", new java.util.TreeSet<>(STRUCTURED_OUTPUTS)) + ")");
                }
            }
        }
    }

    /** Fields refused at the top level and inside structured_outputs. */
    private static void refuseShared(JsonNode o, String at) {
        for (String f : new String[] {"whitespace_pattern", "guided_whitespace_pattern"}) {
            if (present(o.get(f))) {
                throw new RequestSpecException(at + "/" + f, "a whitespace pattern is not supported; JSON whitespace is set by the server "
                        + "(flexible, compact or fixed) or by disable_any_whitespace");
            }
        }
        for (String f : new String[] {"disable_any_whitespace", "disable_additional_properties", "disable_fallback"}) {
            JsonNode v = o.get(f);
            if (present(v) && !v.isBoolean()) throw new RequestSpecException(at + "/" + f, "expected true or false");
        }
    }

    /** The boolean flag, set at the top level or in structured_outputs. */
    static boolean flag(JsonNode request, String name) {
        if (request.path(name).asBoolean(false)) return true;
        return request.path("structured_outputs").path(name).asBoolean(false);
    }

    static boolean present(JsonNode n) { return n != null && !n.isNull() && !n.isMissingNode(); }

    private static boolean nonEmpty(JsonNode n) { return present(n) && !(n.isContainerNode() && n.isEmpty()); }
}
