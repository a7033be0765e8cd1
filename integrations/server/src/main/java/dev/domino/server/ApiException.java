package dev.domino.server;

/**
 * A request the server refuses or could not serve, with the HTTP status and OpenAI's error fields
 * ({@code {"error": {"message", "type", "param", "code"}}}).
 */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String type;
    private final String param;
    private final String code;

    public ApiException(int status, String type, String param, String code, String message) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    /** 400: a field the request must not have, or a value out of range. */
    public static ApiException invalid(String param, String message) {
        return new ApiException(400, "invalid_request_error", param, null, message);
    }

    /** 400: a field the server does not implement; refused rather than ignored. */
    public static ApiException unsupported(String param, String message) {
        return new ApiException(400, "invalid_request_error", param, "unsupported_parameter", message);
    }

    public int status() { return status; }
    public String type() { return type; }
    public String param() { return param; }
    public String code() { return code; }
}
