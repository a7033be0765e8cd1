package dev.domino.compiler.frontend;

import dev.domino.compiler.automata.DfaBuilder;
import dev.domino.compiler.frontend.RegexParser.Flavor;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One regex parser, the dialect as a parameter: what the common dialect (regex request fields,
 * Lark, regex files) and ECMA-262 (JSON Schema pattern) accept, checked on the languages, and
 * refusals that name the construct, the dialect and the column.
 */
class RegexDialectTest {
    private static boolean matches(String pattern, Flavor flavor, String text) {
        Expr e = RegexParser.parse(pattern, flavor);
        DfaBuilder.Language l = new DfaBuilder(name -> null).build(e, 100_000);
        if (text.isEmpty()) return l.nullable();
        return l.dfa() != null && l.dfa().matches(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void accepts(String pattern, Flavor f, String... texts) {
        for (String t : texts) assertThat(matches(pattern, f, t)).as("/%s/ (%s) matches '%s'", pattern, f, t).isTrue();
    }

    private static void rejects(String pattern, Flavor f, String... texts) {
        for (String t : texts) assertThat(matches(pattern, f, t)).as("/%s/ (%s) rejects '%s'", pattern, f, t).isFalse();
    }

    @Test void unicodePropertiesFromTheJdkInBothDialects() {
        for (Flavor f : Flavor.values()) {
            accepts("\\p{L}+", f, "héllo", "Ωμέγα", "漢字");
            rejects("\\p{L}+", f, "a1", "a b");
            accepts("\\p{Lu}\\p{Ll}*", f, "Élan");
            accepts("\\p{Script=Greek}+", f, "αβγ");
            rejects("\\p{Script=Greek}+", f, "abc");
            accepts("\\P{N}+", f, "abc");
            rejects("\\P{N}+", f, "a1");
            accepts("\\p{Alphabetic}+", f, "abcé");
        }
        accepts("\\pL\\pN", Flavor.COMMON, "a1");           // Rust's one-letter form
        accepts("\\p{Greek}+", Flavor.COMMON, "λ");        // a bare script name: Rust, Python's regex
        assertThatThrownBy(() -> RegexParser.parse("\\p{Greek}", Flavor.ECMA)).hasMessageContaining("ECMA-262").hasMessageContaining("\\p{Greek}");
    }

    @Test void leadingLookaheadsAreIntersections() {
        for (Flavor f : Flavor.values()) {
            String password = "(?=.*[A-Z])(?=.*\\d)(?!.*\\s)[!-~]{8,}";
            accepts(password, f, "Passw0rd!", "ABCDEFG1");
            rejects(password, f, "password1", "Password", "Pass w0rd", "Pa1");
            accepts("^(?!abc)[a-z]+$", f, "abd", "ab", "xabc");
            rejects("^(?!abc)[a-z]+$", f, "abc", "abcd");
        }
        assertThatThrownBy(() -> RegexParser.parse("a(?=b)b", Flavor.COMMON)).isInstanceOf(GrammarException.class)
                .hasMessageContaining("lookahead").hasMessageContaining("common regex dialect").hasMessageContaining("column 2");
    }

    @Test void flagsInlineScopedAndLeading() {
        accepts("(?i)abc", Flavor.COMMON, "ABC", "aBc");
        accepts("a(?i:b)c", Flavor.COMMON, "aBc", "abc");
        rejects("a(?i:b)c", Flavor.COMMON, "ABc", "abC");
        accepts("(?s:.)", Flavor.COMMON, "\n");
        rejects(".", Flavor.COMMON, "\n");
        accepts("(?i)a(?-i:b)", Flavor.COMMON, "Ab");
        rejects("(?i)a(?-i:b)", Flavor.COMMON, "AB");
        accepts("a(?i:b)", Flavor.ECMA, "aB");   // ECMA-262 modifiers
        assertThatThrownBy(() -> RegexParser.parse("(?m)^a$", Flavor.COMMON)).hasMessageContaining("flag 'm'");
        assertThatThrownBy(() -> RegexParser.parse("a(?x: b)", Flavor.COMMON)).hasMessageContaining("flag 'x'").hasMessageContaining("column 4");
        assertThatThrownBy(() -> RegexParser.parse("a(?i)b", Flavor.COMMON)).hasMessageContaining("only supported at the start");
    }

    @Test void posixClassesInBrackets() {
        accepts("[[:alpha:][:digit:]_]+", Flavor.COMMON, "ab_12");
        rejects("[[:alpha:]]+", Flavor.COMMON, "é", "a1");
        accepts("[[:^digit:]]+", Flavor.COMMON, "ab");
        rejects("[[:^digit:]]", Flavor.COMMON, "5");
        accepts("[[:xdigit:]]{4}", Flavor.COMMON, "09aF");
        assertThatThrownBy(() -> RegexParser.parse("[[:nope:]]", Flavor.COMMON)).hasMessageContaining("[:nope:]").hasMessageContaining("column 2");
    }

    @Test void refusalsNameConstructDialectAndColumn() {
        String[][] cases = {
            {"ab\\b", "word boundary \\b", "3"}, {"(?<=a)b", "lookbehind", "1"}, {"(a)\\1", "backreference", "4"},
            {"a(?#c)", "comment group", "2"}, {"a++", "possessive", "3"},
        };
        for (Flavor f : Flavor.values()) {
            for (String[] c : cases) {
                assertThatThrownBy(() -> RegexParser.parse(c[0], f)).as(c[0]).isInstanceOf(GrammarException.class)
                        .hasMessageContaining(c[1]).hasMessageContaining(f.label()).hasMessageContaining("column " + c[2]);
            }
        }
    }
}
