package dev.domino.compiler.ir;

import java.util.List;

/**
 * A node of the grammar IR. Every front-end (GBNF, Lark, regex, JSON Schema) produces these;
 * the compiler splits them into terminals (regular) and a parser-level CFG.
 * Strings are sequences of Unicode code points; the compiler turns them into UTF-8 bytes.
 */
public sealed interface Expr {

    /** Concatenation. An empty list is the empty string. */
    record Seq(List<Expr> items) implements Expr {
        public Seq { items = List.copyOf(items); }
    }

    /** Alternation. An empty list is the empty language (matches nothing). */
    record Alt(List<Expr> options) implements Expr {
        public Alt { options = List.copyOf(options); }
    }

    /** {@code body{min,max}}; {@code max == UNBOUNDED} for {@code *} and {@code +}. */
    record Repeat(Expr body, int min, int max) implements Expr {
        public static final int UNBOUNDED = -1;
        public Repeat {
            if (min < 0 || (max != UNBOUNDED && max < min)) {
                throw new IllegalArgumentException("bad repetition {" + min + "," + max + "}");
            }
        }
    }

    /** One code point out of a set. */
    record Chars(CodePointSet set) implements Expr {}

    /** An exact string (code points). */
    record Literal(String text) implements Expr {}

    /** A reference to a named rule; line/column point at the reference for error messages. */
    record Ref(String name, int line, int column) implements Expr {}

    Expr EMPTY = new Seq(List.of());
    Expr NOTHING = new Alt(List.of());

    static Expr seq(Expr... items) { return items.length == 1 ? items[0] : new Seq(List.of(items)); }
    static Expr alt(Expr... options) { return options.length == 1 ? options[0] : new Alt(List.of(options)); }
    static Expr optional(Expr e) { return new Repeat(e, 0, 1); }
    static Expr star(Expr e) { return new Repeat(e, 0, Repeat.UNBOUNDED); }
    static Expr plus(Expr e) { return new Repeat(e, 1, Repeat.UNBOUNDED); }
    static Expr literal(String s) { return new Literal(s); }
    static Expr chars(CodePointSet s) { return new Chars(s); }
    static Expr ref(String name) { return new Ref(name, 0, 0); }
}
