package org.mrconf.transport;

/** Every event the reference endpoint counts; each drop and rejection reason of the spec has one. */
public enum Counter {
    RX_PACKETS,
    RX_TRUNCATED,
    RX_UNSUPPORTED_VERSION,
    RX_UNKNOWN_OPCODE,
    RX_BAD_CRC,
    RX_INCONSISTENT_LENGTH,
    RX_INVALID_FIELD,
    RX_UNKNOWN_CONNECTION,
    RX_UNEXPECTED_SOURCE,
    RX_INVALID_PATH,
    RX_DUPLICATE,
    RX_STALE,
    RX_OUT_OF_WINDOW,
    RX_CE_MARKED,
    RX_ACKS,
    RX_ACKS_FOR_UNSENT_PSN,
    RX_NACKS,
    RX_PROBES,
    REJECT_REMOTE_ACCESS,
    REJECT_BOUNDS,
    REJECT_RECEIVER_NOT_READY,
    REJECT_MESSAGE_TOO_LONG,
    REJECT_INVALID_REQUEST,
    /**
     * Data packets dropped unrecorded because neither their connection's reserve nor the rest of the receive-state
     * budget had room for the state they need (the sender retries); {@code x_rx_dropped_no_state} on the control
     * channel.
     */
    RX_DROPPED_NO_STATE,
    BYTES_PLACED,
    TX_DATA_PACKETS,
    TX_RETRANSMISSIONS,
    TX_ACKS,
    TX_NACKS,
    TX_PROBES,
    RTO_EXPIRATIONS,
    REPATHS,
    PATHS_MARKED_UNHEALTHY,
    PATHS_RECOVERED,
    MESSAGES_COMPLETED,
    CONNECTIONS_FAILED
}
