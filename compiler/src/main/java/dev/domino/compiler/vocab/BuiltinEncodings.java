package dev.domino.compiler.vocab;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import dev.domino.runtime.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Map;
import java.util.Optional;

/** OpenAI's tiktoken encodings as shipped with jtokkit (o200k_base, cl100k_base, p50k_base, r50k_base). */
final class BuiltinEncodings {
    private BuiltinEncodings() {}

    static final String ENDOFTEXT = "<|endoftext|>";

    /** Special tokens per encoding, as tiktoken defines them (jtokkit does not expose all of them). */
    private static final Map<String, Map<Integer, String>> SPECIALS = Map.of(
            "o200k_base", Map.of(199999, ENDOFTEXT, 200018, "<|endofprompt|>"),
            "cl100k_base", Map.of(100257, ENDOFTEXT, 100258, "<|fim_prefix|>", 100259, "<|fim_middle|>",
                    100260, "<|fim_suffix|>", 100276, "<|endofprompt|>"),
            "p50k_base", Map.of(50256, ENDOFTEXT),
            "r50k_base", Map.of(50256, ENDOFTEXT));

    private static final Map<String, EncodingType> TYPES = Map.of(
            "o200k_base", EncodingType.O200K_BASE,
            "cl100k_base", EncodingType.CL100K_BASE,
            "p50k_base", EncodingType.P50K_BASE,
            "r50k_base", EncodingType.R50K_BASE);

    static boolean isKnown(String name) { return TYPES.containsKey(name); }

    static Tokenizer load(String name, int[] eosOverride) {
        EncodingType type = TYPES.get(name);
        if (type == null) throw new IllegalArgumentException("not a built-in encoding: " + name);
        // The lazy registry only loads the encoding asked for (the default one loads all four).
        Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(type);
        Map<Integer, String> specials = SPECIALS.get(name);

        int maxRegular = maxRegularId(encoding);
        int maxSpecial = specials.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
        byte[][] bytes = new byte[Math.max(maxRegular, maxSpecial) + 1][];
        IntArrayList one = new IntArrayList(1);
        one.add(0);
        for (int id = 0; id <= maxRegular; id++) {
            if (specials.containsKey(id)) continue;
            bytes[id] = decodeOrNull(encoding, one, id);
        }
        BitSet special = new BitSet(bytes.length);
        specials.forEach((id, text) -> {
            bytes[id] = text.getBytes(StandardCharsets.UTF_8);
            special.set(id);
        });
        int[] eos = eosOverride != null ? eosOverride.clone() : new int[] {idOf(specials, ENDOFTEXT)};
        Vocabulary vocab = new Vocabulary(name, bytes, special, eos);
        return new LoadedTokenizer(vocab, () -> text -> encoding.encodeOrdinary(text).toArray());
    }

    /**
     * Highest id jtokkit can decode. Ranks are dense up to a few holes, so probe upward from the
     * number of ranks until a run of failures shows we are past the end.
     */
    private static int maxRegularId(Encoding encoding) {
        IntArrayList one = new IntArrayList(1);
        one.add(0);
        int last = -1;
        int misses = 0;
        for (int id = 0; misses < 1024; id++) {
            if (decodeOrNull(encoding, one, id) != null) { last = id; misses = 0; } else misses++;
        }
        return last;
    }

    /** The id's bytes, or null when the encoding has no such id (a hole). */
    private static byte[] decodeOrNull(Encoding encoding, IntArrayList one, int id) {
        one.set(0, id);
        try {
            return encoding.decodeBytes(one);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static int idOf(Map<Integer, String> specials, String text) {
        Optional<Integer> id = specials.entrySet().stream().filter(e -> e.getValue().equals(text)).map(Map.Entry::getKey).findFirst();
        return id.orElseThrow();
    }
}
