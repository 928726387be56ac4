package org.mrconf.analyze;

/**
 * The wire-observable clauses the analyser judges, each with what it checks. A clause the capture holds nothing to
 * judge on is INCONCLUSIVE, never PASS.
 */
enum Check {
    LAYOUT("5.1.1", "sends packets whose common header has a known opcode and zero reserved fields"),
    LENGTHS("5.1.3", "sends packets whose length is the opcode's header length + payload length + trailer"),
    SEGMENT("5.2.2", "never sends a segment that runs past its message"),
    READ_REQUEST_FORMAT("5.2.5", "sends READ_REQUESTs with payload length 0 and message offset 0"),
    SACK_BASE("5.3.2", "never sets SACK bit 0"),
    NACK_NAMES_A_PACKET("5.4.1", "sends NACKs whose path, PSN, stream and MSN name a packet the peer sent"),
    PROBE_FORMAT("5.5.1", "sets ACK_REQUEST on every PROBE"),
    CRC("5.6.1", "ends every packet with a correct CRC32C"),
    VERSION("5.6.3", "sends version 1.0"),
    ECN_ON_DATA("4.1.7", "marks every data packet, READ_REQUEST and PROBE ECN-capable"),
    PSN_ASSIGNMENT("6.1.1", "gives each new packet of a path the previous PSN + 1"),
    SEND_WINDOW("6.1.3", "keeps new PSNs within the cumulative PSN + 256 last acknowledged"),
    NO_RESEND_OF_ACKED("6.4.1", "never resends a PSN an ACK reported received"),
    RETRANSMISSION_FORMAT(
            "6.4.2",
            "resends on the same path with the original's fields, the RETRANSMISSION flag and a fresh timestamp"),
    BACKOFF("6.6.3", "doubles the interval between timeout retransmissions of a PSN while no ACK arrives"),
    REPATH_AFTER_TIMEOUT("6.6.4", "gives the path a new UDP source port before a timeout retransmission"),
    ACK_AFTER_RECEIPT("8.1.1", "reports as received only PSNs the peer sent"),
    ACK_FOLLOWS_ENTROPY("8.1.6", "sends each ACK with the UDP source port of a recent packet of its path"),
    ECHOED_TIMESTAMP("8.2.1", "echoes in each ACK the transmit timestamp of a packet of its path");

    private final String clause;
    private final String description;

    Check(final String clause, final String description) {
        this.clause = clause;
        this.description = description;
    }

    String clause() {
        return clause;
    }

    String description() {
        return description;
    }

    /** The check a codec rejection of a sent packet fails; the decoder names the receiver's clause. */
    static Check forDecodeClause(final String decoderClause) {
        return switch (decoderClause) {
            case "5.6.2" -> CRC;
            case "5.6.3" -> VERSION;
            case "5.1.2" -> LAYOUT;
            case "5.2.2" -> SEGMENT;
            case "5.2.5" -> READ_REQUEST_FORMAT;
            case "5.3.2" -> SACK_BASE;
            case "Table 9-1" -> NACK_NAMES_A_PACKET;
            default -> LENGTHS;
        };
    }
}
