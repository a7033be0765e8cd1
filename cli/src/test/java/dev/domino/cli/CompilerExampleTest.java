package dev.domino.cli;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's "Compiling in Java" example, as code that runs (the compiler's front door and the atomic save). */
class CompilerExampleTest {
    @Test void compileSaveLoad(@TempDir Path dir) throws Exception {
        String schemaText = "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\"}}, \"required\": [\"id\"]}";
        String requestJson = "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"o\", \"schema\": "
                + schemaText + "}}}";
        Path saved = dir.resolve("order.domino");

        DominoCompiler compiler = DominoCompiler.forVocabulary(VocabularyLoader.load("o200k_base", null).vocabulary());
        CompileOptions options = CompileOptions.builder()
                .jsonSchema(JsonSchemaOptions.compact())  // typed options, one immutable record
                .build();
        Artifact artifact = compiler.compile(schemaText, SourceFormat.JSON_SCHEMA, options);
        artifact.save(saved);                              // atomic: a temporary file, then a rename
        Artifact lazy = compiler.compileLazy(schemaText, SourceFormat.JSON_SCHEMA, options); // trees built on first use
        Artifact request = compiler.compileRequest(requestJson);  // response_format, tools, regex, choice, grammar

        Artifact loaded = Artifact.load(saved);
        assertThat(loaded.info().options()).containsEntry("json.whitespace", "compact");
        assertThat(lazy.isLazy()).isTrue();
        assertThat(artifact.isLazy()).isFalse();
        for (Artifact a : new Artifact[] {loaded, lazy, request}) {
            var m = a.newMatcher();
            assertThat(m.acceptString("{\"id\":12}")).isTrue();
            assertThat(m.isAccepting()).isTrue();
        }
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(saved); // no temporary file left behind
        }
    }
}
