package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCounters;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * NACK UNKNOWN_CONNECTION both ways (spec clauses 9.1.10 and 11.2.3). The device that answers a packet for a
 * connection it does not have knows only the ids the packet carries, so its NACK echoes them: the sender finds its
 * connection by the NACK's source address and the peer's connection id it echoes, and only while the NACK's PSN is
 * outstanding. As a sender the DUT must fail the connection such a NACK names and ignore every other; as a receiver
 * that lists clause 11.2.3 it must answer with the rejected packet's ids, to the port given at setup.
 */
@ExtendWith(DutExtension.class)
@DisplayName("NACK UNKNOWN_CONNECTION")
class UnknownConnectionNackCase {
    /** Connection ids the DUT does not have; each answer must echo its own. */
    private static final long UNKNOWN = 0x0BAD_0000L;
    /** Longer than the rate limit of clause 11.2.1 (one answer per source address per millisecond). */
    private static final long RATE_LIMIT_GAP_MS = 2;

    @Test
    @DisplayName("a NACK UNKNOWN_CONNECTION that echoes the peer's connection id fails the connection it names")
    @Verifies("9.1.10")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void echoedNackFailsTheConnection(final Testbed testbed) throws Exception {
        final ReceivedPacket packet = NackCase.postWriteAndAwait(testbed, 240, 64);
        testbed.peer().send(echoOf(packet.data().orElseThrow(), Testbed.TESTER_CONNECTION));
        assertThat(testbed.awaitCompletion(240).status())
                .as(
                        "9.1.10: a NACK UNKNOWN_CONNECTION from the peer's address, echoing the id the DUT sends to"
                                + " (0x%08x) and naming an outstanding PSN, fails the connection",
                        Testbed.TESTER_CONNECTION)
                .isEqualTo(CompletionStatus.REMOTE_UNKNOWN_CONNECTION);
    }

    @Test
    @DisplayName("a NACK UNKNOWN_CONNECTION with the DUT's own id, another id, another path or a PSN never sent changes"
            + " nothing")
    @Verifies("9.1.10")
    @Kind(Kind.Purpose.INVALID)
    void unmatchedNacksChangeNothing(final Testbed testbed) throws Exception {
        final ReceivedPacket packet = NackCase.postWriteAndAwait(testbed, 250, 64);
        final DataPacket data = packet.data().orElseThrow();
        final long psn = data.header().psn();
        final var before = testbed.counters();
        final List<PacketBuilder> unmatched = List.of(
                // The DUT's own connection id: what a receiver that looks the NACK up as any packet would match.
                echoOf(data, Testbed.DUT_CONNECTION),
                echoOf(data, Testbed.TESTER_CONNECTION + 1),
                echoOf(data, Testbed.TESTER_CONNECTION)
                        .path(testbed.connection().spec().paths()),
                echoOf(data, Testbed.TESTER_CONNECTION).psn(psn + 1000).cumulativePsn(psn + 1000));
        for (final PacketBuilder nack : unmatched) {
            testbed.peer().send(nack);
        }
        final long counted = testbed.awaitGrowth(before, DutCounters.RX_UNKNOWN_CONNECTION, unmatched.size());
        assertThat(counted)
                .as("9.1.10: each NACK UNKNOWN_CONNECTION that names no outstanding PSN of a connection by its peer"
                        + " id is counted under rx_unknown_connection")
                .isEqualTo(unmatched.size());
        CaseSteps.acknowledge(testbed, packet);
        assertThat(testbed.awaitCompletion(250).status())
                .as("9.1.10: none of them failed the connection; the WRITE completes on its ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("a DUT that answers a packet for an unknown connection echoes its ids, to the port given at setup")
    @Verifies("11.2.3")
    @Kind(Kind.Purpose.INVALID)
    void answerEchoesTheRejectedPacket(final Testbed testbed) throws Exception {
        TesterMessages.requireOptional(testbed, "11.2.3");
        final int setUpPort = testbed.peer().link().testerPort();
        final List<PacketBuilder> packets = unknownConnectionPackets(testbed);
        // One source port per packet, none the set-up port, each from the OS (never fixed).
        final int[] ports = testbed.peer().link().sourcePorts(packets.size());
        for (int i = 0; i < packets.size(); i++) {
            // Sent only after the previous answer came back plus the rate limit: the DUT must answer each.
            Thread.sleep(RATE_LIMIT_GAP_MS);
            final int mark = testbed.peer().mark();
            final byte[] bytes = packets.get(i).build();
            final DataPacket rejected = (DataPacket) org.mrconf.wire.Packet.fromBytes(bytes);
            testbed.peer().sender().send(bytes, ports[i], Ecn.NOT_ECT);
            final ReceivedPacket answer = testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect()
                                    .nack(NackCode.UNKNOWN_CONNECTION)
                                    .psn(rejected.header().psn()),
                            Testbed.WAIT);
            final NackPacket nack = answer.nack().orElseThrow();
            final String what = rejected.opcode() + " for unknown connection 0x"
                    + Long.toHexString(rejected.header().destinationConnectionId());
            assertThat(nack.header().destinationConnectionId())
                    .as("11.2.3: the NACK of a %s echoes its destination connection id", what)
                    .isEqualTo(rejected.header().destinationConnectionId());
            assertThat(nack.header().pathId())
                    .as("11.2.3: the NACK of a %s echoes its path id", what)
                    .isEqualTo(rejected.header().pathId());
            assertThat(nack.streamId())
                    .as("11.2.3: the NACK of a %s echoes its stream id", what)
                    .isEqualTo(rejected.streamId());
            assertThat(nack.messageSequenceNumber())
                    .as("11.2.3: the NACK of a %s echoes its MSN", what)
                    .isEqualTo(rejected.messageSequenceNumber());
            assertThat(nack.cumulativePsn())
                    .as("11.2.3: the NACK of a %s carries its PSN as cumulative psn", what)
                    .isEqualTo(rejected.header().psn());
            assertThat(nack.retryAfter())
                    .as("11.2.3: the NACK of a %s has retry after 0", what)
                    .isZero();
            assertThat(answer.captured().destinationPort())
                    .as("11.2.3: the NACK of a %s goes to the port given at setup, not the packet's source port", what)
                    .isEqualTo(setUpPort);
        }
    }

    /** NACK UNKNOWN_CONNECTION of {@code data}, as the peer would send it, naming the connection {@code id}. */
    private static PacketBuilder echoOf(final DataPacket data, final long id) {
        return org.mrconf.cases.DutTraffic.nackOf(data, NackCode.UNKNOWN_CONNECTION, id);
    }

    /** A WRITE, a SEND and (if the DUT claims READ) a READ_REQUEST, each for its own unknown connection and ids. */
    private static List<PacketBuilder> unknownConnectionPackets(final Testbed testbed) {
        final var connection = testbed.connection();
        final List<PacketBuilder> packets = new ArrayList<>();
        packets.add(connection.packet(Opcode.WRITE, 0).connection(UNKNOWN + 1).path(1).psn(101).stream(2)
                .msn(41)
                .messageLength(16)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .payload(new byte[16])
                .transmitTimestamp(1));
        packets.add(connection.packet(Opcode.SEND, 0).connection(UNKNOWN + 2).path(5).psn(0x7FFF_FFF0L).stream(3)
                .msn(42)
                .rsn(7)
                .messageLength(16)
                .payload(new byte[16])
                .transmitTimestamp(2)
                .ackRequest());
        if (testbed.profile().claims(Profile.READ)) {
            packets.add(connection.packet(Opcode.READ_REQUEST, 0).connection(UNKNOWN + 3).path(0).psn(303).stream(4)
                    .msn(43)
                    .messageLength(16)
                    .remoteAddress(Testbed.BASE)
                    .remoteKey(testbed.key())
                    .sinkHandle(9)
                    .transmitTimestamp(3));
        }
        return packets;
    }
}
