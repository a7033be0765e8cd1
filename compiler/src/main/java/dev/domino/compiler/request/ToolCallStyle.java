package dev.domino.compiler.request;

import java.util.List;
import java.util.Locale;

/**
 * How a model family writes a tool call: the frame around the calls and each call's layout, as the
 * family's chat template renders it and vLLM's tool parser of that name reads it. {@link #DOMINO_JSON}
 * is Domino's own (a JSON array of {@code {"name", "parameters"}}, no frame, the default when no
 * style is named or detected). The grammar of a style is built by {@link ToolCallFormats}.
 *
 * <p>Frame pieces that are special tokens in the family's tokenizer are matched as those tokens
 * ({@link #tokens}); a vocabulary that lacks one cannot use the style (refused by name). Pieces that
 * some tokenizers of the family keep as ordinary text ({@code <tool_call>}) are text, or the token
 * when the vocabulary has a special token of exactly that text.
 */
public enum ToolCallStyle {
    /** {@code [{"name": NAME, "parameters": ARGS}, ...]}: Domino's own shape (vLLM's for tool_choice required). */
    DOMINO_JSON("domino", List.of(), List.of()),
    /**
     * Llama 3.1 / 3.2 JSON tools: {@code <|python_tag|>{"name": NAME, "parameters": ARGS}} (calls joined by
     * {@code "; "}), then {@code <|eom_id|>} or {@code <|eot_id|>}; calls that start the output may leave the tag out.
     */
    LLAMA3_JSON("llama3_json", List.of("llama3", "llama3.1", "llama3.2"), List.of("<|python_tag|>", "<|eom_id|>", "<|eot_id|>")),
    /** Hermes, Qwen 2.5, Qwen 3: {@code <tool_call>\n{"name": NAME, "arguments": ARGS}\n</tool_call>}, calls joined by a newline. */
    HERMES("hermes", List.of("qwen2.5", "qwen3"), List.of()),
    /**
     * Qwen 3 with reasoning: an optional {@code <think>\nREASONING\n</think>\n\n} block (Qwen 3's chat
     * template), then the Hermes layout.
     */
    QWEN3_THINK("qwen3_think", List.of("qwen3_thinking"), List.of()),
    /** Qwen3-Coder: {@code <tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n...</function>\n</tool_call>}. */
    QWEN3_CODER("qwen3_coder", List.of("qwen3_xml"), List.of()),
    /** Mistral (v3 tokenizer): {@code [TOOL_CALLS][{"name": NAME, "arguments": ARGS}, ...]}. */
    MISTRAL("mistral", List.of(), List.of("[TOOL_CALLS]")),
    /**
     * Mistral v11+ tokenizers (Small 3.2, Magistral, Devstral): {@code [TOOL_CALLS]NAME[ARGS]ARGS} per call, as mistral-common's
     * v13 chat template renders calls (v11's adds {@code [CALL_ID]ID} before {@code [ARGS]} for past calls; Mistral's own grammar omits it).
     */
    MISTRAL_V11("mistral_v11", List.of("mistral_v13"), List.of("[TOOL_CALLS]", "[ARGS]")),
    /** DeepSeek V3: {@code <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\nARGS\n```<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>}. */
    DEEPSEEK_V3("deepseek_v3", List.of(),
            List.of("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>")),
    /**
     * DeepSeek R1: the V3 layout after an optional reasoning block {@code [<think>]REASONING</think>} (R1's templates open
     * {@code <think>} in the prompt, or leave it to the model, and drop the block from past turns).
     */
    DEEPSEEK_R1("deepseek_r1", List.of(),
            List.of("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>")),
    /**
     * DeepSeek V3.1: {@code <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>},
     * calls chained with nothing between them (vLLM's tool_chat_template_deepseekv31.jinja).
     */
    DEEPSEEK_V31("deepseek_v31", List.of("deepseek_v3.1"),
            List.of("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>")),
    /** Kimi K2: {@code <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:INDEX<|tool_call_argument_begin|>ARGS<|tool_call_end|>...<|tool_calls_section_end|>}. */
    KIMI_K2("kimi_k2", List.of(), List.of("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_begin|>",
            "<|tool_call_argument_begin|>", "<|tool_call_end|>")),
    /**
     * gpt-oss harmony: an optional analysis message, then the final answer
     * ({@code <|channel|>final<|message|>TEXT<|return|>}) or one call
     * ({@code <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>ARGS<|call|>}, or with the recipient
     * in the role header: {@code  to=functions.NAME<|channel|>commentary <|constrain|>json<|message|>ARGS<|call|>}),
     * optionally after a commentary preamble ({@code <|channel|>commentary<|message|>TEXT<|end|><|start|>assistant}).
     */
    HARMONY("harmony", List.of("gpt_oss", "openai"), List.of("<|start|>", "<|end|>", "<|channel|>", "<|message|>", "<|constrain|>",
            "<|return|>", "<|call|>"));

    private final String id;
    private final List<String> aliases;
    private final List<String> tokens;

    ToolCallStyle(String id, List<String> aliases, List<String> tokens) {
        this.id = id;
        this.aliases = aliases;
        this.tokens = tokens;
    }

    /** The name a request ({@code tool_call_style}) or an option uses. */
    public String id() { return id; }

    /** The frame pieces that must be special tokens of the vocabulary. */
    public List<String> tokens() { return tokens; }

    /** The style of a name or alias (case-insensitive, {@code -} read as {@code _}), or null. */
    public static ToolCallStyle byName(String name) {
        String n = name.toLowerCase(Locale.ROOT).replace('-', '_');
        for (ToolCallStyle s : values()) if (s.id.equals(n) || s.aliases.contains(n)) return s;
        return null;
    }

    /** Every accepted name, for error messages. */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (ToolCallStyle s : values()) {
            if (b.length() > 0) b.append(", ");
            b.append(s.id);
        }
        return b.toString();
    }
}
