package dev.domino.constraints;

/** A request whose constraint cannot be served: the message is one line for the client. */
public final class ConstraintException extends RuntimeException {
    /** Why: the request's shape, the grammar or schema, or the compile time budget. */
    public enum Reason { INVALID_REQUEST, COMPILE_ERROR, TIME_BUDGET, INTERNAL }

    private final Reason reason;

    public ConstraintException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() { return reason; }
}
