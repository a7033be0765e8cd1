package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import dev.domino.runtime.internal.scan.CountedLoop;
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

    /**
     * The runtime's counter ({@code CountedLoop} with unit boundaries and final weights) over the
     * lagged loop of (B minus ε){1,n}, unrolled through its own step and acceptance, optional for
     * {0,n} or a nullable B: the language of B{m,n} by the counting construction. Also checks the
     * counter's pruning ({@code unitsToFinish} from weighted ends): a bound too high would drop strings.
     */
    @Test void theRuntimeCounterWithFinalWeightsHasTheLanguageOfTheRepeat() {
        Random random = new Random(3807);
        int compared = 0, weighted = 0;
        for (int i = 0; i < 200; i++) {
            Expr body = random.nextBoolean() ? CountingAutomataTest.leaf(random) : CountingAutomataTest.repeat(random, 1);
            int min = random.nextInt(2), max = 1 + random.nextInt(12);
            DfaBuilder.Language bodyLanguage;
            DfaBuilder.Language reference;
            RelativeCounts.Lagged lagged;
            try {
                bodyLanguage = new CountingAutomata(name -> null, STATES).build(body);
                if (bodyLanguage.dfa() == null) continue;
                reference = new CountingAutomata(name -> null, STATES).build(new Expr.Repeat(body, min, max));
                lagged = RelativeCounts.of(new DfaBuilder.Language(bodyLanguage.dfa(), false), 1, max, STATES).lagged();
            } catch (DfaBuilder.TooLarge tooLarge) {
                continue;
            }
            if (lagged == null) continue;
            CountedLoop loop = new CountedLoop(lagged.dfa(), lagged.boundary(), lagged.finalWeights(), 1, max);
            boolean optional = min == 0 || bodyLanguage.nullable();
            String what = ExprPrinter.print(body) + "{" + min + "," + max + "}";
            assertThat(unrolled(loop, lagged.dfa().start(), optional)).as(what).isEqualTo(reference);
            if (java.util.Arrays.stream(lagged.finalWeights()).max().orElse(0) > 1) weighted++;
            compared++;
        }
        assertThat(compared).isGreaterThan(100);
        assertThat(weighted).as("final weights past 1").isGreaterThan(0);
    }

    /** The counted terminal's local states reachable from its start, as a plain minimized automaton. */
    private static DfaBuilder.Language unrolled(CountedLoop loop, int start, boolean optional) {
        java.util.Map<Integer, Integer> ids = new java.util.HashMap<>();
        java.util.List<Integer> states = new java.util.ArrayList<>();
        states.add(start);
        ids.put(start, 0);
        DfaBuilder.Sparse out = new DfaBuilder.Sparse();
        for (int i = 0; i < states.size(); i++) {
            int local = states.get(i);
            int lo = 0, target = -2;
            for (int b = 0; b <= 256; b++) {
                int t = -1;
                if (b < 256) {
                    int next = loop.step(local, b);
                    if (next >= 0) {
                        Integer id = ids.get(next);
                        if (id == null) { id = states.size(); ids.put(next, id); states.add(next); }
                        t = id;
                    }
                }
                if (b == 256 || t != target) {
                    if (b > 0 && target >= 0) out.addRange(lo, b - 1, target);
                    lo = b;
                    target = t;
                }
            }
            out.endState(loop.isAccepting(local) || i == 0 && optional);
        }
        return DfaBuilder.finish(out);
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
