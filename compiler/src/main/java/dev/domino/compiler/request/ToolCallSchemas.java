package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OpenAI {@code tools} + {@code tool_choice} to the JSON Schema of the output, as vLLM builds it
 * ({@code get_json_schema_from_tools}):
 * <ul>
 *   <li>{@code "required"}: an array of at least one call (at most one with
 *       {@code "parallel_tool_calls": false}), each {@code {"name": NAME, "parameters": ARGS}} where
 *       ARGS follows that function's {@code parameters} (an empty object when it has none); the
 *       wrapper objects allow no other keys, so a name never goes with another function's arguments;</li>
 *   <li>a named function ({@code {"type": "function", "function": {"name": NAME}}}): that function's
 *       arguments object alone.</li>
 * </ul>
 * The functions' {@code $defs} are moved to the top of the generated schema (references
 * {@code #/$defs/X} keep their meaning); two functions defining one name differently is an error.
 */
public final class ToolCallSchemas {
    private ToolCallSchemas() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Function name to its parameters schema (never null), in request order. */
    static Map<String, JsonNode> functions(JsonNode tools) {
        if (!tools.isArray() || tools.isEmpty()) throw new RequestSpecException("/tools", "expected a non-empty array of tools");
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            String at = "/tools/" + i;
            if (!tool.isObject()) throw new RequestSpecException(at, "expected an object {\"type\": \"function\", \"function\": {...}}");
            JsonNode type = tool.get("type");
            if (type != null && !"function".equals(type.asText())) {
                throw new RequestSpecException(at + "/type", "only tools of type \"function\" are supported, not " + type);
            }
            JsonNode fn = tool.has("function") ? tool.get("function") : tool; // the Responses API puts name/parameters on the tool
            if (!fn.isObject()) throw new RequestSpecException(at + "/function", "expected an object with name and parameters");
            JsonNode name = fn.get("name");
            if (name == null || !name.isTextual() || name.asText().isEmpty()) throw new RequestSpecException(at + "/function/name", "expected a non-empty string");
            JsonNode params = fn.get("parameters");
            if (params == null || params.isNull() || params.isObject() && params.isEmpty()) {
                params = F.objectNode().put("type", "object").set("properties", F.objectNode());
            } else if (!params.isObject()) {
                throw new RequestSpecException(at + "/function/parameters", "expected a JSON Schema object");
            }
            if (out.put(name.asText(), params) != null) throw new RequestSpecException(at + "/function/name", "duplicate function name '" + name.asText() + "'");
        }
        return out;
    }

    /** The schema for {@code tool_choice: "required"}. */
    static ObjectNode required(Map<String, JsonNode> functions, boolean parallel) {
        ObjectNode defs = F.objectNode();
        ArrayNode anyOf = F.arrayNode();
        for (Map.Entry<String, JsonNode> f : functions.entrySet()) {
            ObjectNode call = F.objectNode();
            call.put("type", "object");
            ObjectNode props = call.putObject("properties");
            props.putObject("name").putArray("enum").add(f.getKey());
            props.set("parameters", hoistDefs(f.getKey(), f.getValue(), defs));
            call.putArray("required").add("name").add("parameters");
            call.put("additionalProperties", false);
            anyOf.add(call);
        }
        ObjectNode schema = F.objectNode();
        schema.put("type", "array");
        schema.put("minItems", 1);
        if (!parallel) schema.put("maxItems", 1);
        schema.putObject("items").set("anyOf", anyOf);
        if (!defs.isEmpty()) schema.set("$defs", defs);
        return schema;
    }

    /** The schema for a named function: its arguments. */
    static JsonNode named(Map<String, JsonNode> functions, String name) {
        JsonNode params = functions.get(name);
        if (params == null) {
            throw new RequestSpecException("/tool_choice/function/name", "no tool named '" + name + "' (tools: " + String.join(", ", functions.keySet()) + ")");
        }
        return params;
    }

    private static JsonNode hoistDefs(String function, JsonNode params, ObjectNode defs) {
        JsonNode own = params.get("$defs");
        if (own == null) return params;
        if (!own.isObject()) throw new RequestSpecException("/tools/" + function + "/parameters/$defs", "expected an object");
        ObjectNode copy = ((ObjectNode) params).deepCopy();
        copy.remove("$defs");
        for (Iterator<Map.Entry<String, JsonNode>> it = own.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> d = it.next();
            JsonNode before = defs.get(d.getKey());
            if (before != null && !before.equals(d.getValue())) {
                throw new RequestSpecException("/tools", "functions define $defs/" + d.getKey() + " differently (in '" + function + "' and an earlier function)");
            }
            defs.set(d.getKey(), d.getValue());
        }
        return copy;
    }
}
