package org.mrconf.cases.encapsulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutSession;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.WireConstants;

/**
 * Section 4.1: MetaRoCE as the payload of UDP datagrams; the destination port; the source port as entropy (the
 * receiver ignores it, the sender spreads its paths over distinct values); ECN-capable data; delivery over a lossy
 * fabric without PFC; segmentation at the path MTU. The DUT is checked as a sender and as a receiver.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Encapsulation")
class EncapsulationCase {
    private static final int UDP_HEADER = 8;

    @Test
    @DisplayName("everything the DUT sends over IPv4 is a MetaRoCE packet from the first byte of the UDP payload:"
            + " data, SEND, READ_REQUEST, READ_RESPONSE and ACKs")
    @Verifies("4.1.1")
    void headerIsTheFirstByteOfTheUdpPayload(final Testbed testbed) throws Exception {
        final int mark = testbed.peer().mark();
        DutTraffic.write(testbed, 0, 1, 300, OptionalLong.empty());
        DutTraffic.send(testbed, 0, 2, 300);
        final PeerConnection connection = testbed.connection();
        // READ_REQUEST and READ_RESPONSE only where the device claims the read profile (a device without it refuses
        // both; clause 5.6.7).
        if (testbed.profile().claims(Profile.READ)) {
            DutTraffic.read(testbed, 0, 3, 64);
            connection.readRequest(0, Testbed.BASE, testbed.key(), 64, 0x44, 1);
            testbed.peer().await(mark, PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE), Testbed.WAIT);
        }
        connection.sendNew(testbed.write(0, Testbed.BASE + 4096, testbed.key(), new byte[32]), 0);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(0), Testbed.WAIT);

        final List<ReceivedPacket> all = testbed.peer().recorder().since(mark);
        for (final ReceivedPacket packet : all) {
            assertThat(packet.isValid())
                    .as("4.1.1: the UDP payload decodes as MetaRoCE from its first byte: %s", packet)
                    .isTrue();
            assertThat(packet.captured().bytes()[0] & 0xFF)
                    .as("4.1.1: byte 0 of the UDP payload is the MetaRoCE version")
                    .isEqualTo(WireConstants.VERSION_1_0);
            if (testbed.control().hello().addresses().stream().allMatch(a -> a instanceof Inet4Address)) {
                assertThat(packet.captured().sourceAddress()).isInstanceOf(Inet4Address.class);
            }
        }
    }

    @Test
    @DisplayName("a device claiming ipv6 sends and receives MetaRoCE over IPv6")
    @Verifies("4.1.2")
    @EnabledIf(
            value = "linkIsIpv6",
            disabledReason = Applicability.LINK_CANNOT + "this run's link is IPv4: run over an IPv6 link")
    void ipv6Carriage(final DeviceUnderTest dut) throws Exception {
        Assumptions.assumeTrue(dut.profile().claims(Profile.IPV6), "the device does not claim ipv6");
        try (Testbed testbed = Testbed.open(dut, 2, 1)) {
            final int mark = testbed.peer().mark();
            DutTraffic.write(testbed, 0, 1, 300, OptionalLong.empty());
            testbed.connection().sendNew(testbed.write(0, Testbed.BASE + 4096, testbed.key(), new byte[32]), 0);
            testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(0), Testbed.WAIT);
            for (final ReceivedPacket packet : testbed.peer().recorder().since(mark)) {
                assertThat(packet.isValid()).as("4.1.2: %s", packet).isTrue();
                assertThat(packet.captured().sourceAddress()).isInstanceOf(Inet6Address.class);
            }
        }
    }

    @Test
    @DisplayName("the DUT sends every packet to the destination port the connection was set up with")
    @Verifies("4.1.3")
    void sendsToTheConfiguredPort(final Testbed testbed) throws Exception {
        final int mark = testbed.peer().mark();
        DutTraffic.write(testbed, 0, 1, 2 * testbed.connection().maxPayload(Opcode.WRITE), OptionalLong.empty());
        testbed.connection().sendNew(testbed.write(1, Testbed.BASE + 4096, testbed.key(), new byte[32]), 1);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(1).covers(0), Testbed.WAIT);
        final int port = testbed.peer().link().testerPort();
        for (final ReceivedPacket packet : testbed.peer().recorder().since(mark)) {
            assertThat(packet.captured().destinationPort())
                    .as("4.1.3: destination port of %s", packet)
                    .isEqualTo(port);
        }
    }

    @Test
    @DisplayName("the DUT places a message whose packets on one path come from a different UDP source port each")
    @Verifies("4.1.4")
    void sourcePortChangesNothing(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int payload = connection.maxPayload(Opcode.WRITE);
        final byte[] data = Testbed.randomBytes(4 * payload, 41);
        final int[] ports = testbed.peer().link().sourcePorts(4); // from the OS, never fixed
        final int mark = testbed.peer().mark();
        for (int i = 0; i < 4; i++) {
            final byte[] segment = java.util.Arrays.copyOfRange(data, i * payload, (i + 1) * payload);
            final var packet = connection.packet(Opcode.WRITE, 0).stream(0)
                    .msn(0)
                    .messageLength(data.length)
                    .messageOffset((long) i * payload)
                    .remoteAddress(Testbed.BASE)
                    .remoteKey(testbed.key())
                    .transmitTimestamp(1000 + i)
                    .payload(segment)
                    .ackRequest();
            connection.sendNewFrom(packet, 0, ports[i]);
        }
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).cumulativePsn(4), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                .as("4.1.4: every packet placed whatever its source port")
                .isEqualTo(data);
    }

    @Test
    @DisplayName("a multipath DUT gives the paths of a connection pairwise distinct source ports")
    @Verifies("4.1.5")
    void pathsHaveDistinctEntropy(final DeviceUnderTest dut) throws Exception {
        Assumptions.assumeTrue(dut.profile().claims(Profile.MULTIPATH), "the device does not claim multipath");
        try (Testbed testbed = Testbed.open(dut, 4, 1)) {
            final Map<Integer, Integer> portByPath = new HashMap<>();
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            for (final ReceivedPacket packet : DutTraffic.write(testbed, 0, 1, 8 * payload, OptionalLong.empty())) {
                portByPath.putIfAbsent(
                        packet.data().orElseThrow().header().pathId(),
                        packet.captured().sourcePort());
            }
            if (portByPath.size() < 2) {
                throw Inconclusive.because("the DUT sprayed an 8-packet message over " + portByPath.size()
                        + " path(s); distinct entropy needs at least two paths in use");
            }
            assertThat(new java.util.HashSet<>(portByPath.values()))
                    .as("4.1.5: source port by path %s", portByPath)
                    .hasSize(portByPath.size());
        }
    }

    @Test
    @DisplayName("the DUT marks every data packet and READ_REQUEST it sends ECN-capable (WRITE, WRITE_WITH_IMMEDIATE,"
            + " SEND, READ_REQUEST, READ_RESPONSE)")
    @Verifies("4.1.7")
    @EnabledIf(
            value = "linkSeesEcn",
            disabledReason = Applicability.LINK_CANNOT + "this link cannot see the ECN field of received packets")
    void dataIsEcnCapable(final Testbed testbed) throws Exception {
        requireCongestion(testbed);
        final List<ReceivedPacket> packets = new ArrayList<>();
        packets.addAll(DutTraffic.write(testbed, 0, 1, 300, OptionalLong.empty()));
        // WRITE_WITH_IMMEDIATE and READ only where the device claims them (clause 5.6.7).
        if (testbed.profile().claims(Profile.IMMEDIATE)) {
            packets.addAll(DutTraffic.write(testbed, 0, 2, 300, OptionalLong.of(7)));
        }
        packets.addAll(DutTraffic.send(testbed, 0, 3, 300));
        if (testbed.profile().claims(Profile.READ)) {
            packets.add(DutTraffic.read(testbed, 0, 4, 64));
            final int mark = testbed.peer().mark();
            testbed.connection().readRequest(0, Testbed.BASE, testbed.key(), 64, 0x45, 0);
            packets.add(testbed.peer()
                    .await(mark, PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE), Testbed.WAIT));
        }
        for (final ReceivedPacket packet : packets) {
            assertThat(packet.captured().ecn())
                    .as("4.1.7: ECN field of %s", packet.opcode().orElseThrow())
                    .isIn(Ecn.ECT_0, Ecn.ECT_1);
        }
    }

    @Test
    @DisplayName("the DUT places and acknowledges CE-marked packets exactly as unmarked ones")
    @Verifies("4.1.7")
    @EnabledIf(
            value = "linkSetsEcn",
            disabledReason = Applicability.LINK_CANNOT + "this link cannot set the ECN field of what it sends")
    void ceMarkedPacketsAreProcessedAsUnmarked(final Testbed testbed) throws Exception {
        requireCongestion(testbed);
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        for (int i = 0; i < 3; i++) {
            final byte[] data = Testbed.randomBytes(128, i);
            final byte[] packet = testbed.write(i % 2, Testbed.BASE + 256L * i, testbed.key(), data)
                    .build();
            connection.setNextPsn(i % 2, connection.nextPsn(i % 2) + 1);
            testbed.peer().sender().send(packet, i % 2 == 0 ? Ecn.CE : Ecn.ECT_0);
        }
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).cumulativePsn(2), Testbed.WAIT);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(1).cumulativePsn(1), Testbed.WAIT);
        for (int i = 0; i < 3; i++) {
            assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 256L * i, 128))
                    .as("4.1.7: packet %d (%s) placed", i, i % 2 == 0 ? "CE" : "ECT(0)")
                    .isEqualTo(Testbed.randomBytes(128, i));
        }
        // Counting the marks is clause 8.2.2's, judged there: a soft DUT on UDP sockets cannot see the ECN field.
    }

    @Test
    @DisplayName("over a lossy fabric without PFC the DUT keeps what arrived after a loss: only the lost packet is"
            + " needed again")
    @Verifies("4.1.8")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void lossNeedsOnlyTheLostPacket(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int payload = connection.maxPayload(Opcode.WRITE);
        final byte[] data = Testbed.randomBytes(4 * payload, 48);
        final List<byte[]> packets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            packets.add(connection.packet(Opcode.WRITE, 0).stream(0)
                    .psn(i)
                    .msn(0)
                    .messageLength(data.length)
                    .messageOffset((long) i * payload)
                    .remoteAddress(Testbed.BASE)
                    .remoteKey(testbed.key())
                    .transmitTimestamp(2000 + i)
                    .payload(java.util.Arrays.copyOfRange(data, i * payload, (i + 1) * payload))
                    .ackRequest()
                    .build());
        }
        connection.setNextPsn(0, 4);
        final int mark = testbed.peer().mark();
        // PSN 1 is "lost" in the fabric: 0, 2, 3 arrive; then the sender resends 1 alone.
        for (final int i : new int[] {0, 2, 3}) {
            testbed.peer().send(packets.get(i));
        }
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().ack().path(0).cumulativePsn(1).sackIncludes(1, 2),
                        Testbed.WAIT);
        testbed.peer().send(packets.get(1));
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).cumulativePsn(4), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                .as("4.1.8: the message is whole after resending only the lost packet")
                .isEqualTo(data);
    }

    @Test
    @DisplayName("the DUT fills every data packet but the last of a WRITE, a SEND and a READ response to the largest"
            + " payload the MTU allows, and no datagram exceeds the MTU")
    @Verifies("4.1.9")
    void segmentsAtThePathMtu(final Testbed testbed) throws Exception {
        final int mtu = testbed.control().hello().limits().mtu();
        final int ip = testbed.peer().link().testerAddress() instanceof Inet6Address ? 40 : 20;
        final PeerConnection connection = testbed.connection();
        final int write = connection.maxPayload(Opcode.WRITE);
        final int send = connection.maxPayload(Opcode.SEND);
        checkSegments(DutTraffic.write(testbed, 0, 1, 3 * write + write / 2, OptionalLong.empty()), mtu, ip, write);
        checkSegments(DutTraffic.send(testbed, 0, 2, 2 * send + 1), mtu, ip, send);
        if (!testbed.profile().claims(Profile.READ)) {
            return; // a device without the read profile sends no READ response (clause 5.6.7)
        }
        final int response = connection.maxPayload(Opcode.READ_RESPONSE);
        final int mark = testbed.peer().mark();
        connection.readRequest(0, Testbed.BASE, testbed.key(), 2L * response + 17, 0x46, 1);
        checkSegments(
                testbed.peer()
                        .recorder()
                        .awaitCount(
                                mark,
                                PacketMatcher.expect()
                                        .data()
                                        .opcode(Opcode.READ_RESPONSE)
                                        .firstTransmission(),
                                3,
                                Testbed.WAIT),
                mtu,
                ip,
                response);
    }

    private static void checkSegments(
            final List<ReceivedPacket> packets, final int mtu, final int ipHeader, final int fullPayload) {
        final List<DataPacket> data =
                packets.stream().map(p -> p.data().orElseThrow()).toList();
        final long length = data.get(0).messageLength();
        for (final ReceivedPacket packet : packets) {
            assertThat(packet.captured().length() + ipHeader + UDP_HEADER)
                    .as("4.1.9: IP datagram of %s within the MTU %d", packet, mtu)
                    .isLessThanOrEqualTo(mtu);
        }
        for (final DataPacket packet : data) {
            final boolean last = packet.messageOffset() + packet.payloadLength() == length;
            if (!last) {
                assertThat(packet.payloadLength())
                        .as(
                                "4.1.9: %s at offset %d is not the last and must be full",
                                packet.opcode(), packet.messageOffset())
                        .isEqualTo(fullPayload);
            }
        }
        assertThat(data).as("4.1.9: packets of a %d-byte message", length).hasSize((int)
                ((length + fullPayload - 1) / fullPayload));
    }

    // Link conditions: a case the link cannot carry out is not applicable on that link (the reason names the link
    // it needs), never a failure and never a pass.

    static boolean linkSeesEcn() {
        return DutSession.current()
                .map(d -> d.link().can(WireLink.Capability.RECEIVE_ECN))
                .orElse(false);
    }

    static boolean linkSetsEcn() {
        return DutSession.current()
                .map(d -> d.link().can(WireLink.Capability.SEND_ECN))
                .orElse(false);
    }

    static boolean linkIsIpv6() {
        return DutSession.current()
                .map(d -> d.link().testerAddress() instanceof Inet6Address)
                .orElse(false);
    }

    private static void requireCongestion(final Testbed testbed) {
        Assumptions.assumeTrue(testbed.profile().claims(Profile.CONGESTION), "the device does not claim congestion");
    }
}
