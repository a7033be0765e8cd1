package dev.domino.compiler.tokens;

import dev.domino.runtime.Vocabulary;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Small vocabularies with each model family's real special-token ids, for the tool-call styles.
 * Llama 3 is the subset cut from the real tokenizer ({@link Llama3Fixture}). The other families'
 * tokenizers are not in ../shared/vocab (its Mistral file is 7B v0.1, which has no {@code [TOOL_CALLS]}),
 * so their fixtures put the documented special tokens at their documented ids (from the families'
 * tokenizer configs and vLLM's parsers) over Llama 3's first 5,000 text tokens, shifted where the
 * family's specials occupy the low ids. Text pieces are not the family's own; the masks under test
 * depend on the frame tokens, which are.
 */
public final class ToolStyleVocabularies {
    private ToolStyleVocabularies() {}

    /** Qwen 2.5 / Qwen 3: {@code <tool_call>} and {@code </tool_call>} are added tokens that are not special (they are text). */
    public static final int QWEN_ENDOFTEXT = 151643, QWEN_IM_START = 151644, QWEN_IM_END = 151645, QWEN_TOOL_CALL = 151657, QWEN_TOOL_CALL_END = 151658;
    /** Mistral v3 tokenizer control tokens. */
    public static final int MISTRAL_EOS = 2, MISTRAL_TOOL_CALLS = 5;
    /** DeepSeek V3 / R1. */
    public static final int DEEPSEEK_EOS = 1, DS_CALLS_BEGIN = 128806, DS_CALLS_END = 128807, DS_CALL_BEGIN = 128808, DS_CALL_END = 128809, DS_SEP = 128814;
    /** Kimi K2. */
    public static final int KIMI_IM_END = 163586, KIMI_SECTION_BEGIN = 163595, KIMI_SECTION_END = 163596, KIMI_CALL_BEGIN = 163597,
            KIMI_ARGUMENT_BEGIN = 163598, KIMI_CALL_END = 163599;
    /** gpt-oss (o200k_harmony). */
    public static final int H_ENDOFTEXT = 199999, H_RETURN = 200002, H_CONSTRAIN = 200003, H_CHANNEL = 200005, H_START = 200006,
            H_END = 200007, H_MESSAGE = 200008, H_CALL = 200012;

    private static final Map<String, Vocabulary> CACHE = new LinkedHashMap<>();

    public static synchronized Vocabulary qwenVocabulary() {
        return CACHE.computeIfAbsent("qwen", n -> build("qwen2.5-fixture", 0, 151665,
                Map.of(QWEN_ENDOFTEXT, "<|endoftext|>", QWEN_IM_START, "<|im_start|>", QWEN_IM_END, "<|im_end|>"),
                Map.of(QWEN_TOOL_CALL, "<tool_call>", QWEN_TOOL_CALL_END, "</tool_call>"), QWEN_IM_END, QWEN_ENDOFTEXT));
    }

    /** Qwen's ids with {@code <tool_call>} and {@code </tool_call>} marked special (as some Hermes fine-tunes' tokenizers do). */
    public static synchronized Vocabulary qwenSpecialToolCallVocabulary() {
        return CACHE.computeIfAbsent("qwen-special", n -> build("qwen-special-tool-call-fixture", 0, 151665,
                Map.of(QWEN_ENDOFTEXT, "<|endoftext|>", QWEN_IM_START, "<|im_start|>", QWEN_IM_END, "<|im_end|>",
                        QWEN_TOOL_CALL, "<tool_call>", QWEN_TOOL_CALL_END, "</tool_call>"), Map.of(), QWEN_IM_END, QWEN_ENDOFTEXT));
    }

    public static synchronized Vocabulary mistralVocabulary() {
        return CACHE.computeIfAbsent("mistral", n -> build("mistral-v3-fixture", 771, 32768,
                Map.of(0, "<unk>", 1, "<s>", MISTRAL_EOS, "</s>", 3, "[INST]", 4, "[/INST]", MISTRAL_TOOL_CALLS, "[TOOL_CALLS]",
                        6, "[AVAILABLE_TOOLS]", 7, "[/AVAILABLE_TOOLS]", 8, "[TOOL_RESULTS]", 9, "[/TOOL_RESULTS]"),
                Map.of(), MISTRAL_EOS));
    }

    public static synchronized Vocabulary deepseekVocabulary() {
        return CACHE.computeIfAbsent("deepseek", n -> build("deepseek-v3-fixture", 2, 129280,
                Map.of(0, "<｜begin▁of▁sentence｜>", DEEPSEEK_EOS, "<｜end▁of▁sentence｜>", DS_CALLS_BEGIN, "<｜tool▁calls▁begin｜>",
                        DS_CALLS_END, "<｜tool▁calls▁end｜>", DS_CALL_BEGIN, "<｜tool▁call▁begin｜>", DS_CALL_END, "<｜tool▁call▁end｜>",
                        DS_SEP, "<｜tool▁sep｜>"),
                Map.of(), DEEPSEEK_EOS));
    }

    public static synchronized Vocabulary kimiVocabulary() {
        return CACHE.computeIfAbsent("kimi", n -> build("kimi-k2-fixture", 0, 163840,
                Map.of(KIMI_IM_END, "<|im_end|>", KIMI_SECTION_BEGIN, "<|tool_calls_section_begin|>", KIMI_SECTION_END, "<|tool_calls_section_end|>",
                        KIMI_CALL_BEGIN, "<|tool_call_begin|>", KIMI_ARGUMENT_BEGIN, "<|tool_call_argument_begin|>", KIMI_CALL_END, "<|tool_call_end|>"),
                Map.of(), KIMI_IM_END));
    }

    public static synchronized Vocabulary harmonyVocabulary() {
        Map<Integer, String> specials = new LinkedHashMap<>();
        specials.put(199998, "<|startoftext|>");
        specials.put(H_ENDOFTEXT, "<|endoftext|>");
        specials.put(H_RETURN, "<|return|>");
        specials.put(H_CONSTRAIN, "<|constrain|>");
        specials.put(H_CHANNEL, "<|channel|>");
        specials.put(H_START, "<|start|>");
        specials.put(H_END, "<|end|>");
        specials.put(H_MESSAGE, "<|message|>");
        specials.put(H_CALL, "<|call|>");
        return CACHE.computeIfAbsent("harmony", n -> build("o200k-harmony-fixture", 0, 201088, specials, Map.of(), H_RETURN, H_CALL, H_ENDOFTEXT));
    }

    /** Llama 3's text tokens below 5,000 at {@code textOffset} + id, the specials, and added text tokens, in {@code size} ids. */
    private static Vocabulary build(String name, int textOffset, int size, Map<Integer, String> specials, Map<Integer, String> addedText, int... eos) {
        Vocabulary llama = Llama3Fixture.vocabulary();
        byte[][] bytes = new byte[size][];
        for (int id = 0; id < 5000; id++) if (llama.isGrammarToken(id)) bytes[textOffset + id] = llama.bytes(id);
        BitSet special = new BitSet();
        for (Map.Entry<Integer, String> e : specials.entrySet()) {
            bytes[e.getKey()] = e.getValue().getBytes(StandardCharsets.UTF_8);
            special.set(e.getKey());
        }
        for (Map.Entry<Integer, String> e : addedText.entrySet()) bytes[e.getKey()] = e.getValue().getBytes(StandardCharsets.UTF_8);
        return new Vocabulary(name, bytes, special, eos);
    }
}
