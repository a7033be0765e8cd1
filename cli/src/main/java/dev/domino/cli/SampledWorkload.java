package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.FrontEndOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * An artifact with random valid outputs of its grammar, tokenized canonically: the workload of
 * {@code bench soak} and {@code bench k}. The input is a grammar file (compiled in memory) or a
 * {@code .domino} artifact together with the grammar it was compiled from.
 */
final class SampledWorkload {
    final Artifact artifact;
    final Tokenizer tokenizer;
    private final SentenceSampler sampler;
    private final Random random;

    SampledWorkload(Path input, Path grammarFile, String format, VocabOptions vocab, int maxLength, long seed) throws IOException {
        boolean isArtifact = input.getFileName().toString().endsWith(".domino");
        Path grammarPath = isArtifact ? grammarFile : input;
        if (grammarPath == null) throw new IllegalArgumentException("a .domino ARTIFACT needs --grammar GRAMMAR_FILE to sample outputs from");
        String text = Files.readString(grammarPath, StandardCharsets.UTF_8);
        SourceFormat f = format != null ? SourceFormat.parse(format) : SourceFormat.fromFileName(grammarPath.getFileName().toString());
        GrammarSources.Parsed parsed = GrammarSources.parse(text, f, new FrontEndOptions("flexible", ", ", ": ", List.of()));
        if (isArtifact) {
            artifact = Artifact.load(input);
            tokenizer = vocab.forArtifact(artifact);
        } else {
            tokenizer = vocab.load();
            artifact = GrammarCompiler.compile(parsed.grammar(), tokenizer.vocabulary(), grammarPath.getFileName().toString(),
                    f.id(), text, parsed.applyTo(CompileOptions.defaults()));
        }
        sampler = new SentenceSampler(parsed.grammar()).maxLength(maxLength);
        random = new Random(seed);
    }

    /** The canonical tokens of the next random output. */
    int[] nextOutput() { return tokenizer.encode(sampler.sample(random)); }
}
