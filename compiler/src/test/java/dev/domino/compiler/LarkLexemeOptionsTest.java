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

    /**
     * A known difference, documented in docs/compatibility.md: llguidance's lexer ends a lazy lexeme at its
     * first match and drops every other lexeme that was still possible there, so in the syntax reference's
     * "Tool calling" grammar text after {@code <function} must go on as a call. Here the grammar's language
     * holds: the free text at the end ({@code f_end: TEXT}) may still contain {@code <function}. Excluding
     * the trigger from that text with {@code & ~} gives llguidance's language.
     */
    @Test void lazyLexemesDoNotCutOtherLexemesExcludeTheTriggerForLlguidancesLanguage() {
        String reference = """
                start: ( f_foo | f_bar )* f_end
                f_end: TEXT
                TEXT: /(.|\\n)*/
                f_foo_hd[lazy]: TEXT "<function"
                f_foo: f_foo_hd "=foo>" %json { "type": "object" } "</function>"
                f_bar_hd[lazy]: TEXT "<function"
                f_bar: f_bar_hd "=bar>" /[0-9]+/ "</function>"
                """;
        Artifact a = compile(reference);
        assertThat(accepts(a, "hi <function=foo>{\"a\": 1}</function> bye")).isTrue();
        assertThat(accepts(a, "x <function=baz>1</function>")).isTrue(); // llguidance: refused
        String excluded = reference.replace("TEXT: /(.|\\n)*/", "TEXT: /(.|\\n)*/ & ~/(?s:.*)<function(?s:.*)/")
                .replace("_hd[lazy]: TEXT", "_hd[lazy]: /(.|\\n)*/");
        Artifact b = compile(excluded);
        assertThat(accepts(b, "hi <function=foo>{\"a\": 1}</function> bye")).isTrue();
        assertThat(accepts(b, "<function=bar>12</function><function=bar>3</function>")).isTrue();
        assertThat(accepts(b, "no calls")).isTrue();
        assertThat(accepts(b, "x <function=baz>1</function>")).isFalse();
        assertThat(accepts(b, "x <function=bar>a</function>")).isFalse();
    }
}
