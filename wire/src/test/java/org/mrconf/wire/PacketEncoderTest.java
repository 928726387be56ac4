package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Golden bytes: the encoder's flyweights write exactly the hand-written packets of {@link GoldenPackets}. */
class PacketEncoderTest {
    private final PacketEncoder encoder = new PacketEncoder();

    /** Builds the golden packet of {@code opcode} field by field at {@code offset}; returns its length. */
    private int buildGolden(Opcode opcode, ByteBuffer buf, int offset) {
        switch (opcode) {
            case WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_RESPONSE -> {
                DataHeaderFlyweight h = encoder.data(buf, offset, opcode)
                        .flags(PacketFlags.RETRANSMISSION)
                        .destinationConnectionId(0x11223344L)
                        .pathId(0x55)
                        .psn(0x66778899L)
                        .streamId(0xAABB)
                        .payloadLength(4)
                        .messageSequenceNumber(0x01020304L)
                        .messageLength(0x0A0B0C0DL)
                        .messageOffset(0x100)
                        .transmitTimestamp(0xCAFEBABEL);
                if (opcode == Opcode.READ_RESPONSE) {
                    h.flags(PacketFlags.NONE).sinkHandle(0x2468ACE0L);
                } else if (opcode == Opcode.SEND) {
                    h.receiveSequenceNumber(0x13579BDFL);
                } else {
                    h.remoteAddress(0x0123456789ABCDEFL).remoteKey(0xDEADBEEFL);
                }
                if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
                    h.immediate(0xFEEDFACEL);
                }
                buf.put(h.payloadIndex(), GoldenPackets.PAYLOAD);
                return encoder.finish(buf, offset, opcode.packetLength(4));
            }
            case READ_REQUEST -> {
                encoder.data(buf, offset, opcode)
                        .destinationConnectionId(0x11223344L)
                        .pathId(0x55)
                        .psn(0x66778899L)
                        .streamId(0xAABB)
                        .messageSequenceNumber(0x01020304L)
                        .messageLength(0x00100000L)
                        .transmitTimestamp(0xCAFEBABEL)
                        .remoteAddress(0x0123456789ABCDEFL)
                        .remoteKey(0xDEADBEEFL)
                        .sinkHandle(0x2468ACE0L);
                return encoder.finish(buf, offset, opcode.packetLength(0));
            }
            case ACK -> {
                encoder.ack(buf, offset)
                        .destinationConnectionId(0x11223344L)
                        .pathId(0x55)
                        .cumulativePsn(0x66778899L)
                        .echoedTimestamp(0xCAFEBABEL)
                        .ceCount(0x1234)
                        .rateHint(40_000)
                        .sackBit(1, true)
                        .sackBit(8, true)
                        .sackBit(63, true)
                        .sackBit(64, true)
                        .sackBit(255, true);
                return encoder.finish(buf, offset, opcode.packetLength(0));
            }
            case NACK -> {
                encoder.nack(buf, offset)
                        .destinationConnectionId(0x11223344L)
                        .pathId(0x55)
                        .psn(0x66778899L)
                        .code(NackCode.RECEIVER_NOT_READY)
                        .streamId(0xAABB)
                        .messageSequenceNumber(0x01020304L)
                        .cumulativePsn(0x66778890L)
                        .retryAfter(1000);
                return encoder.finish(buf, offset, opcode.packetLength(0));
            }
            case PROBE -> {
                encoder.probe(buf, offset)
                        .destinationConnectionId(0x11223344L)
                        .pathId(0x55)
                        .psn(0x66778899L)
                        .transmitTimestamp(0xCAFEBABEL);
                return encoder.finish(buf, offset, opcode.packetLength(0));
            }
            default -> throw new AssertionError(opcode);
        }
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldWriteGoldenBytesFieldByField(Opcode opcode) {
        byte[] expected = GoldenPackets.bytes(opcode);
        ByteBuffer buf = ByteBuffer.allocate(128);
        int length = buildGolden(opcode, buf, 0);
        assertThat(length).isEqualTo(expected.length);
        assertThat(Hex.hex(Arrays.copyOf(buf.array(), length))).isEqualTo(Hex.hex(expected));
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldWriteTheSameBytesInAnyBufferKindOrderAndOffset(Opcode opcode) {
        byte[] expected = GoldenPackets.bytes(opcode);
        BiFunction<Integer, Boolean, ByteBuffer> kinds =
                (capacity, direct) -> direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        for (boolean direct : new boolean[] {false, true}) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                ByteBuffer buf = kinds.apply(200, direct).order(order);
                buf.position(3).limit(190);
                int length = buildGolden(opcode, buf, 37);
                byte[] written = new byte[length];
                buf.get(37, written);
                assertThat(Hex.hex(written))
                        .as("direct=%s order=%s", direct, order)
                        .isEqualTo(Hex.hex(expected));
                assertThat(buf.position()).isEqualTo(3);
                assertThat(buf.limit()).isEqualTo(190);
                assertThat(buf.order()).isEqualTo(order);
            }
        }
    }

    @Test
    void shouldZeroStaleHeaderBytesWhenStartingAPacket() {
        ByteBuffer buf = ByteBuffer.allocate(128);
        Arrays.fill(buf.array(), (byte) 0x5A);
        int length = buildGolden(Opcode.NACK, buf, 0);
        assertThat(Hex.hex(Arrays.copyOf(buf.array(), length))).isEqualTo(Hex.hex(GoldenPackets.bytes(Opcode.NACK)));
        assertThat(buf.get(length))
                .as("bytes after the packet are not the encoder's")
                .isEqualTo((byte) 0x5A);
    }

    @Test
    void shouldCopyPayloadWithoutMovingItsPosition() {
        ByteBuffer payload = ByteBuffer.wrap(new byte[] {9, 9, (byte) 0xf0, (byte) 0xf1, (byte) 0xf2, (byte) 0xf3});
        payload.position(2);
        ByteBuffer buf = ByteBuffer.allocate(128);
        encoder.data(buf, 0, Opcode.SEND)
                .flags(PacketFlags.RETRANSMISSION)
                .destinationConnectionId(0x11223344L)
                .pathId(0x55)
                .psn(0x66778899L)
                .streamId(0xAABB)
                .payloadLength(4)
                .messageSequenceNumber(0x01020304L)
                .messageLength(0x0A0B0C0DL)
                .messageOffset(0x100)
                .transmitTimestamp(0xCAFEBABEL)
                .receiveSequenceNumber(0x13579BDFL);
        int length = encoder.finishWithPayload(buf, 0, payload);
        assertThat(Hex.hex(Arrays.copyOf(buf.array(), length))).isEqualTo(Hex.hex(GoldenPackets.bytes(Opcode.SEND)));
        assertThat(payload.position()).isEqualTo(2);
    }

    @Test
    void shouldSetAckRequestOnNewProbes() {
        ProbeFlyweight probe = encoder.probe(ByteBuffer.allocate(64), 0);
        assertThat(probe.flags()).isEqualTo(PacketFlags.ACK_REQUEST);
    }

    @Test
    void shouldWriteUnknownOpcodesAndInvalidValuesForTheTesterPeer() {
        ByteBuffer buf = ByteBuffer.allocate(64);
        encoder.header(buf, 0, 0x7F, 24)
                .version(0x2F)
                .flags(0xFFFF)
                .reserved1(0xEE)
                .reserved2(0xDDCC)
                .rawU32(16, 0xA1B2C3D4L);
        int length = encoder.finish(buf, 0, 28);
        byte[] bytes = Arrays.copyOf(buf.array(), length);
        assertThat(Hex.hex(Arrays.copyOf(bytes, 24)))
                .isEqualTo("2f7fffff" + "00000000" + "00eeddcc" + "00000000" + "a1b2c3d4" + "00000000");
        assertThat(new Crc32cTrailer().verify(buf, 0, length)).isTrue();
    }

    @Test
    void shouldRefuseADataHeaderForOpcodesWithoutOne() {
        assertThatThrownBy(() -> encoder.data(ByteBuffer.allocate(64), 0, Opcode.ACK))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseToGuessTheHeaderLengthOfAnUnknownOpcode() {
        ByteBuffer buf = ByteBuffer.allocate(64);
        encoder.header(buf, 0, 0x7F, 16);
        assertThatThrownBy(() -> encoder.finishWithPayload(buf, 0, ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
