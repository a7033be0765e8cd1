package dev.domino.compiler.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.CompileOptions;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;
import dev.domino.compiler.GrammarCompiler;
import dev.domino.compiler.GrammarSources;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.structural.StructuralTags;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.MatcherStats;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.tokens.Llama3Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Structural tags (free text until a trigger, tagged bodies; reasoning then an answer) on the Llama 3 vocabulary, checked by the oracle. */
class StructuralTagsTest {
    static final int[] STOPS = {END_OF_TEXT, EOT_ID};
    static final ObjectMapper JSON = new ObjectMapper();

    record Compiled(Artifact artifact, ByteEarleyOracle oracle) {}

    static Compiled compile(String spec, Vocabulary v) throws Exception {
        JsonNode node = JSON.readTree(spec);
        GrammarSources.Parsed parsed = StructuralTags.parse(node, JsonSchemaOptions.defaults());
        Artifact a = GrammarCompiler.compile(parsed.grammar(), v, "spec", "structural_tag", spec,
                parsed.applyTo(CompileOptions.defaults().withThreads(1)));
        return new Compiled(a, new ByteEarleyOracle(parsed.grammar(), v));
    }

    static final String REASONING = """
            {"type": "structural_tag", "format": {"type": "sequence", "elements": [
              {"type": "tag", "begin": "<think>", "content": {"type": "any_text"}, "end": "</think>"},
              {"type": "const_string", "value": "\\n"},
              {"type": "json_schema", "json_schema": {"type": "object", "properties": {"answer": {"type": "integer"}},
                                                      "required": ["answer"], "additionalProperties": false}}]}}
            """;

    @Test void reasoningThenSchemaAcceptsCanonicalOutputAndRejectsWrongOnes() throws Exception {
        Vocabulary v = vocabulary();
        Compiled c = compile(REASONING, v);
        String canonical = "<think>2 and 2 make 4; <b>not</b> the end </thin yet.</think>\n{\"answer\": 4}";
        Matcher m = acceptChecked(c.artifact(), c.oracle(), STOPS, tokens(v, canonical));
        assertThat(m.isAccepting()).isTrue();
        assertThat(m.acceptToken(EOT_ID)).isTrue();
        // the answer after </think> is constrained: no more free text, no wrong type
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<think>hm</think>\nThe answer"))).isTrue();
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<think>hm</think>\n{\"answer\": \"four\"}"))).isTrue();
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "{\"answer\": 4}"))).isTrue(); // reasoning first
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 12, 3);
    }

    @Test void freeTextCostsNoTreeWalkOverTheVocabulary() throws Exception {
        Vocabulary v = vocabulary();
        Compiled c = compile(REASONING, v);
        Matcher m = c.artifact().newMatcher(STOPS);
        int[] text = tokens(v, "<think>Let us think about this step by step, with many words and more words.");
        for (int t : text) assertThat(m.acceptToken(t)).isTrue();
        MatcherStats stats = MatcherStats.count(m);
        int[] mask = new int[m.bitmaskInts()];
        m.fillNextTokenBitmask(mask, 0); // trees built on first use
        MatcherStats.Snapshot before = stats.snapshot();
        for (int i = 0; i < 10; i++) m.fillNextTokenBitmask(mask, 0);
        MatcherStats.Snapshot d = stats.snapshot().minus(before);
        // one configuration inside the free text: its tree's root group (every token that stays
        // inside) is one precomputed set, plus the few edges of tokens that reach "</think>"
        assertThat(d.masks()).isEqualTo(10);
        assertThat(d.treeNodes() / 10).isLessThan(20);
        assertThat(d.groupsOred() / 10).isLessThan(20);
        assertThat(d.dynamicChecks()).isZero();
    }

    static final String FUNCTION_TAGS = """
            {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": ["<function="], "tags": [
              {"begin": "<function=get_weather>", "content": {"type": "json_schema", "json_schema":
                 {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}},
               "end": "</function>"},
              {"begin": "<function=get_time>", "content": {"type": "json_schema", "json_schema":
                 {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"], "additionalProperties": false}},
               "end": "</function>"}]}}
            """;

    @Test void textTriggerThenToolCallRepeated() throws Exception {
        Vocabulary v = vocabulary();
        Compiled c = compile(FUNCTION_TAGS, v);
        acceptChecked(c.artifact(), c.oracle(), STOPS, tokens(v, "Let me check.<function=get_weather>{\"city\": \"Paris\"}</function>"
                + " and <function=get_time>{\"zone\": \"CET\"}</function> done, <function not a call"));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "Just text.", EOT_ID));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "", EOT_ID));
        // a wrong tool/argument pair, an unknown tool
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<function=get_time>{\"city\": \"Paris\"}"))).isTrue();
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "x<function=get_stock>"))).isTrue();
        // once triggered, the call must finish before the output may end
        Matcher m = c.artifact().newMatcher(STOPS);
        for (int t : tokens(v, "ok <function=get_weather>{\"city\": \"Paris\"}")) assertThat(m.acceptToken(t)).isTrue();
        assertThat(m.isAllowed(EOT_ID)).isFalse();
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 12, 4);
    }

    static final String PYTHON_TAG = """
            {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": [{"token": "<|python_tag|>"}],
             "stop_after_first": true, "tags": [
              {"begin": {"token": "<|python_tag|>"}, "content": {"type": "json_schema", "json_schema":
                 {"type": "object", "properties": {"name": {"const": "get_weather"},
                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
                  "required": ["name", "parameters"]}},
               "end": {"token": "<|eom_id|>"}}]}}
            """;

    @Test void specialTokenTriggerThenJsonToolCall() throws Exception {
        Vocabulary v = vocabulary();
        Compiled c = compile(PYTHON_TAG, v);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "Calling the tool.", Llama3Fixture.PYTHON_TAG,
                "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", EOM_ID, EOT_ID));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, Llama3Fixture.PYTHON_TAG,
                "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Rome\"}}", EOM_ID));
        assertThat(rejected(c.artifact(), STOPS, sequence(v, Llama3Fixture.PYTHON_TAG, "{\"name\": \"get_time\""))).isTrue();
        assertThat(rejected(c.artifact(), STOPS, sequence(v, Llama3Fixture.PYTHON_TAG,
                "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Rome\"}}", EOT_ID))).isTrue();
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 10, 5);
    }

    @Test void reasoningBoundedInTokensBetweenSpecialTokens() throws Exception {
        Vocabulary v = vocabulary();
        String spec = """
                {"type": "sequence", "elements": [
                  {"type": "tag", "begin": {"token_id": 128011}, "content": {"type": "any_text", "max_tokens": 3}, "end": {"token_id": 128012}},
                  {"type": "regex", "pattern": "(yes|no)"}]}
                """;
        Compiled c = compile(spec, v);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, 128011, "a b c", 128012, "yes"));
        int[] three = tokens(v, "one two three");
        assertThat(three).hasSize(3);
        Matcher m = c.artifact().newMatcher(STOPS);
        assertThat(m.acceptToken(128011)).isTrue();
        for (int t : three) assertThat(m.acceptToken(t)).isTrue();
        assertThat(m.countAllowed()).isEqualTo(1); // only the end token
        assertThat(m.isAllowed(128012)).isTrue();
    }

    @Test void larkLazyLexemesReadReasoningUpToItsEnd() {
        Vocabulary v = vocabulary();
        for (String lark : new String[] {
                "start: think \"\\n\" ANSWER\nthink[suffix=\"</think>\"]: \"<think>\" /(.|\\n)*/\nANSWER: /(yes|no)/\n",
                "start: think \"\\n\" ANSWER\nthink[lazy, capture]: \"<think>\" /(.|\\n)*/ \"</think>\"\nANSWER: /(yes|no)/\n"}) {
            dev.domino.runtime.Artifact a = Llama3Fixture.compile(lark, dev.domino.compiler.SourceFormat.LARK, v);
            ByteEarleyOracle oracle = new ByteEarleyOracle(dev.domino.compiler.frontend.LarkParser.parse(lark), v);
            acceptChecked(a, oracle, STOPS, tokens(v, "<think>maybe </thin no\nyes</think>\nno"));
            assertThat(rejected(a, STOPS, tokens(v, "<think>a</think>b</think>\nyes"))).isTrue(); // the first </think> ends it
            randomWalks(a, oracle, STOPS, 5, 10, 6);
        }
        // stop="..." and max_tokens= are honoured (LexemeStopTest, LexemeMaxTokensTest); EOS as a hidden stop is refused
        assertThatThrownBy(() -> Llama3Fixture.compile("start: t \"x\"\nt[stop=\"\"]: /a+/\n", dev.domino.compiler.SourceFormat.LARK, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("EOS");
        assertThatThrownBy(() -> Llama3Fixture.compile("start: t\nt[fancy]: /a+/\n", dev.domino.compiler.SourceFormat.LARK, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("unknown rule option 'fancy'");
    }

    @Test void badSpecsAreErrorsWithPointers() {
        Vocabulary v = vocabulary();
        assertThatThrownBy(() -> compile("{\"type\": \"tag\", \"begin\": \"<a>\", \"content\": {\"type\": \"nope\"}, \"end\": \"</a>\"}", v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("/content/type").hasMessageContaining("nope");
        assertThatThrownBy(() -> compile("{\"type\": \"triggered_tags\", \"triggers\": [\"<f=\"], \"tags\": [{\"begin\": \"<g>\", \"content\": {\"type\": \"any_text\"}, \"end\": \"</g>\"}]}", v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("/tags/0/begin");
        assertThatThrownBy(() -> compile("{\"type\": \"tag\", \"begin\": \"<a>\", \"content\": {\"type\": \"any_text\", \"max_tokens\": 5}, \"end\": \"</a>\"}", v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("max_tokens");
        assertThatThrownBy(() -> compile("{\"type\": \"tag\", \"begin\": {\"token\": \"<|nope|>\"}, \"content\": {\"type\": \"any_text\"}, \"end\": \"x\"}", v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("<|nope|>");
    }
}
