package dev.domino.langchain4j;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.server.ChatRequest;
import dev.domino.server.ChatResult;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.ChatResponseMetadata;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * LangChain4j requests to the OpenAI-shaped request the engine (and its constraint cache) takes, and its results
 * back: a {@link JsonSchema} becomes {@code response_format} {@code json_schema}, {@link ToolSpecification}s become
 * {@code tools}, {@link ToolChoice#REQUIRED} becomes {@code tool_choice: "required"}; tool-call outputs become
 * {@link ToolExecutionRequest}s. Parameters the engine does not implement (top-k, penalties, images) are refused
 * with {@link UnsupportedFeatureException}, never ignored.
 */
final class RequestMapping {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestMapping() {}

    /**
     * What a model adds to every request.
     *
     * @param seed              the first output's seed, or null for a random one
     * @param strictJsonSchema  as OpenAI's strict mode: an object schema that does not say otherwise allows no other
     *                          keys and requires every property (LangChain4j derives schemas from Java types, which
     *                          hold no other keys)
     * @param parallelToolCalls false: at most one tool call per output; null: the request's default (several)
     */
    record Settings(Long seed, boolean strictJsonSchema, Boolean parallelToolCalls) {}

    static ChatRequest toEngine(dev.langchain4j.model.chat.request.ChatRequest request, String modelName, Settings settings) {
        ChatRequestParameters p = request.parameters();
        if (p.topK() != null) throw new UnsupportedFeatureException("top-k sampling is not supported by the Domino jlama model");
        if (p.frequencyPenalty() != null && p.frequencyPenalty() != 0) throw new UnsupportedFeatureException("frequency penalty is not supported");
        if (p.presencePenalty() != null && p.presencePenalty() != 0) throw new UnsupportedFeatureException("presence penalty is not supported");
        ObjectNode body = JSON.createObjectNode();
        body.put("model", modelName);
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : request.messages()) messages.add(message(m));
        if (p.temperature() != null) body.put("temperature", p.temperature());
        if (p.topP() != null) body.put("top_p", p.topP());
        if (p.maxOutputTokens() != null) body.put("max_tokens", p.maxOutputTokens());
        if (p.stopSequences() != null && !p.stopSequences().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            p.stopSequences().forEach(stop::add);
        }
        List<ToolSpecification> tools = p.toolSpecifications();
        if (tools != null && !tools.isEmpty()) {
            ArrayNode t = body.putArray("tools");
            for (ToolSpecification spec : tools) t.add(tool(spec, settings.strictJsonSchema()));
            ToolChoice choice = p.toolChoice();
            body.put("tool_choice", choice == ToolChoice.REQUIRED ? "required" : "auto");
            if (settings.parallelToolCalls() != null) body.put("parallel_tool_calls", settings.parallelToolCalls());
        } else if (p.toolChoice() == ToolChoice.REQUIRED) {
            throw new UnsupportedFeatureException("ToolChoice.REQUIRED needs at least one tool specification");
        }
        ResponseFormat format = p.responseFormat();
        if (format != null && format.type() == ResponseFormatType.JSON) {
            ObjectNode rf = body.putObject("response_format");
            JsonSchema schema = format.jsonSchema();
            if (schema == null) {
                rf.put("type", "json_object");
            } else {
                rf.put("type", "json_schema");
                ObjectNode js = rf.putObject("json_schema");
                js.put("name", schema.name() == null ? "output" : schema.name());
                js.set("schema", JSON.valueToTree(JsonSchemaElementUtils.toMap(schema.rootElement(), settings.strictJsonSchema())));
            }
        }
        if (settings.seed() != null) body.put("seed", settings.seed());
        return ChatRequest.chat(body);
    }

    private static ObjectNode message(ChatMessage m) {
        ObjectNode o = JSON.createObjectNode();
        if (m instanceof SystemMessage s) {
            o.put("role", "system").put("content", s.text());
        } else if (m instanceof UserMessage u) {
            StringBuilder text = new StringBuilder();
            for (Content c : u.contents()) {
                if (!(c instanceof TextContent t)) throw new UnsupportedFeatureException("only text content is supported, not " + c.type());
                text.append(t.text());
            }
            o.put("role", "user").put("content", text.toString());
        } else if (m instanceof AiMessage a) {
            o.put("role", "assistant");
            if (a.text() != null) o.put("content", a.text()); else o.putNull("content");
            if (a.hasToolExecutionRequests()) {
                ArrayNode calls = o.putArray("tool_calls");
                for (ToolExecutionRequest r : a.toolExecutionRequests()) {
                    ObjectNode c = calls.addObject();
                    c.put("id", r.id());
                    c.put("type", "function");
                    c.putObject("function").put("name", r.name()).put("arguments", r.arguments());
                }
            }
        } else if (m instanceof ToolExecutionResultMessage t) {
            o.put("role", "tool").put("tool_call_id", t.id()).put("name", t.toolName()).put("content", t.text());
        } else {
            throw new UnsupportedFeatureException("unsupported message type " + m.type());
        }
        return o;
    }

    private static ObjectNode tool(ToolSpecification spec, boolean strict) {
        ObjectNode t = JSON.createObjectNode();
        t.put("type", "function");
        ObjectNode fn = t.putObject("function");
        fn.put("name", spec.name());
        if (spec.description() != null) fn.put("description", spec.description());
        if (spec.parameters() != null) fn.set("parameters", JSON.valueToTree(JsonSchemaElementUtils.toMap(spec.parameters(), strict)));
        return t;
    }

    static ChatResponse toResponse(ChatResult r, String modelName) {
        ChatResult.Choice c = r.choices().get(0);
        AiMessage message;
        FinishReason finish;
        if (!c.toolCalls().isEmpty()) {
            List<ToolExecutionRequest> requests = new ArrayList<>();
            for (ChatRequest.ToolCall t : c.toolCalls()) {
                requests.add(ToolExecutionRequest.builder().id(t.id()).name(t.name()).arguments(t.arguments()).build());
            }
            message = AiMessage.from(requests);
            finish = FinishReason.TOOL_EXECUTION;
        } else {
            message = AiMessage.from(c.content());
            finish = c.finishReason().equals("length") ? FinishReason.LENGTH : FinishReason.STOP;
        }
        return ChatResponse.builder().aiMessage(message).metadata(ChatResponseMetadata.builder().id(r.id()).modelName(modelName)
                .finishReason(finish).tokenUsage(new TokenUsage(r.promptTokens(), r.completionTokens())).build()).build();
    }
}
