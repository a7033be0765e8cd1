package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.domino.compiler.ir.CodePointSet;
import dev.domino.compiler.ir.Expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code integer} and {@code number}. Integers: the bounds become an exact decimal-digit automaton for
 * the range ({@link IntegerRanges}); {@code multipleOf} is accepted only where it divides 1. Numbers: the
 * JSON number syntax, with bounds supported only at 0 (sign and zero spellings); other bounds and
 * {@code multipleOf} are unsupported keywords.
 */
final class NumberSchemas {
    static final Expr INT = Expr.seq(Expr.optional(Expr.literal("-")),
        Expr.alt(Expr.literal("0"), Expr.seq(IntegerRanges.NONZERO, Expr.star(IntegerRanges.DIGIT))));
    static final Expr FRAC = Expr.seq(Expr.literal("."), Expr.plus(IntegerRanges.DIGIT));
    static final Expr EXP = Expr.seq(Expr.chars(CodePointSet.fromRanges(new int[] {'e', 'e', 'E', 'E'})),
        Expr.optional(Expr.chars(CodePointSet.fromRanges(new int[] {'+', '+', '-', '-'}))), Expr.plus(IntegerRanges.DIGIT));
    static final Expr NUMBER = Expr.seq(INT, Expr.optional(FRAC), Expr.optional(EXP));

    private final SchemaCompiler sc;

    NumberSchemas(SchemaCompiler sc) { this.sc = sc; }

    Expr numberExpr(ObjectNode n, String ptr, boolean integer) {
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
        if (n.has("multipleOf")) {
            BigDecimal m = n.get("multipleOf").decimalValue();
            boolean trivial = integer && m.signum() > 0 && BigDecimal.ONE.remainder(m).signum() == 0;
            if (!trivial) {
                if (integer && m.stripTrailingZeros().scale() <= 0) sc.unsupported(ptr, "multipleOf", "multipleOf " + m.toPlainString() + " on integers");
                else sc.unsupported(ptr, "multipleOf", integer ? null : "on numbers");
            }
        }
        if (integer) {
            BigInteger l = lo == null ? null
                : loEx ? lo.setScale(0, RoundingMode.FLOOR).toBigIntegerExact().add(BigInteger.ONE)
                : lo.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
            BigInteger h = hi == null ? null
                : hiEx ? hi.setScale(0, RoundingMode.CEILING).toBigIntegerExact().subtract(BigInteger.ONE)
                : hi.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
            return IntegerRanges.range(l, h);
        }
        if (lo != null && lo.signum() != 0) { sc.unsupported(ptr, loKw, "bounds on 'number' are only supported at 0; use type integer"); lo = null; }
        if (hi != null && hi.signum() != 0) { sc.unsupported(ptr, hiKw, "bounds on 'number' are only supported at 0; use type integer"); hi = null; }
        Expr digitsStar = Expr.star(IntegerRanges.DIGIT);
        Expr zero = JsonSyntax.seq(Expr.literal("0"), Expr.optional(JsonSyntax.seq(Expr.literal("."), Expr.plus(Expr.literal("0")))), Expr.optional(EXP));
        Expr positive = JsonSyntax.alt(List.of(
            JsonSyntax.seq(IntegerRanges.NONZERO, digitsStar, Expr.optional(FRAC), Expr.optional(EXP)),
            JsonSyntax.seq(Expr.literal("0."), digitsStar, IntegerRanges.NONZERO, digitsStar, Expr.optional(EXP))));
        if (lo == null && hi == null) return NUMBER;
        boolean allowPos = hi == null, allowNeg = lo == null;
        boolean allowZero = (lo == null || !loEx) && (hi == null || !hiEx);
        List<Expr> alts = new ArrayList<>();
        if (allowPos) alts.add(positive);
        if (allowNeg) alts.add(JsonSyntax.seq(Expr.literal("-"), positive));
        if (allowZero) alts.add(JsonSyntax.seq(Expr.optional(Expr.literal("-")), zero));
        return alts.isEmpty() ? Expr.NOTHING : JsonSyntax.alt(alts);
    }
}
