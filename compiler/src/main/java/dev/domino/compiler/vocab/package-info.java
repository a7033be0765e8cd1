/**
 * Tokenizers to runtime vocabularies: {@link dev.domino.compiler.vocab.VocabularyLoader} reads a Hugging Face
 * {@code tokenizer.json}, a tiktoken file or a built-in encoding into the runtime's {@code Vocabulary} (token
 * bytes, specials, EOS), and {@link dev.domino.compiler.vocab.Tokenizer} encodes text with it for tests and
 * benchmarks. Data flows tokenizer file → vocabulary, bound into every artifact compiled for it.
 */
package dev.domino.compiler.vocab;
