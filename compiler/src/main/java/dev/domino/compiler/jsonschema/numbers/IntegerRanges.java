package dev.domino.compiler.jsonschema.numbers;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Regular expressions (as IR) for the JSON spellings of integers in a range: {@code -?(0|[1-9][0-9]*)}
 * restricted to values in [lo, hi] ({@code null} = unbounded). {@code -0} is accepted iff 0 is in range.
 */
public final class IntegerRanges {
    private IntegerRanges() {}

    public static final Expr DIGIT = Expr.chars(CodePointSet.range('0', '9'));
    public static final Expr NONZERO = Expr.chars(CodePointSet.range('1', '9'));

    public static Expr range(BigInteger lo, BigInteger hi) {
        if (lo != null && hi != null && lo.compareTo(hi) > 0) return Expr.NOTHING;
        List<Expr> alts = new ArrayList<>();
        // non-negative part
        BigInteger nLo = lo == null || lo.signum() < 0 ? BigInteger.ZERO : lo;
        if (hi == null || hi.compareTo(nLo) >= 0) alts.add(nonNegative(nLo, hi));
        // negative part: values in [lo, min(hi,-1)] -> "-" + [max(1,-hi), -lo]
        if (lo == null || lo.signum() < 0) {
            BigInteger negHi = hi == null || hi.signum() >= 0 ? BigInteger.ONE.negate() : hi;
            if (lo == null || lo.compareTo(negHi) <= 0) {
                BigInteger aLo = negHi.negate();
                BigInteger aHi = lo == null ? null : lo.negate();
                alts.add(Expr.seq(Expr.literal("-"), nonNegative(aLo, aHi)));
            }
        }
        boolean zeroIn = (lo == null || lo.signum() <= 0) && (hi == null || hi.signum() >= 0);
        if (zeroIn) alts.add(Expr.literal("-0"));
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    /** Canonical decimal spellings of values in [lo, hi], lo >= 0, hi null = unbounded. */
    static Expr nonNegative(BigInteger lo, BigInteger hi) {
        String a = lo.toString();
        List<Expr> alts = new ArrayList<>();
        int maxLen = hi == null ? a.length() : hi.toString().length();
        for (int len = a.length(); len <= maxLen; len++) {
            String from = len == a.length() ? a : (len == 1 ? "0" : "1" + "0".repeat(len - 1));
            String to = hi != null && len == maxLen ? hi.toString() : "9".repeat(len);
            alts.add(sameLength(from, to));
        }
        if (hi == null) alts.add(Expr.seq(NONZERO, new Expr.Repeat(DIGIT, a.length(), Expr.Repeat.UNBOUNDED)));
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    /** Digit strings of equal length between from and to (inclusive, from <= to). */
    static Expr sameLength(String from, String to) {
        int n = from.length();
        if (n == 0) return Expr.EMPTY;
        char f = from.charAt(0), t = to.charAt(0);
        String fr = from.substring(1), tr = to.substring(1);
        if (f == t) return cat(Expr.literal(String.valueOf(f)), sameLength(fr, tr));
        boolean fAll0 = fr.chars().allMatch(c -> c == '0'), tAll9 = tr.chars().allMatch(c -> c == '9');
        List<Expr> alts = new ArrayList<>();
        char midLo = f, midHi = t;
        if (!fAll0) { alts.add(cat(Expr.literal(String.valueOf(f)), sameLength(fr, "9".repeat(n - 1)))); midLo = (char) (f + 1); }
        if (!tAll9) midHi = (char) (t - 1);
        if (midLo <= midHi) alts.add(cat(Expr.chars(CodePointSet.range(midLo, midHi)), rep(n - 1)));
        if (!tAll9) alts.add(cat(Expr.literal(String.valueOf(t)), sameLength("0".repeat(n - 1), tr)));
        return alts.size() == 1 ? alts.get(0) : new Expr.Alt(alts);
    }

    private static Expr rep(int n) { return n == 0 ? Expr.EMPTY : new Expr.Repeat(DIGIT, n, n); }

    private static Expr cat(Expr a, Expr b) {
        if (b instanceof Expr.Seq s && s.items().isEmpty()) return a;
        return Expr.seq(a, b);
    }
}
