package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The standard counter names of the DUT control protocol (section 5), each tied to the clause that says to count.
 * Tests read them from {@link DutControl#readCounters()}; an agent may add its own, prefixed {@code x_}.
 */
@API(status = MAINTAINED, since = "0.1")
public final class DutCounters {
    public static final String RX_PACKETS = "rx_packets";
    /** 5.1.3, 5.6.4. */
    public static final String RX_TRUNCATED = "rx_truncated";
    /** 5.6.3. */
    public static final String RX_UNSUPPORTED_VERSION = "rx_unsupported_version";
    /** 5.1.2. */
    public static final String RX_UNKNOWN_OPCODE = "rx_unknown_opcode";
    /** 5.6.2. */
    public static final String RX_BAD_CRC = "rx_bad_crc";
    /** 5.1.3, 5.2.2. */
    public static final String RX_INCONSISTENT_LENGTH = "rx_inconsistent_length";
    /** 5.2.5, 5.3.2. */
    public static final String RX_INVALID_FIELD = "rx_invalid_field";
    /** 11.2.1. */
    public static final String RX_UNKNOWN_CONNECTION = "rx_unknown_connection";
    /** 11.2.2. */
    public static final String RX_UNEXPECTED_SOURCE = "rx_unexpected_source";
    /** 3.1.1. */
    public static final String RX_INVALID_PATH = "rx_invalid_path";
    /** 6.5.1. */
    public static final String RX_DUPLICATE = "rx_duplicate";
    /** 7.5.6. */
    public static final String RX_STALE = "rx_stale";
    /** 6.1.4. */
    public static final String RX_OUT_OF_WINDOW = "rx_out_of_window";
    /** 8.2.2. */
    public static final String RX_CE_MARKED = "rx_ce_marked";
    /** 11.1.1, 11.1.2, 11.1.4. */
    public static final String REJECT_REMOTE_ACCESS = "reject_remote_access";
    /** 11.1.3. */
    public static final String REJECT_BOUNDS = "reject_bounds";
    /** 7.3.2. */
    public static final String REJECT_RECEIVER_NOT_READY = "reject_receiver_not_ready";
    /** 7.3.3. */
    public static final String REJECT_MESSAGE_TOO_LONG = "reject_message_too_long";
    /** 9.1.1. */
    public static final String REJECT_INVALID_REQUEST = "reject_invalid_request";

    public static final String TX_DATA_PACKETS = "tx_data_packets";
    /** 6.4.2. */
    public static final String TX_RETRANSMISSIONS = "tx_retransmissions";
    /** 6.6.2. */
    public static final String RTO_EXPIRATIONS = "rto_expirations";
    /** 6.6.4. */
    public static final String REPATHS = "repaths";

    /** Every standard name, in the protocol document's order. */
    public static final List<String> STANDARD = List.of(
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
            REJECT_REMOTE_ACCESS,
            REJECT_BOUNDS,
            REJECT_RECEIVER_NOT_READY,
            REJECT_MESSAGE_TOO_LONG,
            REJECT_INVALID_REQUEST,
            TX_DATA_PACKETS,
            TX_RETRANSMISSIONS,
            RTO_EXPIRATIONS,
            REPATHS);

    private DutCounters() {}

    /** The standard names a counter snapshot lacks (an agent must report them all). */
    public static List<String> missingStandard(Map<String, Long> counters) {
        return STANDARD.stream().filter(name -> !counters.containsKey(name)).toList();
    }

    /** How much {@code name} grew from {@code before} to {@code after}; a counter absent before counts as 0. */
    public static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        return after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L);
    }
}
