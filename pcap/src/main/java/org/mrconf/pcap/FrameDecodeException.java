package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A frame that is not a well-formed Ethernet/IP/UDP datagram. It names the offending field (for example
 * {@code ipv4.totalLength}), the value found and what was expected, so a failed conformance check can say
 * exactly what the device under test sent.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class FrameDecodeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final long actual;
    private final String expected;

    /**
     * @param field    dotted field name, {@code layer.field}
     * @param actual   the value found in the frame
     * @param expected what a well-formed frame has there, in words
     */
    public FrameDecodeException(String field, long actual, String expected) {
        super(field + " = " + actual + " (0x" + Long.toHexString(actual) + "): expected " + expected);
        this.field = field;
        this.actual = actual;
        this.expected = expected;
    }

    /** The dotted field name, such as {@code udp.length} or {@code ethernet.etherType}. */
    public String field() {
        return field;
    }

    /** The value found in the frame. */
    public long actual() {
        return actual;
    }

    /** What a well-formed frame has in the field, in words. */
    public String expected() {
        return expected;
    }
}
