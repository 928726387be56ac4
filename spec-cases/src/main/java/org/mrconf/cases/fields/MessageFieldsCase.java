package org.mrconf.cases.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * Rows of Table 5-13 about a stream's messages and about NACK codes: an MSN as far ahead as the declared
 * {@code maxOutstandingMessages} is NACKed while one less is placed; a packet that disagrees with the earlier packets
 * of its incomplete message is NACKed and not placed, and the message completes with its first values, while packets
 * that differ only in their remote address are each placed at their own (clause 7.1.1: the address and key are not
 * compared); a NACK with a code outside Table 9-1 is dropped, counted, and fails nothing.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Invalid field values: messages and NACK codes")
class MessageFieldsCase {
    private static final int PATH = 0;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("an MSN maxOutstandingMessages ahead of the lowest incomplete one is NACKed; one less is placed")
    @Verifies("5.6.5")
    void msnTooFarAheadIsNacked(final Testbed testbed) throws Exception {
        final long limit = testbed.profile().conformance().limits().maxOutstandingMessages();
        if (limit >= 1L << 31) {
            throw Inconclusive.because("a limit of 2^31 or more leaves no MSN that is both far ahead and not before");
        }
        final PeerConnection connection = testbed.connection();
        final long lowest = connection.nextMsn(0);
        final byte[] data = Testbed.randomBytes(64, 81);
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final var far = connection.sendNew(
                testbed.write(PATH, Testbed.BASE, testbed.key(), data).msn((lowest + limit) & 0xFFFF_FFFFL), PATH);
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, mark);
        assertThat(nack.code())
                .as("5.6.5: an MSN %d ahead of the lowest incomplete (%d), the declared limit", limit, lowest)
                .isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(nack.header().psn()).as("5.6.5: the NACK names the packet").isEqualTo(far.psn());
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isEqualTo(1);
        TesterMessages.assertMemory(testbed, "5.6.5: nothing placed", testbed.key(), Testbed.BASE, new byte[64]);
        // One less is within the limit: placed on arrival, earlier messages still missing.
        final int accepted = testbed.peer().mark();
        final var near = connection.sendNew(
                testbed.write(PATH, Testbed.BASE + 4096, testbed.key(), data).msn((lowest + limit - 1) & 0xFFFF_FFFFL),
                PATH);
        testbed.peer().await(accepted, PacketMatcher.expect().ack().path(PATH).covers(near.psn()), Testbed.WAIT);
        TesterMessages.assertMemory(
                testbed, "5.6.5: an MSN limit - 1 ahead is placed", testbed.key(), Testbed.BASE + 4096, data);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a packet whose message length disagrees with its message's first packet is NACKed, not placed")
    @Verifies("5.6.5")
    void disagreeingSegmentIsNacked(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int payload = Math.min(1024, connection.maxPayload(Opcode.WRITE));
        final byte[] data = Testbed.randomBytes(2 * payload, 82);
        final long msn = connection.takeMsn(0);
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        connection.sendNew(segment(testbed, msn, data.length, 0, data, payload), PATH);
        // The second segment, claiming a longer message than the first did.
        final var disagreeing = connection.sendNew(segment(testbed, msn, 3 * payload, payload, data, payload), PATH);
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, mark);
        assertThat(nack.code())
                .as("5.6.5: a segment whose message length differs from its message's")
                .isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(nack.header().psn()).isEqualTo(disagreeing.psn());
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isEqualTo(1);
        TesterMessages.assertMemory(
                testbed,
                "5.6.5: the disagreeing segment is not placed",
                testbed.key(),
                Testbed.BASE + payload,
                new byte[payload]);
        // The message keeps its first values: the right second segment completes it.
        final int completes = testbed.peer().mark();
        final var right = connection.sendNew(segment(testbed, msn, data.length, payload, data, payload), PATH);
        testbed.peer().await(completes, PacketMatcher.expect().ack().path(PATH).covers(right.psn()), Testbed.WAIT);
        TesterMessages.assertMemory(testbed, "5.6.5: the message as first declared", testbed.key(), Testbed.BASE, data);
    }

    @Test
    @Kind(Kind.Purpose.VALID)
    @DisplayName("the packets of one WRITE that name different remote addresses are each placed at their own")
    @Verifies("7.1.1")
    @Verifies("5.6.5")
    void eachPacketPlacedAtItsOwnAddress(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int payload = Math.min(1024, connection.maxPayload(Opcode.WRITE));
        final byte[] data = Testbed.randomBytes(2 * payload, 84);
        final long msn = connection.takeMsn(0);
        // Both whole messages lie in the region: [BASE, BASE + 2p) and [elsewhere, elsewhere + 2p).
        final long elsewhere = Testbed.BASE + 4L * payload;
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        connection.sendNew(segment(testbed, msn, data.length, 0, data, payload, testbed.key(), Testbed.BASE), PATH);
        final var second = connection.sendNew(
                segment(testbed, msn, data.length, payload, data, payload, testbed.key(), elsewhere), PATH);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(second.psn()), Testbed.WAIT);
        assertThat(testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().nack()))
                .as("7.1.1: packets of one message that differ only in their remote address are not compared")
                .isEmpty();
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isZero();
        TesterMessages.assertMemory(
                testbed,
                "7.1.1: the first packet at its own address",
                testbed.key(),
                Testbed.BASE,
                java.util.Arrays.copyOfRange(data, 0, payload));
        TesterMessages.assertMemory(
                testbed,
                "7.1.1: the second packet at its own address plus its message offset",
                testbed.key(),
                elsewhere + payload,
                java.util.Arrays.copyOfRange(data, payload, 2 * payload));
        TesterMessages.assertMemory(
                testbed,
                "7.1.1: nothing where the first packet's address would have put the second",
                testbed.key(),
                Testbed.BASE + payload,
                new byte[payload]);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a NACK with a code outside Table 9-1 is dropped and counted; the work request it names completes")
    @Verifies("5.6.5")
    void unknownNackCodeIsDropped(final Testbed testbed) throws Exception {
        final long wrId = 83;
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(64, wrId));
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE, 64),
                        DutTraffic.REMOTE_ADDRESS,
                        DutTraffic.REMOTE_KEY);
        final ReceivedPacket sent = testbed.peer().await(mark, DutTraffic.dataFromDut(), Testbed.WAIT);
        final DataPacket data = sent.data().orElseThrow();
        testbed.peer()
                .send(PacketBuilder.nack(NackCode.REMOTE_ACCESS)
                        .codeValue(0x7F)
                        .connection(Testbed.DUT_CONNECTION)
                        .path(data.header().pathId())
                        .psn(data.header().psn())
                        .stream(data.streamId())
                        .msn(data.messageSequenceNumber())
                        .cumulativePsn(data.header().psn()));
        testbed.awaitGrowth(before, DutCounters.RX_INVALID_FIELD, 1);
        // Then the right answer: the work request completes as if the NACK never came.
        CaseSteps.acknowledge(testbed, sent);
        assertThat(TesterMessages.awaitCompletions(testbed, wrId).get(wrId).status())
                .as("5.6.5: a NACK with code 0x7F changes nothing: the acknowledged WRITE succeeds")
                .isEqualTo(CompletionStatus.SUCCESS);
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                .as("5.6.5: the NACK counted once under rx_invalid_field")
                .isEqualTo(1);
    }

    /** The segment at {@code offset} of a WRITE to the region's base that says its message is {@code length} long. */
    private static PacketBuilder segment(
            final Testbed testbed,
            final long msn,
            final int length,
            final int offset,
            final byte[] data,
            final int payload) {
        return segment(testbed, msn, length, offset, data, payload, testbed.key(), Testbed.BASE);
    }

    /**
     * The segment at {@code offset} of a WRITE of stream 0 to {@code address} with {@code key}, saying its message is
     * {@code length} long; its PSN is the path's next (not consumed: send it with {@code sendNew}).
     */
    static PacketBuilder segment(
            final Testbed testbed,
            final long msn,
            final int length,
            final int offset,
            final byte[] data,
            final int payload,
            final long key,
            final long address) {
        return testbed.connection().packet(Opcode.WRITE, PATH).stream(0)
                .msn(msn)
                .messageLength(length)
                .messageOffset(offset)
                .remoteAddress(address)
                .remoteKey(key)
                .transmitTimestamp(82)
                .payload(java.util.Arrays.copyOfRange(data, offset, offset + payload))
                .ackRequest();
    }
}
