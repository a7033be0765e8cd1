package dev.domino.constraints;

/** A request whose constraint cannot be served: the message is one line for the client. */
public final class ConstraintException extends RuntimeException {
    /**
     * Why: the request's shape, the grammar or schema, the compile time budget, the process's
     * resources (the compile ran out of heap: not cached, the next request for it compiles again),
     * or an internal error.
     */
    public enum Reason { INVALID_REQUEST, COMPILE_ERROR, TIME_BUDGET, RESOURCES, INTERNAL }

    private final Reason reason;

    public ConstraintException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() { return reason; }
}
