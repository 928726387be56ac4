package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * How a work request or receive ended ({@code poll_completions}' {@code status}; spec clause 7.5.8).
 *
 * <p>Deliberately not the reference's {@code org.mrconf.transport.WorkCompletionStatus}: the suite reaches every device, the reference included,
 * only through the control protocol, and shares no code with any of them. A test keeps the vocabularies in step.
 */
@API(status = MAINTAINED, since = "0.1")
public enum CompletionStatus {
    SUCCESS,
    REMOTE_ACCESS_ERROR,
    REMOTE_BOUNDS_ERROR,
    REMOTE_MESSAGE_TOO_LONG,
    REMOTE_INVALID_REQUEST,
    REMOTE_UNKNOWN_CONNECTION,
    LOCAL_LENGTH_ERROR,
    LOCAL_PROTECTION_ERROR,
    TRANSPORT_TIMEOUT,
    FLUSHED;

    public boolean isSuccess() {
        return this == SUCCESS;
    }
}
