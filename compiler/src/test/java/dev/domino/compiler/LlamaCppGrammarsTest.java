package dev.domino.compiler;

import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The grammars of llama.cpp's own {@code grammars/} folder (copies in {@code src/test/resources/gbnf/})
 * compile, as they are, against o200k_base, and the artifact survives a write/read round trip with
 * a working matcher.
 */
class LlamaCppGrammarsTest {
    static Tokenizer o200k;

    @BeforeAll static void load() { o200k = VocabularyLoader.load("o200k_base", null); }

    /** Every {@code .gbnf} file of the resource folder, so that a dropped-in grammar is checked too. */
    static java.util.List<String> grammarNames() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of(LlamaCppGrammarsTest.class.getResource("/gbnf").toURI());
        try (var files = java.nio.file.Files.list(dir)) {
            java.util.List<String> names = files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".gbnf"))
                    .map(f -> f.substring(0, f.length() - ".gbnf".length())).sorted().toList();
            assertThat(names).contains("arithmetic", "c", "chess", "english", "japanese", "json", "json_arr", "list");
            return names;
        }
    }

    @ParameterizedTest(name = "{0}.gbnf")
    @MethodSource("grammarNames")
    void compilesAgainstO200k(String name) throws Exception {
        String text;
        try (InputStream in = LlamaCppGrammarsTest.class.getResourceAsStream("/gbnf/" + name + ".gbnf")) {
            assertThat(in).as("resource %s.gbnf", name).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Artifact artifact = GrammarCompiler.compile(GbnfParser.parse(text), o200k.vocabulary(), name + ".gbnf", "gbnf", text,
                CompileOptions.defaults());
        byte[] bytes = ArtifactFormat.toBytes(artifact);
        Artifact loaded = ArtifactFormat.read(new java.io.ByteArrayInputStream(bytes));
        Matcher m = loaded.newMatcher();
        assertThat(m.countAllowed()).as("tokens allowed at the start of %s", name).isPositive();
    }
}
