package org.mrconf.agent;

/** The error codes of the DUT control protocol (docs/dut-control-protocol.md, section 2), by wire name. */
public enum ErrorCode {
    /** The line is not a JSON object; the response's {@code id} is null. */
    PARSE_ERROR("parse_error"),
    /** The line exceeds 1 MiB; the agent skips to the next newline and keeps serving. */
    REQUEST_TOO_LARGE("request_too_large"),
    /** {@code v} is missing or not a version the agent speaks. */
    UNSUPPORTED_VERSION("unsupported_version"),
    /** {@code id} or {@code op} missing or of the wrong type, or {@code args} not an object. */
    INVALID_REQUEST("invalid_request"),
    /** A token is required and the request's is missing or wrong. */
    UNAUTHORIZED("unauthorized"),
    /** The operation is not one the agent offers. */
    UNKNOWN_OP("unknown_op"),
    /** An argument is missing, of the wrong type or out of range. */
    INVALID_ARGUMENT("invalid_argument"),
    /** A connection, region or key named by the request does not exist. */
    NOT_FOUND("not_found"),
    /** The request contradicts current state. */
    CONFLICT("conflict"),
    /** Anything else; the agent keeps serving. */
    INTERNAL("internal");

    private final String wireName;

    ErrorCode(final String wireName) {
        this.wireName = wireName;
    }

    /** The code as it appears in {@code error.code}. */
    public String wireName() {
        return wireName;
    }
}
