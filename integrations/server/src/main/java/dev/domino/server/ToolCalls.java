package dev.domino.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Tool-call outputs to OpenAI tool calls. {@code tool_choice: "required"} constrains the output to
 * {@code [{"name": NAME, "parameters": ARGS}, ...]} (see the compiler's {@code ToolCallSchemas}); a named function
 * constrains it to that function's arguments object.
 */
final class ToolCalls {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private ToolCalls() {}

    /** The calls of a finished output, or null when it does not parse (an output cut by the token limit). */
    static List<ChatRequest.ToolCall> parse(ChatRequest.Shape shape, String namedTool, String output) {
        try {
            if (shape == ChatRequest.Shape.NAMED_TOOL) {
                JsonNode args = JSON.readTree(output);
                if (args == null || !args.isObject()) return null;
                return List.of(new ChatRequest.ToolCall(newId(), namedTool, JSON.writeValueAsString(args)));
            }
            JsonNode calls = JSON.readTree(output);
            if (calls == null || !calls.isArray()) return null;
            List<ChatRequest.ToolCall> out = new ArrayList<>();
            for (JsonNode c : calls) out.add(call(c));
            return out;
        } catch (Exception e) {
            return null;
        }
    }

    /** One {@code {"name", "parameters"}} element of a required-tools output. */
    static ChatRequest.ToolCall call(JsonNode c) throws com.fasterxml.jackson.core.JsonProcessingException {
        return new ChatRequest.ToolCall(newId(), c.path("name").asText(), JSON.writeValueAsString(c.path("parameters")));
    }

    static String newId() {
        StringBuilder sb = new StringBuilder("call_");
        for (int i = 0; i < 24; i++) sb.append(ID_CHARS[RANDOM.nextInt(ID_CHARS.length)]);
        return sb.toString();
    }
}
