package dev.domino.runtime.internal.parse;

/**
 * An Earley step passed {@link EarleyParser#MAX_STEP_WORK}: the output is valid so far, but the
 * grammar is too ambiguous to follow it further within the limit. The message is one line for users.
 */
public final class ParserLimitException extends IllegalStateException {
    public ParserLimitException(String message) { super(message); }
}
