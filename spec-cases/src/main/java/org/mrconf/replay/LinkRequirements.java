package org.mrconf.replay;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.CaptureFileException;

/**
 * What a vector asks of the wire link beyond sending packets: the link-level fields it replays as captured
 * ({@link Sidecar#asCaptured()}), the deliberate UDP checksums of its frames ({@link Sidecar#udpChecksums()}), and the
 * DUT's whole frames for {@link Sidecar.Expect#sentUdpChecksums()}. A link that cannot give them makes the vector not
 * applicable there (the runner reports NOT_APPLICABLE with this reason), never a failure and never a pass.
 */
public final class LinkRequirements {
    private LinkRequirements() {}

    /** Why {@code link} cannot replay {@code vector}, or empty when it can. */
    public static Optional<String> unmet(final TestVector vector, final WireLink link)
            throws CaptureFileException, IOException {
        final Sidecar sidecar = vector.sidecar();
        final Set<String> fields = sidecar.asCaptured();
        if (fields.contains(Sidecar.ECN) && !link.can(WireLink.Capability.SEND_ECN)) {
            return Optional.of("the vector sends ECN fields as captured, which this link cannot set");
        }
        if (fields.contains(Sidecar.SOURCE_ADDRESS)
                && link.alternateSourceAddress().isEmpty()) {
            return Optional.of("the vector sends from another source address, which this link does not have");
        }
        if (!sidecar.udpChecksums().isEmpty() && !buildsWholeFrames(link)) {
            return Optional.of("the vector sends frames with a zero or wrong UDP checksum, and this link does not build"
                    + " whole frames (it hands datagrams to a socket or a queue)");
        }
        if (sidecar.expect().sentUdpChecksums() && !buildsWholeFrames(link)) {
            return Optional.of("the vector checks the UDP checksum of every datagram the DUT sends, and this link does"
                    + " not show the DUT's whole frames");
        }
        if (sidecar.needsCapturedIpFamily()) {
            final List<StimulusSender.Frame> frames = StimulusSender.read(vector.stimulus());
            if (frames.isEmpty()) {
                return Optional.of("the vector asks for the stimulus's IP version, and its stimulus has no frame");
            }
            final String captured = family(frames.get(0).source());
            final String carried = family(link.testerAddress());
            if (!captured.equals(carried)) {
                return Optional.of("the vector's stimulus is " + captured
                        + " and must travel as such; this link carries " + carried);
            }
        }
        return Optional.empty();
    }

    /** Whether the link builds the frames it sends and decodes the DUT's, checksums included. */
    private static boolean buildsWholeFrames(final WireLink link) {
        return link.frameSender().isPresent() && link.can(WireLink.Capability.MALFORMED_FRAMES);
    }

    private static String family(final InetAddress address) {
        return address instanceof Inet6Address ? "IPv6" : "IPv4";
    }
}
