package org.mrconf.agent;

/**
 * Ends the handling of one request with a structured error response. Thrown and caught inside the agent
 * only; it never escapes {@link ControlAgent#handle}.
 */
final class RequestError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final ErrorCode code;
    /** The request field at fault as a path ({@code args.length}), or null. */
    final String field;

    RequestError(final ErrorCode code, final String message, final String field) {
        super(message, null, false, false);
        this.code = code;
        this.field = field;
    }

    static RequestError invalidArgument(final String field, final String message) {
        return new RequestError(ErrorCode.INVALID_ARGUMENT, message, field);
    }

    static RequestError notFound(final String field, final String message) {
        return new RequestError(ErrorCode.NOT_FOUND, message, field);
    }

    static RequestError conflict(final String field, final String message) {
        return new RequestError(ErrorCode.CONFLICT, message, field);
    }
}
