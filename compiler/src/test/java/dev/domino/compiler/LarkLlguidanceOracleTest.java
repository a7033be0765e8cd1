package dev.domino.compiler;

import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * llguidance's Lark extensions (its docs/syntax.md: inline JSON Schemas, structured %regex, And/Not
 * operators) through the whole pipeline: masks against the byte-level Earley oracle at random
 * prefixes of sampled and mutated sentences, plus whole texts accepted or refused.
 */
class LarkLlguidanceOracleTest {
    @BeforeAll static void load() { OracleMaskTest.load(); }

    private static Grammar lark(String text) { return LarkParser.parse(text); }

    private static boolean accepts(Artifact a, String text) {
        Matcher m = a.newMatcher();
        for (int t : OracleMaskTest.o200k.encode(text)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    private static Artifact compile(String lark) {
        return DominoCompiler.forVocabulary(OracleMaskTest.o200k.vocabulary()).compile(lark, SourceFormat.LARK, CompileOptions.defaults().withThreads(1));
    }

    /** Plain text that does not start with '{', or a function call whose JSON follows the schema. */
    private static final String FUNCTION_CALL = """
            start: TEXT | fun_call
            TEXT: /[^{](.|\\n)*/
            fun_call: %json {
              "type": "object",
              "properties": {
                "name": { "const": "get_weather" },
                "parameters": {
                  "type": "object",
                  "properties": { "city": { "type": "string" }, "days": { "type": "integer", "minimum": 1, "maximum": 7 } },
                  "required": ["city"]
                }
              },
              "required": ["name", "parameters"]
            }
            """;

    /** The oracle checks every token a mask allows: free text here is narrow, so that it checks few. */
    @Test void inlineJsonSchemaMasksAgainstOracle() {
        OracleMaskTest.check(lark(FUNCTION_CALL.replace("TEXT: /[^{](.|\\n)*/", "TEXT: /[a-z][a-z ]*/")), LongTests.scale(6, 24), 3801);
    }

    @Test void inlineJsonSchemaAcceptsSchemaValidCallsAndFreeText() {
        Artifact a = compile(FUNCTION_CALL);
        assertThat(accepts(a, "There is no function I can call")).isTrue();
        assertThat(accepts(a, "{\"name\":\"get_weather\", \"parameters\": {\"city\":\"Seattle\"}}")).isTrue();
        assertThat(accepts(a, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\", \"days\": 3}}")).isTrue();
        assertThat(accepts(a, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\", \"days\": 9}}")).isFalse();
        assertThat(accepts(a, "{\"name\": \"get_time\", \"parameters\": {\"city\": \"Oslo\"}}")).isFalse();
        assertThat(accepts(a, "{\"parameters\": {\"city\": \"Oslo\"}}")).isFalse();
    }

    /** Two schemas side by side, between special-token-free text and literals; the schema options apply. */
    @Test void twoSchemasAndTheJsonOptions() {
        String g = """
                start: "<call>" (f_a | f_b) "</call>"
                f_a: %json {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"], "additionalProperties": false}
                f_b: %json {"type": "array", "items": {"enum": [1, 2, "x"]}, "maxItems": 2}
                """;
        OracleMaskTest.check(lark(g), 10, 3802);
        Artifact a = compile(g);
        assertThat(accepts(a, "<call>{\"a\": true}</call>")).isTrue();
        assertThat(accepts(a, "<call>[1, \"x\"]</call>")).isTrue();
        assertThat(accepts(a, "<call>[1, 2, 1]</call>")).isFalse();
        CompileOptions compact = CompileOptions.defaults().withThreads(1).withJsonSchema(JsonSchemaOptions.compact());
        Artifact c = DominoCompiler.forVocabulary(OracleMaskTest.o200k.vocabulary()).compile(g, SourceFormat.LARK, compact);
        assertThat(accepts(c, "<call>{\"a\":true}</call>")).isTrue();
        assertThat(accepts(c, "<call>{\"a\": true}</call>")).isFalse();
    }

    /**
     * A schema whose grammar needs the runtime's own mechanisms (distinct items checked beside the
     * parser, members in any order), inside a grammar with terminals and token-free text around it.
     */
    @Test void inlineSchemaWithDistinctItemsAndAnyOrderMembers() {
        String g = """
                start: WORD "=" value (";" WORD "=" value)*
                WORD: /[a-z]{1,6}/
                value: %json {
                  "type": "object",
                  "properties": {"ids": {"type": "array", "items": {"type": "integer", "minimum": 0}, "uniqueItems": true, "maxItems": 4},
                                 "on": {"type": "boolean"}, "w": {"enum": ["x", "y"]}},
                  "additionalProperties": false
                }
                """;
        OracleMaskTest.check(lark(g), LongTests.scale(8, 24), 3808);
        Artifact a = compile(g);
        assertThat(accepts(a, "ab={\"ids\": [1, 2, 30]};c={}")).isTrue();
        assertThat(accepts(a, "ab={\"ids\": [1, 2, 1]}")).isFalse();
        assertThat(accepts(a, "ab={\"w\": \"y\", \"on\": false}")).isTrue();
        assertThat(accepts(a, "ab={\"w\": \"y\", \"w\": \"x\"}")).isFalse();
    }

    /**
     * Text with tool calls anywhere (the shape of the syntax reference's "Tool calling" section): free
     * text read lazily up to the trigger, then a tool name, a schema's JSON or a number, the end tag.
     */
    @Test void lazyTriggerThenInlineSchema() {
        String g = """
                start: (call_calc | call_sum)* rest
                rest: PROSE
                PROSE: /[a-z .]*/
                head[lazy]: PROSE "<tool"
                call_calc: head " calc>" %json {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]} "</tool>"
                call_sum: head " sum>" /[0-9]+/ "</tool>"
                """;
        // the sampler cannot write lazy expressions: whole masks along given texts and random walks instead
        // (Llama 3 vocabulary subset, where a mask is cheap to compare in full)
        var v = dev.domino.compiler.tokens.Llama3Fixture.vocabulary();
        Artifact small = dev.domino.compiler.tokens.Llama3Fixture.compile(g, SourceFormat.LARK, v);
        var oracle = new dev.domino.compiler.testing.ByteEarleyOracle(lark(g), v);
        int[] stops = {dev.domino.compiler.tokens.Llama3Fixture.END_OF_TEXT};
        for (String text : new String[] {"so. <tool calc>{\"x\": 1.5}</tool>then <tool sum>12</tool>done.", "plain words. the end"}) {
            dev.domino.compiler.tokens.Llama3Fixture.acceptChecked(small, oracle, stops, dev.domino.compiler.tokens.Llama3Fixture.tokens(v, text));
        }
        dev.domino.compiler.tokens.Llama3Fixture.randomWalks(small, oracle, stops, LongTests.scale(6, 24), 14, 3809);
        Artifact a = compile(g);
        assertThat(accepts(a, "so. <tool calc>{\"x\": 1.5}</tool>then <tool sum>12</tool>done.")).isTrue();
        assertThat(accepts(a, "no calls at all")).isTrue();
        assertThat(accepts(a, "a <tool calc>{\"y\": 1}</tool>")).isFalse();
        assertThat(accepts(a, "a <tool sum>{}</tool>")).isFalse();
    }

    /** Lines of letters and spaces without an empty line: a class intersected with a complement. */
    @Test void intersectionWithComplementMasksAgainstOracle() {
        String g = """
                start: "[" ASCII_LINES "]"
                ASCII_LINES: /[a-z \\n]*/ & ~/(?s:.*)\\n\\n(?s:.*)/
                """;
        OracleMaskTest.check(lark(g), 12, 3803);
        Artifact a = compile(g);
        assertThat(accepts(a, "[ab c\nde\nf]")).isTrue();
        assertThat(accepts(a, "[ab\n\ncd]")).isFalse();
        assertThat(accepts(a, "[AB]")).isFalse();
    }

    /** Complement over valid UTF-8 text: any text (multi-byte too) without "AAA", and ~ in a rule. */
    @Test void complementIsOverValidUtf8Text() {
        String g = """
                start: NO_AAA "." | "#" ~"x" "#"
                NO_AAA: ~/(?s:.*)AAA(?s:.*)/ & /(?s:.){0,12}/
                """;
        OracleMaskTest.check(lark(g), LongTests.scale(2, 12), 3804);
        OracleMaskTest.check(lark("start: NO_AAA \".\"\nNO_AAA: ~/(?s:.*)AAA(?s:.*)/ & /[Ab é中]{0,12}/\n"), 12, 3807);
        Artifact a = compile(g);
        assertThat(accepts(a, "AAbAAé中.")).isTrue();
        assertThat(accepts(a, "bAAAb.")).isFalse();
        assertThat(accepts(a, "#y#")).isTrue();
        assertThat(accepts(a, "#xx#")).isTrue();
        assertThat(accepts(a, "##")).isTrue();
        assertThat(accepts(a, "#x#")).isFalse();
    }

    /** & binds tighter than |, ~ tighter than +. */
    @Test void precedenceOfAndAndNot() {
        String g = """
                start: A ";" B
                A: /[a-c]+/ & /a.*/ | "zz"
                B: ~"a"+
                """;
        OracleMaskTest.check(lark("start: A \";\"\nA: /[a-c]+/ & /a.*/ | \"zz\"\n"), 12, 3805);
        Artifact a = compile(g);
        assertThat(accepts(a, "abc;b")).isTrue();
        assertThat(accepts(a, "zz;aa")).isTrue(); // "aa" is not "a"
        assertThat(accepts(a, "bc;b")).isFalse();
        assertThat(accepts(a, "zz;")).isTrue(); // ~"a" contains the empty text
    }

    @Test void substringRegexMasksAgainstOracle() {
        String g = """
                start: "q: " QUOTE " / " %regex {"substring_chunks": ["abc", "de", "fg"]}
                QUOTE: %regex {"substring_words": "the quick brown fox, the lazy dog."}
                """;
        OracleMaskTest.check(lark(g), 12, 3806);
        Artifact a = compile(g);
        assertThat(accepts(a, "q: quick brown fox, the / defg")).isTrue();
        assertThat(accepts(a, "q:  / ")).isTrue();
        assertThat(accepts(a, "q: uick / de")).isFalse();
        assertThat(accepts(a, "q: the / cde")).isFalse();
    }
}
