package dev.domino.compiler;

import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.diagnostics.HiddenText;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * llguidance's {@code stop="..."} on a lexeme (its docs/syntax.md, "Lazy lexemes"): the model writes
 * the lexeme lazily up to the first stop text, and the stop text is hidden from the output. Masks: the
 * lazy lexeme followed by the stop, against the byte-level oracle; the hidden spans through
 * {@link HiddenText}; the visible text (output without them) is the text llguidance shows.
 */
class LexemeStopTest {
    @BeforeAll static void load() { OracleMaskTest.load(); }

    private static Artifact compile(String lark) {
        return DominoCompiler.forVocabulary(OracleMaskTest.o200k.vocabulary()).compile(lark, SourceFormat.LARK, CompileOptions.defaults().withThreads(1));
    }

    /** The reference's own examples: with_stop then "<end>" again, and a stop followed by something else. */
    private static final String OUTER = """
            start: outer_stop | outer_stop_problem
            with_stop[capture, stop="<end>"]: /.*/
            outer_stop[capture]: with_stop "<end>"
            outer_stop_problem[capture]: with_stop "b"
            """;

    /**
     * Masks: the lexeme lazily followed by its stop text, against the byte-level oracle over the grammar's
     * IR (whole masks along given texts and random walks: the sampler cannot write lazy expressions).
     */
    @Test void masksAreTheLazyLexemeThenItsStopAgainstTheOracle() {
        var v = dev.domino.compiler.tokens.Llama3Fixture.vocabulary();
        Artifact small = dev.domino.compiler.tokens.Llama3Fixture.compile(OUTER, SourceFormat.LARK, v);
        var oracle = new ByteEarleyOracle(LarkParser.parse(OUTER), v);
        int[] stops = {dev.domino.compiler.tokens.Llama3Fixture.END_OF_TEXT};
        for (String text : new String[] {"foo<end><end>", "a <b> c<end>b"}) {
            dev.domino.compiler.tokens.Llama3Fixture.acceptChecked(small, oracle, stops, dev.domino.compiler.tokens.Llama3Fixture.tokens(v, text));
        }
        dev.domino.compiler.tokens.Llama3Fixture.randomWalks(small, oracle, stops, LongTests.scale(6, 24), 14, 3951);
    }

    @Test void theStopTextIsHiddenAndTheVisibleTextIsLlguidances() {
        Artifact a = compile(OUTER);
        assertThat(visible(a, "foo<end><end>")).isEqualTo("foo<end>");   // outer_stop: capture foo<end>
        assertThat(visible(a, "foo<end>b")).isEqualTo("foob");             // outer_stop_problem: foob
        List<HiddenText.Span> spans = HiddenText.spans(a, "foo<end>b".getBytes(StandardCharsets.UTF_8));
        assertThat(spans).containsExactly(new HiddenText.Span("with_stop", 3, 8));
        // lazy: the first <end> ends the lexeme; a second lexeme is not there to hide another
        assertThat(accepts(a, "foo<end>bar<end>")).isFalse();
        assertThat(accepts(a, "foo<end><end>")).isTrue();
    }

    @Test void aStopAtTheEndOfTheOutputAndOneNotYetWhole() {
        Artifact a = compile("""
                start: think answer
                think[stop="</think>"]: /(.|\\n)*/
                answer: /[A-Z][a-z ]*/
                """);
        assertThat(visible(a, "hmm, two\n</think>Yes")).isEqualTo("hmm, two\nYes");
        assertThat(HiddenText.spans(a, "hmm</thi".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(accepts(a, "hmm</think>Yes")).isTrue();
        assertThat(accepts(a, "hmm</think></think>Yes")).isFalse();
    }

    @Test void refusedByNameWhatCannotBeHonoured() {
        assertError("start: t \"x\"\nt[stop=\"\"]: /a+/\n", "line 2, column 8: stop=\"\" (the EOS token as the stop, hidden, then more output) is not supported");
        assertError("start: t\nt[stop=/;+/]: /a+/\n", "line 2, column 8: stop= with a regex or a terminal is not supported");
        assertError("start: t\nt[stop=END]: /a+/\nEND: \";\"\n", "line 2, column 8: stop= with a regex or a terminal is not supported");
        assertError("start: t\nt[stop=\";\", suffix=\"!\"]: /a+/\n", "line 2, column 13: stop= and suffix= cannot be used together");
        assertError("start: t\nt[stop]: /a+/\n", "line 2, column 3: stop takes a string");
    }

    private static void assertError(String lark, String expected) {
        assertThatThrownBy(() -> LarkParser.parse(lark)).isInstanceOf(GrammarException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(expected).doesNotContain("\n"));
    }

    private static boolean accepts(Artifact a, String text) {
        Matcher m = a.newMatcher();
        for (int t : OracleMaskTest.o200k.encode(text)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    /** The output as the user sees it: generated by the masks (whole), the hidden spans taken out. */
    private static String visible(Artifact a, String output) {
        assertThat(accepts(a, output)).as("the masks allow %s", output).isTrue();
        byte[] bytes = output.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (HiddenText.Span s : HiddenText.spans(a, bytes)) {
            out.append(new String(bytes, at, s.from() - at, StandardCharsets.UTF_8));
            at = s.to();
        }
        return out.append(new String(bytes, at, bytes.length - at, StandardCharsets.UTF_8)).toString();
    }
}
