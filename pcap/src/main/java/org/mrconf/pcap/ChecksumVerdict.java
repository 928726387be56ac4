package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** What {@link FrameCodec#decode} found in one checksum field of a received frame. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ChecksumVerdict {
    /** The field verifies. */
    GOOD,
    /** The field does not verify, or is zero where zero is not allowed (UDP over IPv6). */
    BAD,
    /** There is nothing to check: a zero UDP checksum over IPv4, or the IPv6 header, which has no checksum. */
    ABSENT,
    /**
     * A UDP checksum field that holds only the folded pseudo-header sum: what a host stack leaves for its NIC to
     * complete (checksum offload). A capture on the sending host's own virtual interface (veth, loopback) sees it
     * before any NIC did; on a physical wire it is simply wrong.
     */
    PARTIAL;

    /** True for {@link #GOOD} and {@link #ABSENT}: an absent checksum is acceptable where the protocol allows it. */
    public boolean ok() {
        return this == GOOD || this == ABSENT;
    }
}
