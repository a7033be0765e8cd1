package dev.domino.compiler.tokens;

import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import static dev.domino.compiler.tokens.Llama3Fixture.*;
import static dev.domino.compiler.tokens.StructuralTagsTest.STOPS;
import static dev.domino.compiler.tokens.StructuralTagsTest.compile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One test per XGrammar structural-tag format type beyond the basic ones, and the refusals that keep
 * any field from being ignored. Masks are compared with the byte-level oracle along each accepted
 * sequence and along random walks.
 */
class StructuralTagTypesTest {
    static final int THINK_BEGIN = 128011, THINK_END = 128012;

    private static StructuralTagsTest.Compiled ok(String spec) throws Exception { return compile(spec, vocabulary()); }

    private static void refused(String spec, String... fragments) {
        var t = assertThatThrownBy(() -> compile(spec, vocabulary())).isInstanceOf(GrammarException.class);
        for (String f : fragments) t.hasMessageContaining(f);
    }

    static final String WEATHER = "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}, \"days\": {\"type\": \"integer\"},"
            + " \"unit\": {\"type\": \"string\", \"enum\": [\"C\", \"F\"]}}, \"required\": [\"city\", \"days\"], \"additionalProperties\": false}";

    @Test void qwenXmlStyleWritesParametersAsXml() throws Exception {
        Vocabulary v = vocabulary();
        for (String spec : new String[] {
                "{\"type\": \"tag\", \"begin\": \"<function=get_weather>\", \"content\": {\"type\": \"json_schema\", \"style\": \"qwen_xml\", \"json_schema\": " + WEATHER + "}, \"end\": \"</function>\"}",
                "{\"type\": \"tag\", \"begin\": \"<function=get_weather>\", \"content\": {\"type\": \"qwen_xml_parameter\", \"json_schema\": " + WEATHER + "}, \"end\": \"</function>\"}"}) {
            StructuralTagsTest.Compiled c = ok(spec);
            acceptChecked(c.artifact(), c.oracle(), STOPS, tokens(v,
                    "<function=get_weather>\n<parameter=city>San {\"Fran\"} & <b>cisco</b></parameter>\n<parameter=days>\t3\n</parameter><parameter=unit>F</parameter>\n</function>"));
            acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "<function=get_weather><parameter=city>Rome</parameter><parameter=days>1</parameter></function>", EOT_ID));
            // JSON is not the XML style; a required parameter cannot be skipped; the order is the schema's
            assertThat(rejected(c.artifact(), STOPS, tokens(v, "<function=get_weather>{\"city\""))).isTrue();
            assertThat(rejected(c.artifact(), STOPS, tokens(v, "<function=get_weather><parameter=days>"))).isTrue();
            assertThat(rejected(c.artifact(), STOPS, tokens(v, "<function=get_weather><parameter=city>x</parameter><parameter=days>two"))).isTrue();
            assertThat(rejected(c.artifact(), STOPS, tokens(v, "<function=get_weather><parameter=city>x</parameter><parameter=days>2</parameter><parameter=unit>K"))).isTrue();
            randomWalks(c.artifact(), c.oracle(), STOPS, 5, 12, 11);
        }
    }

    @Test void fieldsThatWouldBeIgnoredAreRefusedByName() {
        refused("{\"type\": \"json_schema\", \"style\": \"minimax_xml\", \"json_schema\": " + WEATHER + "}", "/style", "minimax_xml");
        refused("{\"type\": \"json_schema\", \"any_order\": true, \"json_schema\": " + WEATHER + "}", "any_order");
        refused("{\"type\": \"json_schema\", \"style\": \"qwen_xml\", \"json_schema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}}",
                "additionalProperties");
        refused("{\"type\": \"json_schema\", \"style\": \"qwen_xml\", \"json_schema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"pattern\": \"x+\"}},"
                + " \"additionalProperties\": false}}", "/properties/a/pattern", "pattern");
        refused("{\"type\": \"tag\", \"begin\": {\"token_id\": 128011}, \"content\": {\"type\": \"any_text\"}, \"end\": {\"token_id\": 128012}, \"max_tokens\": 5}",
                "'max_tokens' is not a field of 'tag'", "content");
        refused("{\"type\": \"const_string\", \"valeu\": \"x\"}", "unknown field 'valeu'", "const_string");
        refused("{\"type\": \"structural_tag\", \"format\": {\"type\": \"const_string\", \"value\": \"x\"}, \"strict\": true}", "unknown field 'strict'");
        refused("{\"type\": \"triggered_tags\", \"triggers\": [\"<f\"], \"tags\": [{\"begin\": \"<f>\", \"content\": {\"type\": \"any_text\"}, \"end\": \"</f>\", \"priority\": 1}]}",
                "/tags/0", "unknown field 'priority'");
        refused("{\"type\": \"any_text\", \"max_tokens\": 4}", "max_tokens");
        refused("{\"type\": \"any_text\", \"max_chars\": 8, \"max_tokens\": 4}", "'max_chars' together with 'max_tokens'", "/max_chars");
        refused("{\"type\": \"repeat\", \"min\": 3, \"max\": 2, \"content\": {\"type\": \"const_string\", \"value\": \"x\"}}", "'max'");
    }

    @Test void optionalStarPlusAndRepeat() throws Exception {
        Vocabulary v = vocabulary();
        StructuralTagsTest.Compiled c = ok("""
                {"type": "sequence", "elements": [
                  {"type": "optional", "content": {"type": "const_string", "value": "Answer: "}},
                  {"type": "plus", "content": {"type": "regex", "pattern": "[a-c]"}},
                  {"type": "star", "content": {"type": "const_string", "value": "!"}},
                  {"type": "repeat", "min": 1, "max": 2, "content": {"type": "const_string", "value": "."}},
                  {"type": "repeat", "min": 0, "max": -1, "content": {"type": "const_string", "value": "?"}}]}
                """);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "Answer: abc!!..??", EOT_ID));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "b.", EOT_ID));
        assertThat(rejected(c.artifact(), STOPS, sequence(v, "Answer: ", EOT_ID))).isTrue();  // plus: at least one
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "a..."))).isTrue();                 // repeat: at most two
        assertThat(rejected(c.artifact(), STOPS, sequence(v, "a!", EOT_ID))).isTrue();         // repeat: at least one
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 10, 12);
    }

    @Test void tagsWithSeparator() throws Exception {
        Vocabulary v = vocabulary();
        String tags = "\"tags\": [{\"type\": \"tag\", \"begin\": \"<a>\", \"content\": {\"type\": \"regex\", \"pattern\": \"[0-9]+\"}, \"end\": \"</a>\"},"
                + " {\"begin\": \"<b>\", \"content\": {\"type\": \"any_text\"}, \"end\": \"</b>\"}], \"separator\": \", \"";
        StructuralTagsTest.Compiled any = ok("{\"type\": \"tags_with_separator\", " + tags + "}");
        acceptChecked(any.artifact(), any.oracle(), STOPS, sequence(v, "<a>12</a>, <b>x, y</b>, <a>3</a>", EOT_ID));
        acceptChecked(any.artifact(), any.oracle(), STOPS, sequence(v, "", EOT_ID));
        assertThat(rejected(any.artifact(), STOPS, tokens(v, "<a>1</a> <b>"))).isTrue(); // only the separator between tags
        assertThat(rejected(any.artifact(), STOPS, tokens(v, "text"))).isTrue();          // no free text
        randomWalks(any.artifact(), any.oracle(), STOPS, 6, 12, 13);

        StructuralTagsTest.Compiled one = ok("{\"type\": \"tags_with_separator\", " + tags + ", \"at_least_one\": true, \"stop_after_first\": true}");
        acceptChecked(one.artifact(), one.oracle(), STOPS, sequence(v, "<b>hi</b>", EOT_ID));
        assertThat(rejected(one.artifact(), STOPS, sequence(v, "", EOT_ID))).isTrue();
        assertThat(rejected(one.artifact(), STOPS, tokens(v, "<b>hi</b>, "))).isTrue();
        randomWalks(one.artifact(), one.oracle(), STOPS, 4, 10, 14);
    }

    @Test void triggeredTagsAtLeastOneStartsWithATagAndExcludesStopFreeText() throws Exception {
        Vocabulary v = vocabulary();
        StructuralTagsTest.Compiled c = ok("""
                {"type": "triggered_tags", "triggers": ["<f="], "at_least_one": true, "excludes": ["<stop>"], "tags": [
                  {"type": "tag", "begin": "<f=x>", "content": {"type": "regex", "pattern": "[0-9]"}, "end": "</f>"}]}
                """);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "<f=x>1</f> then text <f=x>2</f> done", EOT_ID));
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "text first"))).isTrue();           // at_least_one: no leading text
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<f=x>1</f> a <stop>"))).isTrue();  // excluded from the free text
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 12, 15);
    }

    @Test void dispatchLoopsOrStopsAfterTheFirstMatch() throws Exception {
        Vocabulary v = vocabulary();
        String rules = "\"rules\": [[\"<calc>\", {\"type\": \"regex\", \"pattern\": \"[0-9]+=\"}], [\"<yes>\", {\"type\": \"const_string\", \"value\": \"!\"}]]";
        StructuralTagsTest.Compiled loop = ok("{\"type\": \"tag\", \"begin\": \"<r>\", \"content\": {\"type\": \"dispatch\", " + rules + "}, \"end\": \"</r>\"}");
        acceptChecked(loop.artifact(), loop.oracle(), STOPS, sequence(v, "<r>so <calc>12= and <yes>! ok</r>", EOT_ID));
        assertThat(rejected(loop.artifact(), STOPS, tokens(v, "<r>so <calc>x"))).isTrue();
        assertThat(rejected(loop.artifact(), STOPS, tokens(v, "<r>a</r>b"))).isTrue(); // the end stops the free text
        randomWalks(loop.artifact(), loop.oracle(), STOPS, 6, 12, 16);

        StructuralTagsTest.Compiled once = ok("{\"type\": \"dispatch\", \"loop\": false, \"excludes\": [\"<no>\"], " + rules + "}");
        acceptChecked(once.artifact(), once.oracle(), STOPS, sequence(v, "text <yes>!", EOT_ID));
        acceptChecked(once.artifact(), once.oracle(), STOPS, sequence(v, "only text", EOT_ID));
        assertThat(rejected(once.artifact(), STOPS, tokens(v, "text <yes>! more"))).isTrue();
        assertThat(rejected(once.artifact(), STOPS, tokens(v, "a <no>"))).isTrue();
        randomWalks(once.artifact(), once.oracle(), STOPS, 6, 12, 17);
    }

    @Test void anyTextExcludesMaxCharsAndSeveralEnds() throws Exception {
        Vocabulary v = vocabulary();
        StructuralTagsTest.Compiled c = ok("""
                {"type": "sequence", "elements": [
                  {"type": "tag", "begin": "<r>", "content": {"type": "any_text", "excludes": ["<x>"]}, "end": ["</r>", "</answer>"]},
                  {"type": "any_text", "max_chars": 3}]}
                """);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "<r>a </ b</answer>xyz", EOT_ID));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, "<r></r>", EOT_ID));
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<r>a<x>"))).isTrue();
        assertThat(rejected(c.artifact(), STOPS, tokens(v, "<r></r>abcd"))).isTrue();
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 12, 18);
    }

    @Test void tokenLevelFormats() throws Exception {
        Vocabulary v = vocabulary();
        StructuralTagsTest.Compiled c = ok("""
                {"type": "sequence", "elements": [
                  {"type": "tag", "begin": {"type": "token", "token": 128011}, "content": {"type": "any_tokens", "max_tokens": 4},
                   "end": {"type": "token", "token": 128012}},
                  {"type": "token_triggered_tags", "trigger_tokens": ["<|python_tag|>"], "exclude_tokens": [128009], "stop_after_first": true,
                   "tags": [{"type": "tag", "begin": {"type": "token", "token": "<|python_tag|>"},
                             "content": {"type": "regex", "pattern": "[a-z]+"}, "end": {"type": "token", "token": "<|eom_id|>"}}]}]}
                """);
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, THINK_BEGIN, "a b", THINK_END, "some text ", PYTHON_TAG, "abc", EOM_ID));
        acceptChecked(c.artifact(), c.oracle(), STOPS, sequence(v, THINK_BEGIN, THINK_END, "just text", END_OF_TEXT));
        assertThat(rejected(c.artifact(), STOPS, sequence(v, THINK_BEGIN, "one two three four five"))).isTrue(); // max_tokens 4
        assertThat(rejected(c.artifact(), STOPS, sequence(v, THINK_BEGIN, THINK_END, PYTHON_TAG, "abc", EOM_ID, "more"))).isTrue();
        randomWalks(c.artifact(), c.oracle(), STOPS, 6, 10, 19);

        StructuralTagsTest.Compiled d = ok("""
                {"type": "sequence", "elements": [
                  {"type": "exclude_token", "exclude_tokens": [128011, "<|python_tag|>"]},
                  {"type": "token_dispatch", "loop": true, "exclude_tokens": ["<|eom_id|>"],
                   "rules": [["<|python_tag|>", {"type": "const_string", "value": "call"}]]}]}
                """);
        acceptChecked(d.artifact(), d.oracle(), STOPS, sequence(v, "x", "y ", PYTHON_TAG, "call", " z", PYTHON_TAG, "call", EOT_ID));
        assertThat(rejected(d.artifact(), STOPS, sequence(v, PYTHON_TAG))).isTrue();             // excluded first token
        assertThat(rejected(d.artifact(), STOPS, sequence(v, "x", PYTHON_TAG, "no"))).isTrue();
        assertThat(rejected(d.artifact(), STOPS, sequence(v, "x", EOM_ID))).isTrue();
        randomWalks(d.artifact(), d.oracle(), STOPS, 6, 10, 20);
    }
}
