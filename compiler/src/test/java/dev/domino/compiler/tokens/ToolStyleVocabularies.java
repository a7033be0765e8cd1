package dev.domino.compiler.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Vocabulary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each model family's vocabulary for the tool-call styles, cut from the family's real tokenizer
 * ({@code src/test/resources/vocab/tool-styles/}, whose README names each source): every added token
 * at its real id with its real special flag, the single-byte tokens and the low ordinary ids. Kimi is
 * the exception: its added tokens are real (K2.6's tokenizer_config), its text tokens are Llama 3's,
 * because no copy of Kimi's tiktoken.model was found.
 */
public final class ToolStyleVocabularies {
    private ToolStyleVocabularies() {}

    /** Qwen 2.5 / Qwen 3: {@code <tool_call>}, {@code </tool_call>}, {@code <think>} are added tokens that are not special. */
    public static final int QWEN_ENDOFTEXT = 151643, QWEN_IM_START = 151644, QWEN_IM_END = 151645, QWEN_TOOL_CALL = 151657,
            QWEN_TOOL_CALL_END = 151658, QWEN3_THINK = 151667, QWEN3_THINK_END = 151668;
    /** Mistral v3 (SentencePiece) control tokens. */
    public static final int MISTRAL_EOS = 2, MISTRAL_TOOL_CALLS = 5;
    /** Mistral Nemo (tekken) control tokens. */
    public static final int NEMO_EOS = 2, NEMO_TOOL_CALLS = 9;
    /** DeepSeek V3 / R1: the tool tokens are added tokens that are not special. */
    public static final int DEEPSEEK_EOS = 1, DS_CALLS_BEGIN = 128806, DS_CALLS_END = 128807, DS_CALL_BEGIN = 128808, DS_CALL_END = 128809, DS_SEP = 128814;
    /** Kimi K2 (K2.6's tokenizer_config): the tool tokens are added tokens that are not special. */
    public static final int KIMI_IM_END = 163586, KIMI_SECTION_BEGIN = 163595, KIMI_SECTION_END = 163596, KIMI_CALL_BEGIN = 163597,
            KIMI_ARGUMENT_BEGIN = 163598, KIMI_CALL_END = 163599;
    /** gpt-oss (o200k_harmony). */
    public static final int H_ENDOFTEXT = 199999, H_RETURN = 200002, H_CONSTRAIN = 200003, H_CHANNEL = 200005, H_START = 200006,
            H_END = 200007, H_MESSAGE = 200008, H_CALL = 200012;

    private static final Map<String, Vocabulary> CACHE = new LinkedHashMap<>();

    public static synchronized Vocabulary qwenVocabulary() {
        return CACHE.computeIfAbsent("qwen2.5", n -> load(n, QWEN_IM_END, QWEN_ENDOFTEXT));
    }

    public static synchronized Vocabulary qwen3Vocabulary() {
        return CACHE.computeIfAbsent("qwen3", n -> load(n, QWEN_IM_END, QWEN_ENDOFTEXT));
    }

    /** Qwen 2.5's vocabulary with {@code <tool_call>} and {@code </tool_call>} marked special (as some Hermes fine-tunes' tokenizers do). */
    public static synchronized Vocabulary qwenSpecialToolCallVocabulary() {
        return CACHE.computeIfAbsent("qwen-special", n -> {
            Vocabulary q = qwenVocabulary();
            return markSpecial(q, "qwen2.5-special-tool-call", QWEN_TOOL_CALL, QWEN_TOOL_CALL_END);
        });
    }

    public static synchronized Vocabulary mistralVocabulary() {
        return CACHE.computeIfAbsent("mistral-v3", n -> load(n, MISTRAL_EOS));
    }

    public static synchronized Vocabulary mistralNemoVocabulary() {
        return CACHE.computeIfAbsent("mistral-nemo", n -> load(n, NEMO_EOS));
    }

    /**
     * Mistral Nemo's real vocabulary with {@code <SPECIAL_32>} renamed {@code [ARGS]}: SYNTHETIC. No real v11+ tokenizer
     * (which has {@code [ARGS]}) was found, so the id of {@code [ARGS]} here is not verified; it serves the
     * mistral_v11 layout's tests only, whose masks do not depend on where the token sits.
     */
    public static synchronized Vocabulary mistralV11SyntheticVocabulary() {
        return CACHE.computeIfAbsent("mistral-v11-synthetic", n -> {
            Vocabulary nemo = mistralNemoVocabulary();
            byte[][] bytes = new byte[nemo.size()][];
            for (int id = 0; id < nemo.size(); id++) bytes[id] = nemo.bytes(id).length == 0 ? null : nemo.bytes(id);
            bytes[SYNTHETIC_ARGS] = "[ARGS]".getBytes(StandardCharsets.UTF_8);
            return new Vocabulary("mistral-nemo-with-synthetic-[ARGS]", bytes, nemo.specialIds(), nemo.eosIds());
        });
    }

    /** Where {@link #mistralV11SyntheticVocabulary} puts {@code [ARGS]} (Nemo's {@code <SPECIAL_32>}): not a verified id. */
    public static final int SYNTHETIC_ARGS = 32;

    public static synchronized Vocabulary deepseekVocabulary() {
        return CACHE.computeIfAbsent("deepseek-v3", n -> load(n, DEEPSEEK_EOS));
    }

    /** DeepSeek V3's vocabulary with its tool tokens marked special, for the token-framed path. */
    public static synchronized Vocabulary deepseekSpecialToolVocabulary() {
        return CACHE.computeIfAbsent("deepseek-special", n -> markSpecial(deepseekVocabulary(), "deepseek-v3-special-tools",
                DS_CALLS_BEGIN, DS_CALLS_END, DS_CALL_BEGIN, DS_CALL_END, DS_SEP));
    }

    public static synchronized Vocabulary harmonyVocabulary() {
        return CACHE.computeIfAbsent("gpt-oss", n -> load(n, H_RETURN, H_CALL, H_ENDOFTEXT));
    }

    /** Kimi K2's real added tokens over Llama 3's first 5,000 text tokens (Kimi's own text tokens were not available). */
    public static synchronized Vocabulary kimiVocabulary() {
        return CACHE.computeIfAbsent("kimi", n -> {
            JsonNode added = readJson("kimi-k2.6.added-tokens.json");
            Vocabulary llama = Llama3Fixture.vocabulary();
            byte[][] bytes = new byte[added.path("vocab_size").asInt()][];
            for (int id = 0; id < 5000; id++) if (llama.isGrammarToken(id)) bytes[id] = llama.bytes(id);
            BitSet special = new BitSet();
            for (JsonNode t : added.path("added_tokens")) {
                bytes[t.path("id").asInt()] = t.path("content").asText().getBytes(StandardCharsets.UTF_8);
                if (t.path("special").asBoolean()) special.set(t.path("id").asInt());
            }
            return new Vocabulary("kimi-k2.6-added-tokens", bytes, special, new int[] {KIMI_IM_END});
        });
    }

    private static Vocabulary load(String fixture, int... eos) {
        return VocabularyLoader.load(Llama3Fixture.resource("/vocab/tool-styles/" + fixture + ".tokenizer.json").toString(), eos).vocabulary();
    }

    private static Vocabulary markSpecial(Vocabulary v, String name, int... ids) {
        byte[][] bytes = new byte[v.size()][];
        BitSet special = new BitSet();
        for (int id = 0; id < v.size(); id++) {
            bytes[id] = v.bytes(id).length == 0 ? null : v.bytes(id);
            if (v.isSpecial(id)) special.set(id);
        }
        for (int id : ids) special.set(id);
        return new Vocabulary(name, bytes, special, v.eosIds());
    }

    private static JsonNode readJson(String name) {
        try {
            return new ObjectMapper().readTree(Files.readString(Llama3Fixture.resource("/vocab/tool-styles/" + name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
