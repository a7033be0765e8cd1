package dev.domino.compiler.jsonschema.algebra;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The product of an automaton with an expression (its NFA subsets numbered lazily) accepts the same
 * language as the product with the expression's own determinized automaton, on random expressions.
 */
class CodePointDfaIntersectTest {
    private static final String ALPHABET = "abcd";

    @Test
    void productWithExpressionEqualsProductWithItsAutomaton() {
        Random rnd = new Random(34);
        for (int round = 0; round < 300; round++) {
            CodePointDfa a = CodePointDfa.of(random(rnd, 3));
            Expr e = random(rnd, 3);
            CodePointDfa lazy = a.intersect(e);
            CodePointDfa eager = a.intersect(CodePointDfa.of(e));
            assertTrue(empty(lazy.intersect(eager.complement())), "round " + round);
            assertTrue(empty(eager.intersect(lazy.complement())), "round " + round);
            for (String s : strings(5)) assertEquals(eager.accepts(s), lazy.accepts(s), "round " + round + " on " + s);
        }
    }

    private static boolean empty(CodePointDfa d) { return d.accept.isEmpty(); }

    private static Expr random(Random rnd, int depth) {
        int k = depth == 0 ? rnd.nextInt(3) : rnd.nextInt(6);
        return switch (k) {
            case 0 -> new Expr.Literal(String.valueOf(ALPHABET.charAt(rnd.nextInt(ALPHABET.length()))));
            case 1 -> new Expr.Chars(CodePointSet.range('a' + rnd.nextInt(2), 'b' + rnd.nextInt(3)));
            case 2 -> new Expr.Chars(CodePointSet.ANY);
            case 3 -> new Expr.Seq(List.of(random(rnd, depth - 1), random(rnd, depth - 1)));
            case 4 -> new Expr.Alt(List.of(random(rnd, depth - 1), random(rnd, depth - 1)));
            default -> {
                int min = rnd.nextInt(3);
                yield new Expr.Repeat(random(rnd, depth - 1), min, rnd.nextBoolean() ? Expr.Repeat.UNBOUNDED : min + rnd.nextInt(3));
            }
        };
    }

    private static List<String> strings(int maxLen) {
        List<String> out = new ArrayList<>(List.of(""));
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).length() == maxLen) continue;
            for (char c : (ALPHABET + "z").toCharArray()) out.add(out.get(i) + c);
        }
        return out;
    }
}
