package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.ArtifactRegistry;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's embedding example, as code that compiles and runs. */
class EmbeddingExampleTest {
    @Test void serverLoop(@TempDir Path dir) throws Exception {
        Tokenizer tok = VocabularyLoader.load("o200k_base", null);
        String gbnf = "root ::= \"{\\\"ok\\\": \" (\"true\" | \"false\") \"}\"";
        DominoCompiler.forVocabulary(tok.vocabulary()).compile("ok.gbnf", gbnf, SourceFormat.GBNF, CompileOptions.defaults())
                .save(dir.resolve("ok.domino"));
        Files.writeString(dir.resolve("broken.domino"), "not an artifact");

        // at server start
        ArtifactRegistry registry = ArtifactRegistry.loadDirectory(dir);
        assertThat(registry.failures()).containsOnlyKeys("broken");
        Artifact json = registry.get("ok");

        // per request
        Matcher matcher = json.newMatcher();
        int batchSize = 2, row = 1;
        int[] bitmask = new int[batchSize * matcher.bitmaskInts()];
        int[] output = tok.encode("{\"ok\": true}");
        for (int token : output) {
            matcher.fillNextTokenBitmask(bitmask, row);
            assertThat((bitmask[row * matcher.bitmaskInts() + (token >>> 5)] >>> (token & 31)) & 1).isEqualTo(1);
            assertThat(matcher.acceptToken(token)).isTrue();
        }
        int eos = json.vocabulary().eosIds()[0];
        Matcher branch = matcher.fork();
        assertThat(matcher.acceptToken(eos)).isTrue();
        assertThat(matcher.isTerminated()).isTrue();
        matcher.rollback(2);
        assertThat(matcher.isTerminated()).isFalse();
        assertThat(branch.isAccepting()).isTrue();
    }
}
