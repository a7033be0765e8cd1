package dev.domino.compiler.jsonschema.numbers;

import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.JsonSyntax;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Regular expressions (as IR) for the JSON spellings of numbers ({@code -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?})
 * whose value lies in an interval with decimal bounds (each inclusive or exclusive, {@code null} = unbounded),
 * optionally restricted to multiples of a power of ten ({@code multipleOf} 0.01, 1.0, 10, ...).
 *
 * <p>Algorithm: a spelling is a sign, a mantissa {@code I[.F]} and an exponent E. For a fixed count n of
 * integer digits, the mantissa's digits {@code IF} compared with the bound's digits (its integer part padded
 * to n digits, then its fraction, then zeros forever) decide the order, so the mantissas in [lo, hi] are a
 * digit-by-digit walk that stays "tight" to each bound or leaves it (as {@link IntegerRanges} does for
 * integers), and a multiple of 10^-q has only zeros from fraction place q + 1 on. A spelling with exponent E
 * has value in [lo, hi] iff its mantissa lies in [lo·10^-E, hi·10^-E] (a multiple of 10^-q iff the mantissa
 * is a multiple of 10^-(q+E)).
 *
 * <p>Which spellings: every plain decimal ({@code 0.5}, {@code 12.50}, {@code 100}), and the scientific
 * spellings serializers write, a mantissa with one nonzero integer digit ({@code 1e-05}, {@code 2.5E+16},
 * any exponent length, leading zeros, sign and case), and zero in any spelling. Why not every exponent
 * spelling: the spellings of the values at least 1 include {@code 10...0e-m} (n zeros, n &le; m), which is
 * not a regular language, so no automaton accepts exactly the in-range ones; with one integer digit the
 * exponent alone decides all but the bound's own decade, which stays small (tens of states per bound).
 * Under {@code multipleOf} only plain decimals are produced (the fraction digits of a scientific mantissa
 * would have to be counted against the exponent). Integers ({@link IntegerRanges}) are likewise kept to
 * their plain spelling.
 */
final class DecimalRanges {
    private DecimalRanges() {}

    /** No multipleOf restriction. */
    static final int ANY_SCALE = Integer.MAX_VALUE;

    private static final Expr DIGIT = IntegerRanges.DIGIT;
    private static final Expr NONZERO = IntegerRanges.NONZERO;
    private static final Expr ZERO = Expr.literal("0");

    /**
     * Spellings of the numbers in the interval that are multiples of 10^-scale ({@link #ANY_SCALE}: no
     * restriction; scale may be negative: multiples of 100 have scale -2).
     */
    static Expr numbers(BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx, int scale) {
        if (lo != null && hi != null) {
            int c = lo.compareTo(hi);
            if (c > 0 || (c == 0 && (loEx || hiEx))) return Expr.NOTHING;
        }
        List<Expr> alts = new ArrayList<>();
        boolean zeroIn = (lo == null || lo.signum() < 0 || (lo.signum() == 0 && !loEx))
            && (hi == null || hi.signum() > 0 || (hi.signum() == 0 && !hiEx));
        if (hi == null || hi.signum() > 0) {
            boolean fromZero = lo == null || lo.signum() <= 0;
            alts.add(positive(fromZero ? BigDecimal.ZERO : lo, fromZero || loEx, hi, hiEx, scale));
        }
        if (lo == null || lo.signum() < 0) {
            boolean fromZero = hi == null || hi.signum() >= 0;
            alts.add(Expr.seq(Expr.literal("-"),
                positive(fromZero ? BigDecimal.ZERO : hi.negate(), fromZero || hiEx, lo == null ? null : lo.negate(), loEx, scale)));
        }
        if (zeroIn) {
            alts.add(JsonSyntax.seq(Expr.optional(Expr.literal("-")), ZERO,
                Expr.optional(Expr.seq(Expr.literal("."), Expr.plus(ZERO))), Expr.optional(NumberSchemas.EXP)));
        }
        return JsonSyntax.alt(alts);
    }

    /** Unsigned spellings of the values in the interval, lo &ge; 0: plain decimals, and scientific ones without multipleOf. */
    private static Expr positive(BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx, int scale) {
        List<Expr> alts = new ArrayList<>();
        Expr plain = mantissas(lo, loEx, hi, hiEx, scale);
        if (!isNothing(plain)) alts.add(plain);
        if (scale == ANY_SCALE) alts.addAll(scientific(lo, loEx, hi, hiEx));
        return JsonSyntax.alt(alts);
    }

    /** The exponent of a positive value's leading digit: v = d.ddd x 10^result. */
    static long leadingExponent(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return (long) s.precision() - s.scale() - 1;
    }

    /**
     * Scientific spellings {@code [1-9](\.\d+)?[eE]...} of the values in the interval (lo &ge; 0): the
     * mantissa is in [1, 10), so the exponent alone decides all but the bounds' own decades, where the mantissa
     * is compared with the bound's digits.
     */
    private static List<Expr> scientific(BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx) {
        List<Expr> alts = new ArrayList<>();
        Long eLo = lo.signum() == 0 ? null : leadingExponent(lo);
        Long eHi = hi == null ? null : leadingExponent(hi);
        BigDecimal ten = BigDecimal.TEN;
        if (eLo != null) {
            boolean same = eHi != null && eHi.equals(eLo);
            Expr m = mantissas(lo.movePointLeft((int) (long) eLo), loEx, same ? hi.movePointLeft((int) (long) eLo) : ten,
                !same || hiEx, ANY_SCALE);
            if (!isNothing(m)) alts.add(Expr.seq(m, exponent(BigInteger.valueOf(eLo), BigInteger.valueOf(eLo))));
        }
        BigInteger from = eLo == null ? null : BigInteger.valueOf(eLo + 1);
        BigInteger to = eHi == null ? null : BigInteger.valueOf(eHi - 1);
        if (from == null || to == null || from.compareTo(to) <= 0) {
            alts.add(JsonSyntax.seq(NONZERO, Expr.optional(NumberSchemas.FRAC), exponent(from, to)));
        }
        if (eHi != null && (eLo == null || eHi > eLo)) {
            Expr m = mantissas(BigDecimal.ONE, false, hi.movePointLeft((int) (long) eHi), hiEx, ANY_SCALE);
            if (!isNothing(m)) alts.add(Expr.seq(m, exponent(BigInteger.valueOf(eHi), BigInteger.valueOf(eHi))));
        }
        return alts;
    }

    /** The exponent parts {@code [eE][+-]?\d+} (leading zeros allowed) whose value is in [a, b] (null = unbounded). */
    private static Expr exponent(BigInteger a, BigInteger b) {
        List<Expr> alts = new ArrayList<>();
        Expr zeros = Expr.star(ZERO);
        if (b == null || b.signum() >= 0) {
            BigInteger from = a == null || a.signum() < 0 ? BigInteger.ZERO : a;
            alts.add(JsonSyntax.seq(Expr.optional(Expr.literal("+")), zeros, IntegerRanges.nonNegative(from, b)));
        }
        if (a == null || a.signum() < 0) {
            BigInteger from = b == null || b.signum() >= 0 ? BigInteger.ONE : b.negate();
            BigInteger to = a == null ? null : a.negate();
            if (to == null || from.compareTo(to) <= 0) alts.add(JsonSyntax.seq(Expr.literal("-"), zeros, IntegerRanges.nonNegative(from, to)));
        }
        if ((a == null || a.signum() <= 0) && (b == null || b.signum() >= 0)) alts.add(JsonSyntax.seq(Expr.literal("-"), Expr.plus(ZERO)));
        return JsonSyntax.seq(Expr.chars(CodePointSet.fromRanges(new int[] {'E', 'E', 'e', 'e'})), JsonSyntax.alt(alts));
    }

    static boolean isNothing(Expr e) { return e instanceof Expr.Alt a && a.options().isEmpty(); }

    /**
     * Mantissa spellings {@code (0|[1-9]\d*)(\.\d+)?} of the values in the interval (lo &ge; 0; hi null =
     * unbounded) with no nonzero digit below the place 10^-scale.
     */
    static Expr mantissas(BigDecimal lo, boolean loEx, BigDecimal hi, boolean hiEx, int scale) {
        if (hi != null) {
            int c = lo.compareTo(hi);
            if (c > 0 || (c == 0 && (loEx || hiEx))) return Expr.NOTHING;
        }
        String[] l = digits(lo), h = hi == null ? null : digits(hi);
        int loLen = l[0].length(), hiLen = h == null ? Integer.MAX_VALUE : h[0].length();
        List<Expr> alts = new ArrayList<>();
        // n = count of integer digits; lengths strictly between the bounds' are free of both bounds
        alts.add(new Walk(loLen, l, loEx, loLen == hiLen ? h : null, hiEx, scale).from(0, true, loLen == hiLen));
        if (h != null && hiLen > loLen) alts.add(new Walk(hiLen, l, loEx, h, hiEx, scale).from(0, false, true));
        int freeLo = loLen + 1, freeHi = h == null ? Integer.MAX_VALUE : hiLen - 1;
        if (freeLo <= freeHi) alts.add(freeLengths(freeLo, freeHi, scale));
        List<Expr> kept = new ArrayList<>();
        for (Expr a : alts) if (!isNothing(a)) kept.add(a);
        return JsonSyntax.alt(kept);
    }

    /** Integer part and trailing-zero-free fraction digits of a non-negative value. */
    private static String[] digits(BigDecimal v) {
        String s = v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
        int dot = s.indexOf('.');
        return dot < 0 ? new String[] {s, ""} : new String[] {s.substring(0, dot), s.substring(dot + 1)};
    }

    /** Mantissas with n integer digits, n in [a, b] (b may be unbounded), a &ge; 2, free of both bounds. */
    private static Expr freeLengths(int a, int b, int scale) {
        int max = b == Integer.MAX_VALUE ? Expr.Repeat.UNBOUNDED : b - 1;
        if (scale == ANY_SCALE || scale >= 0) {
            return JsonSyntax.seq(NONZERO, new Expr.Repeat(DIGIT, a - 1, max), freeFraction(1, scale, true));
        }
        // multiples of 10^-scale: the last -scale integer digits are zeros, the first is not
        int z = -scale;
        int lo = Math.max(a - 1 - z, 0);
        if (max != Expr.Repeat.UNBOUNDED) {
            max -= z;
            if (max < lo) return Expr.NOTHING;
        }
        return JsonSyntax.seq(NONZERO, new Expr.Repeat(DIGIT, lo, max), new Expr.Repeat(ZERO, z, z), freeFraction(1, scale, true));
    }

    /**
     * Fraction digits from fraction place j on (1-based), free of both bounds: any digits, but only zeros
     * below place 10^-scale; with the dot and optional when {@code dot}, else possibly empty.
     */
    private static Expr freeFraction(int j, int scale, boolean dot) {
        Expr rest;
        if (scale == ANY_SCALE) rest = Expr.star(DIGIT);
        else if (scale - j + 1 <= 0) rest = Expr.star(ZERO);
        else rest = JsonSyntax.seq(new Expr.Repeat(DIGIT, 0, scale - j + 1), Expr.star(ZERO));
        if (!dot) return rest;
        Expr nonEmpty;
        if (scale == ANY_SCALE) nonEmpty = Expr.plus(DIGIT);
        else if (scale <= 0) nonEmpty = Expr.plus(ZERO);
        else nonEmpty = JsonSyntax.seq(new Expr.Repeat(DIGIT, 1, scale), Expr.star(ZERO));
        return Expr.optional(JsonSyntax.seq(Expr.literal("."), nonEmpty));
    }

    /**
     * The digit walk for one count n of integer digits: positions 0..n-1 are the integer digits, n.. the
     * fraction digits; the bound strings are the integer part padded to n digits and the fraction.
     */
    private static final class Walk {
        final int n, scale;
        final String lo, hi;
        final boolean loEx, hiEx;

        Walk(int n, String[] l, boolean loEx, String[] h, boolean hiEx, int scale) {
            this.n = n;
            this.scale = scale;
            this.lo = "0".repeat(n - l[0].length()) + l[0] + l[1];
            this.hi = h == null ? null : "0".repeat(n - h[0].length()) + h[0] + h[1];
            this.loEx = loEx;
            this.hiEx = hiEx;
        }

        char lo(int pos) { return pos < lo.length() ? lo.charAt(pos) : '0'; }

        char hi(int pos) { return pos < hi.length() ? hi.charAt(pos) : '0'; }

        /** Whether the bound's digits from pos on are all zeros. */
        static boolean zerosFrom(String s, int pos) {
            for (int i = pos; i < s.length(); i++) if (s.charAt(i) != '0') return false;
            return true;
        }

        /** Whether the spelling may end at pos (pos &ge; n) in the given tightness. */
        boolean mayEnd(int pos, boolean tLo, boolean tHi) {
            if (tLo && !(zerosFrom(lo, pos) && !loEx)) return false;
            if (tHi && zerosFrom(hi, pos) && hiEx) return false;
            return true;
        }

        /** Whether a nonzero digit may stand at pos (the multipleOf restriction). */
        boolean nonzeroAllowed(int pos) { return scale == ANY_SCALE || pos < (long) n + scale; }

        Expr from(int pos, boolean tLo, boolean tHi) {
            if (!tLo && !tHi) return free(pos);
            int end = Math.max(lo.length(), hi == null ? 0 : hi.length());
            if (pos >= n && pos >= end) return tail(pos, tLo, tHi);
            List<Expr> alts = new ArrayList<>();
            if (pos >= n && mayEnd(pos, tLo, tHi)) alts.add(Expr.EMPTY);
            int dMin = pos == 0 && n > 1 ? 1 : 0;
            int dMax = nonzeroAllowed(pos) ? 9 : 0;
            if (tLo) dMin = Math.max(dMin, lo(pos) - '0');
            if (tHi) dMax = Math.min(dMax, hi(pos) - '0');
            // digits equal to a tight bound's digit keep it tight; the others leave it
            int loD = tLo ? lo(pos) - '0' : -1, hiD = tHi ? hi(pos) - '0' : -1;
            List<Expr> steps = new ArrayList<>();
            for (int d = dMin; d <= dMax; ) {
                boolean keepLo = d == loD, keepHi = d == hiD;
                int e = d;
                if (!keepLo && !keepHi) {
                    while (e + 1 <= dMax && e + 1 != loD && e + 1 != hiD) e++;
                }
                Expr rest = from(pos + 1, keepLo, keepHi);
                if (!isNothing(rest)) steps.add(JsonSyntax.seq(Expr.chars(CodePointSet.range('0' + d, '0' + e)), rest));
                d = e + 1;
            }
            if (!steps.isEmpty()) {
                Expr step = JsonSyntax.alt(steps);
                alts.add(pos == n ? JsonSyntax.seq(Expr.literal("."), step) : step);
            }
            return JsonSyntax.alt(alts);
        }

        /** Beyond both bounds' digits (pos &ge; n): the bounds' digits are zeros from here on. */
        private Expr tail(int pos, boolean tLo, boolean tHi) {
            boolean endOk = mayEnd(pos, tLo, tHi);
            if (!nonzeroAllowed(pos) || tHi) {
                // only zeros may follow (a nonzero digit would pass hi); they keep the value equal to the bound
                if (!endOk) return Expr.NOTHING;
                return pos > n ? Expr.star(ZERO) : Expr.optional(JsonSyntax.seq(Expr.literal("."), Expr.plus(ZERO)));
            }
            if (tLo && loEx) {
                // equal to lo so far: a later nonzero digit (above place 10^-scale) must follow
                Expr ahead = nonzeroAhead(pos);
                if (isNothing(ahead)) return ahead;
                return pos > n ? ahead : JsonSyntax.seq(Expr.literal("."), ahead);
            }
            return pos > n ? freeFractionAt(pos) : freeFraction(1, scale, true);
        }

        /** Fraction digits from pos on (pos &ge; n) with at least one nonzero digit. */
        private Expr nonzeroAhead(int pos) {
            if (scale == ANY_SCALE) return JsonSyntax.seq(Expr.star(ZERO), NONZERO, Expr.star(DIGIT));
            long free = (long) n + scale - pos; // positions pos .. pos+free-1 may be nonzero
            if (free <= 0) return Expr.NOTHING;
            // 0^i [1-9] \d^j 0*, i + 1 + j <= free
            List<Expr> alts = new ArrayList<>();
            for (int i = 0; i < free; i++) {
                alts.add(JsonSyntax.seq(new Expr.Repeat(ZERO, i, i), NONZERO, new Expr.Repeat(DIGIT, 0, (int) (free - 1 - i)), Expr.star(ZERO)));
            }
            return JsonSyntax.alt(alts);
        }

        private Expr freeFractionAt(int pos) { return freeFraction(pos - n + 1, scale, false); }

        /** Spellings from pos on with neither bound tight. */
        Expr free(int pos) {
            if (pos >= n) return pos == n ? freeFraction(1, scale, true) : freeFractionAt(pos);
            List<Expr> items = new ArrayList<>();
            for (int p = pos; p < n; p++) {
                CodePointSet d = CodePointSet.range(p == 0 && n > 1 ? '1' : '0', nonzeroAllowed(p) ? '9' : '0');
                if (d.isEmpty()) return Expr.NOTHING;
                items.add(Expr.chars(d));
            }
            items.add(freeFraction(1, scale, true));
            return JsonSyntax.seq(items.toArray(Expr[]::new));
        }
    }
}
