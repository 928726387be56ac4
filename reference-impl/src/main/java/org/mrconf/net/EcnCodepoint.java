package org.mrconf.net;

/**
 * The two-bit ECN field of the IP header (RFC 3168), as plain int constants for the hot path.
 *
 * <p>The pcap module's {@code org.mrconf.pcap.Ecn} is the same field as an enum for captures and the suite's wire
 * links; the transport keeps ints so that its per-packet path allocates and dereferences nothing, and so that the
 * reference does not depend on the capture module.
 */
public final class EcnCodepoint {
    /** Not ECN-capable transport. */
    public static final int NOT_ECT = 0;
    /** ECN-capable transport, codepoint 1. */
    public static final int ECT_1 = 1;
    /** ECN-capable transport, codepoint 0. */
    public static final int ECT_0 = 2;
    /** Congestion experienced. */
    public static final int CE = 3;

    private EcnCodepoint() {}

    /** Whether a router may mark this packet CE instead of dropping it. */
    public static boolean isCapable(final int ecn) {
        return ecn == ECT_0 || ecn == ECT_1;
    }
}
