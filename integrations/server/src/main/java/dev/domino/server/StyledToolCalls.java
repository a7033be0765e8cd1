package dev.domino.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.request.ToolCallStyle;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an output written in a model family's tool-call style ({@link ToolCallStyle}, the layouts of
 * docs/tool-call-styles.md) into the OpenAI message: the text before the calls and the calls. The grammar
 * made the output; this only takes it apart, and an output that does not parse (one cut by the token
 * limit) gives null. Special tokens appear in the output as their text.
 */
final class StyledToolCalls {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StyledToolCalls() {}

    /** The text before the calls ("" when none) and the calls (empty when the output is text only). */
    record Parsed(String content, List<ChatRequest.ToolCall> calls) {}

    /**
     * The output of a model family's layout (Domino's own array is {@link ToolCalls}'); {@code tools}: the request's
     * tools, whose parameter schemas type Qwen3-Coder's XML values.
     */
    static Parsed parse(ToolCallStyle style, String output, JsonNode tools) {
        try {
            return switch (style) {
                case QWEN3_CODER -> qwen3Coder(output, tools);
                case LLAMA3_JSON -> llama3(output);
                case HERMES, QWEN3_THINK -> hermes(output);
                case MISTRAL -> mistral(output);
                case MISTRAL_V11 -> mistralV11(output);
                case DEEPSEEK_V3, DEEPSEEK_R1, DEEPSEEK_V31 -> deepseek(output, style == ToolCallStyle.DEEPSEEK_V31);
                case KIMI_K2 -> kimi(output);
                case HARMONY -> harmony(output);
                default -> throw new IllegalArgumentException("no reader for tool-call style " + style.id());
            };
        } catch (Malformed e) {
            return null;
        }
    }

    private static Parsed llama3(String out) {
        String body = trimSuffix(trimSuffix(out, "<|eom_id|>"), "<|eot_id|>");
        int tag = body.indexOf("<|python_tag|>");
        String content;
        Cursor c;
        if (tag >= 0) {
            content = body.substring(0, tag);
            c = new Cursor(body, tag + "<|python_tag|>".length());
        } else if (body.startsWith("{")) { // a call without the tag starts the output
            content = "";
            c = new Cursor(body, 0);
        } else {
            return new Parsed(out, List.of());
        }
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        do {
            JsonNode call = c.json();
            calls.add(call(call.path("name").asText(), call.path("parameters")));
        } while (c.consume("; "));
        c.end();
        return new Parsed(content, calls);
    }

    private static Parsed hermes(String out) {
        int first = out.indexOf("<tool_call>");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first);
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        do {
            c.expect("<tool_call>\n");
            JsonNode call = c.json();
            c.expect("\n</tool_call>");
            calls.add(call(call.path("name").asText(), call.path("arguments")));
        } while (c.consume("\n"));
        c.end();
        return new Parsed(trimSuffix(out.substring(0, first), "\n"), calls);
    }

    /**
     * Qwen3-Coder: {@code <tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n...</function>\n</tool_call>}.
     * A value whose property is a string is raw text (the newline after the opening tag and before the closing one are
     * the layout's, as Qwen's parser reads them); any other value is JSON.
     */
    private static Parsed qwen3Coder(String out, JsonNode tools) {
        int first = out.indexOf("<tool_call>");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first);
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        do {
            c.expect("<tool_call>\n<function=");
            String name = c.until(">");
            JsonNode properties = null;
            for (JsonNode t : tools) if (t.path("function").path("name").asText().equals(name)) properties = t.path("function").path("parameters").path("properties");
            if (properties == null) throw new Malformed();
            com.fasterxml.jackson.databind.node.ObjectNode args = JSON.createObjectNode();
            c.skipWhitespace();
            while (c.consume("<parameter=")) {
                String param = c.until(">");
                String raw = c.until("</parameter>");
                JsonNode schema = properties.path(param);
                if (schema.path("type").asText("").equals("string")) {
                    args.put(param, trimSuffix(raw.startsWith("\n") ? raw.substring(1) : raw, "\n"));
                } else {
                    Cursor v = new Cursor(raw.strip(), 0);
                    args.set(param, v.json());
                    v.end();
                }
                c.skipWhitespace();
            }
            c.expect("</function>\n</tool_call>");
            calls.add(call(name, args));
        } while (c.consume("\n"));
        c.end();
        return new Parsed(trimSuffix(out.substring(0, first), "\n"), calls);
    }

    private static Parsed mistral(String out) {
        int first = out.indexOf("[TOOL_CALLS]");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first + "[TOOL_CALLS]".length());
        JsonNode array = c.json();
        c.end();
        if (!array.isArray()) throw new Malformed();
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        for (JsonNode call : array) calls.add(call(call.path("name").asText(), call.path("arguments")));
        return new Parsed(out.substring(0, first), calls);
    }

    private static Parsed mistralV11(String out) {
        int first = out.indexOf("[TOOL_CALLS]");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first);
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        while (c.consume("[TOOL_CALLS]")) {
            String name = c.until("[ARGS]");
            calls.add(call(name, c.json()));
        }
        c.end();
        return new Parsed(out.substring(0, first), calls);
    }

    private static Parsed deepseek(String out, boolean v31) {
        int first = out.indexOf("<｜tool▁calls▁begin｜>");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first + "<｜tool▁calls▁begin｜>".length());
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        do {
            if (v31) {
                c.expect("<｜tool▁call▁begin｜>");
                String name = c.until("<｜tool▁sep｜>");
                calls.add(call(name, c.json()));
            } else {
                c.expect("<｜tool▁call▁begin｜>function<｜tool▁sep｜>");
                String name = c.until("\n```json\n");
                calls.add(call(name, c.json()));
                c.expect("\n```");
            }
            c.expect("<｜tool▁call▁end｜>");
        } while (v31 ? c.peek("<｜tool▁call▁begin｜>") : c.consume("\n"));
        c.consume("<｜tool▁calls▁end｜>"); // the section end, unless it is the model's EOS
        c.end();
        return new Parsed(out.substring(0, first), calls);
    }

    private static Parsed kimi(String out) {
        int first = out.indexOf("<|tool_calls_section_begin|>");
        if (first < 0) return new Parsed(out, List.of());
        Cursor c = new Cursor(out, first + "<|tool_calls_section_begin|>".length());
        List<ChatRequest.ToolCall> calls = new ArrayList<>();
        while (c.consume("<|tool_call_begin|>")) {
            c.expect("functions.");
            String id = c.until("<|tool_call_argument_begin|>"); // NAME:IDX
            int colon = id.lastIndexOf(':');
            if (colon < 0) throw new Malformed();
            calls.add(call(id.substring(0, colon), c.json()));
            c.expect("<|tool_call_end|>");
        }
        c.consume("<|tool_calls_section_end|>");
        c.end();
        return new Parsed(out.substring(0, first), calls);
    }

    /**
     * Harmony: the final channel's message is the content; a call's preamble (a commentary message) is the
     * content beside the call. The analysis message is reasoning, which the OpenAI message has no field for.
     */
    private static Parsed harmony(String out) {
        String body = trimSuffix(trimSuffix(out, "<|return|>"), "<|call|>");
        Cursor c = new Cursor(body, 0);
        if (c.consume("<|channel|>analysis<|message|>")) c.until("<|end|><|start|>assistant");
        if (c.consume("<|channel|>final<|message|>")) return new Parsed(c.rest(), List.of());
        String preamble = c.consume("<|channel|>commentary<|message|>") ? c.until("<|end|><|start|>assistant") : "";
        String name;
        if (c.consume("<|channel|>commentary to=functions.")) { // the recipient in the channel part of the header
            name = c.until("<|constrain|>");
            name = trimSuffix(name, " ");
        } else { // in the role part, right after "<|start|>assistant"
            c.expect(" to=functions.");
            name = c.until("<|channel|>commentary");
            c.consume(" ");
            c.expect("<|constrain|>");
        }
        c.expect("json<|message|>");
        ChatRequest.ToolCall call = call(name, c.json());
        c.end();
        return new Parsed(preamble, List.of(call));
    }

    private static ChatRequest.ToolCall call(String name, JsonNode arguments) {
        if (name.isEmpty() || !arguments.isObject()) throw new Malformed();
        try {
            return new ChatRequest.ToolCall(ToolCalls.newId(), name, JSON.writeValueAsString(arguments));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Malformed();
        }
    }

    private static String trimSuffix(String s, String suffix) { return s.endsWith(suffix) ? s.substring(0, s.length() - suffix.length()) : s; }

    /** An output that is not in the style (cut by the token limit). */
    private static final class Malformed extends RuntimeException {
        Malformed() { super(null, null, false, false); }
    }

    /** A position in the output. */
    private static final class Cursor {
        private final String s;
        private int at;

        Cursor(String s, int at) { this.s = s; this.at = at; }

        boolean peek(String text) { return s.startsWith(text, at); }

        boolean consume(String text) {
            if (!peek(text)) return false;
            at += text.length();
            return true;
        }

        void expect(String text) { if (!consume(text)) throw new Malformed(); }

        /** The text up to {@code delimiter}, which is consumed too. */
        String until(String delimiter) {
            int i = s.indexOf(delimiter, at);
            if (i < 0) throw new Malformed();
            String out = s.substring(at, i);
            at = i + delimiter.length();
            return out;
        }

        /** One JSON value starting here. */
        JsonNode json() {
            try (JsonParser p = JSON.getFactory().createParser(s.substring(at))) {
                JsonNode v = p.readValueAsTree();
                if (v == null) throw new Malformed();
                at += (int) p.getCurrentLocation().getCharOffset();
                return v;
            } catch (java.io.IOException e) {
                throw new Malformed();
            }
        }

        void end() { if (at != s.length()) throw new Malformed(); }

        String rest() {
            String out = s.substring(at);
            at = s.length();
            return out;
        }

        void skipWhitespace() { while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) at++; }
    }
}
