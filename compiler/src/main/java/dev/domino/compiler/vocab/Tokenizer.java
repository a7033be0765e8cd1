package dev.domino.compiler.vocab;

import dev.domino.runtime.Vocabulary;

/**
 * A model's vocabulary together with its canonical tokenization of text.
 * Obtain one with {@link VocabularyLoader#load(String, int[])}.
 */
public interface Tokenizer {
    /** Token id to bytes, special ids and EOS ids. */
    Vocabulary vocabulary();

    /**
     * The ids the model's own tokenizer produces for {@code text}, without any special tokens
     * added (no BOS/EOS). For SentencePiece-style tokenizers this includes the leading
     * {@code ▁} (space) that the tokenizer prepends, so the ids' bytes are {@code " " + text}.
     * tiktoken vocabularies encode special-token text (e.g. {@code <|endoftext|>}) as ordinary
     * text; HuggingFace tokenizer.json vocabularies, like HuggingFace itself, turn added tokens
     * written literally in {@code text} into their ids.
     *
     * @throws UnsupportedOperationException if this vocabulary has no encoder available
     */
    int[] encode(String text);
}
