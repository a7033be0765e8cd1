package dev.domino.cli.bench;

import dev.domino.cli.CompilerOptions;
import dev.domino.cli.SystemPropertyDefaults;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.testing.SentenceSampler;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.runtime.Artifact;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    SampledWorkload(Path input, Path grammarFile, String format, CompilerOptions compiler, int maxLength, long seed) throws IOException {
        boolean isArtifact = input.getFileName().toString().endsWith(".domino");
        Path grammarPath = isArtifact ? grammarFile : input;
        if (grammarPath == null) throw new IllegalArgumentException("a .domino ARTIFACT needs --grammar GRAMMAR_FILE to sample outputs from");
        String text = Files.readString(grammarPath, StandardCharsets.UTF_8);
        SourceFormat f = format != null ? SourceFormat.parse(format) : SourceFormat.fromFileName(grammarPath.getFileName().toString());
        CompileOptions options = compiler.compileOptions().build();
        DominoCompiler.ParsedSource parsed = DominoCompiler.parse(grammarPath.getFileName().toString(), text, f, options);
        if (isArtifact) {
            artifact = Artifact.load(input, SystemPropertyDefaults.runtimeLimits());
            tokenizer = compiler.vocab.forArtifact(artifact);
        } else {
            tokenizer = compiler.vocab.load();
            artifact = DominoCompiler.forVocabulary(tokenizer.vocabulary()).compile(parsed, options);
        }
        sampler = new SentenceSampler(parsed.parsed().grammar()).maxLength(maxLength);
        random = new Random(seed);
    }

    /** The canonical tokens of the next random output. */
    int[] nextOutput() { return tokenizer.encode(sampler.sample(random)); }
}
