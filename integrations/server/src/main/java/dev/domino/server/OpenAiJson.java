package dev.domino.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.jlama.Generation;
import java.nio.charset.StandardCharsets;

/** Responses in OpenAI's JSON shapes (chat completions, text completions, chunks, errors). */
final class OpenAiJson {
    static final ObjectMapper JSON = new ObjectMapper();

    private OpenAiJson() {}

    static ObjectNode error(ApiException e) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode err = root.putObject("error");
        err.put("message", e.getMessage());
        err.put("type", e.type());
        if (e.param() != null) err.put("param", e.param()); else err.putNull("param");
        if (e.code() != null) err.put("code", e.code()); else err.putNull("code");
        return root;
    }

    static ObjectNode chatCompletion(ChatResult r, String model) {
        ObjectNode root = header(r.id(), "chat.completion", r.created(), model);
        ArrayNode choices = root.putArray("choices");
        for (ChatResult.Choice c : r.choices()) {
            ObjectNode ch = choices.addObject();
            ch.put("index", c.index());
            ObjectNode msg = ch.putObject("message");
            msg.put("role", "assistant");
            if (c.content() != null) msg.put("content", c.content()); else msg.putNull("content");
            msg.putNull("refusal");
            if (!c.toolCalls().isEmpty()) {
                ArrayNode calls = msg.putArray("tool_calls");
                for (ChatRequest.ToolCall t : c.toolCalls()) {
                    ObjectNode call = calls.addObject();
                    call.put("id", t.id());
                    call.put("type", "function");
                    call.putObject("function").put("name", t.name()).put("arguments", t.arguments());
                }
            }
            if (c.generation().logprobs().length > 0) {
                ObjectNode lp = ch.putObject("logprobs");
                ArrayNode content = lp.putArray("content");
                for (Generation.TokenLogprob t : c.generation().logprobs()) {
                    ObjectNode e = content.addObject();
                    e.put("token", new String(t.bytes(), StandardCharsets.UTF_8));
                    e.put("logprob", t.logprob());
                    ArrayNode bytes = e.putArray("bytes");
                    for (byte b : t.bytes()) bytes.add(b & 0xFF);
                    e.putArray("top_logprobs");
                }
            } else {
                ch.putNull("logprobs");
            }
            ch.put("finish_reason", c.finishReason());
        }
        root.set("usage", usage(r));
        return root;
    }

    static ObjectNode textCompletion(ChatResult r, String model) {
        ObjectNode root = header(r.id().replace("chatcmpl-", "cmpl-"), "text_completion", r.created(), model);
        ArrayNode choices = root.putArray("choices");
        for (ChatResult.Choice c : r.choices()) {
            ObjectNode ch = choices.addObject();
            ch.put("index", c.index());
            ch.put("text", c.generation().output());
            if (c.generation().logprobs().length > 0) {
                ObjectNode lp = ch.putObject("logprobs");
                ArrayNode tokens = lp.putArray("tokens"), logprobs = lp.putArray("token_logprobs");
                for (Generation.TokenLogprob t : c.generation().logprobs()) {
                    tokens.add(new String(t.bytes(), StandardCharsets.UTF_8));
                    logprobs.add(t.logprob());
                }
            } else {
                ch.putNull("logprobs");
            }
            ch.put("finish_reason", c.finishReason().equals("tool_calls") ? "stop" : c.finishReason());
        }
        root.set("usage", usage(r));
        return root;
    }

    static ObjectNode usage(ChatResult r) {
        ObjectNode u = JSON.createObjectNode();
        u.put("prompt_tokens", r.promptTokens());
        u.put("completion_tokens", r.completionTokens());
        u.put("total_tokens", r.promptTokens() + r.completionTokens());
        return u;
    }

    static ObjectNode header(String id, String object, long created, String model) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", id);
        root.put("object", object);
        root.put("created", created);
        root.put("model", model);
        return root;
    }

    static ObjectNode models(String model, long created) {
        ObjectNode root = JSON.createObjectNode();
        root.put("object", "list");
        root.putArray("data").add(model(model, created));
        return root;
    }

    static ObjectNode model(String model, long created) {
        ObjectNode m = JSON.createObjectNode();
        m.put("id", model);
        m.put("object", "model");
        m.put("created", created);
        m.put("owned_by", "domino");
        return m;
    }
}
