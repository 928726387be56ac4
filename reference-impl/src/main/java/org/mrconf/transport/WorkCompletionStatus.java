package org.mrconf.transport;

import org.mrconf.wire.NackCode;

/**
 * How a work request ended (spec clause 7.5.8): success, or the reason it failed.
 *
 * <p>The suite has its own {@code org.mrconf.dut.CompletionStatus}, the suite's copy, read from the control protocol: the reference and the suite share no code, so that a
 * bug in one cannot hide the same bug in the other. A test compares the two vocabularies with the control document.
 */
public enum WorkCompletionStatus {
    SUCCESS,
    /** The peer answered NACK REMOTE_ACCESS. */
    REMOTE_ACCESS_ERROR,
    /** The peer answered NACK BOUNDS. */
    REMOTE_BOUNDS_ERROR,
    /** The peer answered NACK MESSAGE_TOO_LONG. */
    REMOTE_MESSAGE_TOO_LONG,
    /** The peer answered NACK INVALID_REQUEST. */
    REMOTE_INVALID_REQUEST,
    /** The peer answered NACK UNKNOWN_CONNECTION. */
    REMOTE_UNKNOWN_CONNECTION,
    /** Receive side: the SEND was longer than this posted receive. */
    LOCAL_LENGTH_ERROR,
    /** A local buffer of the work request was invalidated before the transfer finished (clause 11.1.4). */
    LOCAL_PROTECTION_ERROR,
    /** No ACK or NACK for the connection timeout (spec clause 6.7.3). */
    TRANSPORT_TIMEOUT,
    /** The connection was destroyed or failed with this request outstanding. */
    FLUSHED;

    /** The status for a NACK whose action fails the work request or the connection. */
    static WorkCompletionStatus fromNack(final NackCode code) {
        return switch (code) {
            case REMOTE_ACCESS -> REMOTE_ACCESS_ERROR;
            case BOUNDS -> REMOTE_BOUNDS_ERROR;
            case MESSAGE_TOO_LONG -> REMOTE_MESSAGE_TOO_LONG;
            case UNKNOWN_CONNECTION -> REMOTE_UNKNOWN_CONNECTION;
            default -> REMOTE_INVALID_REQUEST;
        };
    }
}
