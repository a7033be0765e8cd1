package dev.domino.compiler.vocab;

import dev.domino.runtime.Vocabulary;
import java.util.function.Supplier;

/**
 * A vocabulary plus an encoder built on first use, so that loading the token bytes never needs
 * the encoder's resources (e.g. DJL's native library).
 */
final class LoadedTokenizer implements Tokenizer {
    private final Vocabulary vocabulary;
    private final Supplier<TextEncoder> encoderFactory;
    private volatile TextEncoder encoder;

    LoadedTokenizer(Vocabulary vocabulary, Supplier<TextEncoder> encoderFactory) {
        this.vocabulary = vocabulary;
        this.encoderFactory = encoderFactory;
    }

    @Override public Vocabulary vocabulary() { return vocabulary; }

    @Override
    public int[] encode(String text) {
        TextEncoder e = encoder;
        if (e == null) {
            synchronized (this) {
                if (encoder == null) encoder = encoderFactory.get();
                e = encoder;
            }
        }
        return e.encode(text);
    }

    @Override public String toString() { return "Tokenizer[" + vocabulary.name() + ", " + vocabulary.size() + " ids]"; }
}
