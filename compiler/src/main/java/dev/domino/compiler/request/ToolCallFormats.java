package dev.domino.compiler.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A tool request in a model family's own format ({@link ToolCallStyle}), written as a structural
 * tag (XGrammar's format, compiled by {@code StructuralTags}), with vLLM's meaning of the fields:
 * <ul>
 *   <li>{@code tool_choice: "auto"}: free text, then calls starting at the style's trigger (after
 *   which every call follows its function's parameters), or no call; with a {@code response_format},
 *   the schema's answer or calls (no free text: the answer is the schema's);</li>
 *   <li>{@code "required"}: one call or more, nothing before the first;</li>
 *   <li>a named function: calls of that function only;</li>
 *   <li>{@code "none"}: free text without the trigger (or the {@code response_format} answer);</li>
 *   <li>{@code parallel_tool_calls: false}: one call at most.</li>
 * </ul>
 * gpt-oss harmony writes one call per message (the call token ends the turn), so it allows one call
 * whatever {@code parallel_tool_calls} says, after an optional analysis message.
 */
final class ToolCallFormats {
    private ToolCallFormats() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The structural tag of the request in {@code style}; {@code vocabulary} (may be null) decides text-or-token pieces. */
    static ObjectNode structuralTag(ToolRequest r, ToolCallStyle style, Vocabulary vocabulary) {
        if (vocabulary != null) requireTokens(style, vocabulary);
        Pieces p = new Pieces(vocabulary);
        ObjectNode format = style == ToolCallStyle.HARMONY ? harmony(r, p) : framed(r, style, p);
        ObjectNode tag = F.objectNode();
        tag.put("type", "structural_tag");
        tag.set("format", format);
        return tag;
    }

    /** The style whose frame tokens the vocabulary has, when exactly one has them; null otherwise. */
    static ToolCallStyle detect(Vocabulary v) {
        ToolCallStyle found = null;
        for (ToolCallStyle s : ToolCallStyle.values()) {
            List<String> marks = switch (s) {
                case LLAMA3_JSON -> List.of("<|python_tag|>");
                case HERMES -> List.of("<tool_call>", "</tool_call>");
                case MISTRAL -> List.of("[TOOL_CALLS]");
                case MISTRAL_V11 -> List.of("[TOOL_CALLS]", "[ARGS]");
                case DEEPSEEK_V3 -> List.of("<｜tool▁calls▁begin｜>"); // R1 and V3.1 share the vocabulary: named, not detected
                case KIMI_K2 -> List.of("<|tool_calls_section_begin|>");
                case HARMONY -> List.of("<|channel|>", "<|constrain|>");
                default -> List.of(); // Domino's own; Qwen3-Coder and qwen3_think share Qwen's vocabulary with hermes
            };
            if (marks.isEmpty() || !marks.stream().allMatch(t -> singleToken(v, t, false) >= 0)) continue;
            if (s == ToolCallStyle.MISTRAL_V11 && found == ToolCallStyle.MISTRAL) { found = s; continue; } // [ARGS] marks the newer layout
            if (found != null) return null; // ambiguous
            found = s;
        }
        return found;
    }

    /** Refuses a style whose frame tokens the vocabulary lacks, naming the first missing one. */
    static void requireTokens(ToolCallStyle style, Vocabulary v) {
        for (String t : style.tokens()) {
            if (singleToken(v, t, false) < 0) {
                throw new RequestSpecException("/tool_call_style", "tool-call style " + style.id() + " needs the token " + t
                        + ", which the vocabulary " + v.name() + " does not have as one token");
            }
        }
    }

    /** The id of a token whose bytes are exactly {@code text} (a special one if {@code specialOnly}), or -1. */
    static int singleToken(Vocabulary v, String text, boolean specialOnly) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int plain = -1;
        for (int id = 0; id < v.size(); id++) {
            byte[] t = v.bytes(id);
            if (t.length != b.length || !Arrays.equals(t, b)) continue;
            if (v.isSpecial(id)) return id;
            if (plain < 0) plain = id;
        }
        return specialOnly ? -1 : plain;
    }

    // ------------------------------------------------------------------ styles with a trigger

    /**
     * A style's layout: its trigger text (null for a token trigger), a call of a function, what goes
     * between calls, before the first (the trigger, null when the call starts with it) and after the
     * last; {@code bareStart}, when not null: calls that start the output may leave out {@code begin},
     * and then start with this character (Llama 3 writes JSON tool calls with or without
     * {@code <|python_tag|>}; vLLM's llama3_json reads an output that starts with it as a call, so with
     * {@code auto} free text does not start with it).
     */
    private record Layout(String textTrigger, Function<String, ObjectNode> call, ObjectNode separator, ObjectNode begin, ObjectNode end,
                          Character bareStart) {}

    private static ObjectNode framed(ToolRequest r, ToolCallStyle style, Pieces p) {
        Map<String, JsonNode> fns = r.callable();
        ObjectNode calls;
        ObjectNode bare = null; // calls without their trigger, at the start of the output
        Character bareStart = null;
        String trigger;
        if (style == ToolCallStyle.MISTRAL) {
            ObjectNode toolCalls = p.token("[TOOL_CALLS]");
            trigger = p.textOf(toolCalls);
            ObjectNode array = ToolCallSchemas.required(fns, r.parallel(), "arguments");
            calls = seq(toolCalls, json(array));
        } else {
            Layout l = layout(style, r, p);
            trigger = l.textTrigger();
            List<ObjectNode> each = new ArrayList<>();
            for (String name : fns.keySet()) each.add(l.call().apply(name));
            ObjectNode one = or(each);
            ObjectNode many = !r.parallel() ? one
                    : l.separator() == null ? plus(one) : seq(one, star(seq(l.separator(), one)));
            List<ObjectNode> parts = new ArrayList<>();
            if (l.begin() != null) parts.add(l.begin());
            parts.add(many);
            if (l.end() != null) parts.add(l.end());
            calls = seq(parts.toArray(new ObjectNode[0]));
            if (l.bareStart() != null) {
                bare = l.end() == null ? many : seq(many, l.end());
                bareStart = l.bareStart();
            }
        }
        ObjectNode free = anyText(trigger);
        ObjectNode answer = r.answer() == null ? null : json(r.answer());
        List<ObjectNode> callForms = bare == null ? List.of(calls) : List.of(calls, bare);
        // with calls that may start bare, auto's free text cannot start as they do
        ObjectNode autoFree = bareStart == null ? free : optional(seq(regex("[^" + regexEscaped(bareStart) + "]"), free));
        List<ObjectNode> auto = new ArrayList<>();
        auto.add(answer != null ? answer : seq(autoFree, optional(calls)));
        if (answer != null) auto.add(calls);
        if (bare != null) auto.add(bare);
        ObjectNode body = switch (r.choice()) {
            case REQUIRED, NAMED -> or(callForms);
            case NONE -> answer != null ? answer : free;
            case AUTO -> or(auto);
        };
        return switch (style) {
            case QWEN3_THINK -> seq(optional(thinkBlock(p, false, trigger)), body);
            case DEEPSEEK_R1 -> seq(optional(thinkBlock(p, true, trigger)), body);
            default -> body;
        };
    }

    /**
     * A reasoning block before the answer and the calls, as Qwen 3's and DeepSeek R1's chat templates write it:
     * {@code <think>} (optional where the prompt may have opened it), the reasoning (text without
     * {@code </think>}), {@code </think>}, then up to two newlines. The reasoning never holds a text trigger either:
     * a parser run without a reasoning parser would take it for a call (and {@code none} bans it everywhere).
     */
    private static ObjectNode thinkBlock(Pieces p, boolean openedByThePrompt, String textTrigger) {
        ObjectNode open = p.frame("<think>");
        ObjectNode reasoning = anyText("</think>");
        if (textTrigger != null) ((ArrayNode) reasoning.get("excludes")).add(textTrigger);
        return seq(openedByThePrompt ? optional(open) : open, reasoning, p.frame("</think>"), regex("\\n{0,2}"));
    }

    private static Layout layout(ToolCallStyle style, ToolRequest r, Pieces p) {
        Map<String, JsonNode> fns = r.functions();
        switch (style) {
            case LLAMA3_JSON: {
                ObjectNode begin = p.token("<|python_tag|>");
                return new Layout(p.textOf(begin),
                        name -> seq(text("{\"name\": " + quoted(name) + ", \"parameters\": "), json(fns.get(name)), text("}")),
                        text("; "), begin, or(List.of(p.token("<|eom_id|>"), p.token("<|eot_id|>"))), '{');
            }
            case HERMES:
            case QWEN3_THINK: {
                ObjectNode open = p.frame("<tool_call>"), close = p.frame("</tool_call>");
                return new Layout(p.textOf(open),
                        name -> seq(open, text("\n{\"name\": " + quoted(name) + ", \"arguments\": "), json(fns.get(name)), text("}\n"), close),
                        text("\n"), null, null, null);
            }
            case QWEN3_CODER: {
                ObjectNode open = p.frame("<tool_call>"), close = p.frame("</tool_call>");
                return new Layout(p.textOf(open),
                        name -> seq(open, text("\n<function=" + name + ">\n"), qwenXml(fns.get(name)), text("\n</function>\n"), close),
                        text("\n"), null, null, null);
            }
            case DEEPSEEK_V3:
            case DEEPSEEK_R1: {
                ObjectNode begin = p.token("<｜tool▁calls▁begin｜>");
                return new Layout(p.textOf(begin),
                        name -> seq(p.token("<｜tool▁call▁begin｜>"), text("function"), p.token("<｜tool▁sep｜>"),
                                text(name + "\n```json\n"), json(fns.get(name)), text("\n```"), p.token("<｜tool▁call▁end｜>")),
                        text("\n"), begin, p.token("<｜tool▁calls▁end｜>"), null);
            }
            case MISTRAL_V11: {
                ObjectNode toolCalls = p.token("[TOOL_CALLS]");
                return new Layout(p.textOf(toolCalls), name -> seq(toolCalls, text(name), p.token("[ARGS]"), json(fns.get(name))),
                        null, null, null, null);
            }
            case DEEPSEEK_V31: {
                ObjectNode begin = p.token("<｜tool▁calls▁begin｜>");
                return new Layout(p.textOf(begin),
                        name -> seq(p.token("<｜tool▁call▁begin｜>"), text(name), p.token("<｜tool▁sep｜>"), json(fns.get(name)),
                                p.token("<｜tool▁call▁end｜>")),
                        null, begin, p.token("<｜tool▁calls▁end｜>"), null);
            }
            case KIMI_K2: {
                ObjectNode begin = p.token("<|tool_calls_section_begin|>");
                return new Layout(p.textOf(begin),
                        name -> seq(p.token("<|tool_call_begin|>"), text("functions." + name + ":"), regex("0|[1-9][0-9]{0,5}"),
                                p.token("<|tool_call_argument_begin|>"), json(fns.get(name)), p.token("<|tool_call_end|>")),
                        null, begin, p.token("<|tool_calls_section_end|>"), null);
            }
            default:
                throw new IllegalArgumentException("no layout for " + style);
        }
    }

    // ------------------------------------------------------------------ harmony

    private static ObjectNode harmony(ToolRequest r, Pieces p) {
        ObjectNode analysis = seq(p.token("<|channel|>"), text("analysis"), p.token("<|message|>"), anyText(null), p.token("<|end|>"),
                p.token("<|start|>"), text("assistant"));
        ObjectNode finalAnswer = seq(p.token("<|channel|>"), text("final"), p.token("<|message|>"),
                r.answer() == null ? anyText(null) : json(r.answer()), p.token("<|return|>"));
        // a preamble: a commentary message without a recipient, shown to the user before the call
        ObjectNode preamble = seq(p.token("<|channel|>"), text("commentary"), p.token("<|message|>"), anyText(null), p.token("<|end|>"),
                p.token("<|start|>"), text("assistant"));
        List<ObjectNode> each = new ArrayList<>();
        for (Map.Entry<String, JsonNode> f : r.callable().entrySet()) {
            String recipient = "to=functions." + f.getKey();
            ObjectNode content = seq(optional(text(" ")), p.token("<|constrain|>"), text("json"), p.token("<|message|>"), json(f.getValue()),
                    p.token("<|call|>"));
            // the recipient in the channel part of the header, or in the role part (right after "<|start|>assistant")
            each.add(seq(p.token("<|channel|>"), text("commentary " + recipient), content));
            each.add(seq(text(" " + recipient), p.token("<|channel|>"), text("commentary"), content));
        }
        ObjectNode call = seq(optional(preamble), or(each));
        ObjectNode body = switch (r.choice()) {
            case REQUIRED, NAMED -> call;
            case NONE -> finalAnswer;
            case AUTO -> or(List.of(finalAnswer, call));
        };
        return seq(optional(analysis), body);
    }

    // ------------------------------------------------------------------ structural-tag pieces

    /**
     * Frame pieces for one vocabulary. A piece the vocabulary has as a special token is that token.
     * A piece it has as an ordinary added token (DeepSeek's and Kimi's tool tokens, Qwen's
     * {@code <tool_call>}: added, not special, in their real tokenizers) is text, which the added token
     * spells as well as its pieces do, and which free text must then exclude as text when it is the trigger.
     */
    private static final class Pieces {
        private final Vocabulary vocabulary;

        Pieces(Vocabulary vocabulary) { this.vocabulary = vocabulary; }

        /** A piece the style requires as one token of the vocabulary (checked by {@link #requireTokens}). */
        ObjectNode token(String text) {
            if (vocabulary != null && singleToken(vocabulary, text, true) < 0) return text(text);
            ObjectNode o = F.objectNode();
            o.put("type", "token");
            o.put("token", text);
            return o;
        }

        /** A piece that tokenizers of the family keep as text, unless the vocabulary has it as a special token. */
        ObjectNode frame(String text) {
            return vocabulary != null && singleToken(vocabulary, text, true) >= 0 ? token(text) : text(text);
        }

        /** The text of a text piece, null for a token piece. */
        String textOf(ObjectNode piece) { return piece.path("type").asText().equals("const_string") ? piece.path("value").asText() : null; }
    }

    private static ObjectNode text(String value) {
        ObjectNode o = F.objectNode();
        o.put("type", "const_string");
        o.put("value", value);
        return o;
    }

    private static ObjectNode json(JsonNode schema) {
        ObjectNode o = F.objectNode();
        o.put("type", "json_schema");
        o.set("json_schema", schema);
        return o;
    }

    private static ObjectNode qwenXml(JsonNode schema) {
        ObjectNode o = F.objectNode();
        o.put("type", "qwen_xml_parameter");
        o.set("json_schema", schema);
        return o;
    }

    private static ObjectNode regex(String pattern) {
        ObjectNode o = F.objectNode();
        o.put("type", "regex");
        o.put("pattern", pattern);
        return o;
    }

    /** Text without special tokens, and without the trigger when it is text. */
    private static ObjectNode anyText(String textTrigger) {
        ObjectNode o = F.objectNode();
        o.put("type", "any_text");
        if (textTrigger != null) o.putArray("excludes").add(textTrigger);
        return o;
    }

    private static ObjectNode seq(ObjectNode... elements) { return list("sequence", List.of(elements)); }

    private static ObjectNode or(List<ObjectNode> elements) { return elements.size() == 1 ? elements.get(0) : list("or", elements); }

    private static ObjectNode list(String type, List<ObjectNode> elements) {
        ObjectNode o = F.objectNode();
        o.put("type", type);
        ArrayNode a = o.putArray("elements");
        for (ObjectNode e : elements) a.add(e);
        return o;
    }

    private static ObjectNode optional(ObjectNode content) { return wrap("optional", content); }

    private static ObjectNode star(ObjectNode content) { return wrap("star", content); }

    private static ObjectNode plus(ObjectNode content) { return wrap("plus", content); }

    private static ObjectNode wrap(String type, ObjectNode content) {
        ObjectNode o = F.objectNode();
        o.put("type", type);
        o.set("content", content);
        return o;
    }

    private static String regexEscaped(char c) { return Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c; }

    private static String quoted(String name) {
        try {
            return MAPPER.writeValueAsString(name);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
