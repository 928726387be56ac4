package org.mrconf.cases.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WireLink;
import org.mrconf.dut.WorkRequest;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Connection protection (spec section 11.2): a packet whose destination connection id names no connection, and a
 * packet for a real connection from an address that is not its peer, are dropped and counted whatever their opcode,
 * and change nothing: no placement, no receive consumed, no READ served, no PSN recorded, no work request acknowledged
 * or failed. Each case ends by showing the real peer is still served on the very PSNs the intruder tried.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connection protection")
class ConnectionProtectionCase {
    private static final long UNKNOWN = 0x0BAD_0BADL;
    private static final byte[] DATA = Testbed.randomBytes(512, 21);

    @Test
    @DisplayName(
            "packets of every opcode for an unknown or destroyed connection are dropped, counted and change nothing")
    @Verifies("11.2.1")
    @Kind(Kind.Purpose.INVALID)
    void unknownConnectionIsDroppedForEveryOpcode(final Testbed testbed) throws Exception {
        // A second connection, destroyed again: its id names no connection any more.
        final long destroyed = 0x0003_0003L;
        testbed.control()
                .createConnection(ConnectionSpec.of(
                        destroyed,
                        0x0004_0004L,
                        testbed.peer().link().testerAddress(),
                        testbed.peer().link().testerPort(),
                        1,
                        1));
        testbed.control().destroyConnection(destroyed);
        testbed.control()
                .postReceive(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 31, testbed.key(), Testbed.BASE + 0x8000, 4096));
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();
        int sent = 0;
        for (final long id : List.of(UNKNOWN, destroyed)) {
            for (final PacketBuilder packet : intruderPackets(testbed)) {
                testbed.peer().send(packet.connection(id));
                sent++;
            }
        }

        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect()
                                .where(
                                        "anything but a NACK UNKNOWN_CONNECTION",
                                        p -> p.nack()
                                                .map(n -> n.code() != NackCode.UNKNOWN_CONNECTION)
                                                .orElse(true)),
                        Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_UNKNOWN_CONNECTION))
                .as("11.2.1: every packet for an unknown connection is counted")
                .isEqualTo(sent);
        assertUnchanged(testbed, mark);
    }

    @Test
    @DisplayName("NACK UNKNOWN_CONNECTION, if sent at all, is sent at most once per source address per millisecond")
    @Verifies("11.2.1")
    @Kind(Kind.Purpose.INVALID)
    void unknownConnectionNacksAreRateLimited(final Testbed testbed) throws Exception {
        final int mark = testbed.peer().mark();
        final long startNs = testbed.peer().link().nowNs();
        final int burst = 64;
        for (int i = 0; i < burst; i++) {
            testbed.peer()
                    .send(testbed.write(0, Testbed.BASE, testbed.key(), DATA)
                            .connection(UNKNOWN)
                            .psn(i));
        }
        final long burstNs = testbed.peer().link().nowNs() - startNs;
        testbed.peer().recorder().awaitQuiet(Testbed.QUIET, Testbed.WAIT);
        final List<ReceivedPacket> nacks =
                testbed.peer().recorder().matching(mark, PacketMatcher.expect().nack(NackCode.UNKNOWN_CONNECTION));
        // The answers may trail the burst by the link's latency and the device's timer tolerance.
        final long windowNs =
                burstNs + testbed.profile().parameters().timers().tolerance().toNanos();
        final long allowed = 1 + windowNs / 1_000_000;
        assertThat((long) nacks.size())
                .as(
                        "11.2.1: NACK UNKNOWN_CONNECTION for %d packets sent in %d us (at most one per millisecond: %d)",
                        burst, burstNs / 1000, allowed)
                .isLessThanOrEqualTo(allowed);
        // Afterwards the device still takes a correct WRITE: a silent device (or link) cannot pass this case.
        final byte[] afterwards = Testbed.randomBytes(64, 71);
        Drops.assertPlaced(
                testbed,
                testbed.peer().mark(),
                0,
                testbed.write(0, Testbed.BASE + 0x4000, testbed.key(), afterwards),
                Testbed.BASE + 0x4000,
                afterwards,
                "11.2.1: afterwards a correct WRITE on the device's connection is placed and acknowledged");
    }

    @Test
    @DisplayName(
            "packets of every opcode for a known connection from a foreign address are dropped silently and counted")
    @Verifies("11.2.2")
    @Kind(Kind.Purpose.INVALID)
    void foreignSourceIsDroppedForEveryOpcode(final Testbed testbed) throws Exception {
        final InetAddress foreign = foreignAddress(testbed);
        testbed.control()
                .postReceive(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 31, testbed.key(), Testbed.BASE + 0x8000, 4096));
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = intruderPackets(testbed);
        for (final PacketBuilder packet : packets) {
            testbed.peer()
                    .sender()
                    .sendUnimpaired(
                            foreign, packet.build(), testbed.peer().link().testerPort(), Ecn.NOT_ECT);
        }

        testbed.peer().assertNone(mark, PacketMatcher.expect(), Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_UNEXPECTED_SOURCE))
                .as("11.2.2: every packet from a foreign address is counted")
                .isEqualTo(packets.size());
        assertUnchanged(testbed, mark);
    }

    @Test
    @DisplayName("an ACK or NACK from a foreign address neither completes nor fails the DUT's outstanding WRITE")
    @Verifies("11.2.2")
    @Kind(Kind.Purpose.INVALID)
    void foreignAckOrNackChangesNothing(final Testbed testbed) throws Exception {
        final InetAddress foreign = foreignAddress(testbed);
        final long source = Testbed.BASE + 0x10_0000 - 8192;
        testbed.control().writeRegion(testbed.key(), source, DATA);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 41, testbed.key(), source, DATA.length),
                        0x1000,
                        0x77);
        final ReceivedPacket write = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().data().opcode(Opcode.WRITE).connection(Testbed.TESTER_CONNECTION),
                        Testbed.WAIT);
        final var data = write.data().orElseThrow();
        final int path = data.header().pathId();
        final long psn = data.header().psn();
        testbed.connection().onReceived(write);
        final WireLink link = testbed.peer().link();
        testbed.peer()
                .sender()
                .sendUnimpaired(
                        foreign,
                        testbed.connection()
                                .ackFor(path, data.transmitTimestamp())
                                .build(),
                        link.testerPort(),
                        Ecn.NOT_ECT);
        testbed.peer()
                .sender()
                .sendUnimpaired(
                        foreign,
                        PacketBuilder.nack(NackCode.REMOTE_ACCESS)
                                .connection(Testbed.DUT_CONNECTION)
                                .path(path)
                                .psn(psn)
                                .stream(0)
                                .msn(data.messageSequenceNumber())
                                .build(),
                        link.testerPort(),
                        Ecn.NOT_ECT);

        final List<DutCompletion> early = testbed.control().pollCompletions(16, Testbed.QUIET);
        assertThat(early)
                .as("11.2.2: a foreign ACK or NACK must not complete or fail work request 41")
                .noneMatch(c -> c.wrId() == 41);
        // The real peer's ACK completes it.
        testbed.peer().send(testbed.connection().ackFor(path, data.transmitTimestamp()));
        assertThat(testbed.awaitCompletion(41).status())
                .as("11.2.2: the WRITE completes on the real peer's ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    /** One packet of each opcode the tester can send on the testbed connection, none of which may have any effect. */
    private static List<PacketBuilder> intruderPackets(final Testbed testbed) {
        final var connection = testbed.connection();
        final List<PacketBuilder> packets = new java.util.ArrayList<>();
        packets.add(connection.packet(Opcode.WRITE, 0).stream(0)
                .msn(0)
                .messageLength(DATA.length)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .payload(DATA)
                .transmitTimestamp(1)
                .ackRequest());
        packets.add(connection.packet(Opcode.SEND, 1).stream(0)
                .msn(0)
                .rsn(0)
                .messageLength(DATA.length)
                .payload(DATA)
                .transmitTimestamp(2)
                .ackRequest());
        if (testbed.profile().claims(Profile.READ)) {
            packets.add(connection.packet(Opcode.READ_REQUEST, 0).psn(connection.nextPsn(0) + 1).stream(0)
                    .msn(1)
                    .messageLength(DATA.length)
                    .remoteAddress(Testbed.BASE)
                    .remoteKey(testbed.key())
                    .sinkHandle(9)
                    .transmitTimestamp(3)
                    .ackRequest());
        }
        packets.add(PacketBuilder.probe()
                .connection(Testbed.DUT_CONNECTION)
                .path(0)
                .psn(0)
                .transmitTimestamp(4));
        packets.add(PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(0)
                .cumulativePsn(0)
                .echoedTimestamp(5));
        packets.add(
                PacketBuilder.nack(NackCode.RECEIVER_NOT_READY)
                        .connection(Testbed.DUT_CONNECTION)
                        .path(0)
                        .psn(0)
                        .stream(0)
                        .msn(0));
        return packets;
    }

    /**
     * Nothing the intruder sent took effect: the region is still zero, and the real peer's WRITE and SEND on the same
     * PSNs, MSNs and RSN are placed and acknowledged as new (no PSN was recorded, no receive consumed).
     */
    private static void assertUnchanged(final Testbed testbed, final int mark) throws Exception {
        TesterMessages.assertMemory(
                testbed, "no state changed: the region", testbed.key(), Testbed.BASE, new byte[DATA.length]);
        TesterMessages.assertMemory(
                testbed,
                "no state changed: the posted receive",
                testbed.key(),
                Testbed.BASE + 0x8000,
                new byte[DATA.length]);
        final var before = testbed.counters();
        final byte[] write = Testbed.randomBytes(DATA.length, 22);
        final byte[] send = Testbed.randomBytes(DATA.length, 23);
        final var writeSegments = testbed.connection().write(0, Testbed.BASE, testbed.key(), write, 0);
        final var sendSegments = testbed.connection().sendMessage(0, send, 1);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(0)
                                .covers(writeSegments.get(0).psn()),
                        Testbed.WAIT);
        final DutCompletion receive = testbed.awaitCompletion(31);
        assertThat(receive.status())
                .as("the real peer's SEND completes the posted receive")
                .isEqualTo(CompletionStatus.SUCCESS);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(1)
                                .covers(sendSegments.get(0).psn()),
                        Testbed.WAIT);
        TesterMessages.assertMemory(testbed, "the real peer's WRITE lands", testbed.key(), Testbed.BASE, write);
        TesterMessages.assertMemory(testbed, "the real peer's SEND lands", testbed.key(), Testbed.BASE + 0x8000, send);
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE))
                .as("the intruder's PSNs were not recorded: the real packets are not duplicates")
                .isZero();
    }

    private static InetAddress foreignAddress(final Testbed testbed) {
        final WireLink link = testbed.peer().link();
        if (!link.can(WireLink.Capability.OTHER_SOURCE_ADDRESS)
                || link.alternateSourceAddress().isEmpty()) {
            throw Inconclusive.because("the wire link cannot send from an address other than the tester's, so clause"
                    + " 11.2.2 cannot be exercised here (use a UDP loopback or raw Ethernet link)");
        }
        return link.alternateSourceAddress().get();
    }
}
