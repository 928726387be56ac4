package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A received frame after {@link FrameCodec#decode}: the datagram plus what its checksum fields said, so a check
 * can fail a device under test for a bad checksum without the frame being thrown away.
 *
 * @param frame            the decoded datagram
 * @param ipChecksum       the IPv4 header checksum verdict; {@link ChecksumVerdict#ABSENT} for IPv6
 * @param udpChecksum      the UDP checksum verdict
 * @param ipChecksumField  the IPv4 header checksum as received, or -1 for IPv6
 * @param udpChecksumField the UDP checksum as received
 * @param trailingBytes    bytes after the IP packet (Ethernet padding, maybe an FCS), which decode ignores
 */
@API(status = MAINTAINED, since = "0.1")
public record DecodedFrame(
        UdpFrame frame,
        ChecksumVerdict ipChecksum,
        ChecksumVerdict udpChecksum,
        int ipChecksumField,
        int udpChecksumField,
        int trailingBytes) {

    public DecodedFrame {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(ipChecksum, "ipChecksum");
        Objects.requireNonNull(udpChecksum, "udpChecksum");
    }

    /** False only if an IPv4 header checksum is present and wrong. */
    public boolean ipChecksumOk() {
        return ipChecksum.ok();
    }

    /** False if the UDP checksum is wrong, or zero over IPv6 (RFC 8200; draft clause 4.1.6). */
    public boolean udpChecksumOk() {
        return udpChecksum.ok();
    }

    /** Both checksums acceptable. */
    public boolean checksumsOk() {
        return ipChecksumOk() && udpChecksumOk();
    }
}
