package dev.domino.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.domino.compiler.frontend.LarkParser;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.runtime.Artifact;
import dev.domino.runtime.Matcher;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * llguidance's {@code %llguidance} options about {@code %ignore}, both values exact: {@code allow_initial_skip}
 * (ignored text before the first lexeme or not; llguidance's default, false, in a grammar with a header) and
 * {@code ignore_once} (at most one ignored text between lexemes), checked on compiled masks and against the
 * byte-level oracle.
 */
class LarkIgnoreOptionsTest {
    @BeforeAll static void load() { OracleMaskTest.load(); }

    private static Artifact compile(String lark) {
        return DominoCompiler.forVocabulary(OracleMaskTest.o200k.vocabulary()).compile(lark, SourceFormat.LARK, CompileOptions.defaults());
    }

    private static boolean accepts(Artifact a, String text) {
        Matcher m = a.newMatcher();
        return m.acceptString(text) && m.isAccepting();
    }

    private static void language(String lark, List<String> yes, List<String> no) {
        Artifact a = compile(lark);
        for (String s : yes) assertThat(accepts(a, s)).as("accepts '%s'", s).isTrue();
        for (String s : no) assertThat(accepts(a, s)).as("rejects '%s'", s).isFalse();
    }

    private static final String WS_AB = "%ignore /[ \\t\\n]+/\nstart: \"a\" \"b\"\n";

    @Test void withoutAHeaderLarkAllowsIgnoredTextAtTheStart() {
        language(WS_AB, List.of("ab", " a b", "a b ", "\ta\n b  "), List.of("a c", " xab"));
    }

    @Test void aHeaderMeansLlguidancesDefaultNoInitialSkip() {
        language("%llguidance {}\n" + WS_AB, List.of("ab", "a b", "a b  ", "a\n\tb"), List.of(" ab", "\na b", " a b", "a c"));
        language("%llguidance {\"allow_initial_skip\": false}\n" + WS_AB, List.of("ab", "a b "), List.of(" ab"));
    }

    @Test void initialSkipTrue() {
        language("%llguidance {\"allow_initial_skip\": true}\n" + WS_AB, List.of("ab", " a b", "\n\ta\n b  "), List.of("a c", " xab"));
    }

    @Test void ignoreOnceOverALanguageTwoInARowLeave() {
        String g = "%ignore /[ ]{1,2}/\nstart: \"a\" \"b\"\n";
        language("%llguidance {\"ignore_once\": true, \"allow_initial_skip\": true}\n" + g,
            List.of("ab", "a b", "a  b", "  a  b  "), List.of("a   b", "   ab", "ab   "));
        language("%llguidance {\"ignore_once\": true}\n" + g, List.of("ab", "a  b", "ab  "), List.of(" ab", "a   b"));
        // without once, any number of ignored texts
        language("%llguidance {\"allow_initial_skip\": true}\n" + g, List.of("a     b", "     ab"), List.of());
    }

    /** The syntax reference's "Grammar options" example: skip_repetition "once" is ignore_once true; other values refused. */
    @Test void skipRepetitionOnceIsIgnoreOnce() {
        String g = "%ignore /[ \\t]{1,8}/\nstart: \"A\" \"!\"\n";
        language("%llguidance { \"skip_repetition\": \"once\" }\n" + g,
            List.of("A!", "A !", "A\t       !", "A!        "), List.of(" A!", "A         !", "A  \t      !"));
        for (String bad : new String[] {"\"twice\"", "true"}) {
            assertThatThrownBy(() -> LarkParser.parse("%llguidance { \"skip_repetition\": " + bad + " }\n" + g))
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining("line 1, column").hasMessageContaining("skip_repetition: " + bad + " is not supported");
        }
    }

    @Test void recursiveStartAndTerminalsKeepTheirIgnoredText() {
        String g = "%llguidance {}\n%ignore \" \"\nstart: \"(\" start \")\" | X\nX: \"x\" | \"yz\"\n";
        language(g, List.of("(x)", "( x )", "(( yz ) ) ", "x "), List.of(" (x)", " x", "y z"));
    }

    @Test void lexemesThatMatchTheEmptyTextAreRefusedByName() {
        assertThatThrownBy(() -> LarkParser.parse("%llguidance {}\n%ignore \" \"\nstart: \"a\" B\nB: /b*/\n"))
            .isInstanceOf(GrammarException.class)
            .hasMessageContaining("allow_initial_skip: false").hasMessageContaining("terminal 'B' matches the empty text");
        // without %ignore the options change nothing
        LarkParser.parse("%llguidance {}\nstart: \"a\" B\nB: /b*/\n");
    }

    @Test void masksAgainstTheOracle() {
        OracleMaskTest.check(LarkParser.parse("%llguidance {}\n%ignore /[ \\t]+/\nstart: item (\",\" item)*\nitem: WORD | \"[\" start \"]\"\nWORD: /[a-z]+/\n"), 4, 91);
        OracleMaskTest.check(LarkParser.parse("%llguidance {\"ignore_once\": true}\n%ignore /[ ]{1,2}/\nstart: WORD+\nWORD: /[a-z]{1,3}/\n"), 4, 92);
    }
}
