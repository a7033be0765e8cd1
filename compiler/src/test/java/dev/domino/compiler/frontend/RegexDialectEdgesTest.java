package dev.domino.compiler.frontend;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.ir.Grammar;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Regex text that Rust regex (llguidance's Lark), Python re and ECMA-262 read differently is refused
 * in the common dialect, never read one way silently; what they agree on, or what only one has and
 * means the same by, is honoured.
 */
class RegexDialectEdgesTest {
    private static boolean matches(String pattern, String text) {
        Expr e = RegexParser.parse(pattern, RegexParser.Flavor.COMMON);
        return ExprMatcher.matches(Grammar.of("root", Map.of("root", e)), text);
    }

    /**
     * {@code [a-z&&[^aeiou]]} is consonants in Rust and "a letter, '&', '[', '^' or a vowel, then ']'"
     * in Python; before, the common dialect read it Python's way without a word (a user from
     * llguidance got a different language).
     */
    @Test void classSetOperatorsAndNestedClassesAreRefusedByName() {
        for (String p : new String[] {"[a-z&&[^aeiou]]+", "[a-z--[aeiou]]", "[a-g~~b-h]", "[x[^xyz]]", "[[]", "[a&&b]", "[\\w--\\d]", "[\\p{L}&&\\p{Lu}]"}) {
            assertThatThrownBy(() -> RegexParser.parse(p, RegexParser.Flavor.COMMON)).as(p).isInstanceOf(GrammarException.class)
                    .hasMessageContaining("inside a character class").hasMessageContaining("common regex dialect").hasMessageContaining("column");
        }
        // ECMA-262 (JSON Schema patterns) reads them as literal characters, its own meaning
        Expr ecma = RegexParser.parse("[[]", RegexParser.Flavor.ECMA);
        assertThat(ExprMatcher.matches(Grammar.of("root", Map.of("root", ecma)), "[")).isTrue();
        // what stays common: POSIX classes, an escaped bracket, a single '&' or '-' or '~', a range ending in '-'
        assertThat(matches("[[:digit:]\\[&~-]+", "1[&~-")).isTrue();
        assertThat(matches("[+--]", ",")).isTrue(); // the range '+'..'-'
        assertThat(matches("[a-c-]", "-")).isTrue();
    }

    /** {@code \z} is Rust's (and Python 3.14's) end of text, as Python's {@code \Z}. */
    @Test void endOfTextAnchors() {
        assertThat(matches("\\Aabc\\z", "abc")).isTrue();
        assertThat(matches("abc\\Z", "abc")).isTrue();
        assertThat(matches("abc\\z", "abc\n")).isFalse();
        assertThatThrownBy(() -> RegexParser.parse("a\\zb", RegexParser.Flavor.COMMON)).hasMessageContaining("anchor '\\z' in the middle");
    }

    /**
     * Rust regex's braced escapes (llguidance's Lark) {@code \\x{41}}, {@code \\u{41}}, {@code \\U{41}}: Python re and
     * ECMA-262 with the u flag refuse them, so no dialect reads them otherwise and the common dialect takes
     * Rust's reading; ECMA-262 (JSON Schema patterns, read with the u flag) takes {@code \\u{...}} only.
     */
    @Test void bracedHexEscapes() {
        assertThat(matches("a\\x{41}\\x{1F600}", "aA\uD83D\uDE00")).isTrue();
        assertThat(matches("[\\x{61}-\\x{63}]+", "abc")).isTrue();
        assertThat(matches("\\u{e9}\\U{0000e9}", "\u00e9\u00e9")).isTrue();
        assertThat(matches("\\x41", "A")).isTrue();
        for (String bad : new String[] {"a\\x{}", "a\\x{41", "a\\x{4G}", "a\\x{110000}", "a\\x{D800}", "a\\x{000000041}"}) {
            assertThatThrownBy(() -> RegexParser.parse(bad, RegexParser.Flavor.COMMON)).as(bad).isInstanceOf(GrammarException.class)
                    .hasMessageContaining("column 2").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
        assertThatThrownBy(() -> RegexParser.parse("a\\x{41}", RegexParser.Flavor.ECMA)).isInstanceOf(GrammarException.class)
                .hasMessageContaining("braced hex escape \\x{...} is not supported").hasMessageContaining("ECMA-262").hasMessageContaining("column 2");
        Expr ecma = RegexParser.parse("\\u{41}", RegexParser.Flavor.ECMA);
        assertThat(ExprMatcher.matches(Grammar.of("root", Map.of("root", ecma)), "A")).isTrue();
    }

    /**
     * {@code \\d} and {@code \\w} are ASCII in both dialects (ECMA-262's and XGrammar's reading); Rust regex
     * (llguidance) and Python re over str read them over Unicode. Documented in docs/compatibility.md, with
     * {@code \\p{Nd}} and {@code \\p{L}} for the Unicode reading.
     */
    @Test void shorthandClassesAreAsciiAndUnicodePropertiesAreNot() {
        assertThat(matches("\\d+", "123")).isTrue();
        assertThat(matches("\\d+", "\u0663\u0664")).isFalse();
        assertThat(matches("\\p{Nd}+", "\u0663\u0664")).isTrue();
        assertThat(matches("\\w+", "h\u00e9llo")).isFalse();
        assertThat(matches("[\\p{L}\\p{N}_]+", "h\u00e9llo_1")).isTrue();
    }
}
