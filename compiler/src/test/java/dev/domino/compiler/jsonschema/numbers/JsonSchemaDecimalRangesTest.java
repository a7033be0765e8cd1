package dev.domino.compiler.jsonschema.numbers;

import dev.domino.compiler.ExprMatcher;
import dev.domino.compiler.ir.Expr;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DecimalRanges} against BigDecimal arithmetic: random bounds (inclusive or exclusive, decimal or
 * integral, one- or two-sided) and powers-of-ten multipleOf, and random JSON number spellings (signs,
 * leading and trailing zeros, fractions, exponents in either case with or without sign and leading zeros).
 */
class JsonSchemaDecimalRangesTest {
    static final String[] BOUNDS = {"0", "1", "-1", "0.5", "0.1", "0.25", "-0.3", "2.75", "10", "-90", "90", "100",
        "0.01", "1e-3", "12.5", "-459.67", "99999999999.99", "360.0", "0.0"};
    static final int[] SCALES = {DecimalRanges.ANY_SCALE, DecimalRanges.ANY_SCALE, 2, 1, 0, -1};

    /** A random JSON number spelling, biased to values near the bounds. */
    static String spelling(Random r) {
        StringBuilder sb = new StringBuilder();
        if (r.nextBoolean()) sb.append('-');
        int intLen = r.nextInt(4);
        if (intLen == 0 || r.nextInt(4) == 0) sb.append('0');
        else {
            sb.append((char) ('1' + r.nextInt(9)));
            for (int i = 1; i < intLen; i++) sb.append(r.nextInt(3) == 0 ? '0' : (char) ('0' + r.nextInt(10)));
        }
        if (r.nextInt(3) > 0) {
            sb.append('.');
            int f = 1 + r.nextInt(4);
            for (int i = 0; i < f; i++) sb.append(r.nextInt(3) == 0 ? '0' : (char) ('0' + r.nextInt(10)));
        }
        if (r.nextInt(3) == 0) {
            sb.append(r.nextBoolean() ? 'e' : 'E');
            int s = r.nextInt(3);
            if (s == 1) sb.append('+');
            if (s == 2) sb.append('-');
            if (r.nextInt(4) == 0) sb.append('0');
            sb.append(r.nextInt(8) == 0 ? Integer.toString(95 + r.nextInt(10)) : Integer.toString(r.nextInt(4)));
        }
        if (r.nextInt(4) == 0) {
            // a scientific spelling as serializers write it
            String m = (char) ('1' + r.nextInt(9)) + (r.nextBoolean() ? "" : "." + r.nextInt(1000));
            return (r.nextBoolean() ? "-" : "") + m + (r.nextBoolean() ? "e" : "E") + (r.nextBoolean() ? "-" : r.nextBoolean() ? "+" : "")
                + (r.nextBoolean() ? "0" : "") + r.nextInt(5);
        }
        return sb.toString();
    }

    static boolean expected(String s, BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx, int scale) {
        BigDecimal v = new BigDecimal(s);
        int e = s.indexOf('e') >= 0 ? s.indexOf('e') : s.indexOf('E');
        if (e >= 0 && v.signum() != 0 && (scale != DecimalRanges.ANY_SCALE || !s.substring(0, e).matches("-?[1-9](\\.[0-9]+)?"))) {
            return false; // documented: scientific spellings only with one nonzero integer digit, and not under multipleOf
        }
        if (lo != null && (loEx ? v.compareTo(lo) <= 0 : v.compareTo(lo) < 0)) return false;
        if (hi != null && (hiEx ? v.compareTo(hi) >= 0 : v.compareTo(hi) > 0)) return false;
        return scale == DecimalRanges.ANY_SCALE || v.movePointRight(scale).stripTrailingZeros().scale() <= 0;
    }

    static void check(BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx, int scale, List<String> spellings) {
        Expr e = DecimalRanges.numbers(lo, loEx, hi, hiEx, scale);
        for (String s : spellings) {
            assertThat(ExprMatcher.matches(e, s)).as("%s in %s%s, %s%s multipleOf 1e-%s", s, loEx ? "(" : "[", lo, hi,
                hiEx ? ")" : "]", scale == DecimalRanges.ANY_SCALE ? "any" : scale).isEqualTo(expected(s, lo, loEx, hi, hiEx, scale));
        }
        for (String bad : new String[] {"", "-", "00", "01", "+1", "1.", ".5", "1e", "--1", "1.e2", "0x1"}) {
            assertThat(ExprMatcher.matches(e, bad)).as(bad).isFalse();
        }
    }

    static List<String> spellings(Random r, String... fixed) {
        List<String> out = new ArrayList<>(List.of(fixed));
        for (int i = 0; i < 150; i++) out.add(spelling(r));
        return out;
    }

    @Test void boundsAgainstBigDecimal() {
        Random r = new Random(11);
        for (int i = 0; i < 60; i++) {
            BigDecimal lo = r.nextInt(4) == 0 ? null : new BigDecimal(BOUNDS[r.nextInt(BOUNDS.length)]);
            BigDecimal hi = r.nextInt(4) == 0 ? null : new BigDecimal(BOUNDS[r.nextInt(BOUNDS.length)]);
            if (lo != null && hi != null && lo.compareTo(hi) > 0 && r.nextBoolean()) { BigDecimal t = lo; lo = hi; hi = t; }
            int scale = SCALES[r.nextInt(SCALES.length)];
            List<String> sp = spellings(r);
            for (BigDecimal b : new BigDecimal[] {lo, hi}) {
                if (b == null) continue;
                sp.add(b.toPlainString());
                sp.add(b.toString());
                if (b.toPlainString().contains(".")) sp.add(b.toPlainString() + "0");
                sp.add(b.movePointLeft(2).toPlainString() + "e2");
                sp.add(b.movePointRight(3).toPlainString() + "E-03");
            }
            check(lo, r.nextBoolean(), hi, r.nextBoolean(), scale, sp);
        }
    }

    @Test void commonSchemaBounds() {
        Random r = new Random(5);
        List<String> sp = spellings(r, "1", "1.0", "0.999", "1e0", "1e-0", "9.99e-1", "1.0001e0", "1e+1", "9e1", "9.1e1", "1E+0", "100e-2", "0.5", "2", "1e-05",
            "1.5e+16", "0", "-0", "-0.0", "0e999", "-1", "90.0", "90.000001", "-90", "-90.5", "0.01", "0.011", "1.10");
        check(new BigDecimal("1"), false, null, false, DecimalRanges.ANY_SCALE, sp);
        check(BigDecimal.ZERO, false, BigDecimal.ONE, false, DecimalRanges.ANY_SCALE, sp);
        check(new BigDecimal("-90"), false, new BigDecimal("90"), false, DecimalRanges.ANY_SCALE, sp);
        check(null, false, null, false, 2, sp);
        check(null, false, null, false, 0, sp);
        check(BigDecimal.ZERO, false, new BigDecimal("99999999999.99"), false, 2, sp);
        check(BigDecimal.ZERO, true, null, false, DecimalRanges.ANY_SCALE, sp);
        check(null, false, BigDecimal.ZERO, true, DecimalRanges.ANY_SCALE, sp);
        check(BigDecimal.ONE, false, BigDecimal.ONE, false, DecimalRanges.ANY_SCALE, sp);
        check(BigDecimal.ONE, true, BigDecimal.ONE, false, DecimalRanges.ANY_SCALE, sp);
    }

    @Test void unboundedIsTheWholeSyntaxWithinTheExponentLimit() {
        Expr e = DecimalRanges.numbers(BigDecimal.ZERO, true, null, false, DecimalRanges.ANY_SCALE);
        for (String s : new String[] {"1", "0.5", "123.456", "1e5", "1E-99", "9e099", "1.5e+1000", "7E-00123456789"}) {
            assertThat(ExprMatcher.matches(e, s)).as(s).isTrue();
        }
        for (String s : new String[] {"0", "-1", "0.0", "0.0001e+10", "10e1"}) assertThat(ExprMatcher.matches(e, s)).as(s).isFalse();
    }
}
