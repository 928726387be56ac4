package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketEncoder;
import org.mrconf.wire.PacketFlags;

/**
 * The reference as a test oracle must not be fooled by a peer that breaks the rules, nor let memory the
 * application has taken back reach the wire or receive bytes. Each test is a packet sequence found in
 * review (invalidated receive and READ buffers, duplicate segments under new PSNs, a NACK for a READ
 * response, inconsistent RSNs, guessed sink handles, a caller buffer with a short limit).
 */
class AdversarialPeerTest {
    private static final int LOCAL = 7;
    private static final int PEER = 9;

    private final PacketEncoder encoder = new PacketEncoder();
    private final ByteBuffer scratch = ByteBuffer.allocate(9000);
    private final List<Packet> sent = new ArrayList<>();
    private long now = 1_000_000;
    private Endpoint endpoint;

    @BeforeEach
    void setUp() {
        endpoint = new Endpoint(
                EndpointConfig.defaults(),
                (dst, port, ecn, buffer, offset, length) -> {
                    final byte[] bytes = new byte[length];
                    buffer.get(offset, bytes);
                    sent.add(Packet.fromBytes(bytes));
                },
                () -> now);
        endpoint.createConnection(ConnectionConfig.of(LOCAL, PEER, 0, 1, 1));
    }

    @Test
    void shouldNotPlaceASendIntoAnInvalidatedReceiveBuffer() {
        final MemoryRegion region = endpoint.registerRegion(0x1000, 64, AccessFlags.LOCAL_WRITE);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1000, 64, 11);
        endpoint.invalidateRegion(region.key());

        deliver(data(Opcode.SEND, 0, 0, 16, 0, fill(16, 0x41), 0, 0, 0));

        assertThat(region.memory().get(0)).isZero();
        assertThat(endpoint.pollCompletion())
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(11L, WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
        assertThat(nacks()).extracting(NackPacket::code).containsExactly(NackCode.REMOTE_ACCESS);
    }

    @Test
    void shouldNotPlaceAReadResponseIntoAnInvalidatedSink() {
        final MemoryRegion region = endpoint.registerRegion(0x2000, 64, AccessFlags.LOCAL_WRITE);
        endpoint.postRead(LOCAL, 0, region.key(), 0x2000, 16, 0x9000, 0x1234, 22);
        endpoint.onWakeup(now);
        endpoint.invalidateRegion(region.key());

        deliver(data(Opcode.READ_RESPONSE, 0, 0, 16, 0, fill(16, 0x42), 0, 0, 1));

        assertThat(region.memory().get(0)).isZero();
        assertThat(endpoint.pollCompletion())
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(22L, WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
    }

    @Test
    void shouldNotCompleteAMessageFromTheSameSegmentTwice() {
        final MemoryRegion region =
                endpoint.registerRegion(0x3000, 256, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final long key = region.key() & 0xFFFF_FFFFL;

        deliver(data(Opcode.WRITE_WITH_IMMEDIATE, 0, 0, 128, 0, fill(64, 0x43), 0x3000, key, 77));
        deliver(data(Opcode.WRITE_WITH_IMMEDIATE, 1, 0, 128, 0, fill(64, 0x43), 0x3000, key, 77));

        assertThat(endpoint.pollCompletion())
                .as("64 of 128 bytes arrived, twice")
                .isNull();
        deliver(data(Opcode.WRITE_WITH_IMMEDIATE, 2, 0, 128, 64, fill(64, 0x44), 0x3000, key, 77));
        assertThat(endpoint.pollCompletion())
                .extracting(Completion::type, Completion::byteLength)
                .containsExactly(WorkCompletionType.RECEIVE_IMMEDIATE, 128L);
    }

    @Test
    void shouldNotSendAnInvalidatedRegionsBytesInARetransmission() {
        final MemoryRegion region = endpoint.registerRegion(0x4000, 8192, AccessFlags.REMOTE_READ);
        region.memory().put(0, fill(8192, 0x11));
        deliver(data(Opcode.READ_REQUEST, 0, 0, 8000, 0, new byte[0], 0x4000, region.key() & 0xFFFF_FFFFL, 5));
        endpoint.onWakeup(now);
        endpoint.invalidateRegion(region.key());
        region.memory().put(0, fill(8192, 0x99)); // the application reuses the memory
        sent.clear();
        now += 1000;

        final AckFlyweight ack = encoder.ack(scratch, 0)
                .destinationConnectionId(LOCAL)
                .pathId(0)
                .echoedTimestamp(now & 0xFFFF_FFFFL)
                .rateHint(AckFlyweight.RATE_HINT_NO_LIMIT);
        ack.cumulativePsn(0);
        ack.sackBit(1, true);
        deliver(encoder.finish(scratch, 0, Opcode.ACK.packetLength(0)));
        endpoint.onWakeup(now + 100_000);

        assertThat(sent).noneMatch(p -> p instanceof DataPacket d && d.opcode() == Opcode.READ_RESPONSE);
        assertThat(endpoint.isConnectionUp(LOCAL))
                .as("a PSN cannot be withdrawn: the connection fails")
                .isFalse();
    }

    @Test
    void shouldFailOnlyTheReadResponseANackNames() {
        final MemoryRegion source = endpoint.registerRegion(0x5000, 64, 0);
        final MemoryRegion readable = endpoint.registerRegion(0x6000, 64, AccessFlags.REMOTE_READ);
        endpoint.postWrite(LOCAL, 0, source.key(), 0x5000, 16, 0xABC000, 0x55, 33); // stream 0, MSN 0, PSN 0
        endpoint.onWakeup(now);
        deliver(data(Opcode.READ_REQUEST, 0, 0, 16, 0, new byte[0], 0x6000, readable.key() & 0xFFFF_FFFFL, 5));
        endpoint.onWakeup(now);
        final long responsePsn = sent.stream()
                .filter(p -> p instanceof DataPacket d && d.opcode() == Opcode.READ_RESPONSE)
                .map(p -> p.header().psn())
                .findFirst()
                .orElseThrow();

        encoder.nack(scratch, 0)
                .destinationConnectionId(LOCAL)
                .pathId(0)
                .psn(responsePsn)
                .code(NackCode.INVALID_REQUEST)
                .streamId(0)
                .messageSequenceNumber(0)
                .cumulativePsn(0);
        deliver(encoder.finish(scratch, 0, Opcode.NACK.packetLength(0)));

        assertThat(endpoint.pollCompletion())
                .as("the local WRITE with the same stream and MSN is untouched")
                .isNull();
    }

    @Test
    void shouldFailASinglePacketWriteThatTheReceiverNacks() {
        final MemoryRegion source = endpoint.registerRegion(0x5000, 64, 0);
        endpoint.postWrite(LOCAL, 0, source.key(), 0x5000, 16, 0xABC000, 0x55, 44); // its only PSN is 0
        endpoint.onWakeup(now);

        encoder.nack(scratch, 0)
                .destinationConnectionId(LOCAL)
                .pathId(0)
                .psn(0)
                .code(NackCode.REMOTE_ACCESS)
                .streamId(0)
                .messageSequenceNumber(0)
                .cumulativePsn(0);
        deliver(encoder.finish(scratch, 0, Opcode.NACK.packetLength(0)));

        assertThat(endpoint.pollCompletion())
                .as("7.5.8: the NACK's reason, although the NACK also settles the message's last PSN")
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(44L, WorkCompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    void shouldRefuseAMessageWhosePacketsNameDifferentReceives() {
        final MemoryRegion region = endpoint.registerRegion(0x1000, 128, AccessFlags.LOCAL_WRITE);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1000, 32, 100);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1040, 32, 101);

        deliver(data(Opcode.SEND, 0, 0, 32, 0, fill(16, 0x41), 0, 0, 0));
        sent.clear();
        deliver(data(Opcode.SEND, 1, 0, 32, 16, fill(16, 0x42), 0, 0, 1)); // same MSN, other RSN
        // The agreement row of Table 5-13 (step 6 of clause 5.6.6): that packet alone is refused; the message keeps
        // its first packet's RSN and is not finished by it (clause 7.5.6, Open Draft 0.12).
        assertThat(nacks()).extracting(NackPacket::code).containsExactly(NackCode.INVALID_REQUEST);
        deliver(data(Opcode.SEND, 2, 0, 32, 16, fill(16, 0x44), 0, 0, 0)); // the honest second half
        deliver(data(Opcode.SEND, 3, 1, 32, 0, fill(32, 0x43), 0, 0, 1)); // the honest next message

        assertThat(endpoint.pollCompletions(4))
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(100L, WorkCompletionStatus.SUCCESS),
                        org.assertj.core.groups.Tuple.tuple(101L, WorkCompletionStatus.SUCCESS));
        final byte[] first = new byte[32];
        region.memory().get(0, first);
        assertThat(first)
                .as("the refused packet placed nothing")
                .containsOnly(0x41, 0x44)
                .doesNotContain(0x42);
        final byte[] second = new byte[32];
        region.memory().get(0x40, second);
        assertThat(second).containsOnly(0x43);
    }

    @Test
    void shouldCompleteEachReceiveOnceWhenSendsNameReceivesOutOfOrder() {
        final MemoryRegion region = endpoint.registerRegion(0x1000, 128, AccessFlags.LOCAL_WRITE);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1000, 32, 100);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1040, 32, 101);

        // MSN 1 names RSN 0 and MSN 0 names RSN 1: each receive is used once, in MSN order of completion.
        deliver(data(Opcode.SEND, 0, 1, 32, 0, fill(32, 0x41), 0, 0, 0));
        deliver(data(Opcode.SEND, 1, 0, 32, 0, fill(32, 0x42), 0, 0, 1));
        // MSN 2 names RSN 1 again, which MSN 0 already consumed; it must not land in that buffer.
        sent.clear();
        deliver(ackRequested(data(Opcode.SEND, 2, 2, 32, 0, fill(32, 0x43), 0, 0, 1)));

        assertThat(endpoint.pollCompletions(8))
                .extracting(Completion::workRequestId, Completion::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(101L, WorkCompletionStatus.SUCCESS),
                        org.assertj.core.groups.Tuple.tuple(100L, WorkCompletionStatus.SUCCESS));
        final byte[] second = new byte[32];
        region.memory().get(0x40, second);
        assertThat(second).as("MSN 0's bytes stay in RSN 1's buffer").containsOnly(0x42);
        assertThat(nacks()).extracting(NackPacket::code).containsExactly(NackCode.INVALID_REQUEST);
        assertThat(sent).as("the requested ACK still leaves").anyMatch(AckPacket.class::isInstance);
    }

    @Test
    void shouldRefuseASendNamingAReceiveAnotherMessageHolds() {
        final MemoryRegion region = endpoint.registerRegion(0x1000, 128, AccessFlags.LOCAL_WRITE);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1000, 32, 100);
        endpoint.postReceive(LOCAL, 0, region.key(), 0x1040, 32, 101);

        deliver(data(Opcode.SEND, 0, 1, 32, 0, fill(16, 0x41), 0, 0, 1)); // MSN 1 holds RSN 1, half placed
        deliver(data(Opcode.SEND, 1, 2, 32, 0, fill(32, 0x43), 0, 0, 1)); // MSN 2 names RSN 1 as well

        final byte[] second = new byte[32];
        region.memory().get(0x40, second);
        assertThat(Arrays.copyOfRange(second, 16, 32))
                .as("MSN 2 did not write into MSN 1's buffer")
                .containsOnly(0);
        assertThat(nacks()).extracting(NackPacket::code).containsExactly(NackCode.INVALID_REQUEST);
    }

    @Test
    void shouldQueueNoMoreReadResponsesThanTheOutstandingLimit() {
        final MemoryRegion readable = endpoint.registerRegion(0x6000, 64, AccessFlags.REMOTE_READ);
        final int limit = EndpointConfig.defaults().maxOutstandingMessages();

        for (int i = 0; i < 4 * limit; i++) { // no ACK ever comes back: nothing the DUT sends leaves its window
            deliver(data(Opcode.READ_REQUEST, i, i, 16, 0, new byte[0], 0x6000, readable.key() & 0xFFFF_FFFFL, i));
        }

        assertThat(endpoint.diagnostics().queuedMessages()).isLessThanOrEqualTo(limit);
        assertThat(endpoint.counters().get(Counter.RX_DROPPED_NO_STATE)).isPositive();
    }

    @Test
    void shouldNotAcceptAReadResponseBeforeItsRequestWasSent() {
        final MemoryRegion region = endpoint.registerRegion(0x2000, 64, AccessFlags.LOCAL_WRITE);
        endpoint.postRead(LOCAL, 0, region.key(), 0x2000, 16, 0x9000, 0x1234, 22); // not yet sent: no wake-up

        deliver(data(Opcode.READ_RESPONSE, 0, 0, 16, 0, fill(16, 0x42), 0, 0, 1)); // a guessed sink handle

        assertThat(region.memory().get(0)).isZero();
        // Clause 7.4.4 (Open Draft 0.12): no READ is in progress before its request's first transmission: stale.
        assertThat(nacks()).isEmpty();
        assertThat(endpoint.counters().get(Counter.RX_STALE)).isEqualTo(1);
    }

    @Test
    void shouldUseTheWholeCapacityOfACallersBuffer() {
        final ByteBuffer memory = ByteBuffer.allocate(64);
        memory.limit(32);
        final MemoryRegion region = endpoint.registerRegion(0x7000, memory, AccessFlags.REMOTE_WRITE);

        assertThatCode(() -> deliver(
                        data(Opcode.WRITE, 0, 0, 16, 0, fill(16, 1), 0x7000 + 40, region.key() & 0xFFFF_FFFFL, 0)))
                .doesNotThrowAnyException();
        assertThat(region.memory().get(40)).isEqualTo((byte) 1);
    }

    // ---------------------------------------------------------------- helpers

    private int data(
            final Opcode opcode,
            final long psn,
            final long msn,
            final long messageLength,
            final long offset,
            final byte[] payload,
            final long address,
            final long key,
            final long extra) {
        final DataHeaderFlyweight header = encoder.data(scratch, 0, opcode)
                .destinationConnectionId(LOCAL)
                .pathId(0)
                .psn(psn)
                .streamId(0)
                .payloadLength(payload.length)
                .messageSequenceNumber(msn)
                .messageLength(messageLength)
                .messageOffset(offset)
                .transmitTimestamp(now & 0xFFFF_FFFFL);
        switch (opcode) {
            case WRITE -> header.remoteAddress(address).remoteKey(key);
            case WRITE_WITH_IMMEDIATE ->
                header.remoteAddress(address).remoteKey(key).immediate(extra);
            case SEND -> header.receiveSequenceNumber(extra);
            case READ_REQUEST -> header.remoteAddress(address).remoteKey(key).sinkHandle(extra);
            case READ_RESPONSE -> header.sinkHandle(extra);
            default -> throw new IllegalArgumentException(opcode.toString());
        }
        return encoder.finishWithPayload(scratch, 0, ByteBuffer.wrap(payload));
    }

    /** Sets ACK_REQUEST on the packet just encoded and recomputes its CRC. */
    private int ackRequested(final int length) {
        final DataHeaderFlyweight header = new DataHeaderFlyweight();
        header.wrap(scratch, 0);
        header.flags(header.flags() | PacketFlags.ACK_REQUEST);
        return encoder.finish(scratch, 0, length);
    }

    private void deliver(final int length) {
        endpoint.onPacket(0, 50000, 0, scratch, 0, length, now);
    }

    private List<NackPacket> nacks() {
        return sent.stream()
                .filter(NackPacket.class::isInstance)
                .map(NackPacket.class::cast)
                .toList();
    }

    private static byte[] fill(final int length, final int value) {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
