package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.algebra.ExprLanguage;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link LengthBounds} against the definition: in the pattern's language and of a length in range. */
class JsonSchemaLengthBoundsTest {
    static final Object[][] CASES = {
        {"[0-9a-fA-F]+", 12, 12}, {"[0-9]{10,10}", 10, 10}, {"([A-Z]{2})", 2, 2}, {"^(\\d+\\.\\d+\\.\\d+.*)$", 0, 12},
        {"[A-z]+", 3, 8}, {"^[A-Za-z][A-Za-z0-9_]*", 1, 6}, {"^[a-z]+(?:-[a-z0-9]+)*$", 3, -1},
        {"^(http|https)://.*", 10, -1}, {"^\\S+@\\S+$", 5, 9}, {"^([a-z0-9-]+):([a-z0-9\\.-]+):([a-z0-9-]+)?:([a-z0-9-]+)$", 0, 9},
        {"a|bc|def", 2, 2}, {"(ab)*c?", 1, 5}, {"x", 0, 0},
    };
    static final String ALPHABET = "aAbcdefz09.-:@ _/xhtps";

    @Test void restrictedLanguageIsThePatternWithinTheLengths() {
        Random r = new Random(3);
        for (Object[] c : CASES) {
            String pattern = (String) c[0];
            int min = (Integer) c[1], max = (Integer) c[2];
            Expr lang = RegexParser.parseSearch(pattern, RegexParser.Flavor.ECMA).expr();
            Expr restricted = LengthBounds.restrict(lang, min, max);
            assertThat(restricted).as(pattern).isNotNull();
            for (int i = 0; i < 400; i++) {
                StringBuilder sb = new StringBuilder();
                int len = r.nextInt(max < 0 ? min + 6 : max + 3);
                for (int k = 0; k < len; k++) sb.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
                if (i % 4 == 0 && ExprLanguage.minLen(lang) < 30) sb.setLength(0);
                String s = i % 4 == 0 ? sample(pattern, r) : sb.toString();
                boolean expected = ExprMatcher.matches(lang, s) && s.length() >= min && (max < 0 || s.length() <= max);
                assertThat(ExprMatcher.matches(restricted, s)).as("%s in [%d,%d]: '%s'", pattern, min, max, s).isEqualTo(expected);
            }
        }
    }

    /** Strings likely in the pattern: its literal characters shuffled. */
    static String sample(String pattern, Random r) {
        String plain = pattern.replaceAll("[\\\\\\[\\](){}+*?^$|]", "");
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(14);
        for (int i = 0; i < n && !plain.isEmpty(); i++) sb.append(plain.charAt(r.nextInt(plain.length())));
        return sb.toString();
    }

    @Test void tooLargeIsNull() {
        Expr email = Formats.format("email");
        assertThat(LengthBounds.restrict(email, 0, 1024)).isNull();
    }
}
