package dev.domino.compiler.jsonschema.algebra;

import dev.domino.compiler.ir.Expr;

import java.util.List;

/**
 * Intersection and complement of regular languages (reference-free expressions over code points),
 * for front ends outside the JSON Schema compiler: a regex's leading lookaheads, Lark's {@code &}
 * and {@code ~} on lexemes. The result is one minimized automaton leaf ({@link Expr.Automaton}),
 * exact on the languages; {@link TooComplex} when an automaton passes the state bound.
 */
public final class RegularLanguages {
    private RegularLanguages() {}

    /** Past the automaton bounds of the string algebra; the message names the cause. */
    public static final class TooComplex extends RuntimeException {
        TooComplex(String message) { super(message); }
    }

    /** Strings in every one of {@code all} and in none of {@code none} ({@code all} non-empty). */
    public static Expr intersection(List<Expr> all, List<Expr> none) {
        try {
            CodePointDfa d = null;
            for (Expr e : all) d = d == null ? CodePointDfa.of(e) : d.intersect(e);
            for (Expr e : none) d = d.intersect(CodePointDfa.of(e).complement());
            return d.toLeaf();
        } catch (CodePointDfa.TooComplex e) {
            throw new TooComplex(e.getMessage());
        }
    }

    /** Every string not in {@code e}. */
    public static Expr complement(Expr e) {
        try {
            return CodePointDfa.of(e).complement().toLeaf();
        } catch (CodePointDfa.TooComplex ex) {
            throw new TooComplex(ex.getMessage());
        }
    }
}
