package dev.domino.compiler.vocab;

/** Text to token ids; the part of a {@link Tokenizer} that may be expensive to build. */
@FunctionalInterface
interface TextEncoder {
    int[] encode(String text);
}
