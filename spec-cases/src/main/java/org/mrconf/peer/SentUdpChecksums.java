package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.pcap.ChecksumVerdict;
import org.mrconf.pcap.DecodedFrame;
import org.opentest4j.TestAbortedException;

/**
 * Clause 4.1.6 on the sender's side: every datagram the DUT sent carries a right UDP checksum, or over IPv4 a zero
 * one ({@link DecodedFrame#udpChecksumOk()}). One judgement for the Java case and the vectors' expectation.
 */
@API(status = EXPERIMENTAL, since = "0.5")
public final class SentUdpChecksums {
    private SentUdpChecksums() {}

    /**
     * The first of {@code sent} whose UDP checksum is wrong, or empty when all are acceptable. Each must have been
     * received as a whole frame. On a virtual interface ({@code wireChecksums} false) a DUT on the same host may
     * leave its checksums to an offload, so a frame that shows only the pseudo-header sum makes the judgement
     * impossible: a {@link TestAbortedException} (INCONCLUSIVE) says so, since what a NIC would put on a wire cannot
     * be seen there.
     */
    public static Optional<ReceivedPacket> firstWrong(final List<ReceivedPacket> sent, final boolean wireChecksums) {
        for (final ReceivedPacket packet : sent) {
            final DecodedFrame frame = frameOf(packet);
            if (frame.udpChecksum() == ChecksumVerdict.PARTIAL && !wireChecksums) {
                throw new TestAbortedException("the link is a virtual interface, and the DUT's frames show only the"
                        + " pseudo-header sum in the UDP checksum: its host left the checksum to an offload, and what"
                        + " a NIC would put on a wire cannot be seen here (" + packet + ")");
            }
            if (!frame.udpChecksumOk()) {
                return Optional.of(packet);
            }
        }
        return Optional.empty();
    }

    /** The whole frame {@code packet} arrived in. */
    public static DecodedFrame frameOf(final ReceivedPacket packet) {
        return packet.captured()
                .frame()
                .orElseThrow(() -> new IllegalStateException("the link stopped showing the DUT's whole frames"));
    }
}
