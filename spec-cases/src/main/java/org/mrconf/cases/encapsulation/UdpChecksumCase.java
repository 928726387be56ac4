package org.mrconf.cases.encapsulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutSession;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.FrameSender;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.ChecksumMode;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SentUdpChecksums;
import org.mrconf.wire.Opcode;

/**
 * Clause 4.1.6, the UDP checksum, from both sides: the DUT as a receiver of datagrams whose checksum the tester set
 * (zero, wrong, right) and as a sender, every frame of which the tester verifies. It needs a link that builds whole
 * frames ({@link WireLink#frameSender()}); a host UDP stack beneath the DUT may do the dropping, which the clause
 * allows, so only the dropping is judged, not which counter shows it, beyond {@code rx_packets} staying still.
 */
@ExtendWith(DutExtension.class)
@DisplayName("UDP checksum")
class UdpChecksumCase {
    @Test
    @DisplayName("over IPv4 the DUT accepts a zero UDP checksum and drops a wrong non-zero one")
    @Verifies("4.1.6")
    @Kind(Kind.Purpose.INVALID)
    @EnabledIf(
            value = "linkSendsIpv4Frames",
            disabledReason = Applicability.LINK_CANNOT
                    + "needs an IPv4 link that builds whole frames with chosen UDP checksums (raw Ethernet)")
    void overIpv4(final Testbed testbed) throws Exception {
        assertDropped(testbed, ChecksumMode.CORRUPT, "a wrong non-zero UDP checksum over IPv4");
        assertAccepted(testbed, ChecksumMode.ZERO, "a zero UDP checksum over IPv4 (no checksum)");
    }

    @Test
    @DisplayName("over IPv6 the DUT drops a zero or wrong UDP checksum and accepts a right one")
    @Verifies("4.1.6")
    @Kind(Kind.Purpose.INVALID)
    @EnabledIf(
            value = "linkSendsIpv6Frames",
            disabledReason =
                    Applicability.LINK_CANNOT + "needs an IPv6 link that builds whole frames with chosen UDP checksums")
    void overIpv6(final Testbed testbed) throws Exception {
        Assumptions.assumeTrue(testbed.profile().claims(Profile.IPV6), "the device does not claim ipv6");
        assertDropped(testbed, ChecksumMode.CORRUPT, "a wrong UDP checksum over IPv6");
        assertDropped(testbed, ChecksumMode.ZERO, "a zero UDP checksum over IPv6");
        assertAccepted(testbed, ChecksumMode.CORRECT, "a right UDP checksum over IPv6");
    }

    @Test
    @DisplayName("every datagram the DUT sends (data and ACKs) carries a right UDP checksum, or over IPv4 a zero one")
    @Verifies("4.1.6")
    @EnabledIf(
            value = "linkSendsFrames",
            disabledReason = Applicability.LINK_CANNOT
                    + "needs a link that shows the DUT's whole frames with their checksums (raw Ethernet)")
    void dutSendsRightChecksums(final Testbed testbed) throws Exception {
        final boolean ipv6 = testbed.peer().link().testerAddress() instanceof Inet6Address;
        final int mark = testbed.peer().mark();
        DutTraffic.write(testbed, 0, 1, 2 * testbed.connection().maxPayload(Opcode.WRITE), OptionalLong.empty());
        testbed.connection().sendNew(testbed.write(0, Testbed.BASE, testbed.key(), new byte[64]), 0);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0), Testbed.WAIT);
        assertSentChecksums(
                testbed,
                mark,
                ipv6
                        ? "over IPv6 every sent UDP checksum is right and non-zero"
                        : "over IPv4 a sent UDP checksum is zero or right");
    }

    /**
     * Sends a 64-byte WRITE of the next PSN in a frame with {@code checksum}, and judges it dropped: no ACK within the
     * quiet window, the region untouched, {@code rx_packets} unchanged. The PSN is not used up, so the next frame
     * reuses it.
     */
    private static void assertDropped(final Testbed testbed, final ChecksumMode checksum, final String what)
            throws Exception {
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        sendWrite(testbed, checksum, Testbed.randomBytes(64, 61));
        testbed.peer().assertNone(mark, PacketMatcher.expect().ack(), testbed.quiet());
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 64))
                .as("4.1.6: %s is dropped: nothing is placed", what)
                .containsOnly(0);
        assertThat(testbed.grew(before, DutCounters.RX_PACKETS))
                .as("4.1.6: %s is dropped: rx_packets counts only datagrams that passed the checksum", what)
                .isZero();
    }

    /** Sends a 64-byte WRITE of the next PSN in a frame with {@code checksum}, and judges it placed and acknowledged. */
    private static void assertAccepted(final Testbed testbed, final ChecksumMode checksum, final String what)
            throws Exception {
        final PeerConnection connection = testbed.connection();
        final byte[] payload = Testbed.randomBytes(64, 62);
        final int mark = testbed.peer().mark();
        final long psn = connection.nextPsn(0);
        sendWrite(testbed, checksum, payload);
        connection.setNextPsn(0, psn + 1);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(psn), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 64))
                .as("4.1.6: %s is accepted", what)
                .isEqualTo(payload);
    }

    private static void sendWrite(final Testbed testbed, final ChecksumMode checksum, final byte[] payload)
            throws Exception {
        final FrameSender link = testbed.peer()
                .link()
                .frameSender()
                .orElseThrow(() -> new IllegalStateException("the link stopped offering whole frames"));
        link.sendFrame(
                link.frameTemplate()
                        .payload(testbed.write(0, Testbed.BASE, testbed.key(), payload)
                                .build())
                        .build(),
                EncodeOptions.DEFAULT.withUdpChecksum(checksum));
    }

    /**
     * Every frame the DUT sent since {@code mark} (ACKs and data) has an acceptable UDP checksum: right, or zero where
     * IPv4 allows it ({@link DecodedFrame#udpChecksumOk()}).
     */
    private static void assertSentChecksums(final Testbed testbed, final int mark, final String what) {
        final List<ReceivedPacket> sent = testbed.peer().recorder().since(mark);
        final boolean wire = testbed.peer().link().can(WireLink.Capability.WIRE_CHECKSUMS);
        final java.util.Optional<ReceivedPacket> wrong = SentUdpChecksums.firstWrong(sent, wire);
        assertThat(wrong)
                .as(
                        "4.1.6: %s: %s carries UDP checksum 0x%04x",
                        what,
                        wrong.orElse(null),
                        wrong.map(p -> SentUdpChecksums.frameOf(p).udpChecksumField())
                                .orElse(0))
                .isEmpty();
    }

    // Link conditions: a case the link cannot carry out is not applicable on that link (the reason names the link
    // it needs), never a failure and never a pass.

    static boolean linkSendsIpv4Frames() {
        return linkSendsFrames() && DutSession.current().orElseThrow().link().testerAddress() instanceof Inet4Address;
    }

    static boolean linkSendsIpv6Frames() {
        return linkSendsFrames() && DutSession.current().orElseThrow().link().testerAddress() instanceof Inet6Address;
    }

    static boolean linkSendsFrames() {
        return DutSession.current()
                .map(d -> d.link().frameSender().isPresent() && d.link().can(WireLink.Capability.MALFORMED_FRAMES))
                .orElse(false);
    }
}
