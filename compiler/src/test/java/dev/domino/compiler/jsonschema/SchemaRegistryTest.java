package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.accepts;
import static dev.domino.compiler.jsonschema.JsonSchemaGrammarTest.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Remote {@code $ref}s through a {@link SchemaRegistry}: resolved from the caller's documents, never fetched. */
class SchemaRegistryTest {
    static Grammar compile(String schema, SchemaRegistry registry) {
        return JsonSchemaGrammar.from(j(schema), JsonSchemaOptions.defaults().withSchemaRegistry(registry)).grammar();
    }

    @Test void remoteReferenceResolvesFromTheRegistry() {
        SchemaRegistry r = SchemaRegistry.builder()
            .add("https://example.com/defs.json", j("{'$defs':{'n':{'type':'integer'}},'$ref':'#/$defs/n'}")).build();
        Grammar g = compile("{'properties':{'a':{'$ref':'https://example.com/defs.json'},'b':{'$ref':'https://example.com/defs.json#/$defs/n'}}}", r);
        assertThat(accepts(g, "{\"a\":1,\"b\":2}")).isTrue();
        assertThat(accepts(g, "{\"a\":\"x\"}")).isFalse();
        assertThat(accepts(g, "{\"b\":1.5}")).isFalse();
    }

    /** A document's references are resolved against its retrieval URI, also when it names another registry document. */
    @Test void referencesInsideRemoteDocumentsResolveAgainstTheirUri() {
        SchemaRegistry r = SchemaRegistry.builder()
            .add("https://example.com/a/outer.json", j("{'type':'array','items':{'$ref':'inner.json'}}"))
            .add("https://example.com/a/inner.json", j("{'type':'string'}")).build();
        Grammar g = compile("{'$ref':'https://example.com/a/outer.json'}", r);
        assertThat(accepts(g, "[\"x\"]")).isTrue();
        assertThat(accepts(g, "[1]")).isFalse();
    }

    /** A document whose $id differs from where it was retrieved: its own id names it as well. */
    @Test void retrievalUriAndIdBothName() {
        SchemaRegistry r = SchemaRegistry.builder()
            .add("https://example.com/where.json", j("{'$id':'https://example.com/real.json','$defs':{'s':{'type':'string'}},'$ref':'#/$defs/s'}")).build();
        Grammar g = compile("{'anyOf':[{'$ref':'https://example.com/where.json'},{'$ref':'https://example.com/real.json'}]}", r);
        assertThat(accepts(g, "\"x\"")).isTrue();
        assertThat(accepts(g, "1")).isFalse();
    }

    @Test void unresolvedRemoteReferenceIsOneLineErrorNamingTheUri() {
        assertThatThrownBy(() -> compile("{'$id':'https://example.com/s.json','$ref':'other.json'}", SchemaRegistry.empty()))
            .isInstanceOf(GrammarException.class)
            .hasMessageContaining("https://example.com/other.json").hasMessageContaining("not in the schema registry")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test void documentInAnotherDialectIsRefused() {
        SchemaRegistry r = SchemaRegistry.builder()
            .add("https://example.com/d7.json", j("{'$schema':'http://json-schema.org/draft-07/schema#','type':'string'}")).build();
        assertThatThrownBy(() -> compile("{'$ref':'https://example.com/d7.json'}", r))
            .isInstanceOf(GrammarException.class).hasMessageContaining("one compile has one dialect");
    }

    /** A folder: each file by its path (against the base of a schema without $id by default) and by its $id. */
    @Test void folderByPathAndId(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/name.json"), j("{'type':'string','minLength':2}"));
        Files.writeString(dir.resolve("id.json"), j("{'$id':'urn:example:num','type':'integer'}"));
        SchemaRegistry r = SchemaRegistry.builder().addDirectory(dir, SchemaRegistry.DEFAULT_FOLDER).build();
        assertThat(r.uris()).containsExactly("https://domino.invalid/id.json", "https://domino.invalid/sub/name.json", "urn:example:num");
        Grammar g = compile("{'properties':{'n':{'$ref':'sub/name.json'},'i':{'$ref':'urn:example:num'}}}", r);
        assertThat(accepts(g, "{\"n\":\"ab\",\"i\":3}")).isTrue();
        assertThat(accepts(g, "{\"n\":\"a\"}")).isFalse();
        assertThat(accepts(g, "{\"i\":\"x\"}")).isFalse();
    }

    /** The registry is part of the options: recorded (so a cache keyed by options tells registries apart). */
    @Test void recordedInTheOptions() {
        SchemaRegistry a = SchemaRegistry.builder().add("https://example.com/x.json", j("{'type':'string'}")).build();
        SchemaRegistry b = SchemaRegistry.builder().add("https://example.com/x.json", j("{'type':'integer'}")).build();
        assertThat(JsonSchemaOptions.defaults().recorded()).doesNotContainKey("json.schema_registry");
        assertThat(JsonSchemaOptions.defaults().withSchemaRegistry(a).recorded().get("json.schema_registry"))
            .startsWith("1 documents").isNotEqualTo(JsonSchemaOptions.defaults().withSchemaRegistry(b).recorded().get("json.schema_registry"));
        assertThat(JsonSchemaOptions.defaults().withSchemaRegistry(a)).isNotEqualTo(JsonSchemaOptions.defaults().withSchemaRegistry(b));
    }
}
