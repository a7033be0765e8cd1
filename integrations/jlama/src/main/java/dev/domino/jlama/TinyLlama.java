package dev.domino.jlama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes a random-weight Llama that jlama loads: {@code config.json} (jlama reads {@code model_type}, not
 * {@code architectures}), {@code model.safetensors} with HuggingFace Llama tensor names, and a copy of the given {@code tokenizer.json}. No weights can be
 * downloaded here; this model drives the decode loop end to end with a real tokenizer and a real forward pass.
 *
 * <p>The output layer is its own random matrix ({@code lm_head.weight}, standard deviation {@code outputStd}), not
 * tied to the embeddings: with tied random weights the current token's own embedding dominates the residual
 * stream, so the model predicts the token it just read and outputs loop ("5555…", "PaPaPa…") until the limit.
 *
 * <p>{@code tokenizer_config.json} holds a chat template ({@link #CHAT_TEMPLATE}), so jlama's {@code PromptSupport}
 * works on this model as on a real one.
 *
 * <p>With the Llama 3 tokenizer (128,256 ids), 2 layers and width 64 the weights take 66 MB.
 */
public final class TinyLlama {
    /** Names of the tokens that end an output, in the order HuggingFace tokenizers use them. */
    static final List<String> EOS_NAMES = List.of("<|end_of_text|>", "<|eot_id|>", "</s>", "<|endoftext|>", "<|im_end|>");
    static final List<String> BOS_NAMES = List.of("<|begin_of_text|>", "<s>", "<|startoftext|>");
    /** Limits that keep a typo from writing gigabytes. */
    static final int MAX_WIDTH = 4096, MAX_LAYERS = 64, MAX_VOCAB = 1 << 20;

    /**
     * A Llama-3-style chat template (jlama's {@code PromptSupport} renders it with Jinjava): the tools as JSON in a
     * system turn, then one header-delimited turn per message, assistant tool calls as JSON.
     */
    static final String CHAT_TEMPLATE = """
            {%- if tools %}<|start_header_id|>system<|end_header_id|>

            You may call these tools; answer with JSON.
            {%- for t in tools %}
            {{ t | tojson }}
            {%- endfor %}<|eot_id|>{%- endif %}
            {%- for message in messages %}<|start_header_id|>{{ message['role'] }}<|end_header_id|>

            {% if message['content'] %}{{ message['content'] }}{% endif %}{% if message['tool_calls'] %}{{ message['tool_calls'] | tojson }}{% endif %}<|eot_id|>
            {%- endfor %}
            {%- if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>

            {% endif %}""";

    public record Shape(int width, int layers, int heads, int kvHeads, int intermediate, int contextLength) {
        public Shape {
            if (width < 8 || width > MAX_WIDTH) throw new IllegalArgumentException("width must be in [8, " + MAX_WIDTH + "], got " + width);
            if (layers < 1 || layers > MAX_LAYERS) throw new IllegalArgumentException("layers must be in [1, " + MAX_LAYERS + "], got " + layers);
            if (heads < 1 || width % heads != 0) throw new IllegalArgumentException("heads (" + heads + ") must divide width (" + width + ")");
            if (kvHeads < 1 || heads % kvHeads != 0) throw new IllegalArgumentException("kv heads (" + kvHeads + ") must divide heads (" + heads + ")");
            if (intermediate < 1 || intermediate > 4 * MAX_WIDTH) throw new IllegalArgumentException("intermediate size out of range: " + intermediate);
            if (contextLength < 16 || contextLength > 1 << 17) throw new IllegalArgumentException("context length out of range: " + contextLength);
        }

        /** 2 layers, width 64, 4 heads (2 kv heads), context 2048. */
        public static Shape tiny() { return new Shape(64, 2, 4, 2, 128, 2048); }
    }

    private TinyLlama() {}

    /**
     * Writes the model into {@code dir} (created if needed).
     *
     * @param outputStd standard deviation of the output layer: the logits' spread is about sqrt(width) times it
     *                  (0.1 at width 64: mildly peaked next-token distributions)
     */
    public static void write(Path dir, Path tokenizerJson, Shape shape, long seed, double outputStd) throws IOException {
        if (!(outputStd > 0) || outputStd > 10) throw new IllegalArgumentException("output std must be in (0, 10], got " + outputStd);
        ObjectMapper json = new ObjectMapper();
        JsonNode tok = json.readTree(tokenizerJson.toFile());
        Map<String, Integer> added = new LinkedHashMap<>();
        int vocab = 0;
        JsonNode modelVocab = tok.path("model").path("vocab");
        if (!modelVocab.isObject()) throw new IllegalArgumentException(tokenizerJson + ": no model.vocab object (not a BPE tokenizer.json)");
        for (var it = modelVocab.fields(); it.hasNext(); ) vocab = Math.max(vocab, checkedId(it.next().getValue(), tokenizerJson) + 1);
        for (JsonNode a : tok.path("added_tokens")) {
            int id = checkedId(a.path("id"), tokenizerJson);
            added.put(a.path("content").asText(), id);
            vocab = Math.max(vocab, id + 1);
        }
        Integer bos = BOS_NAMES.stream().map(added::get).filter(x -> x != null).findFirst().orElse(null);
        List<Integer> eos = EOS_NAMES.stream().map(added::get).filter(x -> x != null).toList();
        if (bos == null) throw new IllegalArgumentException(tokenizerJson + ": no BOS token among " + BOS_NAMES);
        if (eos.isEmpty()) throw new IllegalArgumentException(tokenizerJson + ": no EOS token among " + EOS_NAMES);

        Files.createDirectories(dir);
        ObjectNode config = json.createObjectNode();
        config.put("model_type", "llama");
        config.putArray("architectures").add("LlamaForCausalLM");
        config.put("hidden_size", shape.width());
        config.put("intermediate_size", shape.intermediate());
        config.put("num_attention_heads", shape.heads());
        config.put("num_key_value_heads", shape.kvHeads());
        config.put("num_hidden_layers", shape.layers());
        config.put("rms_norm_eps", 1e-5);
        config.put("vocab_size", vocab);
        config.put("bos_token_id", bos);
        var eosArray = config.putArray("eos_token_id");
        eos.forEach(eosArray::add);
        config.put("hidden_act", "silu");
        config.put("rope_theta", 500000.0);
        config.put("max_position_embeddings", shape.contextLength());
        config.put("tie_word_embeddings", false);
        config.put("torch_dtype", "float32");
        json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("config.json").toFile(), config);
        Files.copy(tokenizerJson, dir.resolve("tokenizer.json"), StandardCopyOption.REPLACE_EXISTING);
        ObjectNode tokenizerConfig = json.createObjectNode();
        tokenizerConfig.put("bos_token", added.entrySet().stream().filter(e -> e.getValue().equals(bos)).findFirst().orElseThrow().getKey());
        tokenizerConfig.put("eos_token", EOS_NAMES.stream().filter(added::containsKey).findFirst().orElseThrow());
        tokenizerConfig.put("chat_template", CHAT_TEMPLATE);
        json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("tokenizer_config.json").toFile(), tokenizerConfig);

        int w = shape.width(), kv = w / shape.heads() * shape.kvHeads(), ff = shape.intermediate();
        List<Tensor> tensors = new ArrayList<>();
        tensors.add(new Tensor("model.embed_tokens.weight", new int[] {vocab, w}, 1.0));
        for (int l = 0; l < shape.layers(); l++) {
            String p = "model.layers." + l + ".";
            double attn = 1 / Math.sqrt(w);
            tensors.add(new Tensor(p + "input_layernorm.weight", new int[] {w}, -1));
            tensors.add(new Tensor(p + "self_attn.q_proj.weight", new int[] {w, w}, attn));
            tensors.add(new Tensor(p + "self_attn.k_proj.weight", new int[] {kv, w}, attn));
            tensors.add(new Tensor(p + "self_attn.v_proj.weight", new int[] {kv, w}, attn));
            tensors.add(new Tensor(p + "self_attn.o_proj.weight", new int[] {w, w}, attn));
            tensors.add(new Tensor(p + "post_attention_layernorm.weight", new int[] {w}, -1));
            tensors.add(new Tensor(p + "mlp.gate_proj.weight", new int[] {ff, w}, attn));
            tensors.add(new Tensor(p + "mlp.up_proj.weight", new int[] {ff, w}, attn));
            tensors.add(new Tensor(p + "mlp.down_proj.weight", new int[] {w, ff}, 1 / Math.sqrt(ff)));
        }
        tensors.add(new Tensor("model.norm.weight", new int[] {w}, -1));
        tensors.add(new Tensor("lm_head.weight", new int[] {vocab, w}, outputStd));
        writeSafetensors(dir.resolve("model.safetensors"), tensors, seed);
    }

    private static int checkedId(JsonNode id, Path file) {
        if (!id.canConvertToInt() || id.asInt() < 0 || id.asInt() >= MAX_VOCAB) {
            throw new IllegalArgumentException(file + ": token id " + id + " outside [0, " + MAX_VOCAB + ")");
        }
        return id.asInt();
    }

    /** One F32 tensor: Gaussian with the given standard deviation, or all ones (norm weights) when std < 0. */
    private record Tensor(String name, int[] shape, double std) {
        long elements() {
            long n = 1;
            for (int d : shape) n *= d;
            return n;
        }
    }

    /** safetensors: 8-byte little-endian header length, JSON header (padded to 8 bytes), then raw data. */
    private static void writeSafetensors(Path file, List<Tensor> tensors, long seed) throws IOException {
        StringBuilder header = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
        long offset = 0;
        for (Tensor t : tensors) {
            long bytes = t.elements() * Float.BYTES;
            header.append(",\"").append(t.name()).append("\":{\"dtype\":\"F32\",\"shape\":[");
            for (int i = 0; i < t.shape().length; i++) header.append(i > 0 ? "," : "").append(t.shape()[i]);
            header.append("],\"data_offsets\":[").append(offset).append(',').append(offset + bytes).append("]}");
            offset += bytes;
        }
        header.append('}');
        while ((header.length() + 8) % 8 != 0) header.append(' ');
        byte[] h = header.toString().getBytes(StandardCharsets.UTF_8);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        SplittableRandom random = new SplittableRandom(seed);
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).flip();
            out.write(len);
            out.write(ByteBuffer.wrap(h));
            ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (Tensor t : tensors) {
                for (long i = 0, n = t.elements(); i < n; i++) {
                    float v = t.std() < 0 ? 1f : (float) (random.nextGaussian() * t.std());
                    buf.putFloat(v);
                    if (!buf.hasRemaining()) { buf.flip(); while (buf.hasRemaining()) out.write(buf); buf.clear(); }
                }
            }
            buf.flip();
            while (buf.hasRemaining()) out.write(buf);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
