package dev.domino.compiler.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;

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
 * Each function's parameters stay their own schema document inside the generated one: they get an
 * {@code $id} of their own ({@link JsonSchemaGrammar#EMBEDDED_BASE}{@code tools/N.json}), so that
 * {@code #}, {@code #/$defs/…}, {@code #/definitions/…}, {@code #/properties/…} and anchors resolve
 * inside them, as when the schema stands alone (JSON Schema's embedded resources). Parameters with an
 * absolute {@code $id} keep it; a relative one is refused, as are functions declaring different
 * {@code $schema} drafts (one declared draft applies to the whole output).
 */
public final class ToolCallSchemas {
    private ToolCallSchemas() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static final java.util.List<String> TOOL_FIELDS = java.util.List.of("type", "function");
    private static final java.util.List<String> FUNCTION_FIELDS = java.util.List.of("name", "description", "parameters", "strict");
    private static final java.util.List<String> TOOL_FLAT_FIELDS = java.util.List.of("type", "name", "description", "parameters", "strict");

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
            String fnAt = fn == tool ? at : at + "/function";
            // a misspelt field ("parameter", "arguments") would leave the call's arguments unconstrained
            KnownFields.check(tool, at, fn == tool ? TOOL_FLAT_FIELDS : TOOL_FIELDS);
            if (fn != tool) KnownFields.check(fn, fnAt, FUNCTION_FIELDS);
            JsonNode strict = fn.get("strict");
            if (strict != null && !strict.isNull() && !strict.isBoolean()) throw new RequestSpecException(fnAt + "/strict", "expected true or false");
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
        return required(functions, parallel, "parameters");
    }

    /** An array of calls {@code {"name": NAME, KEY: ARGS}} (Mistral writes {@code arguments}). */
    static ObjectNode required(Map<String, JsonNode> functions, boolean parallel, String argumentsKey) {
        ArrayNode anyOf = F.arrayNode();
        java.util.Set<String> drafts = new java.util.LinkedHashSet<>();
        java.util.Set<String> ids = new java.util.HashSet<>();
        int index = 0;
        for (Map.Entry<String, JsonNode> f : functions.entrySet()) {
            ObjectNode call = F.objectNode();
            call.put("type", "object");
            ObjectNode props = call.putObject("properties");
            props.putObject("name").putArray("enum").add(f.getKey());
            props.set(argumentsKey, ownDocument(f.getValue(), index++, ids, drafts));
            call.putArray("required").add("name").add(argumentsKey);
            call.put("additionalProperties", false);
            anyOf.add(call);
        }
        ObjectNode schema = F.objectNode();
        schema.put("type", "array");
        schema.put("minItems", 1);
        if (!parallel) schema.put("maxItems", 1);
        schema.putObject("items").set("anyOf", anyOf);
        if (drafts.size() > 1) {
            throw new RequestSpecException("/tools", "the functions' parameters declare different $schema drafts (" + String.join(", ", drafts)
                    + "): one draft applies to the whole tool-call output");
        }
        if (drafts.size() == 1) schema.put("$schema", drafts.iterator().next());
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

    /** The parameters as an embedded schema resource: an {@code $id} of their own, their $schema moved to the top. */
    private static JsonNode ownDocument(JsonNode params, int index, java.util.Set<String> ids, java.util.Set<String> drafts) {
        String at = "/tools/" + index + "/function/parameters";
        ObjectNode copy = ((ObjectNode) params).deepCopy();
        JsonNode draft = copy.remove("$schema");
        if (draft != null && draft.isTextual()) drafts.add(draft.asText());
        JsonNode id = copy.get("$id");
        if (id == null) {
            copy.put("$id", JsonSchemaGrammar.EMBEDDED_BASE + "tools/" + index + ".json");
            return copy;
        }
        java.net.URI uri;
        try {
            uri = id.isTextual() ? new java.net.URI(id.asText()) : null;
        } catch (java.net.URISyntaxException e) {
            uri = null;
        }
        if (uri == null || !uri.isAbsolute() || uri.getRawFragment() != null && !uri.getRawFragment().isEmpty()) {
            throw new RequestSpecException(at + "/$id", "an embedded schema's $id must be an absolute URI without a fragment "
                    + "(a relative one would resolve against the tool-call output)");
        }
        if (!ids.add(uri.toString())) throw new RequestSpecException(at + "/$id", "two functions' parameters have the same $id " + uri);
        return copy;
    }
}
