package dev.domino.cli;

import dev.domino.cli.bench.BenchMaskbenchCommand;
import dev.domino.cli.bench.MaskBenchRunner;

import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.DominoCompiler;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every JSON Schema and compile option given on the command line reaches the artifact: read back
 * from the options the artifact records, for {@code compile}, {@code compile --spec} and the
 * compile of {@code bench maskbench}.
 */
class OptionsReachArtifactTest {
    static final String SCHEMA = """
            {"type": "object", "properties": {"id": {"type": "string", "format": "path"}, "re": {"type": "string", "format": "regex"}}, "required": ["id"]}""";

    static final String[] OPTIONS = {"--json-max-whitespace", "7", "--json-key-escapes", "any", "--unknown-formats", "ignore",
            "--json-property-order", "schema", "--dynamic-cap", "9", "--ignore-keyword", "format"};

    static int run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        return code;
    }

    static void assertRecorded(Artifact a) {
        Map<String, String> o = a.info().options();
        assertThat(o).containsEntry("json.max_whitespace", "7").containsEntry("json.key_escapes", "any")
                .containsEntry("json.unknown_formats", "ignore").containsEntry("json.property_order", "schema");
        assertThat(a.info().dynamicCap()).isEqualTo(9);
        assertThat(a.info().ignoredKeywords()).contains("'format' at /properties/re");
    }

    static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test void compile(@TempDir Path dir) throws Exception {
        Path schema = dir.resolve("s.json");
        Files.writeString(schema, SCHEMA);
        Path out = dir.resolve("s.domino");
        run(concat(new String[] {"compile", schema.toString(), "-o", out.toString(), "--json"}, OPTIONS));
        assertRecorded(Artifact.load(out));
    }

    @Test void compileSpec(@TempDir Path dir) throws Exception {
        Path request = dir.resolve("request.json");
        Files.writeString(request, "{\"response_format\": {\"type\": \"json_schema\", \"json_schema\": {\"name\": \"x\", \"schema\": "
                + SCHEMA + "}}}");
        Path out = dir.resolve("r.domino");
        run(concat(new String[] {"compile", "--spec", request.toString(), "-o", out.toString(), "--json"}, OPTIONS));
        assertRecorded(Artifact.load(out));
    }

    @Test void benchMaskbench() {
        BenchMaskbenchCommand bench = parse(new BenchMaskbenchCommand(), concat(new String[] {"x.json"}, OPTIONS));
        Vocabulary vocabulary = VocabularyLoader.load("o200k_base", null).vocabulary();
        MaskBenchRunner.Config config = bench.config(vocabulary, SourceFormat.JSON_SCHEMA);
        // as MaskBenchRunner compiles a schema: the front end, then the compile, with the config's options
        DominoCompiler.ParsedSource parsed = DominoCompiler.parse("s.json", SCHEMA, SourceFormat.JSON_SCHEMA, config.compile());
        assertRecorded(DominoCompiler.forVocabulary(vocabulary).compile(parsed, config.compile()));
    }

    @Test void whitespaceModes(@TempDir Path dir) throws Exception {
        Path schema = dir.resolve("s.json");
        Files.writeString(schema, SCHEMA);
        Path out = dir.resolve("s.domino");
        run("compile", schema.toString(), "-o", out.toString(), "--json", "--json-whitespace", "fixed", "--ignore-keyword", "format");
        assertThat(Artifact.load(out).info().options()).containsEntry("json.whitespace", "fixed")
                .containsEntry("json.item_separator", ", ").containsEntry("json.key_separator", ": ");
        run("compile", schema.toString(), "-o", out.toString(), "--json", "--json-whitespace", "compact", "--ignore-keyword", "format");
        assertThat(Artifact.load(out).info().options()).containsEntry("json.whitespace", "compact");
    }

    /** One default per option; bench maskbench alone overrides --unknown-formats (MaskBench's validator ignores them). */
    @Test void defaults() {
        CompileCommand compile = parse(new CompileCommand(), "g.json");
        assertThat(compile.compiler.jsonSchema()).isEqualTo(JsonSchemaOptions.defaults());
        assertThat(compile.compiler.compileOptions().build().dynamicCap()).isEqualTo(CompileOptions.DEFAULT_DYNAMIC_CAP);
        BenchMaskbenchCommand bench = parse(new BenchMaskbenchCommand(), "x.json");
        Vocabulary tiny = new Vocabulary("tiny", new byte[][] {"a".getBytes(), "b".getBytes()}, new java.util.BitSet(), new int[] {1});
        CompileOptions benchOptions = bench.config(tiny, SourceFormat.JSON_SCHEMA).compile();
        assertThat(benchOptions.jsonSchema()).isEqualTo(JsonSchemaOptions.defaults().withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE));
        assertThat(parse(new BenchMaskbenchCommand(), "x.json", "--unknown-formats", "error").config(tiny, SourceFormat.JSON_SCHEMA)
                .compile().jsonSchema().unknownFormats()).isEqualTo(JsonSchemaOptions.UnknownFormats.ERROR);
    }

    /** compile --schema-dir: remote $refs resolve from the folder (by path), recorded in the artifact; missing ones fail naming the URI. */
    @Test void schemaDir(@TempDir Path dir) throws Exception {
        Path remotes = Files.createDirectories(dir.resolve("remotes"));
        Files.writeString(remotes.resolve("name.json"), "{\"type\": \"string\"}");
        Path schema = dir.resolve("s.json");
        Files.writeString(schema, "{\"type\": \"object\", \"properties\": {\"n\": {\"$ref\": \"name.json\"}}}");
        Path out = dir.resolve("s.domino");
        run("compile", schema.toString(), "-o", out.toString(), "--json", "--schema-dir", remotes.toString());
        Artifact a = Artifact.load(out);
        assertThat(a.info().options().get("json.schema_registry")).startsWith("1 documents");
        dev.domino.runtime.Matcher m = a.newMatcher();
        assertThat(m.acceptBytes("{\"n\":\"x\"}".getBytes()) && m.isAccepting()).isTrue();
        m = a.newMatcher();
        assertThat(m.acceptBytes("{\"n\":1}".getBytes()) && m.isAccepting()).isFalse();

        StringWriter o = new StringWriter(), err = new StringWriter();
        int code = Main.run(new String[] {"compile", schema.toString(), "-o", out.toString()}, new PrintWriter(o, true), new PrintWriter(err, true));
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("https://domino.invalid/name.json").doesNotContain("\tat ");
    }

    @Test void badValuesAreOneLineErrors() {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(new String[] {"compile", "g.json", "--json-max-whitespace", "-3"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("whitespace limit").doesNotContain("\tat ");
        err.getBuffer().setLength(0);
        code = Main.run(new String[] {"compile", "g.json", "--json-key-escapes", "some"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--json-key-escapes");
    }

    static <T> T parse(T command, String... args) {
        new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return command;
    }
}
