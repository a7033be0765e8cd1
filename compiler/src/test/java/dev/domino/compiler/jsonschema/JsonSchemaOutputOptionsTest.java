package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.FrontEndOptions;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bounded whitespace, key spellings, unknown formats and the formats' exact languages. */
class JsonSchemaOutputOptionsTest {
    static String j(String s) { return s.replace('\'', '"'); }

    static Grammar g(String schema, JsonSchemaOptions o) { return JsonSchemaGrammar.from(j(schema), o).grammar(); }

    static boolean ok(Grammar g, String text) { return ExprMatcher.matches(g, text); }

    @Test void whitespaceIsBoundedByDefault() {
        String s = "{'type':'object','properties':{'a':{'type':'array','items':{'type':'integer'}}}}";
        Grammar def = g(s, JsonSchemaOptions.defaults());
        String indent = " ".repeat(80);
        assertThat(ok(def, "{\n" + indent + "\"a\": [1, 2]\n}")).isTrue();
        assertThat(ok(def, "{\r\n" + indent + "  \"a\": [1]}")).isTrue(); // 84 characters
        assertThat(ok(def, "{" + "\n".repeat(100) + "\"a\": []}")).isTrue();
        assertThat(ok(def, "{" + "\n".repeat(101) + "\"a\": []}")).isFalse();
        assertThat(ok(def, "\n".repeat(101) + "{}")).isFalse();
        Grammar unbounded = g(s, JsonSchemaOptions.defaults().withMaxWhitespace(JsonSchemaOptions.UNBOUNDED_WHITESPACE));
        assertThat(ok(unbounded, "{" + "\n".repeat(1000) + "\"a\": []}")).isTrue();
        Grammar two = g(s, JsonSchemaOptions.defaults().withMaxWhitespace(2));
        assertThat(ok(two, "{ \"a\" :  [ 1 ,\n 2 ] }")).isTrue();
        assertThat(ok(two, "{   \"a\": []}")).isFalse();
    }

    @Test void keysArePlainByDefault() {
        String s = "{'type':'object','properties':{'customer_name':{'type':'string'},'t\\tab':{'type':'integer'}},"
            + "'patternProperties':{'^x':{'type':'integer'}},'additionalProperties':false}";
        Grammar plain = g(s, JsonSchemaOptions.defaults());
        assertThat(ok(plain, j("{'customer_name': 'Jo'}"))).isTrue();
        assertThat(ok(plain, j("{'\\u0063ustomer_name': 'Jo'}"))).isFalse();
        assertThat(ok(plain, j("{'t\\tab': 1}"))).isTrue();
        assertThat(ok(plain, j("{'t\\u0009ab': 1}"))).isFalse();
        assertThat(ok(plain, j("{'xy': 1}"))).isTrue();
        assertThat(ok(plain, j("{'\\u0078y': 1}"))).isFalse();
        assertThat(ok(plain, j("{'customer_name': '\\u004Ao'}"))).as("values keep every spelling").isTrue();
        Grammar any = g(s, JsonSchemaOptions.defaults().withKeyEscapes(JsonSchemaOptions.KeyEscapes.ANY));
        assertThat(ok(any, j("{'\\u0063ustomer_name': 'Jo'}"))).isTrue();
        assertThat(ok(any, j("{'t\\u0009ab': 1}"))).isTrue();
        assertThat(ok(any, j("{'\\u0078y': 1}"))).isTrue();
        // other keys: plain spelling only, and a declared key cannot come back as "another" key
        Grammar open = g("{'type':'object','properties':{'a':{'type':'string'}}}", JsonSchemaOptions.defaults());
        assertThat(ok(open, j("{'b': 1}"))).isTrue();
        assertThat(ok(open, j("{'\\u0062': 1}"))).isFalse();
        assertThat(ok(open, j("{'\\u0061': 1}"))).isFalse();
    }

    @Test void dateTimeNeedsT() {
        Grammar d = g("{'type':'string','format':'date-time'}", JsonSchemaOptions.defaults());
        assertThat(ok(d, j("'2024-02-29T12:30:00Z'"))).isTrue();
        assertThat(ok(d, j("'2024-02-29t12:30:00.5+01:00'"))).isTrue();
        assertThat(ok(d, j("'2024-02-29 12:30:00Z'"))).isFalse();
        assertThat(ok(d, j("'2023-02-29T12:30:00Z'"))).isFalse();
    }

    @Test void addedFormats() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults();
        Grammar uri = g("{'type':'string','format':'uri'}", o);
        assertThat(ok(uri, j("'https://example.com/a?b=c#d'"))).isTrue();
        assertThat(ok(uri, "\"https://ex.com/\uD83D\uDE00\"")).as("no non-ASCII in a URI").isFalse();
        assertThat(ok(uri, "\"https://ex.com/\u00e9\"")).isFalse();
        Grammar ref = g("{'type':'string','format':'uri-reference'}", o);
        assertThat(ok(ref, j("'../a/b?c'"))).isTrue();
        assertThat(ok(ref, j("''"))).isTrue();
        assertThat(ok(ref, j("'a b'"))).isFalse();
        Grammar iri = g("{'type':'string','format':'iri'}", o);
        assertThat(ok(iri, "\"https://ex.com/\u00e9\uD83D\uDE00\"")).isTrue();
        assertThat(ok(iri, j("'no-scheme'"))).isFalse();
        Grammar ptr = g("{'type':'string','format':'json-pointer'}", o);
        assertThat(ok(ptr, j("'/a~1b/0'"))).isTrue();
        assertThat(ok(ptr, j("''"))).isTrue();
        assertThat(ok(ptr, j("'a'"))).isFalse();
        assertThat(ok(ptr, j("'/a~2'"))).isFalse();
        Grammar rel = g("{'type':'string','format':'relative-json-pointer'}", o);
        assertThat(ok(rel, j("'0#'"))).isTrue();
        assertThat(ok(rel, j("'1/a'"))).isTrue();
        assertThat(ok(rel, j("'01'"))).isFalse();
        // valid regexes are not a regular language: refused, never "any string" (which accepted "*")
        assertThatThrownBy(() -> g("{'type':'string','format':'regex'}", o)).hasMessageContaining("unknown format 'regex'");
    }

    @Test void unknownFormats() {
        String s = "{'type':'object','properties':{'p':{'type':'string','format':'no-such-format'}}}";
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j(s))).isInstanceOf(GrammarException.class)
            .hasMessageContaining("'format' at /properties/p").hasMessageContaining("no-such-format");
        JsonSchemaGrammar ig = JsonSchemaGrammar.from(j(s), JsonSchemaOptions.defaults().withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE));
        assertThat(ig.ignoredKeywords()).containsExactly(new JsonSchemaGrammar.KeywordLocation("/properties/p", "format"));
        assertThat(ok(ig.grammar(), j("{'p': 'anything'}"))).isTrue();
        // an enum's value is checked against the format too
        String e = "{'enum':['a','b'],'format':'no-such-format'}";
        assertThatThrownBy(() -> JsonSchemaGrammar.from(j(e))).hasMessageContaining("no-such-format");
        Grammar ie = JsonSchemaGrammar.from(j(e), JsonSchemaOptions.defaults().withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE)).grammar();
        assertThat(ok(ie, j("'b'"))).isTrue();
    }

    @Test void choicesRecordedInTheArtifactMetadata() {
        String s = j("{'type':'string'}");
        var def = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults());
        assertThat(def.options()).containsEntry("json.max_whitespace", "100").containsEntry("json.key_escapes", "plain")
            .containsEntry("json.unknown_formats", "error");
        var other = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults().withMaxWhitespace("unbounded")
            .withKeyEscapes("any").withUnknownFormats("ignore"));
        assertThat(other.options()).containsEntry("json.max_whitespace", "unbounded").containsEntry("json.key_escapes", "any")
            .containsEntry("json.unknown_formats", "ignore");
        assertThatThrownBy(() -> GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults().withMaxWhitespace("-3")))
            .hasMessageContaining("whitespace limit");
        assertThatThrownBy(() -> GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, FrontEndOptions.defaults().withKeyEscapes("some")))
            .hasMessageContaining("plain or any");
    }
}
