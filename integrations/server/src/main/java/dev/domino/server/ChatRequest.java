package dev.domino.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.request.ToolCallStyle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A validated OpenAI chat or text completion request. Every field that shapes the output is honoured or refused by
 * name (a 400 naming it): an unknown field is refused too, so a client never gets an output that silently ignored
 * what it asked for.
 *
 * @param messages   the conversation (chat), or empty for a text completion
 * @param prompt     the raw prompt of a text completion (no chat template), or null
 * @param constraint the request's output constraint fields ({@code response_format}, {@code tools},
 *                   {@code tool_choice}, {@code parallel_tool_calls} and the vendor fields), as the constraint cache
 *                   compiles them; {@code {"response_format": {"type": "text"}}} when there are none
 * @param shape      how the output maps to a message: text, an array of tool calls, or one named tool's arguments
 * @param namedTool  the function of {@code tool_choice: {"type": "function", ...}}, else null
 * @param tools      the {@code tools} array (for the prompt), or null
 * @param maxTokens  {@code max_tokens} / {@code max_completion_tokens}, or null for the server's default
 * @param seed       {@code seed}, or null (a random one)
 * @param stop       stop sequences (at most 4, as OpenAI)
 */
public record ChatRequest(String model, List<Message> messages, String prompt, ObjectNode constraint, Shape shape, String namedTool,
                          JsonNode tools, int n, Integer maxTokens, double temperature, double topP, Long seed, List<String> stop,
                          boolean stream, boolean includeUsage, boolean logprobs) {

    public enum Shape { TEXT, TOOL_CALLS, NAMED_TOOL }

    /** One message; {@code toolCalls} of an assistant turn, {@code toolCallId} of a tool result. */
    public record Message(String role, String content, List<ToolCall> toolCalls, String toolCallId, String name) {}

    /** A function call: {@code arguments} is a JSON object's text. */
    public record ToolCall(String id, String name, String arguments) {}

    static final int MAX_N = 16, MAX_STOPS = 4;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Set<String> CONSTRAINT_FIELDS = Set.of("response_format", "tools", "tool_choice", "parallel_tool_calls",
            "regex", "choice", "grammar", "json", "json_object", "structured_outputs", "structural_tag", "tool_call_style");
    private static final Set<String> COMMON_FIELDS = Set.of("model", "max_tokens", "temperature", "top_p", "seed", "stop", "n",
            "stream", "stream_options", "logprobs", "user", "frequency_penalty", "presence_penalty", "logit_bias", "store", "metadata");
    private static final Set<String> CHAT_FIELDS = Set.of("messages", "max_completion_tokens", "top_logprobs");
    private static final Set<String> COMPLETION_FIELDS = Set.of("prompt", "echo", "best_of", "suffix");

    /**
     * The request's {@code tool_call_style} (the model family's own layout, which {@link StyledToolCalls} reads back),
     * or null for none or {@code domino} (the server's JSON array).
     */
    private static ToolCallStyle toolCallStyle(JsonNode body, JsonNode tools) {
        if (!has(body, "tool_call_style")) return null;
        JsonNode n = body.get("tool_call_style");
        ToolCallStyle style = n.isTextual() ? ToolCallStyle.byName(n.asText()) : null;
        if (style == null) throw ApiException.invalid("tool_call_style", "tool_call_style must be one of " + ToolCallStyle.names());
        if (tools == null) throw ApiException.invalid("tool_call_style", "tool_call_style needs tools");
        if (style == ToolCallStyle.DOMINO_JSON) return null;
        return style;
    }

    /** The tool-call style of the request's constraint, or null (Domino's own shape). */
    public ToolCallStyle toolCallStyle() {
        JsonNode n = constraint.get("tool_call_style");
        return n == null ? null : ToolCallStyle.byName(n.asText());
    }

    /** A {@code POST /v1/chat/completions} body. */
    public static ChatRequest chat(JsonNode body) { return parse(body, true); }

    /** A {@code POST /v1/completions} body. */
    public static ChatRequest completion(JsonNode body) { return parse(body, false); }

    private static ChatRequest parse(JsonNode body, boolean chat) {
        if (body == null || !body.isObject()) throw ApiException.invalid(null, "the request body must be a JSON object");
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!CONSTRAINT_FIELDS.contains(f) && !COMMON_FIELDS.contains(f) && !(chat ? CHAT_FIELDS : COMPLETION_FIELDS).contains(f)) {
                throw ApiException.unsupported(f, "unsupported field '" + f + "': this server refuses fields it does not implement");
            }
        }
        String model = text(body, "model", true);
        List<Message> messages = List.of();
        String prompt = null;
        if (chat) {
            messages = messages(body.get("messages"));
        } else {
            prompt = prompt(body.get("prompt"));
            refuseUnless(body, "echo", n -> n.isBoolean() && !n.asBoolean(), "echo is not supported");
            refuseUnless(body, "best_of", n -> n.canConvertToInt() && n.asInt() == 1, "best_of other than 1 is not supported");
            refuseUnless(body, "suffix", n -> false, "suffix (insertion) is not supported");
        }
        refuseUnless(body, "frequency_penalty", n -> n.isNumber() && n.asDouble() == 0, "frequency_penalty other than 0 is not supported");
        refuseUnless(body, "presence_penalty", n -> n.isNumber() && n.asDouble() == 0, "presence_penalty other than 0 is not supported");
        refuseUnless(body, "logit_bias", n -> n.isObject() && n.isEmpty(), "logit_bias is not supported (the grammar's mask decides which tokens are allowed)");
        refuseUnless(body, "store", n -> n.isBoolean() && !n.asBoolean(), "store is not supported");
        refuseUnless(body, "metadata", n -> n.isObject() && n.isEmpty(), "metadata is not supported (nothing is stored)");
        refuseUnless(body, "top_logprobs", n -> n.canConvertToInt() && n.asInt() == 0, "top_logprobs is not supported (logprobs of the chosen tokens are)");
        if (has(body, "user") && !body.get("user").isTextual()) throw ApiException.invalid("user", "user must be a string");

        ObjectNode constraint = F.objectNode();
        for (String f : CONSTRAINT_FIELDS) if (has(body, f)) constraint.set(f, body.get(f));
        JsonNode tools = has(body, "tools") ? body.get("tools") : null;
        Shape shape = Shape.TEXT;
        String namedTool = null;
        JsonNode choice = body.get("tool_choice");
        if (has(body, "tool_choice") && tools == null) throw ApiException.invalid("tool_choice", "tool_choice needs tools");
        if (tools == null) constraint.remove("parallel_tool_calls"); // constrains nothing without tools (LangChain4j sends it anyway)
        if (tools != null && choice != null && !choice.isNull()) {
            if (choice.isTextual() && !Set.of("auto", "none", "required").contains(choice.asText()) || !choice.isTextual() && !choice.isObject()) {
                throw ApiException.invalid("tool_choice", "tool_choice must be auto, none, required or {\"type\": \"function\", \"function\": {\"name\": ...}}");
            }
            if (choice.isTextual() && choice.asText().equals("required")) {
                shape = Shape.TOOL_CALLS;
            } else if (choice.isObject()) {
                shape = Shape.NAMED_TOOL;
                JsonNode name = choice.path("function").path("name");
                if (!name.isTextual()) throw ApiException.invalid("tool_choice", "expected {\"type\": \"function\", \"function\": {\"name\": ...}}");
                namedTool = name.asText();
            }
        }
        ToolCallStyle style = toolCallStyle(body, tools);
        if (style == null) constraint.remove("tool_call_style"); // "domino": the server's own shape
        if (constraint.isEmpty() || style == null && tools != null && shape == Shape.TEXT && !hasOtherConstraint(constraint)) {
            // no constraint, or tool_choice auto/none: free text (the cache compiles the text grammar once)
            ObjectNode text = F.objectNode();
            text.putObject("response_format").put("type", "text");
            constraint = text;
        }

        int n = 1;
        if (has(body, "n")) {
            if (!body.get("n").canConvertToInt() || body.get("n").asInt() < 1 || body.get("n").asInt() > MAX_N) {
                throw ApiException.invalid("n", "n must be an integer in [1, " + MAX_N + "]");
            }
            n = body.get("n").asInt();
        }
        Integer maxTokens = null;
        for (String f : chat ? List.of("max_tokens", "max_completion_tokens") : List.of("max_tokens")) {
            if (!has(body, f)) continue;
            JsonNode v = body.get(f);
            if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 1) throw ApiException.invalid(f, f + " must be an integer >= 1");
            if (maxTokens != null && maxTokens != v.asInt()) throw ApiException.invalid(f, "max_tokens and max_completion_tokens differ");
            maxTokens = v.asInt();
        }
        double temperature = number(body, "temperature", 1.0, 0, 2);
        double topP = number(body, "top_p", 1.0, 0, 1);
        if (topP == 0) throw ApiException.invalid("top_p", "top_p must be in (0, 1]");
        Long seed = null;
        if (has(body, "seed")) {
            if (!body.get("seed").isIntegralNumber() || !body.get("seed").canConvertToLong()) throw ApiException.invalid("seed", "seed must be an integer");
            seed = body.get("seed").asLong();
        }
        List<String> stop = stop(body.get("stop"));
        boolean stream = bool(body, "stream");
        boolean includeUsage = false;
        if (has(body, "stream_options")) {
            JsonNode so = body.get("stream_options");
            if (!stream) throw ApiException.invalid("stream_options", "stream_options needs stream: true");
            if (!so.isObject()) throw ApiException.invalid("stream_options", "stream_options must be an object");
            for (Iterator<String> it = so.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!f.equals("include_usage")) throw ApiException.unsupported("stream_options." + f, "unsupported field 'stream_options." + f + "'");
            }
            includeUsage = bool(so, "include_usage");
        }
        boolean logprobs;
        if (chat) {
            logprobs = bool(body, "logprobs");
        } else {
            // completions: logprobs is the number of alternatives; only 0 (the chosen tokens) is implemented
            logprobs = has(body, "logprobs");
            refuseUnless(body, "logprobs", v -> v.canConvertToInt() && v.asInt() == 0, "logprobs above 0 (alternatives) is not supported; 0 gives the chosen tokens'");
        }
        if (logprobs && stream) throw ApiException.unsupported("logprobs", "logprobs with stream is not supported");
        return new ChatRequest(model, messages, prompt, constraint, shape, namedTool, tools, n, maxTokens, temperature, topP, seed, stop,
                stream, includeUsage, logprobs);
    }

    private static boolean hasOtherConstraint(ObjectNode c) {
        for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("tools") && !f.equals("tool_choice") && !f.equals("parallel_tool_calls")) return true;
        }
        return false;
    }

    private static List<Message> messages(JsonNode ms) {
        if (ms == null || !ms.isArray() || ms.isEmpty()) throw ApiException.invalid("messages", "messages must be a non-empty array");
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < ms.size(); i++) {
            JsonNode m = ms.get(i);
            String at = "messages[" + i + "]";
            if (!m.isObject()) throw ApiException.invalid(at, "a message must be an object");
            String role = m.path("role").asText("");
            if (!Set.of("system", "developer", "user", "assistant", "tool").contains(role)) {
                throw ApiException.invalid(at + ".role", "role must be system, developer, user, assistant or tool, got '" + role + "'");
            }
            for (Iterator<String> it = m.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!Set.of("role", "content", "name", "tool_calls", "tool_call_id", "refusal").contains(f)) {
                    throw ApiException.unsupported(at + "." + f, "unsupported message field '" + f + "'");
                }
            }
            String content = content(m.get("content"), at + ".content");
            List<ToolCall> calls = List.of();
            if (has(m, "tool_calls")) {
                if (!role.equals("assistant")) throw ApiException.invalid(at + ".tool_calls", "only assistant messages have tool_calls");
                calls = new ArrayList<>();
                for (JsonNode c : m.get("tool_calls")) {
                    JsonNode fn = c.path("function");
                    if (!fn.path("name").isTextual()) throw ApiException.invalid(at + ".tool_calls", "a tool call needs function.name");
                    calls.add(new ToolCall(c.path("id").asText(null), fn.get("name").asText(), fn.path("arguments").asText("{}")));
                }
            }
            String toolCallId = m.path("tool_call_id").isTextual() ? m.get("tool_call_id").asText() : null;
            if (role.equals("tool") && toolCallId == null) throw ApiException.invalid(at + ".tool_call_id", "a tool message needs tool_call_id");
            if (content == null && calls.isEmpty()) throw ApiException.invalid(at + ".content", "a message needs content");
            out.add(new Message(role, content, calls, toolCallId, m.path("name").isTextual() ? m.get("name").asText() : null));
        }
        return out;
    }

    /** A string, or an array of text parts (joined); other parts (images, audio) are refused by name. */
    private static String content(JsonNode c, String at) {
        if (c == null || c.isNull()) return null;
        if (c.isTextual()) return c.asText();
        if (!c.isArray()) throw ApiException.invalid(at, "content must be a string or an array of parts");
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : c) {
            String type = part.path("type").asText("");
            if (!type.equals("text")) throw ApiException.unsupported(at, "content parts of type '" + type + "' are not supported (text only)");
            sb.append(part.path("text").asText());
        }
        return sb.toString();
    }

    private static String prompt(JsonNode p) {
        if (p != null && p.isTextual()) return p.asText();
        if (p != null && p.isArray() && p.size() == 1 && p.get(0).isTextual()) return p.get(0).asText();
        throw ApiException.invalid("prompt", "prompt must be a string (or an array of one string)");
    }

    private static List<String> stop(JsonNode s) {
        if (s == null || s.isNull()) return List.of();
        List<String> out = new ArrayList<>();
        if (s.isTextual()) out.add(s.asText());
        else if (s.isArray()) for (JsonNode x : s) {
            if (!x.isTextual()) throw ApiException.invalid("stop", "stop must be a string or an array of strings");
            out.add(x.asText());
        }
        else throw ApiException.invalid("stop", "stop must be a string or an array of strings");
        if (out.size() > MAX_STOPS) throw ApiException.invalid("stop", "at most " + MAX_STOPS + " stop sequences");
        if (out.stream().anyMatch(String::isEmpty)) throw ApiException.invalid("stop", "a stop sequence must not be empty");
        return List.copyOf(out);
    }

    private static boolean has(JsonNode o, String f) { return o.has(f) && !o.get(f).isNull(); }

    private static String text(JsonNode o, String f, boolean required) {
        if (!has(o, f)) {
            if (required) throw ApiException.invalid(f, f + " is required");
            return null;
        }
        if (!o.get(f).isTextual()) throw ApiException.invalid(f, f + " must be a string");
        return o.get(f).asText();
    }

    private static boolean bool(JsonNode o, String f) {
        if (!has(o, f)) return false;
        if (!o.get(f).isBoolean()) throw ApiException.invalid(f, f + " must be true or false");
        return o.get(f).asBoolean();
    }

    private static double number(JsonNode o, String f, double dflt, double min, double max) {
        if (!has(o, f)) return dflt;
        JsonNode v = o.get(f);
        if (!v.isNumber() || !(v.asDouble() >= min && v.asDouble() <= max)) throw ApiException.invalid(f, f + " must be a number in [" + min + ", " + max + "]");
        return v.asDouble();
    }

    private static void refuseUnless(JsonNode o, String f, java.util.function.Predicate<JsonNode> allowed, String message) {
        if (has(o, f) && !allowed.test(o.get(f))) throw ApiException.unsupported(f, message);
    }
}
