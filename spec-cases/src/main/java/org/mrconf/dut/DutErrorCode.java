package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * Why a control operation failed: one of the error codes of the DUT control protocol (section 2), as the agent
 * reported it, or one of two client-side failures ({@link #MALFORMED_RESPONSE}, {@link #TRANSPORT}) that no agent
 * sends. The runner reads it from {@link DutControlException#code()}.
 */
@API(status = MAINTAINED, since = "0.1")
public enum DutErrorCode {
    /** The agent could not parse the request line as a JSON object. */
    PARSE_ERROR("parse_error"),
    /** The request line exceeded 1 MiB. */
    REQUEST_TOO_LARGE("request_too_large"),
    /** The agent does not speak the request's protocol version. */
    UNSUPPORTED_VERSION("unsupported_version"),
    /** {@code id} or {@code op} missing or mistyped, or {@code args} not an object. */
    INVALID_REQUEST("invalid_request"),
    /** A token is required and the request's is missing or wrong. */
    UNAUTHORIZED("unauthorized"),
    /** The agent does not offer the operation (an optional one such as {@code path_status}, too). */
    UNKNOWN_OP("unknown_op"),
    /** An argument is missing, mistyped or out of range; {@link DutControlException#field()} names it. */
    INVALID_ARGUMENT("invalid_argument"),
    /** A connection, region or key named by the request does not exist. */
    NOT_FOUND("not_found"),
    /** The request contradicts the agent's state, e.g. a connection id in use. */
    CONFLICT("conflict"),
    /** Anything else on the agent's side. */
    INTERNAL("internal"),
    /** Client side: the agent's response line broke the protocol (not JSON, wrong id, missing field...). */
    MALFORMED_RESPONSE(null),
    /** Client side: the channel failed (connection refused or lost, timeout, request too large to send). */
    TRANSPORT(null);

    private final String wireName;

    DutErrorCode(String wireName) {
        this.wireName = wireName;
    }

    /** The code as the protocol spells it, e.g. {@code invalid_argument}; {@code null} for the client-side codes. */
    public String wireName() {
        return wireName;
    }

    /** Whether an agent reported this code, as opposed to the client detecting a failure. */
    public boolean isFromAgent() {
        return wireName != null;
    }

    /** The agent's code for a wire name, or {@code null} if the protocol defines no such code. */
    public static DutErrorCode fromWireName(String name) {
        for (DutErrorCode code : values()) {
            if (code.wireName != null && code.wireName.equals(name)) {
                return code;
            }
        }
        return null;
    }
}
