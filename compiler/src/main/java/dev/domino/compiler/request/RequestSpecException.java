package dev.domino.compiler.request;

/** A request spec that is not one of the accepted shapes: the message names the field (as a JSON pointer) and what was expected. */
public final class RequestSpecException extends IllegalArgumentException {
    private final String pointer;

    public RequestSpecException(String pointer, String message) {
        super((pointer.isEmpty() ? "request" : pointer) + ": " + message);
        this.pointer = pointer;
    }

    /** JSON pointer of the offending field ("" for the request itself). */
    public String pointer() { return pointer; }
}
