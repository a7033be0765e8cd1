package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.Expr;

/**
 * Parses a regular expression (ECMA-262 / Python `re` common subset) into the grammar IR.
 * STUB: to be implemented.
 */
public final class RegexParser {
    public enum Flavor { ECMA, PYTHON }

    private RegexParser() {}

    /** Parses a whole-string regex (implicitly anchored at both ends). */
    public static Expr parse(String pattern, Flavor flavor) {
        throw new UnsupportedOperationException("regex parser not implemented yet");
    }
}
