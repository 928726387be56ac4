package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** How {@link FrameCodec} fills a checksum field; anything but {@link #CORRECT} makes a deliberately malformed frame. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ChecksumMode {
    /** The correct checksum (for UDP, 0xFFFF when the computed value is zero, as RFC 768 requires). */
    CORRECT,
    /**
     * A zero field. For UDP over IPv4 this means "no checksum" and is legal; for UDP over IPv6 and for the
     * IPv4 header it is a wrong checksum that a receiver must reject.
     */
    ZERO,
    /** A non-zero value that is guaranteed not to verify (not even as the other ones'-complement zero). */
    CORRUPT
}
