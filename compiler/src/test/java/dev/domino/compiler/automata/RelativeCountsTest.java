package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relative least-count automaton with its counter, unrolled, against the counting
 * construction (itself checked against the unrolled copies in {@link CountingAutomataTest}): equal
 * minimal automata on random bodies that split several ways, under counts {0,n} and {1,n}; and
 * the same with the counter counting on leaving states ({@link RelativeCounts#lagged}), the form
 * a {@code CountedLoop} with final weights would run.
 */
class RelativeCountsTest {
    private static final int STATES = 30_000;

    @Test void theCounterOverRelativeCountsHasTheLanguageOfTheRepeat() {
        Random random = new Random(3806);
        int compared = 0, lagged = 0;
        for (int i = 0; i < 200; i++) {
            Expr body = random.nextBoolean() ? CountingAutomataTest.leaf(random) : CountingAutomataTest.repeat(random, 1);
            int min = random.nextInt(2), max = 1 + random.nextInt(12);
            DfaBuilder.Language bodyLanguage;
            DfaBuilder.Language reference;
            try {
                bodyLanguage = new CountingAutomata(name -> null, STATES).build(body);
                if (bodyLanguage.dfa() == null) continue;
                reference = new CountingAutomata(name -> null, STATES).build(new Expr.Repeat(body, min, max));
            } catch (DfaBuilder.TooLarge tooLarge) {
                continue;
            }
            RelativeCounts relative = RelativeCounts.of(bodyLanguage, min, max, STATES);
            String what = ExprPrinter.print(body) + "{" + min + "," + max + "}";
            assertThat(relative.counted()).as(what).isEqualTo(reference);
            if (relative.lagged() != null) {
                assertThat(relative.countedOnLeaving()).as("lagged " + what).isEqualTo(reference);
                lagged++;
            }
            compared++;
        }
        assertThat(compared).isGreaterThan(150);
        assertThat(lagged).isGreaterThan(100);
    }

    /** The issue's bodies: the relative automaton is small where the exact one is not. */
    @Test void theIssuesBodiesHaveSmallRelativeAutomata() {
        Expr digits = Expr.plus(new Expr.Chars(CodePointSet.range('0', '9')));
        Expr unit = new Expr.Alt(List.of(new Expr.Literal("a"), new Expr.Literal("bc"), digits));
        RelativeCounts units = RelativeCounts.of(new DfaBuilder(name -> null).build(unit), 0, 300, STATES);
        assertThat(units.stateCount()).isEqualTo(4);
        assertThat(units.laggedStateCount()).isEqualTo(6);
        assertThat(units.maxFinalWeight()).isZero();
        assertThat(units.maxDelta()).isEqualTo(1);

        Expr word = new Expr.Alt(List.of(new Expr.Repeat(new Expr.Chars(CodePointSet.range('a', 'z')), 1, 5), new Expr.Literal("-")));
        RelativeCounts words = RelativeCounts.of(new DfaBuilder(name -> null).build(word), 0, 2500, STATES);
        assertThat(words.stateCount()).isEqualTo(11);
        assertThat(words.maxFinalWeight()).isZero();
        assertThat(words.maxDelta()).isEqualTo(1);
    }
}
