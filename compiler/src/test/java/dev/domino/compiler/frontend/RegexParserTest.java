package dev.domino.compiler.frontend;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.frontend.RegexParser.Flavor;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.GrammarException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegexParserTest {
    static final String ALPHABET = "abcAB019_-. \n\t/\\xyz{}";

    static List<String> samples(Random rnd, String alphabet, int n, int maxLen) {
        List<String> out = new ArrayList<>();
        out.add("");
        for (int i = 0; i < n; i++) {
            int len = rnd.nextInt(maxLen + 1);
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < len; j++) sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            out.add(sb.toString());
        }
        return out;
    }

    /** Checks whole-match and search semantics against java.util.regex (same syntax in both). */
    static void check(String regex, Flavor flavor, String alphabet, int flags, List<String> extra) {
        Random rnd = new Random(regex.hashCode());
        RegexParser.Flags f = new RegexParser.Flags((flags & Pattern.CASE_INSENSITIVE) != 0, (flags & Pattern.DOTALL) != 0);
        Expr whole = RegexParser.parse(regex, flavor, f);
        Expr search = RegexParser.parseSearch(regex, flavor, f).expr();
        // java.util.regex $ also matches before a final line terminator (Python-like); ECMA $ does not
        Pattern p = Pattern.compile(flavor == Flavor.ECMA ? regex.replace("$", "\\z") : regex, flags);
        List<String> inputs = samples(rnd, alphabet, 300, 8);
        inputs.addAll(extra);
        for (String s : inputs) {
            boolean javaWhole = p.matcher(s).matches();
            // for whole-match, anchors are redundant; java treats them the same way
            assertThat(ExprMatcher.matches(whole, s)).as("/%s/ whole on %s", regex, show(s)).isEqualTo(javaWhole);
            boolean javaFind = p.matcher(s).find();
            assertThat(ExprMatcher.matches(search, s)).as("/%s/ search on %s", regex, show(s)).isEqualTo(javaFind);
        }
    }

    static String show(String s) { return "\"" + s.replace("\n", "\\n").replace("\t", "\\t") + "\""; }

    @Test void basicsAgainstJavaRegex() {
        String[] patterns = {
            "abc", "a|b|c", "a*", "a+b?", "(ab)*c", "(?:a|bc){2,3}", "a{2}", "a{1,}", "x{0,2}y",
            "[abc]+", "[^abc]", "[a-c0-9]*", "\\d+", "\\D", "\\w+", "\\W", "\\s", "\\S+", "a.b", ".*",
            "^ab", "ab$", "^ab$", "^a|b$", "^(a|b)+$", "a*?b", "a+?", "(?<n>a|b)c", "\\.", "\\\\", "\\/",
            "[\\-a]", "[a\\]]", "\\x41", "\\u0041b", "[\\n\\t]", "\\t", "\\{", "x{1}y", "[.]", "(a|)b",
            "()", "a||b", "^$", "^", "$", "[-a]", "[a-]", "(a(b(c)?)?)?", "[\\d_]+", "[^\\d]", "\\d{2,4}-\\d{2}",
            "^[A-Za-z_][A-Za-z0-9_]*$", "^\\d{3}-\\d{4}$", "(ab|a)(c|bcd)", "[ -/]+",
        };
        for (String pat : patterns) check(pat, Flavor.ECMA, ALPHABET, 0, List.of());
    }

    @Test void caseInsensitiveAndDotAll() {
        check("abc", Flavor.ECMA, "abcABC", Pattern.CASE_INSENSITIVE, List.of("AbC", "aBc"));
        check("[a-b]x", Flavor.ECMA, "abxABX", Pattern.CASE_INSENSITIVE, List.of());
        check("[^a]", Flavor.ECMA, "abAB", Pattern.CASE_INSENSITIVE, List.of());
        check("a.b", Flavor.ECMA, "ab\n", Pattern.DOTALL, List.of("a\nb"));
        Expr e = RegexParser.parse("(?i)ab", Flavor.COMMON, RegexParser.Flags.NONE);
        assertThat(ExprMatcher.matches(e, "AB")).isTrue();
    }

    @Test void dotExcludesLineTerminators() {
        Expr ecma = RegexParser.parse(".", Flavor.ECMA);
        Expr py = RegexParser.parse(".", Flavor.COMMON);
        assertThat(ExprMatcher.matches(ecma, "\n")).isFalse();
        assertThat(ExprMatcher.matches(ecma, "\r")).isFalse();
        assertThat(ExprMatcher.matches(ecma, "\u2028")).isFalse();
        assertThat(ExprMatcher.matches(py, "\r")).isTrue();
        assertThat(ExprMatcher.matches(py, "\n")).isFalse();
        assertThat(ExprMatcher.matches(ecma, "\uD83D\uDE00")).isTrue();
    }

    @Test void escapes() {
        assertThat(ExprMatcher.matches(RegexParser.parse("\\u{1F600}", Flavor.ECMA), "\uD83D\uDE00")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\uD83D\\uDE00", Flavor.ECMA), "\uD83D\uDE00")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\U0001F600", Flavor.COMMON), "\uD83D\uDE00")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\0\\v\\f\\r", Flavor.ECMA), "\0\u000B\f\r")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("[\\b]", Flavor.ECMA), "\b")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\cJ", Flavor.ECMA), "\n")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("(?P<x>a)b", Flavor.COMMON), "ab")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("a{", Flavor.ECMA), "a{")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("x{,2}", Flavor.COMMON), "xx")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\p{Lu}+", Flavor.ECMA), "AÉ")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\p{L}+", Flavor.ECMA), "a1")).isFalse();
        assertThat(ExprMatcher.matches(RegexParser.parse("\\s", Flavor.ECMA), "\u00A0")).isTrue();
    }

    @Test void searchForPossiblyEmptyMatchAcceptsEverything() {
        for (String regex : new String[] {"[A-Za-z0-9_-]*", "^a*", "(x|)$", "^b?|c"}) {
            Expr e = RegexParser.parseSearch(regex, Flavor.ECMA).expr();
            assertThat(e).as(regex).isEqualTo(Expr.star(Expr.chars(dev.domino.compiler.ir.CodePointSet.ANY)));
            for (String s : new String[] {"", "zz", "!\n?"}) {
                assertThat(Pattern.compile(regex).matcher(s).find()).as("%s on %s", regex, s).isTrue();
            }
        }
        // both ends anchored: the empty match is not enough
        assertThat(ExprMatcher.matches(RegexParser.parseSearch("^a*$", Flavor.ECMA).expr(), "b")).isFalse();
    }

    /**
     * Unanchored alternatives share one padding, ".*(A|B|...).*": the per-branch form
     * ".*A.*|.*B.*|..." has the same language, but its subset construction tracks which branches
     * matched so far (2^17 states for 17 keywords: a real schema's enum-like pattern).
     */
    @Test void unanchoredAlternativesShareTheirPadding() {
        StringBuilder keywords = new StringBuilder();
        for (String k : new String[] {"TICK", "M1", "M2", "M3", "M4", "M5", "M6", "M10", "M15", "M20", "M30", "H1", "H2", "H4", "D1", "W1", "MN1"}) {
            if (keywords.length() > 0) keywords.append('|');
            keywords.append("INTERVAL_").append(k);
        }
        Expr e = RegexParser.parseSearch(keywords.toString(), Flavor.ECMA).expr();
        assertThat(e).isInstanceOf(Expr.Seq.class);
        assertThat(new dev.domino.compiler.automata.DfaBuilder(name -> null).build(e).dfa().stateCount()).isLessThan(100);
        check(keywords.toString(), Flavor.ECMA, "INTERVAL_TICKMNHDW0123456", 0,
                List.of("xINTERVAL_M15y", "INTERVAL_M", "INTERVAL_MN1", "INTERVAL_W2INTERVAL_W1", "INTERVAL_TIC"));
        // mixed anchoring: each group keeps its own padding
        for (String regex : new String[] {"^a|b|c$|^d|e", "^ab|^c|d$|e$|f", "a$|b$|^c$"}) {
            check(regex, Flavor.ECMA, "abcdef", 0, List.of("xa", "ax", "bx", "xc", "cx", "dx", "xd", "c"));
            check(regex, Flavor.COMMON, "abcdef\n", 0, List.of("a\n", "c\n", "xe\n"));
        }
    }

    /** A search for a run of one class matches where a maximal run starts: the same strings as Java's find(). */
    @Test void searchForARunOfOneClass() {
        for (String regex : new String[] {"[ab]{3}", "a{2,4}", "[0-9]{2,}", "a{1}", "[^a]{2}", "b+"}) {
            check(regex, Flavor.ECMA, "ab0c", 0, List.of("aab", "abba", "cabab", "aaaa", "caaac", "0a00", "b", "ab00a"));
        }
        Expr e = RegexParser.parseSearch("[a-z0-9_-]{162}", Flavor.ECMA).expr();
        assertThat(e).isInstanceOf(Expr.Seq.class);
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < 162; i++) run.append((char) ('a' + i % 26));
        assertThat(ExprMatcher.matches(e, "#" + run + "#")).isTrue();
        assertThat(ExprMatcher.matches(e, "x" + run)).isTrue();
        assertThat(ExprMatcher.matches(e, run.substring(1) + "#" + run.substring(1))).isFalse();
    }

    @Test void searchAnchors() {
        RegexParser.ParsedRegex r = RegexParser.parseSearch("^a|b$", Flavor.ECMA);
        assertThat(r.anchoredStart()).isFalse();
        RegexParser.ParsedRegex r2 = RegexParser.parseSearch("^ab$", Flavor.ECMA);
        assertThat(r2.anchoredStart()).isTrue();
        assertThat(r2.anchoredEnd()).isTrue();
        // python $ also matches before a final newline
        assertThat(ExprMatcher.matches(RegexParser.parseSearch("a$", Flavor.COMMON).expr(), "xa\n")).isTrue();
        assertThat(ExprMatcher.matches(RegexParser.parseSearch("a$", Flavor.ECMA).expr(), "xa\n")).isFalse();
        assertThat(ExprMatcher.matches(RegexParser.parseSearch("\\Aa\\Z", Flavor.COMMON).expr(), "a")).isTrue();
    }

    /** Anchors inside an ECMA search pattern (JSON Schema): ^ only at the input's start, $ only at its end. */
    @Test void anchorsAnywhereInASearch() {
        String[] patterns = {
            "^a$|^b$", "(^|x)a", "a(b|$)", "^([^,]|$)", "^$|(^(?:\\S+\\s+){0,3}\\S+$)", "(^ab)|(b$)", "(^|,)x(,|$)",
            "(^a)*b", "(a$)*", "(^|a)+b", "(x|^)*y", "(^a|b)*c", "(a|b$)+", "(a$|^b)*", "a^b", "a$b", "(^)*a", "($)+",
            "(^|$)", "(^$)|a", "/^[0-9]{4}$/", "(^[^5]*$)|7", "(^ab_|^b_|_a_)", "(^a|b){2,3}c", "x(^|y){0,2}", "($|a){2}",
            "(^gs://(.+))|(^a://(.+))", "^(\\d{2}(-\\d)?$)|(^\\d-\\d(T\\d)?(:\\d|Z)?$)", "(a|^)(b|$)", "((^a)|b)+$",
            "(^|[^a])ab", "(?:^|\\s)x(?:\\s|$)", "a*(^|b)*", "(b$|a)*b?",
        };
        for (String regex : patterns) {
            Expr search = RegexParser.parseSearch(regex, Flavor.ECMA).expr();
            Pattern p = Pattern.compile(regex.replace("$", "\\z"));
            Random rnd = new Random(regex.hashCode());
            List<String> inputs = samples(rnd, "ab,x_/5:-Z T0129 \n", 400, 7);
            inputs.addAll(samples(rnd, "ab", 100, 4));
            for (String s : inputs) {
                assertThat(ExprMatcher.matches(search, s)).as("/%s/ search on %s", regex, show(s)).isEqualTo(p.matcher(s).find());
            }
        }
        // whole-string parses and Python searches keep refusing them
        assertThatThrownBy(() -> RegexParser.parse("a^b", Flavor.ECMA)).hasMessageContaining("anchor '^'");
        assertThatThrownBy(() -> RegexParser.parseSearch("(^a)", Flavor.COMMON)).hasMessageContaining("anchor '^'");
        assertThatThrownBy(() -> RegexParser.parseSearch("(^a){40}", Flavor.ECMA)).hasMessageContaining("repetition of more than 32");
        assertThatThrownBy(() -> RegexParser.parseSearch("a^*", Flavor.ECMA)).hasMessageContaining("quantifier without an operand");
    }

    @Test void unsupportedFeatures() {
        String[][] cases = {
            {"(a)\\1", "backreference", "4"}, {"a(?=b)", "lookahead", "2"}, {"a(?!b)", "lookahead", "2"},
            {"(?<=a)b", "lookbehind", "1"}, {"(?<!a)b", "lookbehind", "1"}, {"a\\bc", "word boundary", "2"},
            {"a^b", "anchor '^'", "2"}, {"a$b", "anchor '$'", "2"}, {"(a$)", "anchor", "3"},
            {"\\p{Greek}", "\\p{Greek}", "1"}, {"\\k<x>", "backreference", "1"}, {"a**", "nothing to repeat", "3"},
            {"(ab", "missing ')'", "1"}, {"ab)", "unmatched ')'", "3"}, {"[ab", "unterminated", "1"},
            {"*a", "quantifier without an operand", "1"}, {"[z-a]", "out of order", "4"}, {"a{3,1}", "out of order", "2"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> RegexParser.parse(c[0], Flavor.ECMA)).as(c[0])
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining(c[1])
                .hasMessageContaining("column " + c[2]);
        }
        assertThatThrownBy(() -> RegexParser.parse("(?P=x)", Flavor.COMMON)).hasMessageContaining("backreference");
        assertThatThrownBy(() -> RegexParser.parse("\\p{Klingon}", Flavor.COMMON)).hasMessageContaining("\\p{Klingon}")
                .hasMessageContaining("common regex dialect");
    }
}
