package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Property-style round trips: encode, decode, compare, over seeded random packets and every field boundary. */
class PacketRoundTripTest {
    private static final int ITERATIONS = 400;

    private final PacketEncoder encoder = new PacketEncoder();
    private final PacketDecoder decoder = new PacketDecoder();
    private final DecodedPacket decoded = new DecodedPacket();

    static Stream<Arguments> seedsAndOpcodes() {
        return LongStream.of(1, 2, 3, 0x5EED, 0xC0FFEE)
                .boxed()
                .flatMap(seed -> Arrays.stream(Opcode.values()).map(opcode -> Arguments.of(seed, opcode)));
    }

    /** Encodes into a random kind of buffer at a random offset, decodes, and converts back to a record. */
    private Packet roundTrip(Packet packet, RandomPackets random) {
        int offset = random.random().nextInt(16);
        int capacity = offset + packet.encodedLength() + random.random().nextInt(8);
        ByteBuffer buf =
                random.random().nextBoolean() ? ByteBuffer.allocate(capacity) : ByteBuffer.allocateDirect(capacity);
        buf.order(random.random().nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int length = packet.encode(encoder, buf, offset);
        assertThat(length).isEqualTo(packet.encodedLength());
        DecodeStatus status = decoder.decode(buf, offset, length, decoded);
        assertThat(status).as("%s: %s", packet, decoded.error()).isEqualTo(DecodeStatus.OK);
        assertThat(decoded.opcode()).isEqualTo(packet.opcode());
        assertThat(decoded.packetOffset()).isEqualTo(offset);
        assertThat(decoded.packetLength()).isEqualTo(length);
        return Packet.from(decoded);
    }

    private Packet roundTrip(Packet packet) {
        return roundTrip(packet, new RandomPackets(packet.hashCode()));
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("seedsAndOpcodes")
    void shouldRoundTripRandomPackets(long seed, Opcode opcode) {
        RandomPackets random = new RandomPackets(seed * 31 + opcode.value());
        for (int i = 0; i < ITERATIONS; i++) {
            Packet packet = random.packet(opcode);
            assertThat(roundTrip(packet, random)).isEqualTo(packet);
        }
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldRoundTripTheLargestPsnAndEveryFieldAtItsMaximum(Opcode opcode) {
        CommonHeader header = new CommonHeader(0x1F, 0xFFFF, 0xFFFF_FFFFL, 255, WireConstants.MAX_PSN);
        long max = 0xFFFF_FFFFL;
        Packet packet = switch (opcode) {
            case WRITE -> DataPacket.write(header, 0xFFFF, max, max, max, max, -1L, max, new byte[0]);
            case WRITE_WITH_IMMEDIATE ->
                DataPacket.writeWithImmediate(header, 0xFFFF, max, max, max, max, -1L, max, max, new byte[0]);
            case SEND -> DataPacket.send(header, 0xFFFF, max, max, max, max, max, new byte[0]);
            case READ_REQUEST -> DataPacket.readRequest(header, 0xFFFF, max, max, max, -1L, max, max);
            case READ_RESPONSE -> DataPacket.readResponse(header, 0xFFFF, max, max, max, max, max, new byte[0]);
            case ACK -> new AckPacket(header, max, 0xFFFF, max, new long[] {-2L, -1L, -1L, -1L});
            case NACK -> new NackPacket(header, NackCode.PSN_OUT_OF_WINDOW, 0xFFFF, max, max, max);
            case PROBE -> new ProbePacket(header, max);
        };
        assertThat(roundTrip(packet)).isEqualTo(packet);
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldRoundTripEveryFieldAtZero(Opcode opcode) {
        CommonHeader header = CommonHeader.of(0, 0, 0);
        Packet packet = switch (opcode) {
            case ACK -> AckPacket.of(header, 0, 0, 0);
            case NACK -> new NackPacket(header, NackCode.REMOTE_ACCESS, 0, 0, 0, 0);
            case PROBE -> new ProbePacket(header, 0);
            default -> new DataPacket(opcode, header, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, new byte[0]);
        };
        assertThat(roundTrip(packet)).isEqualTo(packet);
    }

    @Test
    void shouldWrapThePsnModulo2To32() {
        ByteBuffer buf = ByteBuffer.allocate(64);
        ProbeFlyweight probe = encoder.probe(buf, 0).psn(WireConstants.MAX_PSN);
        assertThat(probe.psn()).isEqualTo(0xFFFF_FFFFL);
        probe.psn(probe.psn() + 1);
        assertThat(probe.psn()).isZero();
        assertThat(AckFlyweight.sackPsn(0xFFFF_FFF0L, 15)).isEqualTo(0xFFFF_FFFFL);
        assertThat(AckFlyweight.sackPsn(0xFFFF_FFF0L, 16)).isZero();
        assertThat(AckFlyweight.sackPsn(0xFFFF_FFFFL, 255)).isEqualTo(254);
    }

    @Test
    void shouldRoundTripAnAckWhoseSackWindowWrapsThePsnSpace() {
        AckPacket ack = AckPacket.of(CommonHeader.of(7, 3, 0xFFFF_FF80L), 1, 2, 3, 127, 128, 255);
        AckPacket back = (AckPacket) roundTrip(ack);
        assertThat(back).isEqualTo(ack);
        assertThat(Arrays.stream(back.sackBits()).mapToLong(bit -> AckFlyweight.sackPsn(back.cumulativePsn(), bit)))
                .containsExactly(0xFFFF_FFFFL, 0L, 127L);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"WRITE", "WRITE_WITH_IMMEDIATE", "READ_REQUEST"})
    void shouldRoundTripFullSixtyFourBitAddresses(Opcode opcode) {
        for (long address : new long[] {0xFFFF_FFFF_FFFF_FFFFL, 0x8000_0000_0000_0000L, 0x7FFF_FFFF_FFFF_FFFFL, 1L}) {
            Packet packet =
                    new DataPacket(opcode, CommonHeader.of(1, 2, 3), 0, 0, 0, 0, 0, address, 0, 0, 0, 0, new byte[0]);
            assertThat(((DataPacket) roundTrip(packet)).remoteAddress()).isEqualTo(address);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_RESPONSE"})
    void shouldRoundTripZeroAndMaximumLengthPayloads(Opcode opcode) {
        for (int length : new int[] {0, 1, WireConstants.MAX_PAYLOAD_LENGTH}) {
            byte[] payload = new byte[length];
            new java.util.Random(length).nextBytes(payload);
            Packet packet =
                    new DataPacket(opcode, CommonHeader.of(1, 2, 3), 0, 0, length, 0, 0, 0, 0, 0, 0, 0, payload);
            DataPacket back = (DataPacket) roundTrip(packet);
            assertThat(back).isEqualTo(packet);
            assertThat(decoded.payloadLength()).isEqualTo(length);
            assertThat(decoded.payloadIndex()).isEqualTo(decoded.packetOffset() + opcode.headerLength());
            assertThat(decoded.packetLength()).isEqualTo(opcode.headerLength() + length + WireConstants.TRAILER_LENGTH);
        }
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldRoundTripAllPathIds(Opcode opcode) {
        RandomPackets random = new RandomPackets(opcode.value());
        for (int path = 0; path < WireConstants.MAX_PATHS; path++) {
            Packet packet = random.packet(opcode);
            packet = withHeader(
                    packet,
                    new CommonHeader(
                            packet.header().version(),
                            packet.header().flags(),
                            packet.header().destinationConnectionId(),
                            path,
                            packet.header().psn()));
            assertThat(roundTrip(packet, random).header().pathId()).isEqualTo(path);
        }
    }

    @Test
    void shouldRoundTripEverySackBitAlone() {
        for (int bit = 1; bit < WireConstants.SACK_BITS; bit++) {
            AckPacket ack = AckPacket.of(CommonHeader.of(1, 2, 3), 0, 0, 0, bit);
            AckPacket back = (AckPacket) roundTrip(ack);
            assertThat(back.sackBits()).containsExactly(bit);
            assertThat(decoded.ack().sackBit(bit)).isTrue();
            assertThat(decoded.ack().sackCount()).isOne();
            assertThat(decoded.buffer().get(decoded.packetOffset() + AckFlyweight.SACK_BITMAP_OFFSET + bit / 8))
                    .as("bit %d is bit %d of its byte", bit, bit % 8)
                    .isEqualTo((byte) (1 << (bit % 8)));
        }
    }

    @Test
    void shouldRoundTripAllSackBitsButTheFirst() {
        int[] all = java.util.stream.IntStream.range(1, WireConstants.SACK_BITS).toArray();
        AckPacket ack = AckPacket.of(CommonHeader.of(1, 2, 3), 0, 0, 0, all);
        assertThat(roundTrip(ack)).isEqualTo(ack);
        assertThat(decoded.ack().sackCount()).isEqualTo(255);
        assertThat(decoded.ack().sackWord(0)).isEqualTo(-2L);
    }

    @ParameterizedTest
    @EnumSource(NackCode.class)
    void shouldRoundTripEveryNackCode(NackCode code) {
        NackPacket nack = new NackPacket(CommonHeader.of(1, 2, 3), code, 4, 5, 6, 7);
        assertThat(roundTrip(nack)).isEqualTo(nack);
    }

    private static Packet withHeader(Packet packet, CommonHeader header) {
        // Java 17 has no pattern matching for switch, hence the instanceof chain.
        if (packet instanceof DataPacket d) {
            return new DataPacket(
                    d.opcode(),
                    header,
                    d.streamId(),
                    d.messageSequenceNumber(),
                    d.messageLength(),
                    d.messageOffset(),
                    d.transmitTimestamp(),
                    d.remoteAddress(),
                    d.remoteKey(),
                    d.immediate(),
                    d.receiveSequenceNumber(),
                    d.sinkHandle(),
                    d.payload());
        }
        if (packet instanceof AckPacket a) {
            return new AckPacket(header, a.echoedTimestamp(), a.ceCount(), a.rateHint(), a.sackWords());
        }
        if (packet instanceof NackPacket n) {
            return new NackPacket(
                    header, n.code(), n.streamId(), n.messageSequenceNumber(), n.cumulativePsn(), n.retryAfter());
        }
        return new ProbePacket(header, ((ProbePacket) packet).transmitTimestamp());
    }
}
