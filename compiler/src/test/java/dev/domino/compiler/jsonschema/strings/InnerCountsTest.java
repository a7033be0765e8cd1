package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.frontend.RegexParser;
import dev.domino.compiler.ir.Expr;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which repeats {@link InnerCounts} counts together with the character after them (their language: JsonSchemaGrammarTest). */
class InnerCountsTest {
    private static Expr encode(String pattern) {
        return InnerCounts.encode(RegexParser.parseSearch(pattern, RegexParser.Flavor.ECMA).expr(), "test");
    }

    private static java.util.List<Expr.Units> units(Expr e) {
        java.util.List<Expr.Units> out = new java.util.ArrayList<>();
        collect(e, out);
        return out;
    }

    private static void collect(Expr e, java.util.List<Expr.Units> out) {
        if (e instanceof Expr.Units u) out.add(u);
        else if (e instanceof Expr.Seq s) s.items().forEach(x -> collect(x, out));
        else if (e instanceof Expr.Alt a) a.options().forEach(x -> collect(x, out));
        else if (e instanceof Expr.Repeat r) collect(r.body(), out);
    }

    @Test void aLongRepeatBeforeACharacterItSharesIsCountedWithIt() {
        var u = units(encode("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$"));
        assertThat(u).hasSize(2);
        assertThat(u).allSatisfy(x -> {
            assertThat(x.min()).isEqualTo(1);
            assertThat(x.max()).isEqualTo(62);
        });
        assertThat(units(encode("^x[ab]{3,40}b$")).get(0)).satisfies(x -> assertThat(new int[] {x.min(), x.max()}).containsExactly(4, 41));
    }

    @Test void otherRepeatsStayAsTheyWere() {
        assertThat(units(encode("^[a-z]{0,61}-$"))).isEmpty(); // the next character is not one of the repeat's
        assertThat(units(encode("^[a-z]{0,8}[a-z]$"))).isEmpty(); // short: one terminal anyway
        assertThat(units(encode("^[a-z]{20}[a-z]$"))).isEmpty(); // a fixed count ends in one place
        assertThat(units(encode("^[a-z]*[a-z]$"))).isEmpty(); // unbounded: one automaton
        assertThat(units(encode("^(ab){0,40}b$"))).isEmpty(); // not a character class
    }
}
