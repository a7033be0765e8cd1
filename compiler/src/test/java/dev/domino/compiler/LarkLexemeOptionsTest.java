package dev.domino.compiler;

import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.testing.ByteEarleyOracle;
import dev.domino.compiler.tokens.Llama3Fixture;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;
import dev.domino.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * llguidance's lexeme options as its syntax reference ("Lexeme options", "Lazy lexemes") writes them:
 * {@code suffix=} takes any terminal (string, regex, TERMINAL name), {@code stop_capture=} names a
 * capture, a lazy lexeme whose language holds the empty text matches only that, and a lazy rule that
 * is not made of terminals is refused at its line and column. Masks against the byte-level oracle.
 */
class LarkLexemeOptionsTest {
    private static final int[] STOPS = {Llama3Fixture.END_OF_TEXT};

    private static Artifact compile(String g) { return Llama3Fixture.compile(g, SourceFormat.LARK, Llama3Fixture.vocabulary()); }

    private static boolean accepts(Artifact a, String text) {
        Matcher m = a.newMatcher(STOPS);
        for (int t : Llama3Fixture.tokens(a.vocabulary(), text)) if (!m.acceptToken(t)) return false;
        return m.isAccepting();
    }

    /** Every mask along the texts and along random walks equals the oracle's. */
    private static void oracle(String g, String... texts) {
        Vocabulary v = Llama3Fixture.vocabulary();
        Artifact a = compile(g);
        ByteEarleyOracle oracle = new ByteEarleyOracle(LarkParser.parse(g), v);
        for (String t : texts) Llama3Fixture.acceptChecked(a, oracle, STOPS, Llama3Fixture.tokens(v, t));
        Llama3Fixture.randomWalks(a, oracle, STOPS, 6, 12, 3861);
    }

    @Test void suffixTakesARegexOrATerminalName() {
        String regex = "start: a \"!\"\na[suffix=/\\n+/]: /[a-z ]*/\n";
        Artifact r = compile(regex);
        assertThat(accepts(r, "ab c\n!")).isTrue();
        assertThat(accepts(r, "ab\n\n!")).isFalse(); // lazy: the lexeme ends at the suffix's first match
        assertThat(accepts(r, "ab!")).isFalse();
        oracle(regex, "ab c\n!");
        String named = "start: a \"!\"\na[capture, suffix=END, stop_capture=\"e\"]: /[a-z ]*/\nEND: \"<end>\" | \"</e>\"\n";
        Artifact n = compile(named);
        assertThat(accepts(n, "ab<end>!")).isTrue();
        assertThat(accepts(n, "ab</e>!")).isTrue();
        assertThat(accepts(n, "ab!")).isFalse();
        oracle(named, "ab</e>!");
        assertThatThrownBy(() -> LarkParser.parse("start: a\na[suffix=end]: /x/\nend: \"y\"\n"))
                .isInstanceOf(GrammarException.class).hasMessageContaining("line 2, column 10").hasMessageContaining("'end' is a rule");
        assertThatThrownBy(() -> LarkParser.parse("start: a\na[suffix=ENDS]: /x/\n")).hasMessageContaining("undefined terminal 'ENDS'");
    }

    /**
     * {@code foo[lazy]: /.}{@code *}{@code /} matches only the empty text, {@code /[0-9]+/} one digit (the
     * reference's own examples). The first was refused before with an error naming no place.
     */
    @Test void lazyLexemesThatMatchTheEmptyTextMatchOnlyIt() {
        String g = "start: foo \"x\" d\nfoo[lazy]: /.*/\nd[lazy]: /[0-9]+/\n";
        Artifact a = compile(g);
        assertThat(accepts(a, "x1")).isTrue();
        assertThat(accepts(a, "ax1")).isFalse();
        assertThat(accepts(a, "x12")).isFalse();
        oracle(g, "x1");
        Artifact twice = compile("start: a \"!\"\na[lazy]: A A\nA: /b?/\n");
        assertThat(accepts(twice, "!")).isTrue();
        assertThat(accepts(twice, "b!")).isFalse();
    }

    @Test void lazyRulesMadeOfRulesOrTokensAreRefusedAtTheirLine() {
        assertThatThrownBy(() -> LarkParser.parse("start: a\na[lazy]: b \"x\"\nb: \"y\"\n"))
                .isInstanceOf(GrammarException.class).hasMessageContaining("line 2, column 1").hasMessageContaining("refers to rule 'b'");
        assertThatThrownBy(() -> LarkParser.parse("start: a\na[lazy]: <|python_tag|> \"x\"\n"))
                .isInstanceOf(GrammarException.class).hasMessageContaining("line 2, column 1").hasMessageContaining("token reference");
    }
}
