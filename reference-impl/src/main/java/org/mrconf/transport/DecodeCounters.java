package org.mrconf.transport;

import org.mrconf.wire.DecodeStatus;

/** Which counter a packet the decoder rejected goes to (spec clauses 5.1.2, 5.1.3, 5.6.2, 5.6.3). */
final class DecodeCounters {
    private DecodeCounters() {}

    static Counter of(final DecodeStatus status) {
        return switch (status) {
            case TRUNCATED -> Counter.RX_TRUNCATED;
            case UNSUPPORTED_VERSION -> Counter.RX_UNSUPPORTED_VERSION;
            case UNKNOWN_OPCODE -> Counter.RX_UNKNOWN_OPCODE;
            case BAD_CRC -> Counter.RX_BAD_CRC;
            case INCONSISTENT_LENGTH -> Counter.RX_INCONSISTENT_LENGTH;
            case INVALID_FIELD -> Counter.RX_INVALID_FIELD;
            case OK -> throw new IllegalArgumentException("OK is not an error");
        };
    }
}
