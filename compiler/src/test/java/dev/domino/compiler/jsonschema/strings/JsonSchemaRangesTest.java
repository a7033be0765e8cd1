package dev.domino.compiler.jsonschema.strings;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.numbers.IntegerRanges;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class JsonSchemaRangesTest {
    static BigInteger b(Long v) { return v == null ? null : BigInteger.valueOf(v); }

    static void check(Long lo, Long hi) {
        Expr e = IntegerRanges.range(b(lo), b(hi));
        for (long v = -1100; v <= 1100; v++) {
            boolean in = (lo == null || v >= lo) && (hi == null || v <= hi);
            assertThat(ExprMatcher.matches(e, Long.toString(v))).as("[%s,%s] %d", lo, hi, v).isEqualTo(in);
        }
        boolean zero = (lo == null || lo <= 0) && (hi == null || hi >= 0);
        assertThat(ExprMatcher.matches(e, "-0")).isEqualTo(zero);
        for (String bad : new String[] {"", "-", "00", "01", "-01", "+1", "1.0", "--1", "1e2"}) {
            assertThat(ExprMatcher.matches(e, bad)).as(bad).isFalse();
        }
    }

    @Test void integerRangesAgainstBruteForce() {
        Long[][] cases = {{0L, 0L}, {0L, 9L}, {0L, 10L}, {1L, 100L}, {5L, 5L}, {7L, 123L}, {-5L, 5L}, {-123L, -7L},
            {-1000L, 1000L}, {19L, 91L}, {99L, 101L}, {null, null}, {0L, null}, {1L, null}, {37L, null}, {-37L, null},
            {null, 0L}, {null, -1L}, {null, 58L}, {null, -58L}, {10L, 9L}, {-999L, -100L}, {100L, 999L}};
        for (Long[] c : cases) check(c[0], c[1]);
        Random rnd = new Random(7);
        for (int i = 0; i < 60; i++) {
            Long lo = rnd.nextInt(5) == 0 ? null : (long) (rnd.nextInt(2100) - 1050);
            Long hi = rnd.nextInt(5) == 0 ? null : (long) (rnd.nextInt(2100) - 1050);
            check(lo, hi);
        }
    }

    @Test void hugeBounds() {
        BigInteger big = new BigInteger("123456789012345678901234567890");
        Expr e = IntegerRanges.range(BigInteger.ZERO, big);
        assertThat(ExprMatcher.matches(e, big.toString())).isTrue();
        assertThat(ExprMatcher.matches(e, big.add(BigInteger.ONE).toString())).isFalse();
        assertThat(ExprMatcher.matches(e, "99999999999999999999999999999")).isTrue();
    }

    @Test void hex4AgainstBruteForce() {
        int[][] cases = {{0, 0xFFFF}, {0x20, 0x7E}, {0xD7FF, 0xE000}, {0x1234, 0x1240}, {0xABC, 0xFFF0}, {5, 5}};
        for (int[] c : cases) {
            Expr e = JsonStrings.hex4(c[0], c[1]);
            for (int v = 0; v <= 0xFFFF; v += (v < 0x300 ? 1 : 7)) {
                boolean in = v >= c[0] && v <= c[1];
                String h = String.format("%04x", v);
                assertThat(ExprMatcher.matches(e, h)).as("%x in [%x,%x]", v, c[0], c[1]).isEqualTo(in);
                assertThat(ExprMatcher.matches(e, h.toUpperCase())).isEqualTo(in);
            }
        }
    }
}
