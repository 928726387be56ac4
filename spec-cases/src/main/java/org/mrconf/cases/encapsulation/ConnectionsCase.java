package org.mrconf.cases.encapsulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;

/**
 * Section 4.2: a connection exists only by out-of-band set-up, with the initial PSNs agreed there, and after it is
 * destroyed its work completes flushed and its id is unknown.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connections")
class ConnectionsCase {
    /** Near the top of the PSN space, so the tester's packets wrap around to 0 within the case. */
    private static final long RECEIVE_PSN = 0xFFFF_FFFEL;

    private static final long SEND_PSN = 1000;

    /** A second connection to the same tester address, for the peer-port rule of clause 4.2.3. */
    private static final long SECOND_DUT_CONNECTION = 0x0003_0003L;

    private static final long SECOND_TESTER_CONNECTION = 0x0004_0004L;

    @Test
    @DisplayName("the initial PSNs agreed at set-up hold in both directions, across the PSN wrap-around")
    @Verifies("4.2.1")
    void initialPsnsAgreedAtSetupHold(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 1, spec -> spec.withInitialPsns(SEND_PSN, RECEIVE_PSN))) {
            final PeerConnection connection = testbed.connection();
            final int mark = testbed.peer().mark();
            for (int i = 0; i < 4; i++) {
                connection.sendNew(
                        testbed.write(1, Testbed.BASE + 64L * i, testbed.key(), Testbed.randomBytes(64, i)), 1);
            }
            testbed.peer().await(mark, PacketMatcher.expect().ack().path(1).cumulativePsn(2), Testbed.WAIT);
            for (int i = 0; i < 4; i++) {
                assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 64L * i, 64))
                        .as("4.2.1: packet %d from the agreed receive PSN 0x%x placed", i, RECEIVE_PSN)
                        .isEqualTo(Testbed.randomBytes(64, i));
            }
            final List<ReceivedPacket> sent = new ArrayList<>(DutTraffic.write(
                    testbed, 0, 1, 3 * connection.maxPayload(org.mrconf.wire.Opcode.WRITE), OptionalLong.empty()));
            for (final ReceivedPacket packet : sent) {
                assertThat(packet.data().orElseThrow().header().psn())
                        .as("4.2.1: the DUT's PSNs start at the agreed %d on every path", SEND_PSN)
                        .isBetween(SEND_PSN, SEND_PSN + 2);
            }
        }
    }

    @Test
    @DisplayName(
            "a packet naming a connection id that was never set up creates nothing: dropped and counted each" + " time")
    @Verifies("4.2.1")
    @Kind(Kind.Purpose.INVALID)
    void noPacketCreatesAConnection(final Testbed testbed) throws Exception {
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();
        for (int i = 0; i < 2; i++) {
            testbed.peer()
                    .send(testbed.write(0, Testbed.BASE, testbed.key(), Testbed.randomBytes(64, 9))
                            .connection(Testbed.DUT_CONNECTION + 7));
        }
        // A NACK UNKNOWN_CONNECTION is the one answer allowed (clause 11.2.3): it creates nothing either.
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.of(
                                "anything but a NACK UNKNOWN_CONNECTION",
                                p -> p.nack()
                                        .map(n -> n.code() != org.mrconf.wire.NackCode.UNKNOWN_CONNECTION)
                                        .orElse(true)),
                        Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_UNKNOWN_CONNECTION))
                .as("4.2.1: both packets for the unknown connection counted")
                .isEqualTo(2);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 64))
                .containsOnly(0);
        // Afterwards the device still takes a correct WRITE: a silent device (or link) cannot pass this case.
        final byte[] afterwards = Testbed.randomBytes(64, 71);
        Drops.assertPlaced(
                testbed,
                testbed.peer().mark(),
                0,
                testbed.write(0, Testbed.BASE + 0x4000, testbed.key(), afterwards),
                Testbed.BASE + 0x4000,
                afterwards,
                "4.2.1: afterwards a correct WRITE on the device's connection is placed and acknowledged");
    }

    @Test
    @DisplayName("destroying a connection completes its outstanding WRITE and posted receives with a flush error,"
            + " and its id is unknown from then on")
    @Verifies("4.2.2")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void teardownFlushesAndForgets(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        testbed.control().postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 21, testbed.key(), Testbed.BASE, 256));
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 22, testbed.key(), Testbed.BASE + 256, 256));
        testbed.control().writeRegion(testbed.key(), Testbed.BASE + 4096, Testbed.randomBytes(128, 3));
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 23, testbed.key(), Testbed.BASE + 4096, 128),
                        DutTraffic.REMOTE_ADDRESS,
                        DutTraffic.REMOTE_KEY);
        // Not acknowledged: the WRITE stays outstanding.
        testbed.peer().await(mark, DutTraffic.dataFromDut(), Testbed.WAIT);

        testbed.control().destroyConnection(Testbed.DUT_CONNECTION);
        try {
            final List<DutCompletion> flushed = new ArrayList<>();
            final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
            while (flushed.size() < 3 && System.nanoTime() < deadline) {
                flushed.addAll(testbed.control().pollCompletions(8, Duration.ofMillis(200)));
            }
            assertThat(flushed)
                    .as("4.2.2: the two receives and the WRITE complete")
                    .extracting(DutCompletion::wrId)
                    .containsExactlyInAnyOrder(21L, 22L, 23L);
            assertThat(flushed)
                    .as("4.2.2: with a flush error")
                    .extracting(DutCompletion::status)
                    .containsOnly(CompletionStatus.FLUSHED);

            final var before = testbed.counters();
            final int after = testbed.peer().mark();
            testbed.peer().send(testbed.write(0, Testbed.BASE + 8192, testbed.key(), Testbed.randomBytes(64, 4)));
            testbed.peer().assertNone(after, PacketMatcher.expect().ack(), Testbed.QUIET);
            assertThat(testbed.grew(before, DutCounters.RX_UNKNOWN_CONNECTION))
                    .as("4.2.2: a packet for the destroyed connection counts as unknown connection")
                    .isEqualTo(1);
        } finally {
            // The testbed destroys its connection when the case ends: give it one to destroy.
            testbed.control().createConnection(connection.spec());
        }
    }

    @Test
    @DisplayName("every packet the DUT sends goes to the port given at set-up, whatever source ports the tester uses")
    @Verifies("4.2.3")
    void packetsGoToTheSetUpPort(final DeviceUnderTest dut) throws Exception {
        final boolean multipath = dut.profile().claims(Profile.MULTIPATH);
        try (Testbed testbed = Testbed.open(dut, multipath ? 2 : 1, 1)) {
            final PeerConnection connection = testbed.connection();
            final int setUpPort = testbed.peer().link().testerPort();
            // Every packet of the tester comes from a port other than the one given at set-up (the ports are the
            // entropy, clause 4.1.4), one port per kind, so a DUT that answers to a source port shows which.
            final int[] entropy = testbed.peer().link().sourcePorts(4); // from the OS, never fixed
            connection.ackSourcePort(entropy[2]);
            final int mark = testbed.peer().mark();
            final int lastPath = connection.spec().paths() - 1;
            // Data to the DUT on each path, each from its own port: the DUT ACKs them.
            for (int path = 0; path <= lastPath; path++) {
                connection.sendNewFrom(
                        testbed.write(path, Testbed.BASE + 64L * path, testbed.key(), new byte[64]),
                        path,
                        entropy[path]);
                testbed.peer()
                        .await(mark, PacketMatcher.expect().ack().path(path).cumulativePsn(1), Testbed.WAIT);
            }
            // A WRITE with a foreign key from a third port: the DUT NACKs it (clause 11.1.1).
            connection.sendNewFrom(testbed.write(0, Testbed.BASE, testbed.key() ^ 0x5A5A, new byte[16]), 0, entropy[3]);
            testbed.peer().await(mark, PacketMatcher.expect().nack(), Testbed.WAIT);
            // A READ_REQUEST from the first port: the READ_RESPONSE goes to the set-up port all the same.
            if (dut.profile().claims(Profile.READ)) {
                final long msn = connection.takeMsn(0);
                final var request = connection.packet(org.mrconf.wire.Opcode.READ_REQUEST, 0).stream(0)
                        .msn(msn)
                        .messageLength(64)
                        .remoteAddress(Testbed.BASE)
                        .remoteKey(testbed.key())
                        .sinkHandle(0x423)
                        .ackRequest()
                        .transmitTimestamp(423);
                connection.sendNewFrom(request, 0, entropy[0]);
                testbed.peer()
                        .await(
                                mark,
                                PacketMatcher.expect()
                                        .data()
                                        .opcode(org.mrconf.wire.Opcode.READ_RESPONSE)
                                        .sinkHandle(0x423),
                                Testbed.WAIT);
            }
            // The DUT's own WRITE: its data goes to the set-up port, and the tester's ACKs from another port are
            // accepted (the WRITE completes successfully).
            final long wrId = 423;
            DutTraffic.write(
                    testbed, 0, wrId, 2 * connection.maxPayload(org.mrconf.wire.Opcode.WRITE), OptionalLong.empty());
            assertThat(org.mrconf.cases.TesterMessages.awaitCompletions(testbed, wrId)
                            .get(wrId)
                            .status())
                    .as("4.2.3: the DUT accepts ACKs from source port %d, not the set-up port", entropy[2])
                    .isEqualTo(CompletionStatus.SUCCESS);
            final List<ReceivedPacket> sent = testbed.peer().recorder().since(mark);
            assertThat(sent)
                    .as("4.2.3: packets the DUT sent (ACKs, a NACK, READ_RESPONSEs, data)")
                    .hasSizeGreaterThanOrEqualTo(lastPath + 4);
            for (final ReceivedPacket packet : sent) {
                assertThat(packet.captured().destinationPort())
                        .as(
                                "4.2.3: %s goes to the set-up port %d, not a source port of the tester %s",
                                packet, setUpPort, java.util.Arrays.toString(entropy))
                        .isEqualTo(setUpPort);
            }
        }
    }

    @Test
    @DisplayName("a second connection to the same address on another peer port is refused, or its packets go there")
    @Verifies("4.2.3")
    void anotherPeerPortIsRefusedOrHonoured(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final int setUpPort = testbed.peer().link().testerPort();
            final int otherPort = testbed.peer().link().sourcePorts(1)[0]; // from the OS, never the set-up port
            // The tester sends from the other port first, so every link has a socket there to hear the DUT's answer.
            final int mark = testbed.peer().mark();
            testbed.connection().sendNewFrom(testbed.write(0, Testbed.BASE, testbed.key(), new byte[32]), 0, otherPort);
            testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).cumulativePsn(1), Testbed.WAIT);
            final ConnectionSpec second = ConnectionSpec.of(
                    SECOND_DUT_CONNECTION, SECOND_TESTER_CONNECTION, dut.link().testerAddress(), otherPort, 1, 1);
            try {
                testbed.control().createConnection(second);
            } catch (final DutControlException e) {
                assertThat(e.code())
                        .as(
                                "4.2.3: a device that reaches one address on one port refuses the setup (%s)",
                                e.getMessage())
                        .isIn(DutErrorCode.CONFLICT, DutErrorCode.INVALID_ARGUMENT);
                return;
            }
            try {
                final PeerConnection peer = testbed.peer()
                        .connection(second, dut.profile().parameters().mtu());
                final int before = testbed.peer().mark();
                final var write = peer.packet(org.mrconf.wire.Opcode.WRITE, 0).stream(0)
                        .msn(peer.takeMsn(0))
                        .messageLength(32)
                        .messageOffset(0)
                        .remoteAddress(Testbed.BASE + 4096)
                        .remoteKey(testbed.key())
                        .transmitTimestamp(4231)
                        .payload(new byte[32])
                        .ackRequest();
                peer.sendNewFrom(write, 0, setUpPort);
                final ReceivedPacket ack = testbed.peer()
                        .await(before, PacketMatcher.expect().ack().connection(SECOND_TESTER_CONNECTION), Testbed.WAIT);
                assertThat(ack.captured().destinationPort())
                        .as("4.2.3: the second connection was accepted, so its ACK goes to its own peer port")
                        .isEqualTo(otherPort);
            } finally {
                testbed.control().destroyConnection(SECOND_DUT_CONNECTION);
            }
        }
    }
}
