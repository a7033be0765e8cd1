package dev.domino.jlama;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small byte-level BPE {@code tokenizer.json} in the Llama 3 format (same split regex, GPT-2 byte map,
 * {@code <|begin_of_text|>}, {@code <|end_of_text|>}, {@code <|eot_id|>}; the chat template's header markers
 * are plain text here): the 256 bytes, then every prefix of a
 * list of JSON pieces, keys and words as merged tokens (about 600 ids). The full Llama 3 tokenizer.json is 6.1 MB,
 * over the repository's file limit, and tests stay off ../shared; tests (and {@code tiny-model --small-tokenizer}) write
 * this one instead.
 */
public final class SmallTokenizer {
    private SmallTokenizer() {}

    static final List<String> PIECES = List.of(
            "{\"", "\":", "\":\"", "\",\"", "\",", "\"}", "\"}}", "}}", "\"},", "\"},{\"", ":[", ":[{\"", "[{\"", "}]", "\"}]", "},{", "],\"",
            ":{\"", "true", "false", "null", ",\"", "\"]", "[\"", "\",\"", ":\"", "\":[", "\":{", "\\u00", "\\\"", "\\n",
            "name", "age", "email", "employed", "order_id", "status", "customer", "tier", "items", "sku", "quantity", "unit",
            "tags", "arguments", "city", "query", "max_results", "to", "subject", "urgent", "get_weather", "search_web",
            "send_email", "celsius", "fahrenheit", "temperature", "count", "ratio", "code", "pending", "paid", "shipped",
            "cancelled", "basic", "gold", "piece", "kg", "box", "gift", "express", "fragile",
            " the", " and", " of", " to", " a", " in", "Paris", "London", "Alice", "Bob", "hello", "world", "weather",
            "0.", "10", "12", "25", "42", "100", "2024", "-1", "e+", "E-", "ABC", "XYZ", "-12", "é", "ü", "日本", "\u00e9t\u00e9");

    public static void write(Path file) throws IOException { write(file, List.of()); }

    /** With {@code extraSpecial} (such as {@code <|python_tag|>}, {@code <|eom_id|>}) added as special tokens after the others. */
    public static void write(Path file, List<String> extraSpecial) throws IOException {
        String[] byteChar = gpt2ByteMap();
        Map<String, Integer> vocab = new LinkedHashMap<>();
        for (int b = 0; b < 256; b++) vocab.put(byteChar[b], b);
        List<String> merges = new ArrayList<>();
        for (String piece : PIECES) {
            byte[] bytes = piece.getBytes(StandardCharsets.UTF_8);
            String left = byteChar[bytes[0] & 0xFF];
            for (int i = 1; i < bytes.length; i++) {
                String right = byteChar[bytes[i] & 0xFF];
                String merged = left + right;
                if (!vocab.containsKey(merged)) {
                    vocab.put(merged, vocab.size());
                    merges.add(left + " " + right);
                }
                left = merged;
            }
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("version", "1.0");
        ArrayNode added = root.putArray("added_tokens");
        List<String> specials = new ArrayList<>(List.of("<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>"));
        specials.addAll(extraSpecial);
        for (String special : specials) {
            ObjectNode a = added.addObject();
            a.put("id", vocab.size() + added.size() - 1);
            a.put("content", special);
            a.put("single_word", false);
            a.put("lstrip", false);
            a.put("rstrip", false);
            a.put("normalized", false);
            a.put("special", true);
        }
        root.putNull("normalizer");
        ObjectNode pre = root.putObject("pre_tokenizer");
        pre.put("type", "Sequence");
        ArrayNode pres = pre.putArray("pretokenizers");
        ObjectNode split = pres.addObject();
        split.put("type", "Split");
        split.putObject("pattern").put("Regex", "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+");
        split.put("behavior", "Isolated");
        split.put("invert", false);
        ObjectNode byteLevel = pres.addObject();
        byteLevel.put("type", "ByteLevel");
        byteLevel.put("add_prefix_space", false);
        byteLevel.put("trim_offsets", true);
        byteLevel.put("use_regex", false);
        root.putNull("post_processor");
        ObjectNode decoder = root.putObject("decoder");
        decoder.put("type", "ByteLevel");
        decoder.put("add_prefix_space", true);
        decoder.put("trim_offsets", true);
        decoder.put("use_regex", true);
        ObjectNode model = root.putObject("model");
        model.put("type", "BPE");
        model.putNull("dropout");
        model.putNull("unk_token");
        model.putNull("continuing_subword_prefix");
        model.putNull("end_of_word_suffix");
        model.put("fuse_unk", false);
        model.put("byte_fallback", false);
        model.put("ignore_merges", true);
        ObjectNode v = model.putObject("vocab");
        vocab.forEach(v::put);
        ArrayNode m = model.putArray("merges");
        merges.forEach(m::add);
        json.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }

    /** GPT-2's byte-to-character map: printable bytes stand for themselves, the others for chars from U+0100 on. */
    static String[] gpt2ByteMap() {
        String[] map = new String[256];
        int next = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            map[b] = new String(Character.toChars(printable ? b : 256 + next++));
        }
        return map;
    }
}
