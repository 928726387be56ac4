package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.ProbePacket;

/** Behaviour of two reference endpoints over {@link TestNetwork}, clause by clause. */
class EndpointTest {
    private static final long DELAY_NS = 5_000;
    private static final long LIMIT_NS = 1_000_000_000L;
    private static final int A_ID = 10;
    private static final int B_ID = 20;
    private static final long BASE = 0x1000_0000L;
    private static final int PATHS = 4;
    private static final int STREAMS = 4;

    private TestNetwork network;
    private Endpoint a;
    private Endpoint b;
    private MemoryRegion aMemory;
    private MemoryRegion bMemory;

    @BeforeEach
    void setUp() {
        setUp(ConnectionConfig.of(A_ID, B_ID, 1, PATHS, STREAMS), ConnectionConfig.of(B_ID, A_ID, 0, PATHS, STREAMS));
    }

    private void setUp(final ConnectionConfig aConnection, final ConnectionConfig bConnection) {
        setUp(
                aConnection,
                bConnection,
                EndpointConfig.builder().lineRate(10_000_000_000L).mtu(1100).build());
    }

    private void setUp(
            final ConnectionConfig aConnection, final ConnectionConfig bConnection, final EndpointConfig config) {
        network = new TestNetwork(DELAY_NS);
        a = network.add(config);
        b = network.add(config);
        a.createConnection(aConnection);
        b.createConnection(bConnection);
        aMemory = a.registerRegion(BASE, 1 << 20, AccessFlags.ALL);
        bMemory = b.registerRegion(BASE, 1 << 20, AccessFlags.ALL);
        fill(aMemory, 1);
    }

    @Test
    void shouldWriteSprayedOverAllPathsAndComplete() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 200_000, BASE + 64, bMemory.key(), 7);

        final Completion completion = runUntilCompletion(a);

        assertThat(completion)
                .isEqualTo(new Completion(
                        7, A_ID, 0, 0, WorkCompletionType.WRITE, WorkCompletionStatus.SUCCESS, 200_000, 0));
        assertSameBytes(bMemory, 64, aMemory, 0, 200_000);
        final Set<Integer> pathsUsed = new HashSet<>();
        final Set<Integer> portsUsed = new HashSet<>();
        for (final TestNetwork.Sent sent : dataSentByA(0)) {
            pathsUsed.add(((DataPacket) sent.packet()).header().pathId());
            portsUsed.add(sent.srcPort());
            assertThat(sent.ecn()).as("data is ECN-capable (4.1.7)").isEqualTo(EcnCodepoint.ECT_0);
        }
        assertThat(pathsUsed).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(portsUsed).hasSize(PATHS);
        assertThat(a.counters().get(Counter.TX_RETRANSMISSIONS)).isZero();
    }

    /**
     * Freedom F-1 (clause 4.1.4), the variant {@code entropy-changed-at-idle}: a path that sends again after all its
     * PSNs were acknowledged leaves from another source port, still distinct from the other paths' (4.1.5), and no
     * such change counts as a re-path.
     */
    @Test
    void shouldChangeAPathsEntropyWhenItLeavesIdleWhenChosen() {
        setUp(
                ConnectionConfig.of(A_ID, B_ID, 1, PATHS, STREAMS),
                ConnectionConfig.of(B_ID, A_ID, 0, PATHS, STREAMS),
                EndpointConfig.builder()
                        .lineRate(10_000_000_000L)
                        .mtu(1100)
                        .choices(OpenChoices.STANDARD.toBuilder()
                                .entropyChangedAtIdle(true)
                                .build())
                        .build());
        final List<Set<Integer>> portsPerMessage = new ArrayList<>();
        for (int message = 0; message < 3; message++) {
            final int from = network.log.size();
            a.postWrite(A_ID, 0, aMemory.key(), BASE, 4 * 1000, BASE, bMemory.key(), message);
            assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
            final Set<Integer> ports = new HashSet<>();
            for (final TestNetwork.Sent sent : dataSentByA(from)) {
                if (((DataPacket) sent.packet()).header().pathId() == 0) {
                    ports.add(sent.srcPort());
                }
            }
            assertThat(ports)
                    .as("message %d: one port on path 0 while it is busy", message)
                    .hasSize(1);
            portsPerMessage.add(ports);
        }
        assertThat(portsPerMessage.get(1)).doesNotContainAnyElementsOf(portsPerMessage.get(0));
        assertThat(portsPerMessage.get(2)).doesNotContainAnyElementsOf(portsPerMessage.get(1));
        assertThat(a.counters().get(Counter.REPATHS)).isZero();
    }

    /** The data packets endpoint a (node 0) sent, from entry {@code from} of the network's log on. */
    private List<TestNetwork.Sent> dataSentByA(final int from) {
        final List<TestNetwork.Sent> data = new ArrayList<>();
        for (final TestNetwork.Sent sent : network.log.subList(from, network.log.size())) {
            if (sent.from() == 0 && sent.packet() instanceof DataPacket) {
                data.add(sent);
            }
        }
        return data;
    }

    @Test
    void shouldFillEveryPacketButTheLastToTheMtu() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 10_000, BASE, bMemory.key(), 1);
        runUntilCompletion(a);

        final List<DataPacket> writes = network.sentBy(0, DataPacket.class);
        final int maxPayload = 1100 - 20 - 8 - Opcode.WRITE.headerLength() - 4;
        for (final DataPacket write : writes) {
            final boolean last = write.messageOffset() + write.payloadLength() == 10_000;
            if (!last) {
                assertThat(write.payloadLength()).isEqualTo(maxPayload);
            }
            assertThat(write.messageOffset() % maxPayload).isZero();
        }
        assertThat(writes).hasSize((10_000 + maxPayload - 1) / maxPayload);
    }

    @Test
    void shouldRetransmitExactlyTheMissingPacketOnTheSamePath() {
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.packet() instanceof DataPacket data
                    && data.header().pathId() == 1
                    && data.header().psn() == 3) {
                dropped[0] = true;
                return false;
            }
            return true;
        });
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 100_000, BASE, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);

        final List<DataPacket> retransmissions = network.sentBy(0, DataPacket.class).stream()
                .filter(p -> (p.header().flags() & PacketFlags.RETRANSMISSION) != 0)
                .toList();
        assertThat(retransmissions).hasSize(1);
        final DataPacket resent = retransmissions.get(0);
        assertThat(resent.header().pathId()).isEqualTo(1);
        assertThat(resent.header().psn()).isEqualTo(3);
        final DataPacket original = network.sentBy(0, DataPacket.class).stream()
                .filter(p -> p.header().pathId() == 1 && p.header().psn() == 3)
                .findFirst()
                .orElseThrow();
        assertThat(resent.messageOffset()).isEqualTo(original.messageOffset());
        assertThat(resent.payload()).isEqualTo(original.payload());
        assertSameBytes(bMemory, 0, aMemory, 0, 100_000);
        assertThat(a.counters().get(Counter.RTO_EXPIRATIONS)).isZero();
    }

    @Test
    void shouldAckAtOnceWhenAPacketOpensAGap() {
        network.filter((sent, fate) -> !(sent.packet() instanceof DataPacket data
                && data.header().psn() == 0
                && data.header().pathId() == 0
                && (data.header().flags() & PacketFlags.RETRANSMISSION) == 0));
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 30_000, BASE, bMemory.key(), 1);
        runUntilCompletion(a);

        final long firstGapArrival = network.log.stream()
                        .filter(s -> s.from() == 0
                                && s.packet() instanceof DataPacket d
                                && d.header().pathId() == 0
                                && d.header().psn() == 1)
                        .findFirst()
                        .orElseThrow()
                        .timeNs()
                + DELAY_NS;
        final TestNetwork.Sent firstAck = network.log.stream()
                .filter(s -> s.from() == 1
                        && s.packet() instanceof AckPacket ack
                        && ack.header().pathId() == 0)
                .findFirst()
                .orElseThrow();
        assertThat(firstAck.timeNs()).isEqualTo(firstGapArrival);
        final AckPacket ack = (AckPacket) firstAck.packet();
        assertThat(ack.header().psn()).as("cumulative PSN").isZero();
        assertThat(ack.sackWords()[0] & 0b11).isEqualTo(0b10);
    }

    @Test
    void shouldMatchSendsToReceivesByRsnEvenWhenTheFirstIsLate() {
        b.postReceive(B_ID, 1, bMemory.key(), BASE, 4096, 100);
        b.postReceive(B_ID, 1, bMemory.key(), BASE + 8192, 4096, 101);
        network.filter((sent, fate) -> {
            if (sent.packet() instanceof DataPacket data
                    && data.opcode() == Opcode.SEND
                    && data.receiveSequenceNumber() == 0) {
                fate.extraDelayNs = 200_000;
            }
            return true;
        });
        fill(aMemory, 2);
        a.postSend(A_ID, 1, aMemory.key(), BASE, 3000, 1);
        a.postSend(A_ID, 1, aMemory.key(), BASE + 4000, 2000, 2);

        network.runUntil(() -> b.counters().get(Counter.BYTES_PLACED) >= 2000, LIMIT_NS);
        assertThat(b.pollCompletion())
                .as("RSN 1 is placed but must not complete before RSN 0")
                .isNull();
        assertSameBytes(bMemory, 8192, aMemory, 4000, 2000);

        final List<Completion> received = runUntilCompletions(b, 2);
        assertThat(received).extracting(Completion::workRequestId).containsExactly(100L, 101L);
        assertThat(received).extracting(Completion::byteLength).containsExactly(3000L, 2000L);
        assertSameBytes(bMemory, 0, aMemory, 0, 3000);
    }

    @Test
    void shouldAnswerReceiverNotReadyAndDeliverOnceAReceiveIsPosted() {
        a.postSend(A_ID, 0, aMemory.key(), BASE, 500, 1);
        network.runUntil(() -> b.counters().get(Counter.REJECT_RECEIVER_NOT_READY) > 0, LIMIT_NS);
        assertThat(network.sentBy(1, NackPacket.class))
                .extracting(NackPacket::code)
                .containsOnly(NackCode.RECEIVER_NOT_READY);
        assertThat(bytes(bMemory, 0, 500)).containsOnly(0);

        b.postReceive(B_ID, 0, bMemory.key(), BASE, 1000, 55);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        assertThat(runUntilCompletion(b))
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(55L, WorkCompletionStatus.SUCCESS);
        assertSameBytes(bMemory, 0, aMemory, 0, 500);
    }

    @Test
    void shouldRejectASendLongerThanItsReceive() {
        b.postReceive(B_ID, 0, bMemory.key(), BASE, 100, 55);
        a.postSend(A_ID, 0, aMemory.key(), BASE, 5000, 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.REMOTE_MESSAGE_TOO_LONG);
        assertThat(runUntilCompletion(b).status()).isEqualTo(WorkCompletionStatus.LOCAL_LENGTH_ERROR);
        assertThat(bytes(bMemory, 0, 5000)).containsOnly(0);
    }

    @Test
    void shouldReadRemoteMemory() {
        fill(bMemory, 3);
        a.postRead(A_ID, 2, aMemory.key(), BASE + 500_000, 50_000, BASE + 1000, bMemory.key(), 9);

        assertThat(runUntilCompletion(a))
                .extracting(Completion::type, Completion::status, Completion::byteLength)
                .containsExactly(WorkCompletionType.READ, WorkCompletionStatus.SUCCESS, 50_000L);
        assertSameBytes(aMemory, 500_000, bMemory, 1000, 50_000);
    }

    @Test
    void shouldDeliverImmediateDataWithoutConsumingAReceive() {
        a.postWriteWithImmediate(A_ID, 0, aMemory.key(), BASE, 3000, BASE, bMemory.key(), 0xCAFEBABEL, 1);

        assertThat(runUntilCompletion(b))
                .extracting(Completion::type, Completion::immediate, Completion::byteLength)
                .containsExactly(WorkCompletionType.RECEIVE_IMMEDIATE, 0xCAFEBABEL, 3000L);
    }

    @Test
    void shouldRejectABadKeyWithoutTouchingMemory() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 5000, BASE, bMemory.key() ^ 0x55, 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(bytes(bMemory, 0, 5000)).containsOnly(0);
        assertThat(b.counters().get(Counter.REJECT_REMOTE_ACCESS)).isPositive();
    }

    @Test
    void shouldNackARejectedMessageOnceAndAcknowledgeItsOtherPackets() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 30_000, BASE, bMemory.key() ^ 0x55, 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.REMOTE_ACCESS_ERROR);
        network.runIdle(network.nowNs() + 1_000_000);
        assertThat(b.counters().get(Counter.TX_NACKS))
                .as("9.1.5: the first NACK already fails the message")
                .isEqualTo(1);
        assertThat(b.counters().get(Counter.RX_STALE))
                .as("its later packets are stale (7.5.6)")
                .isPositive();
    }

    @Test
    void shouldRateLimitFinalNacksForTheSameMessage() {
        for (int psn = 0; psn < 6; psn++) {
            final byte[] badStream = DataPacket.write(
                            CommonHeader.of(B_ID, 0, psn),
                            9,
                            0,
                            6000,
                            psn * 1000L,
                            0,
                            BASE,
                            bMemory.key() & 0xFFFFFFFFL,
                            new byte[1000])
                    .toBytes();
            network.inject(0, 1, 50000, EcnCodepoint.ECT_0, badStream);
        }
        network.runIdle(network.nowNs() + 100_000);

        assertThat(b.counters().get(Counter.REJECT_INVALID_REQUEST)).isEqualTo(6);
        assertThat(network.sentBy(1, NackPacket.class))
                .as("one NACK per path, code and message per RTT (9.1.5)")
                .singleElement()
                .extracting(NackPacket::code)
                .isEqualTo(NackCode.INVALID_REQUEST);
    }

    @Test
    void shouldRejectAnOutOfBoundsWriteWithoutTouchingMemory() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 5000, BASE + (1 << 20) - 4000, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.REMOTE_BOUNDS_ERROR);
        assertThat(b.counters().get(Counter.REJECT_BOUNDS)).isPositive();
        // Every packet checks the whole message, so not even the in-bounds segments land (11.1.3).
        assertThat(bytes(bMemory, (1 << 20) - 4000, 4000)).containsOnly(0);
        assertThat(b.counters().get(Counter.BYTES_PLACED)).isZero();
    }

    @Test
    void shouldRejectWritesIntoAnInvalidatedRegion() {
        b.invalidateRegion(bMemory.key());
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 5000, BASE, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(bytes(bMemory, 0, 5000)).containsOnly(0);
    }

    @Test
    void shouldDropPacketsFromAnUnexpectedSource() {
        final Endpoint intruder = network.add(EndpointConfig.defaults());
        final byte[] write = DataPacket.write(
                        CommonHeader.of(B_ID, 0, 0), 0, 0, 4, 0, 0, BASE, bMemory.key() & 0xFFFFFFFFL, new byte[] {
                            9, 9, 9, 9
                        })
                .toBytes();

        network.inject(2, 1, 50000, EcnCodepoint.ECT_0, write);
        network.runIdle(1_000_000);

        assertThat(b.counters().get(Counter.RX_UNEXPECTED_SOURCE)).isEqualTo(1);
        assertThat(bytes(bMemory, 0, 4)).containsOnly(0);
        assertThat(network.log).noneMatch(s -> s.from() == 1);
        assertThat(intruder.counters().get(Counter.RX_PACKETS)).isZero();
    }

    @Test
    void shouldAcknowledgeButNotPlaceAStalePacket() {
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 100, BASE, bMemory.key(), 1);
        runUntilCompletion(a);
        // The peer's next PSN on path 0 carries MSN 0 again: a stale packet of a completed message.
        final long nextPsn = b.counters().get(Counter.RX_PACKETS); // path 0 got exactly one packet (PSN 0)
        assertThat(nextPsn).isEqualTo(1);
        final byte[] stale = DataPacket.write(
                        CommonHeader.of(B_ID, 0, 1), 0, 0, 100, 0, 0, BASE, bMemory.key() & 0xFFFFFFFFL, new byte[100])
                .toBytes();

        network.inject(0, 1, 50000, EcnCodepoint.ECT_0, stale);
        network.runIdle(network.nowNs() + 1_000_000);

        assertThat(b.counters().get(Counter.RX_STALE)).isEqualTo(1);
        assertSameBytes(bMemory, 0, aMemory, 0, 100);
        final AckPacket lastAck = network.sentBy(1, AckPacket.class)
                .get(network.sentBy(1, AckPacket.class).size() - 1);
        assertThat(lastAck.header().psn()).as("the stale PSN is acknowledged").isEqualTo(2);
    }

    @Test
    void shouldCountBadCrcAndSendNothing() {
        final byte[] write = DataPacket.write(
                        CommonHeader.of(B_ID, 0, 0), 0, 0, 4, 0, 0, BASE, bMemory.key() & 0xFFFFFFFFL, new byte[] {
                            1, 2, 3, 4
                        })
                .toBytes();
        write[write.length - 1] ^= 1;

        network.inject(0, 1, 50000, EcnCodepoint.ECT_0, write);
        network.runIdle(1_000_000);

        assertThat(b.counters().get(Counter.RX_BAD_CRC)).isEqualTo(1);
        assertThat(network.log).isEmpty();
        assertThat(bytes(bMemory, 0, 4)).containsOnly(0);
    }

    @Test
    void shouldRecoverALostTailWithATimeoutAndNewEntropy() {
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.packet() instanceof DataPacket data
                    && (data.header().flags() & PacketFlags.ACK_REQUEST) != 0) {
                dropped[0] = true;
                return false;
            }
            return true;
        });
        final int pathBefore = -1;
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 2000, BASE, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        assertThat(a.counters().get(Counter.RTO_EXPIRATIONS)).isEqualTo(1);
        assertThat(a.counters().get(Counter.REPATHS)).isEqualTo(1);
        final List<TestNetwork.Sent> tail = network.log.stream()
                .filter(s -> s.from() == 0
                        && s.packet() instanceof DataPacket d
                        && (d.header().flags() & PacketFlags.ACK_REQUEST) != 0)
                .toList();
        assertThat(tail).hasSize(2);
        assertThat(tail.get(1).srcPort())
                .as("re-pathed (6.6.4)")
                .isNotEqualTo(tail.get(0).srcPort());
        assertThat(((DataPacket) tail.get(1).packet()).header().flags() & PacketFlags.RETRANSMISSION)
                .isNotZero();
        assertThat(pathBefore).isNegative();
    }

    @Test
    void shouldRecoverALostTailWithAProbeInsteadOfATimeoutOnceTheRttIsKnown() {
        // First every path gets an RTT sample: a probe waits for a multiple of its path's smoothed RTT.
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 20_000, BASE, bMemory.key(), 1);
        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        final int sentBefore = network.log.size();
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.packet() instanceof DataPacket data
                    && (data.header().flags() & PacketFlags.ACK_REQUEST) != 0) {
                dropped[0] = true;
                return false; // the second WRITE's last packet: nothing after it on its path reveals the gap
            }
            return true;
        });
        a.postWrite(A_ID, 0, aMemory.key(), BASE + 20_000, 2000, BASE + 20_000, bMemory.key(), 2);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        assertThat(dropped[0]).isTrue();
        assertThat(a.counters().get(Counter.RTO_EXPIRATIONS)).as("no timeout").isZero();
        final List<TestNetwork.Sent> after = network.log.subList(sentBefore, network.log.size());
        final List<TestNetwork.Sent> probes = after.stream()
                .filter(s -> s.from() == 0 && s.packet() instanceof ProbePacket)
                .toList();
        assertThat(probes).as("one tail-loss probe").hasSize(1);
        final List<TestNetwork.Sent> tail = after.stream()
                .filter(s -> s.from() == 0
                        && s.packet() instanceof DataPacket d
                        && (d.header().flags() & PacketFlags.ACK_REQUEST) != 0)
                .toList();
        assertThat(tail).hasSize(2);
        final DataPacket resent = (DataPacket) tail.get(1).packet();
        assertThat(resent.header().flags() & PacketFlags.RETRANSMISSION).isNotZero();
        assertThat(resent.header().pathId())
                .as("the probe went on the tail's path")
                .isEqualTo(((ProbePacket) probes.get(0).packet()).header().pathId());
        assertThat(tail.get(1).srcPort())
                .as("resent with new entropy, as after a timeout (6.6.4)")
                .isNotEqualTo(tail.get(0).srcPort());
        assertSameBytes(bMemory, 20_000, aMemory, 20_000, 2000);
    }

    @Test
    void shouldWaitForTheTimeoutWhenTailLossProbesAreOff() {
        setUp(
                ConnectionConfig.of(A_ID, B_ID, 1, PATHS, STREAMS),
                ConnectionConfig.of(B_ID, A_ID, 0, PATHS, STREAMS),
                EndpointConfig.builder()
                        .lineRate(10_000_000_000L)
                        .mtu(1100)
                        .tailLossProbe(false)
                        .build());
        // First every path gets an RTT sample: a probe waits for a multiple of its path's smoothed RTT.
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 20_000, BASE, bMemory.key(), 1);
        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.packet() instanceof DataPacket data
                    && (data.header().flags() & PacketFlags.ACK_REQUEST) != 0) {
                dropped[0] = true;
                return false;
            }
            return true;
        });
        a.postWrite(A_ID, 0, aMemory.key(), BASE + 20_000, 2000, BASE + 20_000, bMemory.key(), 2);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        assertThat(a.counters().get(Counter.RTO_EXPIRATIONS)).isEqualTo(1);
        assertThat(network.log.stream().filter(s -> s.packet() instanceof ProbePacket))
                .isEmpty();
    }

    @Test
    void shouldSendAcksWithTheEntropyOfTheLatestDataPacket() {
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.packet() instanceof DataPacket data
                    && (data.header().flags() & PacketFlags.ACK_REQUEST) != 0) {
                dropped[0] = true;
                return false;
            }
            return true;
        });
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 500, BASE, bMemory.key(), 1);
        runUntilCompletion(a);

        final TestNetwork.Sent resent = network.log.stream()
                .filter(s -> s.from() == 0
                        && s.packet() instanceof DataPacket d
                        && (d.header().flags() & PacketFlags.RETRANSMISSION) != 0)
                .findFirst()
                .orElseThrow();
        final TestNetwork.Sent lastAck = network.log.stream()
                .filter(s -> s.from() == 1 && s.packet() instanceof AckPacket)
                .reduce((first, second) -> second)
                .orElseThrow();
        assertThat(lastAck.srcPort())
                .as("8.1.6: the ACK re-paths with the data")
                .isEqualTo(resent.srcPort());
    }

    @Test
    void shouldCompleteAcrossThePsnWrap() {
        setUp(
                ConnectionConfig.of(A_ID, B_ID, 1, 1, 1).withInitialPsns(0xFFFF_FFF0L, 0x7777_0000L),
                ConnectionConfig.of(B_ID, A_ID, 0, 1, 1).withInitialPsns(0x7777_0000L, 0xFFFF_FFF0L));
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 40_000, BASE, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        assertSameBytes(bMemory, 0, aMemory, 0, 40_000);
        assertThat(network.sentBy(0, DataPacket.class))
                .extracting(p -> p.header().psn())
                .contains(0xFFFF_FFFFL, 0L, 1L);
    }

    @Test
    void shouldNotBlockOneStreamBehindAnother() {
        network.filter((sent, fate) -> {
            if (sent.packet() instanceof DataPacket data && data.streamId() == 0) {
                fate.extraDelayNs = 500_000;
            }
            return true;
        });
        a.postWriteWithImmediate(A_ID, 0, aMemory.key(), BASE, 100, BASE, bMemory.key(), 1, 1);
        a.postWriteWithImmediate(A_ID, 1, aMemory.key(), BASE, 100, BASE + 200, bMemory.key(), 2, 2);

        final List<Completion> received = runUntilCompletions(b, 2);

        assertThat(received).extracting(Completion::streamId).containsExactly(1, 0);
    }

    @Test
    void shouldFailTheConnectionWhenThePeerGoesSilent() {
        setUp();
        network.filter((sent, fate) -> false);
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 100, BASE, bMemory.key(), 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.TRANSPORT_TIMEOUT);
        assertThat(a.isConnectionUp(A_ID)).isFalse();
        assertThat(a.counters().get(Counter.RTO_EXPIRATIONS)).isGreaterThan(3);
    }

    @Test
    void shouldTreatADuplicateAsHarmless() {
        network.filter((sent, fate) -> {
            if (sent.packet() instanceof DataPacket) {
                network.inject(sent.from(), sent.to(), sent.srcPort(), sent.ecn(), sent.bytes());
            }
            return true;
        });
        a.postWriteWithImmediate(A_ID, 0, aMemory.key(), BASE, 10_000, BASE, bMemory.key(), 5, 1);

        assertThat(runUntilCompletion(a).status()).isEqualTo(WorkCompletionStatus.SUCCESS);
        network.runIdle(network.nowNs() + 1_000_000);
        assertThat(b.pollCompletions(10)).hasSize(1);
        assertThat(b.counters().get(Counter.RX_DUPLICATE)).isPositive();
    }

    // ---------------------------------------------------------------- helpers

    private Completion runUntilCompletion(final Endpoint endpoint) {
        return runUntilCompletions(endpoint, 1).get(0);
    }

    private List<Completion> runUntilCompletions(final Endpoint endpoint, final int count) {
        final List<Completion> completions = new ArrayList<>();
        final boolean done = network.runUntil(
                () -> {
                    completions.addAll(endpoint.pollCompletions(count - completions.size()));
                    return completions.size() >= count;
                },
                network.nowNs() + LIMIT_NS);
        assertThat(done)
                .as("completions within the time limit; counters A=%s B=%s", a.counters(), b.counters())
                .isTrue();
        return completions;
    }

    private static void fill(final MemoryRegion region, final long seed) {
        final byte[] bytes = new byte[region.length()];
        new Random(seed).nextBytes(bytes);
        region.memory().put(0, bytes);
    }

    /** Compares two ranges and names the first differing index instead of printing both arrays. */
    private static void assertSameBytes(
            final MemoryRegion actual,
            final int actualIndex,
            final MemoryRegion expected,
            final int expectedIndex,
            final int length) {
        final int mismatch =
                java.util.Arrays.mismatch(bytes(actual, actualIndex, length), bytes(expected, expectedIndex, length));
        assertThat(mismatch).as("first differing byte of %d", length).isEqualTo(-1);
    }

    private static byte[] bytes(final MemoryRegion region, final int index, final int length) {
        final byte[] bytes = new byte[length];
        region.memory().get(index, bytes);
        return bytes;
    }

    @SuppressWarnings("unused")
    private static Packet decode(final ByteBuffer buffer) {
        return Packet.fromBytes(buffer.array());
    }
}
