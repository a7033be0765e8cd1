package dev.domino.server;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.safetensors.prompt.Function;
import com.github.tjake.jlama.safetensors.prompt.PromptContext;
import com.github.tjake.jlama.safetensors.prompt.PromptSupport;
import com.github.tjake.jlama.safetensors.prompt.Tool;
import com.github.tjake.jlama.safetensors.prompt.ToolCall;
import com.github.tjake.jlama.safetensors.prompt.ToolResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chat messages and tools to the model's prompt through jlama's {@link PromptSupport}, i.e. the model's own chat
 * template ({@code tokenizer_config.json}); tools go where the template puts them. A model without a template gets
 * "role: content" lines ending in "assistant:", and its tools as JSON in a system line.
 */
final class ChatPrompts {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private final AbstractModel model;

    ChatPrompts(AbstractModel model) { this.model = model; }

    boolean hasTemplate() { return model.promptSupport().isPresent(); }

    PromptContext prompt(ChatRequest r) {
        if (r.prompt() != null) return PromptContext.of(r.prompt());
        Optional<PromptSupport> support = model.promptSupport();
        if (support.isEmpty()) return PromptContext.of(plain(r));
        PromptSupport.Builder b = support.get().builder();
        Map<String, String> callNames = new java.util.HashMap<>();
        for (ChatRequest.Message m : r.messages()) {
            switch (m.role()) {
                case "system", "developer" -> b.addSystemMessage(m.content());
                case "user" -> b.addUserMessage(m.content());
                case "assistant" -> {
                    if (m.content() != null && !m.content().isEmpty()) b.addAssistantMessage(m.content());
                    for (ChatRequest.ToolCall c : m.toolCalls()) {
                        ToolCall call = new ToolCall(c.name(), c.id(), arguments(c));
                        b.addToolCall(call);
                        if (c.id() != null) callNames.put(c.id(), c.name());
                    }
                }
                case "tool" -> b.addToolResult(ToolResult.from(callNames.getOrDefault(m.toolCallId(), m.name() == null ? "tool" : m.name()),
                        m.toolCallId(), m.content()));
                default -> throw ApiException.invalid("messages", "unknown role " + m.role());
            }
        }
        b.addGenerationPrompt(true);
        try {
            return r.tools() == null ? b.build() : b.build(tools(r.tools()));
        } catch (RuntimeException e) {
            throw ApiException.invalid("messages", "the model's chat template failed on these messages: " + e.getMessage());
        }
    }

    private static Map<String, Object> arguments(ChatRequest.ToolCall c) {
        try {
            return JSON.readValue(c.arguments(), MAP);
        } catch (Exception e) {
            throw ApiException.invalid("messages", "tool call " + c.name() + ": arguments are not a JSON object");
        }
    }

    /** OpenAI tools as jlama's: name, description, and each parameter's schema with its required flag. */
    static List<Tool> tools(JsonNode tools) {
        List<Tool> out = new ArrayList<>();
        for (JsonNode t : tools) {
            JsonNode fn = t.has("function") ? t.get("function") : t;
            Function.Builder f = Function.builder().name(fn.path("name").asText());
            if (fn.path("description").isTextual()) f.description(fn.get("description").asText());
            JsonNode params = fn.path("parameters");
            Set<String> required = new HashSet<>();
            for (JsonNode q : params.path("required")) required.add(q.asText());
            for (Iterator<Map.Entry<String, JsonNode>> it = params.path("properties").fields(); it.hasNext(); ) {
                var p = it.next();
                f.addParameter(p.getKey(), JSON.convertValue(p.getValue(), MAP), required.contains(p.getKey()));
            }
            out.add(Tool.from(f.build()));
        }
        return out;
    }

    private static String plain(ChatRequest r) {
        StringBuilder sb = new StringBuilder();
        if (r.tools() != null) sb.append("system: tools: ").append(r.tools()).append('\n');
        for (ChatRequest.Message m : r.messages()) {
            sb.append(m.role()).append(": ");
            if (m.content() != null) sb.append(m.content());
            for (ChatRequest.ToolCall c : m.toolCalls()) sb.append("{\"name\":").append(JSON.valueToTree(c.name())).append(",\"arguments\":").append(c.arguments()).append('}');
            sb.append('\n');
        }
        return sb.append("assistant:").toString();
    }
}
