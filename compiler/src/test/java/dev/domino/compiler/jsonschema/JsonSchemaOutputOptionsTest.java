package dev.domino.compiler.jsonschema;

import dev.domino.compiler.ExprMatcher;
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
        // valid regexes are not a regular language: refused, never "any string" (which accepted "*"), even
        // under --unknown-formats ignore (a specification defines "regex" and validators check it)
        assertThatThrownBy(() -> g("{'type':'string','format':'regex'}", o)).hasMessageContaining("format 'regex' is not enforced");
        JsonSchemaOptions ignore = o.withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE);
        assertThatThrownBy(() -> g("{'type':'string','format':'regex'}", ignore)).hasMessageContaining("'format' at /");
        assertThatThrownBy(() -> g("{'enum':['*'],'format':'idn-email'}", ignore)).hasMessageContaining("idn-email");
        assertThat(ok(g("{'type':'string','format':'regex'}", o.withIgnoredKeywords(java.util.Set.of("format"))), j("'*'"))).isTrue();
    }

    @Test void draft3AndOpenApiFormats() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults();
        JsonSchemaOptions ignore = o.withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE);
        // draft 3's names are formats of draft 3 schemas only (not enforced there: an error either way);
        // in later dialects no specification defines them
        assertThatThrownBy(() -> g("{'type':'string','format':'host-name'}", o)).hasMessageContaining("unknown format of draft 3 'host-name'");
        assertThat(ok(g("{'type':'string','format':'host-name'}", ignore), j("'not a host'"))).isTrue();
        assertThat(ok(g("{'$schema':'http://json-schema.org/draft-04/schema#','type':'string','format':'ip-address'}", ignore), j("'x'"))).isTrue();
        assertThatThrownBy(() -> g("{'$schema':'http://json-schema.org/draft-03/schema#','type':'string','format':'host-name'}", ignore))
            .hasMessageContaining("'format' at /");
        // OpenAPI's numeric formats do not apply to strings (type string + int64: Google's 64-bit integers)
        for (String f : new String[] {"int32", "int64", "float", "double"}) {
            Grammar s = g("{'type':'string','format':'" + f + "'}", o);
            assertThat(ok(s, j("'12345678901234567890'"))).isTrue();
            assertThat(ok(s, j("'not a number'"))).isTrue();
        }
        Grammar anyType = g("{'format':'int64'}", o);
        assertThat(ok(anyType, "12")).isTrue();
        assertThat(ok(anyType, j("'x'"))).isTrue();
    }

    @Test void uriTemplate() {
        Grammar t = g("{'type':'string','format':'uri-template'}", JsonSchemaOptions.defaults());
        for (String v : new String[] {"http://example.com/~{username}/", "{+path}/here", "{/list*}", "{?x,y:3,empty}",
                "/a%20b{#var}", "", "{var.sub_x}", "map{;keys*}", "{%41b}", "/\u00e9t\u00e9"}) {
            assertThat(ok(t, "\"" + v + "\"")).as(v).isTrue();
        }
        for (String v : new String[] {"{", "}", "{}", "{a b}", "{a:0}", "{a:10000}", "{a.}", "a b", "%zz", "{a*:3}", "{$a}",
                "x<y", "'"}) {
            assertThat(ok(t, "\"" + v.replace("\"", "\\\"") + "\"")).as(v).isFalse();
        }
    }

    @Test void patternAndFormatIntersect() {
        JsonSchemaOptions o = JsonSchemaOptions.defaults();
        Grammar d = g("{'type':'string','format':'date','pattern':'^20'}", o);
        assertThat(ok(d, j("'2024-02-29'"))).isTrue();
        assertThat(ok(d, j("'1999-12-31'"))).isFalse();
        assertThat(ok(d, j("'2023-02-29'"))).isFalse();
        assertThat(ok(d, j("'20'"))).isFalse();
        Grammar u = g("{'type':'string','format':'uri','pattern':'^https?://'}", o);
        assertThat(ok(u, j("'https://a.b/c'"))).isTrue();
        assertThat(ok(u, j("'ftp://a.b/c'"))).isFalse();
        assertThat(ok(u, j("'http://a b'"))).isFalse();
        Grammar none = g("{'type':'string','format':'ipv4','pattern':'[a-z]'}", o);
        assertThat(ok(none, j("'1.2.3.4'"))).isFalse();
        // an ignored unknown format leaves the pattern alone
        Grammar p = g("{'type':'string','format':'path','pattern':'^/'}", o.withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE));
        assertThat(ok(p, j("'/a'"))).isTrue();
        assertThat(ok(p, j("'a'"))).isFalse();
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
        // "not" an ignored format: every value satisfies the annotation, so none satisfies its negation
        JsonSchemaOptions ignore = JsonSchemaOptions.defaults().withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE);
        Grammar notFormat = g("{'not':{'format':'path'}}", ignore);
        assertThat(ok(notFormat, j("'/a'"))).isFalse();
        assertThat(ok(notFormat, "1")).isFalse();
        Grammar notBoth = g("{'type':'string','pattern':'a','not':{'format':'path'}}", ignore);
        assertThat(ok(notBoth, j("'a'"))).isFalse();
        Grammar enumNot = g("{'enum':['x', 2],'not':{'format':'path'}}", ignore);
        assertThat(ok(enumNot, j("'x'"))).isFalse();
        assertThat(ok(enumNot, "2")).isFalse();
        Grammar notDate = g("{'not':{'format':'date'}}", ignore);
        assertThat(ok(notDate, j("'2024-01-01'"))).isFalse();
        assertThat(ok(notDate, j("'x'"))).isTrue();
        assertThat(ok(notDate, "1")).isFalse();
    }

    @Test void choicesRecordedInTheArtifactMetadata() {
        String s = j("{'type':'string'}");
        var def = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults());
        assertThat(def.options()).containsEntry("json.max_whitespace", "100").containsEntry("json.key_escapes", "plain")
            .containsEntry("json.unknown_formats", "error");
        var other = GrammarSources.parse(s, SourceFormat.JSON_SCHEMA, JsonSchemaOptions.defaults()
            .withMaxWhitespace(JsonSchemaOptions.UNBOUNDED_WHITESPACE).withKeyEscapes(JsonSchemaOptions.KeyEscapes.ANY)
            .withUnknownFormats(JsonSchemaOptions.UnknownFormats.IGNORE));
        assertThat(other.options()).containsEntry("json.max_whitespace", "unbounded").containsEntry("json.key_escapes", "any")
            .containsEntry("json.unknown_formats", "ignore");
        assertThatThrownBy(() -> JsonSchemaOptions.defaults().withMaxWhitespace(-3)).hasMessageContaining("maxWhitespace");
    }
}
