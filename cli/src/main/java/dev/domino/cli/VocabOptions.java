package dev.domino.cli;

import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import picocli.CommandLine.Option;

/** The --vocab/--eos options every command shares, and loading a tokenizer that fits an artifact. */
public final class VocabOptions {
    @Option(names = "--vocab", paramLabel = "VOCAB",
            description = "o200k_base (default), cl100k_base, a HuggingFace tokenizer.json or a .tiktoken file")
    String vocab;

    @Option(names = "--eos", split = ",", paramLabel = "ID", description = "EOS token id(s), overriding the vocabulary's own")
    int[] eos;

    public Tokenizer load() { return VocabularyLoader.load(vocab == null ? "o200k_base" : vocab, eos); }

    /** The tokenizer of the artifact's vocabulary: --vocab if given, else the built-in it names. */
    public Tokenizer forArtifact(Artifact artifact) {
        String spec = vocab != null ? vocab : artifact.vocabulary().name();
        Tokenizer t;
        try {
            t = VocabularyLoader.load(spec, eos);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the artifact was compiled for vocabulary '" + artifact.vocabulary().name()
                    + "': pass it with --vocab (" + e.getMessage() + ")");
        }
        if (!t.vocabulary().fingerprint().equals(artifact.vocabulary().fingerprint())) {
            throw new IllegalArgumentException("vocabulary mismatch: the artifact was compiled for '" + artifact.vocabulary().name()
                    + "' (fingerprint " + artifact.vocabulary().fingerprint() + ") but '" + spec + "' has fingerprint "
                    + t.vocabulary().fingerprint());
        }
        return t;
    }
}
