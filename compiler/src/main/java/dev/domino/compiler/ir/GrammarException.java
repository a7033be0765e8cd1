package dev.domino.compiler.ir;

/**
 * A problem with the user's grammar: what is wrong and where (1-based line/column, 0 when
 * unknown). The message is meant to be shown to the user as is.
 */
public class GrammarException extends RuntimeException {
    private final int line;
    private final int column;

    public GrammarException(String message, int line, int column) {
        super(line > 0 ? "line " + line + ", column " + column + ": " + message : message);
        this.line = line;
        this.column = column;
    }

    public GrammarException(String message) { this(message, 0, 0); }

    public int line() { return line; }
    public int column() { return column; }
}
