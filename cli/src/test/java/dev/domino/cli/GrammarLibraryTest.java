package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every grammar of {@code grammars/} compiles against o200k_base, and each of its examples gets the
 * verdict its label says from both the runtime (token by token, tokenizer's own encoding) and the
 * byte-level Earley oracle.
 */
class GrammarLibraryTest {
    static Tokenizer o200k;
    static Path grammars;

    @BeforeAll static void load() {
        o200k = VocabularyLoader.load("o200k_base", null);
        grammars = GrammarExamples.repoRoot().resolve("grammars");
    }

    @Test void theLibraryHasTheExpectedGrammars() throws Exception {
        List<String> names = GrammarLibrary.list(grammars).stream().map(GrammarLibrary.Entry::name).toList();
        assertThat(names).contains("json", "json_lark", "gsm8k", "gsm8k_schema", "c", "xml_person", "rpg", "arithmetic")
                .doesNotHaveDuplicates();
        for (GrammarLibrary.Entry e : GrammarLibrary.list(grammars)) {
            assertThat(e.examplesFile()).as("examples of %s", e.file()).exists();
            GrammarExamples ex = GrammarExamples.read(e.examplesFile());
            assertThat(ex.positive()).as("positive examples of %s", e.name()).hasSizeGreaterThanOrEqualTo(3);
            assertThat(ex.negative()).as("negative examples of %s", e.name()).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    @TestFactory Stream<DynamicTest> everyGrammarCompilesAndItsExamplesPass() throws Exception {
        return GrammarLibrary.list(grammars).stream().map(e -> DynamicTest.dynamicTest(e.file().getFileName().toString(),
                () -> checkGrammar(e)));
    }

    private static void checkGrammar(GrammarLibrary.Entry entry) throws Exception {
        GrammarSources.Parsed parsed;
        try {
            parsed = entry.parse();
        } catch (RuntimeException ex) {
            Assumptions.assumeFalse(GrammarLibrary.isSchemaUnavailable(entry, ex), GrammarLibrary.SCHEMA_UNAVAILABLE);
            throw ex;
        }
        Artifact artifact = entry.compile(o200k, CompileOptions.defaults());
        // and through the file format, as a server would load it
        artifact = ArtifactFormat.read(new java.io.ByteArrayInputStream(ArtifactFormat.toBytes(artifact)));
        checkExamples(entry, artifact, new ByteEarleyOracle(parsed.grammar()), o200k);
    }

    /** Runs the examples of a grammar against an artifact (and the oracle, if given); fails listing every mismatch. */
    static void checkExamples(GrammarLibrary.Entry entry, Artifact artifact, ByteEarleyOracle oracle, Tokenizer tokenizer)
            throws Exception {
        GrammarExamples ex = GrammarExamples.read(entry.examplesFile());
        List<String> problems = new ArrayList<>();
        for (String text : ex.positive()) {
            String why = GrammarExamples.runtimeRejection(artifact, tokenizer, text);
            if (why != null) problems.add("runtime rejects positive " + GrammarExamples.quote(text) + ": " + why);
            if (oracle != null && !oracle.isSentence(text)) problems.add("oracle rejects positive " + GrammarExamples.quote(text));
        }
        for (String text : ex.negative()) {
            if (GrammarExamples.runtimeRejection(artifact, tokenizer, text) == null) {
                problems.add("runtime accepts negative " + GrammarExamples.quote(text));
            }
            if (oracle != null && oracle.isSentence(text)) problems.add("oracle accepts negative " + GrammarExamples.quote(text));
        }
        assertThat(problems).as("examples of %s", entry.file().getFileName()).isEmpty();
    }

    /** Same grammar and vocabulary, compiled twice (single- and multi-threaded): byte-identical artifacts. */
    @Test void compilationIsReproducible() throws Exception {
        for (String file : List.of("rpg.lark", "arithmetic.gbnf")) {
            GrammarLibrary.Entry entry = GrammarLibrary.list(grammars).stream()
                    .filter(e -> e.file().getFileName().toString().equals(file)).findFirst().orElseThrow();
            byte[] single = ArtifactFormat.toBytes(entry.compile(o200k, CompileOptions.defaults().withThreads(1)));
            byte[] multi = ArtifactFormat.toBytes(entry.compile(o200k, CompileOptions.defaults().withThreads(4)));
            assertThat(multi).as("%s compiled twice: threads=1 vs threads=4", file).isEqualTo(single);
        }
    }

    @Test void examplesFilesAndOtherFilesAreNotGrammars(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        for (String f : List.of("a.gbnf", "a.lark", "a.examples.json", "b.schema.json", "README.md", "c.regex")) {
            Files.writeString(dir.resolve(f), "");
        }
        assertThat(GrammarLibrary.list(dir)).extracting(GrammarLibrary.Entry::name)
                .containsExactly("a", "a_lark", "b_schema", "c");
    }
}
