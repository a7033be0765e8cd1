package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * OpenAI's {@code tool_choice: {"type": "allowed_tools", "allowed_tools": {"mode": "auto" | "required",
 * "tools": [{"type": "function", "function": {"name": N}}, ...]}}}: the model may call only the listed
 * functions, with the mode's meaning. Read as the same request with {@code tools} cut to those functions
 * (in request order) and {@code tool_choice} set to the mode, so every later step sees a plain request.
 */
final class AllowedTools {
    private AllowedTools() {}

    /** The request itself when its tool_choice is not allowed_tools, else the rewritten copy. */
    static JsonNode normalize(JsonNode request) {
        JsonNode choice = request.get("tool_choice");
        if (choice == null || !choice.isObject() || !"allowed_tools".equals(choice.path("type").asText())) return request;
        KnownFields.check(choice, "/tool_choice", List.of("type", "allowed_tools"));
        JsonNode allowed = choice.get("allowed_tools");
        String at = "/tool_choice/allowed_tools";
        if (allowed == null || !allowed.isObject()) throw new RequestSpecException(at, "expected {\"mode\": \"auto\" | \"required\", \"tools\": [...]}");
        KnownFields.check(allowed, at, List.of("mode", "tools"));
        JsonNode mode = allowed.get("mode");
        if (mode == null || !mode.isTextual() || !(mode.asText().equals("auto") || mode.asText().equals("required"))) {
            throw new RequestSpecException(at + "/mode", "expected \"auto\" or \"required\"");
        }
        JsonNode tools = request.get("tools");
        if (tools == null || tools.isNull()) throw new RequestSpecException("/tool_choice", "allowed_tools needs tools");
        Set<String> declared = ToolCallSchemas.functions(tools).keySet(); // checks every tool, at its own index
        JsonNode refs = allowed.get("tools");
        if (refs == null || !refs.isArray() || refs.isEmpty()) throw new RequestSpecException(at + "/tools", "expected a non-empty array of tools");
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < refs.size(); i++) {
            JsonNode ref = refs.get(i);
            JsonNode name = ref.path("function").path("name");
            if (!name.isTextual()) name = ref.path("name"); // the Responses API: {"type": "function", "name": N}
            if (!ref.isObject() || !"function".equals(ref.path("type").asText()) || !name.isTextual()) {
                throw new RequestSpecException(at + "/tools/" + i, "expected {\"type\": \"function\", \"function\": {\"name\": ...}}");
            }
            if (!declared.contains(name.asText())) {
                throw new RequestSpecException(at + "/tools/" + i, "no tool named '" + name.asText() + "' (tools: " + String.join(", ", declared) + ")");
            }
            names.add(name.asText());
        }
        ArrayNode kept = ((ArrayNode) tools).arrayNode();
        for (JsonNode tool : tools) {
            JsonNode fn = tool.has("function") ? tool.get("function") : tool;
            if (names.contains(fn.get("name").asText())) kept.add(tool);
        }
        ObjectNode out = ((ObjectNode) request).deepCopy();
        out.set("tools", kept);
        out.put("tool_choice", mode.asText());
        return out;
    }
}
