package dev.domino.jlama;

import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.model.ModelSupport;
import com.github.tjake.jlama.safetensors.DType;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Fixtures: the tiny model, schemas compiled against its tokenizer, the optional shared Llama 3 tokenizer. */
final class TestModels {
    private TestModels() {}

    static final List<String> SCHEMAS = List.of("person", "order", "toolcall", "bounds", "free");

    /**
     * Output-layer spread 0.05: nearly flat next-token distributions. At 0.1, 1 of 40 free-JSON outputs (seed 11)
     * stayed inside one key string past 1,500 tokens: a random model has no reason to close a string, and at
     * width 64 it mostly reacts to the last token, so it can circle among tokens that keep the string open.
     * At 0.05, 40 of 40 free-JSON outputs end by 233 tokens and 40 of 40 orders by 498 (escaped keys are long).
     */
    static AbstractModel writeAndLoad(Path dir, Path tokenizerJson, long seed) throws IOException {
        TinyLlama.write(dir, tokenizerJson, TinyLlama.Shape.tiny(), seed, 0.05);
        return ModelSupport.loadModel(dir.toFile(), DType.F32, DType.F32);
    }

    static String schemaText(String name) {
        try (InputStream in = TestModels.class.getResourceAsStream("/schemas/" + name + ".schema.json")) {
            if (in == null) throw new IllegalArgumentException("no schema " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compiles a schema with compact JSON whitespace (with the default, unbounded whitespace a random model emits
     * whitespace until the token limit) and loads it back from its bytes, as a server loads an artifact file.
     */
    static Artifact compile(String name, Vocabulary vocabulary) throws IOException {
        String text = schemaText(name);
        Artifact a = DominoCompiler.forVocabulary(vocabulary).compile(name + ".schema.json", text, SourceFormat.JSON_SCHEMA,
                CompileOptions.builder().jsonSchema(JsonSchemaOptions.compact()).build());
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        a.write(bytes);
        return Artifact.load(new ByteArrayInputStream(bytes.toByteArray()));
    }

    static Vocabulary vocabulary(Path tokenizerJson) {
        return VocabularyLoader.load(tokenizerJson.toString(), null).vocabulary();
    }

    /** ../shared/vocab/llama3-tokenizer.json beside the repository (or any ancestor of the working directory). */
    static Optional<Path> sharedLlama3Tokenizer() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path f = p.resolve("shared/vocab/llama3-tokenizer.json");
            if (Files.isRegularFile(f)) return Optional.of(f);
        }
        return Optional.empty();
    }
}
