package dev.domino.compiler.jsonschema.numbers;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Grammar;
import dev.domino.compiler.ir.GrammarException;
import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.algebra.SchemaAlgebra;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NumberMultiples} against BigDecimal arithmetic: {@code multipleOf} other than powers of ten and
 * {@code not multipleOf}, on integers and numbers, with and without bounds, merged in {@code allOf}
 * (least common multiple) and subtracted in {@code oneOf}, on random JSON number spellings. Plain
 * spellings are exact; exponent spellings are left out (documented), never accepted wrongly.
 */
class JsonSchemaMultiplesTest {
    static final String[] MULTIPLES = {"3", "7", "12", "1.5", "0.3", "2.125", "11", "0.25", "24", "13.5"};

    static Grammar grammar(String schema) { return JsonSchemaGrammar.from(schema.replace('\'', '"')).grammar(); }

    /** Random spellings around small multiples: signs, leading zeros, fractions with zeros, exponents. */
    static List<String> spellings(Random r, BigDecimal m) {
        List<String> out = new ArrayList<>(List.of("0", "-0", "0.0", "-0.000", "1", "00", "01", "1.", ".5", "-", "1e1", "1E+0"));
        for (int i = 0; i < 300; i++) {
            BigDecimal v = m.multiply(BigDecimal.valueOf(r.nextInt(400) - 200));
            if (r.nextInt(3) == 0) v = v.add(new BigDecimal(r.nextInt(100)).movePointLeft(r.nextInt(4)));
            String s = v.toPlainString();
            if (r.nextInt(4) == 0) s = s + (s.contains(".") ? "" : ".") + "0".repeat(1 + r.nextInt(3));
            if (r.nextInt(8) == 0) s = s + (r.nextBoolean() ? "e0" : "E1");
            out.add(s);
        }
        return out;
    }

    static boolean expected(String s, boolean integer, BigDecimal multipleOf, BigDecimal notMultipleOf, BigDecimal lo, BigDecimal hi) {
        if (!s.matches(integer ? "-?(0|[1-9][0-9]*)" : "-?(0|[1-9][0-9]*)(\\.[0-9]+)?")) return false; // plain spellings only
        BigDecimal v = new BigDecimal(s);
        if (lo != null && v.compareTo(lo) < 0) return false;
        if (hi != null && v.compareTo(hi) > 0) return false;
        if (multipleOf != null && v.remainder(multipleOf).signum() != 0) return false;
        return notMultipleOf == null || v.remainder(notMultipleOf).signum() != 0;
    }

    @Test void multiplesAndNonMultiplesOnIntegersAndNumbers() {
        Random r = new Random(5);
        for (String ms : MULTIPLES) {
            BigDecimal m = new BigDecimal(ms);
            for (boolean integer : new boolean[] {true, false}) {
                String type = integer ? "integer" : "number";
                String[][] cases = {
                    {"{'type':'" + type + "','multipleOf':" + ms + "}", "1", "0"},
                    {"{'type':'" + type + "','not':{'multipleOf':" + ms + "}}", "0", "1"},
                    {"{'type':'" + type + "','multipleOf':" + ms + ",'minimum':-40,'maximum':95.5}", "1", "0", "-40", "95.5"},
                    {"{'type':'" + type + "','minimum':-7,'not':{'multipleOf':" + ms + "}}", "0", "1", "-7", null},
                };
                for (String[] c : cases) {
                    Grammar g = grammar(c[0]);
                    BigDecimal lo = c.length > 3 && c[3] != null ? new BigDecimal(c[3]) : null;
                    BigDecimal hi = c.length > 4 && c[4] != null ? new BigDecimal(c[4]) : null;
                    for (String s : spellings(r, m)) {
                        boolean want = expected(s, integer, c[1].equals("1") ? m : null, c[2].equals("1") ? m : null, lo, hi);
                        assertThat(ExprMatcher.matches(g, s)).as("%s under %s", s, c[0]).isEqualTo(want);
                    }
                }
            }
        }
    }

    @Test void allOfTakesTheLeastCommonMultiple() {
        assertThat(SchemaAlgebra.lcm(new BigDecimal("4"), new BigDecimal("6"))).isEqualByComparingTo("12");
        assertThat(SchemaAlgebra.lcm(new BigDecimal("1.5"), new BigDecimal("0.4"))).isEqualByComparingTo("6");
        assertThat(SchemaAlgebra.lcm(new BigDecimal("0.25"), new BigDecimal("0.1"))).isEqualByComparingTo("0.5");
        Grammar g = grammar("{'type':'integer','allOf':[{'multipleOf':4},{'multipleOf':6}],'not':{'multipleOf':9}}");
        for (int v = -200; v <= 200; v++) {
            assertThat(ExprMatcher.matches(g, Integer.toString(v))).as("%d", v).isEqualTo(v % 12 == 0 && v % 9 != 0);
        }
    }

    @Test void oneOfOfOverlappingMultiplesIsExact() {
        Grammar g = grammar("{'oneOf':[{'type':'integer','multipleOf':3},{'type':'integer','multipleOf':5}]}");
        for (int v = -100; v <= 100; v++) {
            assertThat(ExprMatcher.matches(g, Integer.toString(v))).as("%d", v).isEqualTo(v % 3 == 0 ^ v % 5 == 0);
        }
        Grammar numbers = grammar("{'type':'number','oneOf':[{'multipleOf':1.5},{'multipleOf':2}]}");
        for (String s : new String[] {"1.5", "3", "6", "4", "7.5", "12.0", "2.00", "0.5", "7"}) {
            BigDecimal v = new BigDecimal(s);
            boolean a = v.remainder(new BigDecimal("1.5")).signum() == 0, b = v.remainder(BigDecimal.valueOf(2)).signum() == 0;
            assertThat(ExprMatcher.matches(numbers, s)).as(s).isEqualTo(a ^ b);
        }
    }

    @Test void constantsUnderExcludedMultiples() {
        Grammar g = grammar("{'enum':[3,4,'x',6.5],'not':{'multipleOf':2}}");
        assertThat(ExprMatcher.matches(g, "3")).isTrue();
        assertThat(ExprMatcher.matches(g, "4")).isFalse();
        assertThat(ExprMatcher.matches(g, "6.5")).isTrue();
        assertThat(ExprMatcher.matches(g, "\"x\"")).as("multipleOf holds for strings: not multipleOf rejects them").isFalse();
    }

    @Test void aModulusAboveTheLimitIsAnErrorNamingTheKeyword() {
        assertThatThrownBy(() -> grammar("{'properties':{'n':{'type':'integer','multipleOf':10007}}}"))
            .isInstanceOf(GrammarException.class)
            .hasMessageContaining("unsupported keyword 'multipleOf' at /properties/n")
            .hasMessageContaining("above the limit " + NumberMultiples.MAX_MODULUS);
        assertThatThrownBy(() -> grammar("{'type':'number','not':{'multipleOf':100.03}}"))
            .isInstanceOf(GrammarException.class).hasMessageContaining("unsupported keyword 'not' at /");
    }

    @Test void minimizedAutomatonIsSmall() {
        // residues mod 7 (7 states) plus start, sign and the leading-zero state
        NumberMultiples.Dfa d = NumberMultiples.residues(new BigDecimal("7"), true, false);
        assertThat(d.size()).isLessThanOrEqualTo(10);
        // multipleOf 0.5 on integers: every integer
        assertThat(NumberMultiples.modulus(new BigDecimal("0.5"), true)[0]).isEqualTo(java.math.BigInteger.ONE);
    }
}
