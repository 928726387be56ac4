package org.mrconf.dut;

/** How a work request or receive ended ({@code poll_completions}' {@code status}; spec clause 7.5.8). */
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
