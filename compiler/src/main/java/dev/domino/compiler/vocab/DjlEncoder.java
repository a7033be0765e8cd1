package dev.domino.compiler.vocab;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Encodes with HuggingFace's own tokenizer (Rust, via DJL's bundled native library), so ids match
 * the model exactly. No special tokens are added, nothing is truncated or padded.
 * Note: the native tokenizer still recognises added tokens written literally in the text
 * (e.g. {@code "</s>"} becomes the special id), as HuggingFace does.
 */
final class DjlEncoder implements TextEncoder {
    private final HuggingFaceTokenizer tokenizer;

    private DjlEncoder(HuggingFaceTokenizer tokenizer) { this.tokenizer = tokenizer; }

    static DjlEncoder open(Path tokenizerJson) {
        try {
            return new DjlEncoder(HuggingFaceTokenizer.builder()
                    .optTokenizerPath(tokenizerJson)
                    .optAddSpecialTokens(false)
                    .optTruncation(false) // DJL truncates at 512 tokens by default
                    .optPadding(false)
                    .optMaxLength(Integer.MAX_VALUE)
                    .build());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + tokenizerJson + " with DJL", e);
        } catch (RuntimeException | LinkageError e) { // LinkageError: native library missing for this platform
            throw new UnsupportedOperationException("cannot encode with " + tokenizerJson.getFileName()
                    + ": DJL's HuggingFace tokenizer failed to load (" + e + ")", e);
        }
    }

    @Override
    public int[] encode(String text) {
        long[] ids = tokenizer.encode(text, false, false).getIds();
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) out[i] = Math.toIntExact(ids[i]);
        return out;
    }
}
