package dev.domino.compiler.automata;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.ir.ExprPrinter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counting construction against the subset construction of the unrolled copies (the
 * reference, built without it): on random small expressions with nested bounded repeats over a
 * two-letter alphabet (so that bodies split many ways), the minimal automata must be equal, which
 * holds exactly when the languages are.
 */
class CountingAutomataTest {
    private static final int REFERENCE_STATES = 30_000;

    @Test void randomNestedRepeatsHaveTheLanguageOfTheirUnrolledCopies() {
        Random random = new Random(38);
        int compared = 0;
        List<String> tooLargeToCount = new ArrayList<>(); // named in the failure message only, not printed: a quiet CI log
        for (int i = 0; i < 300; i++) {
            Expr e = repeat(random, 3);
            DfaBuilder.Language reference;
            try {
                reference = new DfaBuilder(name -> null).build(e, REFERENCE_STATES);
            } catch (DfaBuilder.TooLarge tooLarge) {
                continue;
            }
            DfaBuilder.Language counted;
            try {
                counted = new CountingAutomata(name -> null, REFERENCE_STATES).build(e);
            } catch (DfaBuilder.TooLarge large) {
                tooLargeToCount.add(ExprPrinter.print(e));
                continue;
            }
            assertThat(counted.nullable()).as(ExprPrinter.print(e)).isEqualTo(reference.nullable());
            assertThat(counted.dfa()).as(ExprPrinter.print(e)).isEqualTo(reference.dfa());
            compared++;
        }
        assertThat(compared).as("compared; the counting construction was too large for %s", tooLargeToCount).isGreaterThan(200);
    }

    /** The issue's shapes with small counts: bodies that split ambiguously, under nested counts. */
    @Test void theIssuesShapesWithSmallCounts() {
        Expr digits = Expr.plus(new Expr.Chars(CodePointSet.range('0', '9')));
        Expr unit = new Expr.Alt(List.of(new Expr.Literal("a"), new Expr.Literal("bc"), digits));
        Expr xy = Expr.optional(new Expr.Alt(List.of(new Expr.Literal("x"), new Expr.Literal("y"))));
        Expr g1 = new Expr.Repeat(new Expr.Repeat(new Expr.Seq(List.of(new Expr.Repeat(unit, 0, 9), xy)), 0, 3), 0, 2);
        Expr word = new Expr.Alt(List.of(new Expr.Repeat(new Expr.Chars(CodePointSet.range('a', 'c')), 1, 3), new Expr.Literal("-")));
        Expr g2 = new Expr.Seq(List.of(new Expr.Literal("<"), new Expr.Repeat(new Expr.Seq(List.of(
                new Expr.Repeat(new Expr.Repeat(word, 0, 9), 0, 2), Expr.optional(new Expr.Literal(",")))), 0, 3), new Expr.Literal(">")));
        Expr atLeast = new Expr.Repeat(new Expr.Alt(List.of(new Expr.Literal("a"), new Expr.Literal("aaa"))), 10, 12);
        for (Expr e : List.of(g1, g2, atLeast)) {
            DfaBuilder.Language reference = new DfaBuilder(name -> null).build(e, REFERENCE_STATES);
            DfaBuilder.Language counted = new CountingAutomata(name -> null, REFERENCE_STATES).build(e);
            assertThat(counted).as(ExprPrinter.print(e)).isEqualTo(reference);
        }
    }

    static Expr repeat(Random r, int depth) {
        Expr body = depth == 0 ? leaf(r) : r.nextInt(3) == 0 ? leaf(r) : r.nextBoolean() ? composite(r, depth) : repeat(r, depth - 1);
        int min = r.nextInt(4) == 0 ? 2 + r.nextInt(9) : r.nextInt(2);
        int max = r.nextInt(8) == 0 ? Expr.Repeat.UNBOUNDED : min + r.nextInt(r.nextBoolean() ? 4 : 12);
        return new Expr.Repeat(body, min, Math.max(max, Math.max(min, 1)));
    }

    private static Expr composite(Random r, int depth) {
        List<Expr> parts = new ArrayList<>();
        int n = 2 + r.nextInt(2);
        for (int i = 0; i < n; i++) parts.add(r.nextBoolean() ? leaf(r) : repeat(r, depth - 1));
        return r.nextBoolean() ? new Expr.Seq(parts) : new Expr.Alt(parts);
    }

    static Expr leaf(Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> new Expr.Literal("a");
            case 1 -> new Expr.Literal("ab");
            case 2 -> new Expr.Literal("aa");
            case 3 -> new Expr.Chars(CodePointSet.range('a', 'b'));
            case 4 -> Expr.plus(new Expr.Literal("a"));
            case 5 -> Expr.optional(new Expr.Literal("b"));
            default -> new Expr.Alt(List.of(new Expr.Literal("a"), new Expr.Literal("ba")));
        };
    }
}
