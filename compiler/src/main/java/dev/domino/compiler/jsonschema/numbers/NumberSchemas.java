package dev.domino.compiler.jsonschema.numbers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;
import dev.domino.compiler.jsonschema.SchemaCompiler;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code integer} and {@code number}. Integers: the bounds become an exact decimal-digit automaton for
 * the range ({@link IntegerRanges}). Numbers: the JSON number syntax; bounds and a {@code multipleOf} that
 * is a power of ten (0.01, 1.0, 10) become an exact automaton over the decimal and exponent spellings
 * ({@link DecimalRanges}). Any other {@code multipleOf}, and the multiples a {@code not} excludes
 * ({@link NumberMultiples#NOT_MULTIPLES}), intersect that with a residue automaton ({@link NumberMultiples}).
 */
public final class NumberSchemas {
    static final Expr INT = Expr.seq(Expr.optional(Expr.literal("-")),
        Expr.alt(Expr.literal("0"), Expr.seq(IntegerRanges.NONZERO, Expr.star(IntegerRanges.DIGIT))));
    static final Expr FRAC = Expr.seq(Expr.literal("."), Expr.plus(IntegerRanges.DIGIT));
    static final Expr EXP = Expr.seq(Expr.chars(CodePointSet.fromRanges(new int[] {'e', 'e', 'E', 'E'})),
        Expr.optional(Expr.chars(CodePointSet.fromRanges(new int[] {'+', '+', '-', '-'}))), Expr.plus(IntegerRanges.DIGIT));
    public static final Expr NUMBER = Expr.seq(INT, Expr.optional(FRAC), Expr.optional(EXP));

    /**
     * Longest decimal bound (digits written out without exponent) compiled exactly: the automaton grows with
     * the digits (1e400 is 401 digits), so a bound such as 1e1000000 is refused instead of exhausting memory.
     */
    static final int MAX_BOUND_DIGITS = 400;

    private final SchemaCompiler sc;
    private final NumberMultiples multiples;

    /** Digits of the plain (exponent-free) spelling of v. */
    static long plainDigits(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        long scale = s.scale(), precision = s.precision();
        return Math.max(precision - scale, 1) + Math.max(scale, 0);
    }

    public NumberSchemas(SchemaCompiler sc) {
        this.sc = sc;
        this.multiples = new NumberMultiples(sc.syn);
    }

    public Expr numberExpr(ObjectNode n, String ptr, boolean integer) {
        BigDecimal lo = null, hi = null;
        boolean loEx = false, hiEx = false;
        String loKw = null, hiKw = null;
        if (n.has("minimum")) { lo = n.get("minimum").decimalValue(); loKw = "minimum"; }
        if (n.has("exclusiveMinimum")) {
            BigDecimal e = n.get("exclusiveMinimum").decimalValue();
            if (lo == null || e.compareTo(lo) >= 0) { lo = e; loEx = true; loKw = "exclusiveMinimum"; }
        }
        if (n.has("maximum")) { hi = n.get("maximum").decimalValue(); hiKw = "maximum"; }
        if (n.has("exclusiveMaximum")) {
            BigDecimal e = n.get("exclusiveMaximum").decimalValue();
            if (hi == null || e.compareTo(hi) <= 0) { hi = e; hiEx = true; hiKw = "exclusiveMaximum"; }
        }
        int scale = DecimalRanges.ANY_SCALE;
        BigDecimal residueOf = null; // a multipleOf other than a power of ten: NumberMultiples
        if (n.has("multipleOf")) {
            BigDecimal m = n.get("multipleOf").decimalValue().stripTrailingZeros();
            boolean trivial = integer && m.signum() > 0 && BigDecimal.ONE.remainder(m).signum() == 0;
            boolean powerOfTen = m.unscaledValue().equals(BigInteger.ONE);
            if (!integer && powerOfTen && Math.abs((long) m.scale()) <= 1000) scale = m.scale();
            else if (!trivial) residueOf = m;
        }
        List<BigDecimal> excluded = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode x : n.path(NumberMultiples.NOT_MULTIPLES)) excluded.add(x.decimalValue());
        Expr bounds = boundsExpr(integer, lo, loEx, loKw, hi, hiEx, hiKw, scale, ptr);
        if (residueOf == null && excluded.isEmpty()) return bounds;
        boolean unbounded = lo == null && hi == null && scale == DecimalRanges.ANY_SCALE;
        try {
            return multiples.restrict(unbounded ? null : bounds, residueOf, excluded, integer);
        } catch (NumberMultiples.TooLarge e) {
            sc.unsupported(ptr, e.excluded ? "not" : "multipleOf", e.getMessage());
            return bounds;
        }
    }

    private Expr boundsExpr(boolean integer, BigDecimal lo, boolean loEx, String loKw, BigDecimal hi, boolean hiEx, String hiKw, int scale, String ptr) {
        if (integer) {
            BigInteger l = lo == null ? null
                : loEx ? lo.setScale(0, RoundingMode.FLOOR).toBigIntegerExact().add(BigInteger.ONE)
                : lo.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
            BigInteger h = hi == null ? null
                : hiEx ? hi.setScale(0, RoundingMode.CEILING).toBigIntegerExact().subtract(BigInteger.ONE)
                : hi.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
            return IntegerRanges.range(l, h);
        }
        if (lo == null && hi == null && scale == DecimalRanges.ANY_SCALE) return NUMBER;
        if (lo != null && plainDigits(lo) > MAX_BOUND_DIGITS) { sc.unsupported(ptr, loKw, "a bound on 'number' with more than " + MAX_BOUND_DIGITS + " digits written out"); lo = null; }
        if (hi != null && plainDigits(hi) > MAX_BOUND_DIGITS) { sc.unsupported(ptr, hiKw, "a bound on 'number' with more than " + MAX_BOUND_DIGITS + " digits written out"); hi = null; }
        return DecimalRanges.numbers(lo, loEx, hi, hiEx, scale);
    }
}
