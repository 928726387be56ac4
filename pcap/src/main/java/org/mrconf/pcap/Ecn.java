package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * The two-bit ECN field of the IPv4 TOS byte or IPv6 traffic class (RFC 3168).
 *
 * <p>The reference transport has its own {@code org.mrconf.net.EcnCodepoint} of int constants for its hot path; this enum is
 * for captures and the suite's wire links, which the reference does not depend on.
 */
@API(status = MAINTAINED, since = "0.1")
public enum Ecn {
    /** 0b00: not ECN-capable transport. */
    NOT_ECT(0),
    /** 0b01: ECN-capable transport, ECT(1). */
    ECT_1(1),
    /** 0b10: ECN-capable transport, ECT(0). */
    ECT_0(2),
    /** 0b11: congestion experienced. */
    CE(3);

    private final int codepoint;

    Ecn(int codepoint) {
        this.codepoint = codepoint;
    }

    /** The two-bit value as it appears on the wire. */
    public int codepoint() {
        return codepoint;
    }

    /** The ECN value for a two-bit codepoint; only the low two bits of {@code bits} are used. */
    public static Ecn fromCodepoint(int bits) {
        // values() is ordered by codepoint, so the low two bits index it directly.
        return values()[bits & 0b11];
    }
}
