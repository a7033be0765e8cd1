package dev.domino.compiler.tokens;

import dev.domino.compiler.request.RequestSpec;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.constraints.ConstraintOptions;
import dev.domino.constraints.Constraints;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * XGrammar's {@code any_text} with {@code max_chars} beside {@code excludes} and inside a tag (its
 * structural-tag docs bound a reasoning section so): at most that many code points, none of the
 * excluded texts, then the end. It was refused; masks against the byte-level oracle.
 */
class StructuralTagMaxCharsTest {
    private static final int[] STOPS = {Llama3Fixture.END_OF_TEXT};

    private static String request(String format) { return "{\"response_format\": {\"type\": \"structural_tag\", \"format\": " + format + "}}"; }

    private static boolean accepts(Artifact a, Object... parts) {
        Matcher m = a.newMatcher(STOPS);
        for (int t : Llama3Fixture.sequence(a.vocabulary(), parts)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    private static Artifact checked(String request, Object[]... texts) {
        Vocabulary v = Llama3Fixture.vocabulary();
        Artifact a = Constraints.compile(request, v);
        ByteEarleyOracle oracle = new ByteEarleyOracle(RequestSpec.parse(request).resolve(v, null).grammar(ConstraintOptions.defaults().jsonSchema()).grammar(), v);
        for (Object[] t : texts) Llama3Fixture.acceptChecked(a, oracle, STOPS, Llama3Fixture.sequence(v, t));
        Llama3Fixture.randomWalks(a, oracle, STOPS, 6, 10, 3871);
        return a;
    }

    @Test void reasoningBoundedInCharactersInsideATag() {
        String r = request("{\"type\": \"tag\", \"begin\": \"<think>\", \"content\": {\"type\": \"any_text\", \"excludes\": [\"</think>\"], "
                + "\"max_chars\": 4}, \"end\": \"</think>\"}");
        Artifact a = checked(r, new Object[] {"<think>abcd</think>"});
        assertThat(accepts(a, "<think></think>")).isTrue();
        assertThat(accepts(a, "<think>éé中!</think>")).isTrue(); // code points, not bytes
        assertThat(accepts(a, "<think>abcde</think>")).isFalse();
    }

    @Test void excludesAndTheFirstEndStopTheText() {
        Artifact excl = checked(request("{\"type\": \"sequence\", \"elements\": [{\"type\": \"any_text\", \"excludes\": [\"<f>\"], \"max_chars\": 5}, "
                + "{\"type\": \"const_string\", \"value\": \"<f>!\"}]}"), new Object[] {"ab<f<f>!"});
        assertThat(accepts(excl, "a<f>b<f>!")).isFalse();
        assertThat(accepts(excl, "abcdef<f>!")).isFalse();
        // the region ends at the first end, also where the end overlaps the text's last characters
        Artifact overlap = checked(request("{\"type\": \"tag\", \"begin\": \"<\", \"content\": {\"type\": \"any_text\", \"max_chars\": 5}, \"end\": \"aa\"}"),
                new Object[] {"<bbaa"});
        assertThat(accepts(overlap, "<aaa")).isFalse();
        assertThat(accepts(overlap, "<abaa")).isTrue();
        Artifact token = checked(request("{\"type\": \"tag\", \"begin\": \"<r>\", \"content\": {\"type\": \"any_text\", \"max_chars\": 3, \"excludes\": [\"x\"]}, "
                + "\"end\": {\"type\": \"token\", \"token\": \"<|eom_id|>\"}}"), new Object[] {"<r>abc", Llama3Fixture.EOM_ID});
        assertThat(accepts(token, "<r>abcd", Llama3Fixture.EOM_ID)).isFalse();
        assertThat(accepts(token, "<r>axc", Llama3Fixture.EOM_ID)).isFalse();
    }

    /** XGrammar's own example bound, 4,096 characters: a counter on the stop-free text, exact at both sides of the bound. */
    @Test void largeBoundsAreACounterOnTheText() {
        String r = request("{\"type\": \"tag\", \"begin\": \"<think>\", \"content\": {\"type\": \"any_text\", \"excludes\": [\"</think>\"], "
                + "\"max_chars\": 4096}, \"end\": \"</think>\"}");
        Artifact a = Constraints.compile(r, Llama3Fixture.vocabulary());
        assertThat(accepts(a, "<think>" + "ab ".repeat(1365) + "c</think>")).isTrue(); // 4,096
        assertThat(accepts(a, "<think>" + "ab ".repeat(1365) + "cd</think>")).isFalse();
        assertThat(accepts(a, "<think>a</think>b</think>")).isFalse();
        // masks against the oracle up to the bound (the same counted text; a small bound keeps the oracle fast)
        checked(request("{\"type\": \"tag\", \"begin\": \"<think>\", \"content\": {\"type\": \"any_text\", \"excludes\": [\"</think>\"], "
                + "\"max_chars\": 24}, \"end\": \"</think>\"}"), new Object[] {"<think>" + "xy".repeat(12) + "</think>"});
    }
}
