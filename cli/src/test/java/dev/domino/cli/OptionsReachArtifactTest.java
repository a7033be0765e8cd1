package dev.domino.cli;

import dev.domino.runtime.Artifact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every JSON Schema and compile option given on the command line reaches the artifact: read back
 * from the options the artifact records, for {@code compile} and {@code compile --spec}.
 */
class OptionsReachArtifactTest {
    static final String SCHEMA = """
            {"type": "object", "properties": {"id": {"type": "string", "format": "path"}}, "required": ["id"]}""";

    static final String[] OPTIONS = {"--json-max-whitespace", "7", "--json-key-escapes", "any", "--unknown-formats", "ignore",
            "--json-property-order", "schema", "--dynamic-cap", "9"};

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
}
