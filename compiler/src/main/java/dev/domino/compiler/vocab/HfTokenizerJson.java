package dev.domino.compiler.vocab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.runtime.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A HuggingFace {@code tokenizer.json}: reads the token bytes of a BPE (or Unigram) model written
 * either in GPT-2's byte-level alphabet or in SentencePiece style ({@code ▁} for space,
 * {@code <0xNN>} byte-fallback pieces). Encoding is delegated to DJL, built on first use.
 */
final class HfTokenizerJson {
    private HfTokenizerJson() {}

    /** How vocabulary strings spell bytes. */
    enum Scheme { BYTE_LEVEL, SENTENCEPIECE }

    static final char METASPACE = '\u2581';

    /** Tokens that end a turn or a document in common model families, looked up by content. */
    static final List<String> EOS_NAMES = List.of("</s>", "<|end_of_text|>", "<|eot_id|>", "<|im_end|>", "<|endoftext|>");

    private static final Pattern BYTE_PIECE = Pattern.compile("<0x([0-9A-Fa-f]{2})>");

    static boolean looksLikeTokenizerJson(JsonNode root) {
        return root != null && root.isObject() && root.path("model").isObject();
    }

    static Tokenizer load(Path file, JsonNode root, int[] eosOverride) {
        JsonNode model = root.path("model");
        String type = model.path("type").asText("BPE");
        if (!type.equals("BPE") && !type.equals("Unigram")) {
            throw new IllegalArgumentException(file.getFileName() + ": unsupported tokenizer model type '" + type
                    + "' (expected BPE or Unigram)");
        }
        Scheme scheme = detectScheme(root, file);
        boolean byteFallback = model.path("byte_fallback").asBoolean(false) || configTypes(root).contains("ByteFallback");

        // id -> vocabulary string, from the model and then the added tokens (which win).
        Map<Integer, String> pieces = readModelVocab(model, file);
        Map<Integer, String> added = new HashMap<>();
        BitSet special = new BitSet();
        for (JsonNode t : root.path("added_tokens")) {
            String where = file.getFileName() + ": added token " + t.path("content");
            if (!t.path("id").isIntegralNumber()) throw new IllegalArgumentException(where + ": id " + t.path("id") + " is not an integer");
            int id = TokenIds.check(t.path("id").canConvertToLong() ? t.path("id").asLong() : Long.MAX_VALUE, where);
            if (!t.path("content").isTextual()) throw new IllegalArgumentException(where + ": content is not a string");
            if (added.put(id, t.path("content").asText()) != null) {
                throw new IllegalArgumentException(where + ": id " + id + " is used by two added tokens");
            }
            if (t.path("special").asBoolean(false)) special.set(id);
        }
        int size = 0;
        for (int id : pieces.keySet()) size = Math.max(size, id + 1);
        for (int id : added.keySet()) size = Math.max(size, id + 1);
        TokenIds.checkNotEmpty(size, file.getFileName().toString());
        if (eosOverride != null) TokenIds.checkEos(eosOverride, size, file.getFileName().toString());

        byte[][] bytes = new byte[size][];
        pieces.forEach((id, piece) -> bytes[id] = scheme == Scheme.BYTE_LEVEL
                ? ByteLevelAlphabet.decode(piece) : sentencePieceBytes(piece, byteFallback));
        // Added tokens are matched on their literal content, never through the byte alphabet. An added
        // token may restate a model token (Llama 3 lists its specials in both), but one that gives an
        // existing id other bytes would make the masks disagree with the model: refused.
        added.forEach((id, content) -> {
            byte[] b = content.getBytes(StandardCharsets.UTF_8);
            if (bytes[id] != null && !java.util.Arrays.equals(bytes[id], b)) {
                throw new IllegalArgumentException(file.getFileName() + ": added token " + Json.quote(content) + " has id " + id
                        + ", which the model vocabulary gives to " + Json.quote(pieces.get(id)));
            }
            bytes[id] = b;
        });

        // <unk> stands for "some text we cannot spell": never a grammar token.
        String unk = model.path("unk_token").isTextual() ? model.path("unk_token").asText() : null;
        Map<String, Integer> idsByText = new HashMap<>();
        pieces.forEach((id, piece) -> idsByText.put(piece, id));
        added.forEach((id, content) -> idsByText.put(content, id));
        if (unk != null && idsByText.containsKey(unk)) special.set(idsByText.get(unk));

        int[] eos = eosOverride != null ? eosOverride.clone()
                : EOS_NAMES.stream().filter(idsByText::containsKey).mapToInt(idsByText::get).distinct().toArray();
        Vocabulary vocab = new Vocabulary(displayName(file), bytes, special, eos);
        return new LoadedTokenizer(vocab, () -> DjlEncoder.open(file));
    }

    /** "llama3-tokenizer.json" as is, but "Llama-3.1-8B/tokenizer.json" for the generic name. */
    private static String displayName(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        String name = file.getFileName().toString();
        return name.equals("tokenizer.json") && parent != null && parent.getFileName() != null
                ? parent.getFileName() + "/" + name : name;
    }

    /** BPE vocabularies are a string-to-id object; Unigram ones a list of [piece, score] pairs. */
    private static Map<Integer, String> readModelVocab(JsonNode model, Path file) {
        JsonNode vocab = model.path("vocab");
        Map<Integer, String> pieces = new HashMap<>();
        if (vocab.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = vocab.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String where = file.getFileName() + ": model.vocab entry " + Json.quote(e.getKey());
                JsonNode idNode = e.getValue();
                if (!idNode.isIntegralNumber()) throw new IllegalArgumentException(where + ": id " + idNode + " is not an integer");
                int id = TokenIds.check(idNode.canConvertToLong() ? idNode.asLong() : Long.MAX_VALUE, where);
                String previous = pieces.put(id, e.getKey());
                if (previous != null) {
                    throw new IllegalArgumentException(where + ": id " + id + " is also given to " + Json.quote(previous));
                }
            }
        } else if (vocab.isArray()) {
            if (vocab.size() > TokenIds.MAX_ID + 1) TokenIds.check(vocab.size() - 1L, file.getFileName() + ": model.vocab");
            for (int i = 0; i < vocab.size(); i++) pieces.put(i, vocab.get(i).path(0).asText());
        } else {
            throw new IllegalArgumentException(file.getFileName() + ": tokenizer.json has no model.vocab");
        }
        return pieces;
    }

    /**
     * Byte-level if any ByteLevel component appears; SentencePiece if the config speaks of
     * Metaspace, ByteFallback or replaces/prepends {@code ▁}. Anything else we cannot read safely.
     */
    static Scheme detectScheme(JsonNode root, Path file) {
        Set<String> types = configTypes(root);
        if (types.contains("ByteLevel")) return Scheme.BYTE_LEVEL;
        if (types.contains("Metaspace") || types.contains("ByteFallback") || mentionsMetaspace(root)
                || root.path("model").path("byte_fallback").asBoolean(false)) {
            return Scheme.SENTENCEPIECE;
        }
        throw new IllegalArgumentException(file.getFileName() + ": cannot tell how this tokenizer.json spells bytes "
                + "(expected a ByteLevel or a SentencePiece-style Metaspace/ByteFallback config)");
    }

    /** All component "type" names in the normalizer, pre-tokenizer and decoder (nested sequences included). */
    private static Set<String> configTypes(JsonNode root) {
        Set<String> types = new HashSet<>();
        for (String key : List.of("normalizer", "pre_tokenizer", "decoder")) collectTypes(root.path(key), types);
        return types;
    }

    private static void collectTypes(JsonNode node, Set<String> out) {
        if (node.isObject()) {
            if (node.path("type").isTextual()) out.add(node.path("type").asText());
            node.elements().forEachRemaining(child -> collectTypes(child, out));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(child -> collectTypes(child, out));
        }
    }

    private static boolean mentionsMetaspace(JsonNode root) {
        String m = String.valueOf(METASPACE);
        for (String key : List.of("normalizer", "pre_tokenizer", "decoder")) {
            List<JsonNode> texts = new ArrayList<>();
            collectText(root.path(key), texts);
            for (JsonNode t : texts) if (t.asText().contains(m)) return true;
        }
        return false;
    }

    private static void collectText(JsonNode node, List<JsonNode> out) {
        if (node.isTextual()) out.add(node);
        else node.elements().forEachRemaining(child -> collectText(child, out));
    }

    /** JSON string quoting for error messages (control characters escaped). */
    private static final class Json {
        static String quote(String s) {
            return s == null ? "null" : com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
        }
    }

    /** {@code <0xNN>} is the single byte NN (with byte fallback); otherwise {@code ▁} is a space. */
    static byte[] sentencePieceBytes(String piece, boolean byteFallback) {
        if (byteFallback) {
            Matcher m = BYTE_PIECE.matcher(piece);
            if (m.matches()) return new byte[] {(byte) Integer.parseInt(m.group(1), 16)};
        }
        return piece.replace(METASPACE, ' ').getBytes(StandardCharsets.UTF_8);
    }
}
