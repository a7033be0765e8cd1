package dev.domino.constraints;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.request.RequestSpec;
import dev.domino.compiler.request.RequestSpecException;
import dev.domino.compiler.vocab.Tokenizer;
import dev.domino.compiler.vocab.VocabularyLoader;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every request shape of {@link RequestSpec} to an artifact whose masks follow the constraint; clear errors otherwise. */
class ConstraintsTest {
    static Tokenizer tok;

    @BeforeAll static void load() { tok = VocabularyLoader.load("o200k_base", null); }

    static boolean accepts(Artifact a, String output) {
        Matcher m = a.newMatcher();
        for (int t : tok.encode(output)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    @Test void responseFormats() {
        Artifact schema = Constraints.compile("""
                {"response_format": {"type": "json_schema", "json_schema": {"name": "person", "strict": true,
                  "schema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false}}}}""",
                tok.vocabulary());
        assertThat(accepts(schema, "{\"name\": \"Ann\"}")).isTrue();
        assertThat(accepts(schema, "{\"age\": 3}")).isFalse();
        assertThat(schema.info().options()).containsKey(Constraints.SPEC_OPTION);

        Artifact object = Constraints.compile("{\"response_format\": {\"type\": \"json_object\"}}", tok.vocabulary());
        assertThat(accepts(object, "{\"any\": [1, {\"x\": null}]}")).isTrue();
        assertThat(accepts(object, "[1]")).isFalse();

        Artifact text = Constraints.compile("{\"response_format\": {\"type\": \"text\"}}", tok.vocabulary());
        assertThat(accepts(text, "anything at all,\n even ✓ and \u0000")).isTrue();
    }

    @Test void vendorExtensions() {
        Artifact regex = Constraints.compile("{\"regex\": \"[0-9]{3}-[0-9]{4}\"}", tok.vocabulary());
        assertThat(accepts(regex, "555-1234")).isTrue();
        assertThat(accepts(regex, "555-12345")).isFalse();

        Artifact choice = Constraints.compile("{\"structured_outputs\": {\"choice\": [\"yes\", \"no\", \"it \\\"depends\\\"\"]}}", tok.vocabulary());
        assertThat(accepts(choice, "it \"depends\"")).isTrue();
        assertThat(accepts(choice, "maybe")).isFalse();
        assertThat(new String(choice.newMatcher().forcedBytes())).isEmpty();

        Artifact gbnf = Constraints.compile("{\"grammar\": {\"gbnf\": \"root ::= \\\"ok\\\" [0-9]+\"}}", tok.vocabulary());
        assertThat(accepts(gbnf, "ok42")).isTrue();
        Artifact lark = Constraints.compile("{\"grammar\": {\"lark\": \"start: \\\"hi\\\" NAME\\nNAME: /[a-z]+/\"}}", tok.vocabulary());
        assertThat(accepts(lark, "hibob")).isTrue();
        Artifact json = Constraints.compile("{\"structured_outputs\": {\"json\": {\"type\": \"integer\"}}}", tok.vocabulary());
        assertThat(accepts(json, "42")).isTrue();
    }

    @Test void structuralTag() {
        Artifact tags = Constraints.compile("""
                {"structured_outputs": {"structural_tag": {"type": "structural_tag", "format": {"type": "triggered_tags",
                  "triggers": ["<tool>"], "tags": [{"type": "tag", "begin": "<tool>",
                    "content": {"type": "json_schema", "json_schema": {"type": "object", "properties": {"n": {"type": "integer"}},
                                "required": ["n"], "additionalProperties": false}},
                    "end": "</tool>"}]}}}}""", tok.vocabulary());
        assertThat(accepts(tags, "Let me see. <tool>{\"n\": 4}</tool> Done.")).isTrue();
        assertThat(accepts(tags, "Let me see. <tool>{\"m\": 4}</tool>")).isFalse();
        Artifact viaResponseFormat = Constraints.compile("""
                {"response_format": {"type": "structural_tag", "format": {"type": "const_string", "value": "ok"}}}""", tok.vocabulary());
        assertThat(accepts(viaResponseFormat, "ok")).isTrue();
    }

    @Test void clearErrors() {
        assertThatThrownBy(() -> RequestSpec.parse("{\"model\": \"m\"}")).isInstanceOf(RequestSpecException.class).hasMessageContaining("no output constraint");
        assertThatThrownBy(() -> RequestSpec.parse("{\"regex\": \"a\", \"choice\": [\"b\"]}")).hasMessageContaining("more than one");
        assertThatThrownBy(() -> RequestSpec.parse("{\"response_format\": {\"type\": \"xml\"}}")).hasMessageContaining("/response_format/type");
        assertThatThrownBy(() -> RequestSpec.parse("{\"structural_tag\": 3}")).hasMessageContaining("/structural_tag");
        assertThatThrownBy(() -> RequestSpec.parse("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\"}}], "
                + "\"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"g\"}}}")).hasMessageContaining("no tool named 'g'");
        assertThatThrownBy(() -> RequestSpec.parse("{\"tools\": [], \"tool_choice\": \"required\"}")).hasMessageContaining("/tools");
        assertThatThrownBy(() -> RequestSpec.parse("not json")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> Constraints.compile("{\"json\": {\"type\": \"array\", \"contains\": {}, \"items\": {\"type\": \"string\"}, \"uniqueItems\": true}}", tok.vocabulary()))
                .isInstanceOf(GrammarException.class);
    }

    @Test void keyIgnoresTheRestOfTheRequest() throws Exception {
        ObjectMapper om = new ObjectMapper();
        RequestSpec a = RequestSpec.of(om.readTree("{\"model\": \"a\", \"temperature\": 0.2, \"regex\": \"x+\"}"));
        RequestSpec b = RequestSpec.of(om.readTree("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"regex\": \"x+\"}"));
        assertThat(a.key()).isEqualTo(b.key());
        assertThat(RequestSpec.parse("{\"regex\": \"x*\"}").key()).isNotEqualTo(a.key());
    }

    /** A small request, different for each n. */
    static String regexRequest(int n) { return "{\"regex\": \"(item|entry)-" + n + "-[a-f0-9]{4}\"}"; }

    @Test void vocabularyMismatchIsAnErrorStateNotWrongMasks() {
        Artifact a = Constraints.compile("{\"regex\": \"[ab]+\"}", tok.vocabulary());
        Tokenizer other = VocabularyLoader.load("cl100k_base", null);
        Matcher m = Constraints.newMatcher(a, other.vocabulary());
        assertThat(m.isError()).isTrue();
        assertThat(m.errorReason()).contains("vocabulary mismatch").contains("o200k_base").contains("cl100k_base");
        assertThat(m.countAllowed()).isEqualTo(a.vocabulary().eosIds().length);
        assertThat(Constraints.newMatcher(a, tok.vocabulary()).isError()).isFalse();
    }
}
