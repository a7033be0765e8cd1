package dev.domino.compiler.tokens;

import dev.domino.compiler.SourceFormat;
import dev.domino.compiler.frontend.GbnfParser;
import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.format.ArtifactFormat;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;

import static dev.domino.compiler.tokens.Llama3Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Token references in grammars (llama.cpp GBNF, llguidance Lark) and per-request stop tokens, on the Llama 3 vocabulary. */
class SpecialTokensTest {
    /** Llama 3.1 built-in tool calling: <|python_tag|>, a JSON call, <|eom_id|>. */
    static final String PYTHON_TAG_GBNF = """
            root ::= <|python_tag|> call <|eom_id|>
            call ::= "{\\"name\\": \\"get_weather\\", \\"parameters\\": {\\"city\\": " string "}}"
                   | "{\\"name\\": \\"get_time\\", \\"parameters\\": {\\"zone\\": " string "}}"
            string ::= "\\"" [a-zA-Z ]* "\\""
            """;

    static final int[] DEFAULT_STOPS = {END_OF_TEXT, EOT_ID};

    static int[] weatherCall(Vocabulary v) {
        return sequence(v, PYTHON_TAG, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", EOM_ID);
    }

    @Test void pythonTagToolCallAcceptsCanonicalOutputTokenByToken() {
        Vocabulary v = vocabulary();
        Artifact a = compile(PYTHON_TAG_GBNF, SourceFormat.GBNF, v);
        ByteEarleyOracle oracle = new ByteEarleyOracle(GbnfParser.parse(PYTHON_TAG_GBNF), v);
        Matcher m = acceptChecked(a, oracle, DEFAULT_STOPS, weatherCall(v));
        assertThat(m.isAccepting()).isTrue();
        assertThat(m.acceptToken(EOT_ID)).isTrue();
        assertThat(m.isTerminated()).isTrue();
        acceptChecked(a, oracle, DEFAULT_STOPS,
                sequence(v, PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"zone\": \"Europe\"}}", EOM_ID, EOT_ID));
    }

    @Test void pythonTagToolCallRejectsWrongOutputs() {
        Vocabulary v = vocabulary();
        Artifact a = compile(PYTHON_TAG_GBNF, SourceFormat.GBNF, v);
        // the tag spelled with text tokens is not the token
        assertThat(rejected(a, DEFAULT_STOPS, sequence(v, "<|python_tag|>{\"name\""))).isTrue();
        // a wrong tool/argument pair
        assertThat(rejected(a, DEFAULT_STOPS, sequence(v, PYTHON_TAG, "{\"name\": \"get_weather\", \"parameters\": {\"zone\": \"UTC\"}}", EOM_ID))).isTrue();
        // <|eot_id|> where <|eom_id|> is required, and the end spelled as text
        assertThat(rejected(a, DEFAULT_STOPS, sequence(v, PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"zone\": \"UTC\"}}", EOT_ID))).isTrue();
        assertThat(rejected(a, DEFAULT_STOPS, sequence(v, PYTHON_TAG, "{\"name\": \"get_time\", \"parameters\": {\"zone\": \"UTC\"}}<|eom_id|>"))).isTrue();
        // the tag twice
        assertThat(rejected(a, DEFAULT_STOPS, sequence(v, PYTHON_TAG, PYTHON_TAG))).isTrue();
        Matcher m = a.newMatcher(DEFAULT_STOPS);
        assertThat(m.countAllowed()).isEqualTo(1); // only <|python_tag|>
        assertThat(m.isAllowed(PYTHON_TAG)).isTrue();
    }

    @Test void tokenByIdNegationAndRangesMatchTheOracle() {
        Vocabulary v = vocabulary();
        // gpt-oss style: any tokens but <|eom_id|>, then it; then text or a reserved token range
        String gbnf = """
                root ::= <[128006]> "assistant" <[128007]> body <[128008]> tail
                body ::= (!<|eom_id|>)*
                tail ::= "ok" | <[128011]>
                """;
        Artifact a = compile(gbnf, SourceFormat.GBNF, v);
        ByteEarleyOracle oracle = new ByteEarleyOracle(GbnfParser.parse(gbnf), v);
        acceptChecked(a, oracle, DEFAULT_STOPS, sequence(v, 128006, "assistant", 128007, "any text", PYTHON_TAG, " more", EOM_ID, "ok"));
        acceptChecked(a, oracle, DEFAULT_STOPS, sequence(v, 128006, "assistant", 128007, EOM_ID, 128011, EOT_ID));
        randomWalks(a, oracle, DEFAULT_STOPS, 8, 12, 1);

        String lark = """
                start: <|start_header_id|> "assistant" <|end_header_id|> ITEM+ <[128002-128005,128011]>
                ITEM: /[a-z]+ /
                """;
        Artifact b = compile(lark, SourceFormat.LARK, v);
        ByteEarleyOracle larkOracle = new ByteEarleyOracle(LarkParser.parse(lark), v);
        acceptChecked(b, larkOracle, DEFAULT_STOPS, sequence(v, 128006, "assistant", 128007, "hello world ", 128004, EOT_ID));
        randomWalks(b, larkOracle, DEFAULT_STOPS, 8, 10, 2);
    }

    @Test void stopTokensArePerRequest() {
        Vocabulary v = vocabulary();
        String gbnf = "root ::= \"yes\" | \"no\" <|eom_id|> \"!\"\n";
        Artifact a = compile(gbnf, SourceFormat.GBNF, v);
        ByteEarleyOracle oracle = new ByteEarleyOracle(GbnfParser.parse(gbnf), v);
        // default stops: <|end_of_text|>, <|eot_id|> end a sentence
        Matcher m = a.newMatcher();
        assertThat(m.stopTokens()).containsExactly(END_OF_TEXT, EOT_ID);
        for (int t : tokens(v, "yes")) assertThat(m.acceptToken(t)).isTrue();
        assertThat(m.isAllowed(EOT_ID)).isTrue();
        assertThat(m.isAllowed(EOM_ID)).isFalse();
        // a request that stops on <|eom_id|> only: <|eot_id|> is just a special token here
        int[] eomOnly = {EOM_ID};
        Matcher r = a.newMatcher(eomOnly);
        for (int t : tokens(v, "yes")) assertThat(r.acceptToken(t)).isTrue();
        assertThat(r.isAllowed(EOT_ID)).isFalse();
        assertThat(r.acceptToken(EOM_ID)).isTrue();
        assertThat(r.isTerminated()).isTrue();
        // a stop token the grammar names mid-output is the grammar's token, not the end
        acceptChecked(a, oracle, eomOnly, sequence(v, "no", EOM_ID, "!", EOM_ID));
        Matcher n = a.newMatcher(eomOnly);
        for (int t : sequence(v, "no", EOM_ID)) assertThat(n.acceptToken(t)).isTrue();
        assertThat(n.isTerminated()).isFalse();
        assertThatThrownBy(() -> a.newMatcher(new int[] {v.size()})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stop token");
    }

    @Test void unknownTokensAreCompileErrorsWithPosition() {
        Vocabulary v = vocabulary();
        assertThatThrownBy(() -> compile("root ::= \"a\"\n  <|no_such_token|>\n", SourceFormat.GBNF, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("line 2, column 3").hasMessageContaining("<|no_such_token|>");
        assertThatThrownBy(() -> compile("root ::= <[999999]>", SourceFormat.GBNF, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("<[999999]>").hasMessageContaining("line 1, column 10");
        assertThatThrownBy(() -> compile("root ::= <[6000]>", SourceFormat.GBNF, v)) // a hole of the subset
                .isInstanceOf(GrammarException.class).hasMessageContaining("no bytes");
        assertThatThrownBy(() -> compile("start: \"a\" <|nope|>\n", SourceFormat.LARK, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("line 1, column 12").hasMessageContaining("<|nope|>");
        assertThatThrownBy(() -> compile("root ::= <|eot_id", SourceFormat.GBNF, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("unclosed token reference");
        assertThatThrownBy(() -> compile("start: A\nA: \"x\" <|eot_id|>\n", SourceFormat.LARK, v))
                .isInstanceOf(GrammarException.class).hasMessageContaining("token reference");
    }

    @Test void theSamplerRefusesTokenReferences() {
        dev.domino.compiler.testing.SentenceSampler sampler = new dev.domino.compiler.testing.SentenceSampler(GbnfParser.parse(PYTHON_TAG_GBNF));
        assertThatThrownBy(() -> sampler.sample(new java.util.Random(1))).isInstanceOf(GrammarException.class).hasMessageContaining("<|python_tag|>");
    }

    @Test void tokenTerminalsSurviveTheArtifactFormat() throws Exception {
        Vocabulary v = vocabulary();
        Artifact a = compile(PYTHON_TAG_GBNF, SourceFormat.GBNF, v);
        Artifact b = Artifact.load(new ByteArrayInputStream(ArtifactFormat.toBytes(a)));
        ByteEarleyOracle oracle = new ByteEarleyOracle(GbnfParser.parse(PYTHON_TAG_GBNF), v);
        acceptChecked(b, oracle, DEFAULT_STOPS, weatherCall(v));
    }

    @Test void fullLlama3VocabularyWhenPresent() {
        Vocabulary full = fullOrNull();
        Assumptions.assumeTrue(full != null, "../shared/vocab/llama3-tokenizer.json not present");
        Artifact a = compile(PYTHON_TAG_GBNF, SourceFormat.GBNF, full);
        Matcher m = a.newMatcher();
        assertThat(m.countAllowed()).isEqualTo(1);
        for (int t : sequence(full, PYTHON_TAG, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", EOM_ID)) {
            assertThat(m.acceptToken(t)).isTrue();
        }
        assertThat(m.isAccepting()).isTrue();
    }
}
