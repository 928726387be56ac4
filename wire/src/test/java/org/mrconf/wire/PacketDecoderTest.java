package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Malformed input: every check of the decoder, in order, and robustness against any bytes. */
class PacketDecoderTest {
    private final PacketDecoder decoder = new PacketDecoder();
    private final DecodedPacket out = new DecodedPacket();

    private DecodeStatus decode(byte[] bytes) {
        return decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length, out);
    }

    /** The golden packet of {@code opcode}, edited, with its CRC recomputed so later checks are reached. */
    private static byte[] edited(Opcode opcode, Consumer<ByteBuffer> edit) {
        return withFreshCrc(GoldenPackets.bytes(opcode), edit);
    }

    private static byte[] withFreshCrc(byte[] bytes, Consumer<ByteBuffer> edit) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        edit.accept(buf);
        new Crc32cTrailer().write(buf, 0, bytes.length);
        return bytes;
    }

    private void assertError(DecodeStatus kind, String field, long actual, long expected) {
        assertThat(out.status()).as("%s", out.error()).isEqualTo(kind);
        assertThat(out.error().kind()).isEqualTo(kind);
        assertThat(out.error().field()).isEqualTo(field);
        assertThat(out.error().actual()).as("actual").isEqualTo(actual);
        assertThat(out.error().expected()).as("expected").isEqualTo(expected);
        assertThat(out.isOk()).isFalse();
        assertThat(out.opcode()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldDecodeGoldenPacketsIntoTheRightFlyweight(Opcode opcode) {
        assertThat(decode(GoldenPackets.bytes(opcode))).isEqualTo(DecodeStatus.OK);
        assertThat(out.opcode()).isEqualTo(opcode);
        assertThat(out.error().kind()).isEqualTo(DecodeStatus.OK);
        assertThat(out.commonHeader().destinationConnectionId()).isEqualTo(0x11223344L);
        assertThat(out.commonHeader().pathId()).isEqualTo(0x55);
        assertThat(out.commonHeader().psn()).isEqualTo(0x66778899L);
        switch (opcode) {
            case ACK -> {
                AckFlyweight ack = out.ack();
                assertThat(ack.cumulativePsn()).isEqualTo(0x66778899L);
                assertThat(ack.echoedTimestamp()).isEqualTo(0xCAFEBABEL);
                assertThat(ack.ceCount()).isEqualTo(0x1234);
                assertThat(ack.rateHint()).isEqualTo(40_000);
                assertThat(ack.sackWord(0)).isEqualTo((1L << 1) | (1L << 8) | (1L << 63));
                assertThat(ack.sackWord(1)).isEqualTo(1L);
                assertThat(ack.sackWord(3)).isEqualTo(1L << 63);
                assertThat(ack.toString()).contains("sack=[1,8,63,64,255]");
            }
            case NACK -> {
                NackFlyweight nack = out.nack();
                assertThat(nack.code()).isEqualTo(NackCode.RECEIVER_NOT_READY);
                assertThat(nack.streamId()).isEqualTo(0xAABB);
                assertThat(nack.messageSequenceNumber()).isEqualTo(0x01020304L);
                assertThat(nack.cumulativePsn()).isEqualTo(0x66778890L);
                assertThat(nack.retryAfter()).isEqualTo(1000);
            }
            case PROBE -> {
                assertThat(out.probe().transmitTimestamp()).isEqualTo(0xCAFEBABEL);
                assertThat(out.probe().hasFlags(PacketFlags.ACK_REQUEST)).isTrue();
            }
            default -> {
                DataHeaderFlyweight data = out.dataHeader();
                assertThat(data.streamId()).isEqualTo(0xAABB);
                assertThat(data.messageSequenceNumber()).isEqualTo(0x01020304L);
                assertThat(data.transmitTimestamp()).isEqualTo(0xCAFEBABEL);
                assertThat(out.payloadIndex()).isEqualTo(opcode.headerLength());
                assertThat(out.payloadLength()).isEqualTo(opcode.carriesPayload() ? 4 : 0);
                if (opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE) {
                    assertThat(data.sinkHandle()).isEqualTo(0x2468ACE0L);
                }
                if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
                    assertThat(data.immediate()).isEqualTo(0xFEEDFACEL);
                }
                if (opcode == Opcode.SEND) {
                    assertThat(data.receiveSequenceNumber()).isEqualTo(0x13579BDFL);
                }
            }
        }
        assertThat(out.toString()).contains(opcode.name());
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldRejectPacketsTruncatedAtEveryLength(Opcode opcode) {
        byte[] full = GoldenPackets.bytes(opcode);
        ByteBuffer buf = ByteBuffer.wrap(full);
        for (int length = 0; length < full.length; length++) {
            DecodeStatus status = decoder.decode(buf, 0, length, out);
            if (length < WireConstants.MIN_PACKET_LENGTH) {
                assertError(DecodeStatus.TRUNCATED, DecodeError.FIELD_PACKET_LENGTH, length, 20);
            } else if (length < opcode.packetLength(0)) {
                assertError(DecodeStatus.TRUNCATED, DecodeError.FIELD_PACKET_LENGTH, length, opcode.packetLength(0));
            } else {
                assertThat(status).as("length %d", length).isEqualTo(DecodeStatus.BAD_CRC);
            }
        }
        assertThat(decoder.decode(buf, 0, full.length, out)).isEqualTo(DecodeStatus.OK);
    }

    @Test
    void shouldReportTruncatedWhenTheBufferCannotHoldTheClaimedBytes() {
        byte[] bytes = GoldenPackets.bytes(Opcode.WRITE);
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        int[][] offsetAndLength = {
            {0, bytes.length + 1},
            {1, bytes.length},
            {-1, 10},
            {0, -1},
            {bytes.length + 1, 0},
            {Integer.MAX_VALUE, 1},
            {1, Integer.MAX_VALUE},
            {Integer.MIN_VALUE, Integer.MIN_VALUE}
        };
        for (int[] args : offsetAndLength) {
            assertThat(decoder.decode(buf, args[0], args[1], out))
                    .as("offset %d length %d", args[0], args[1])
                    .isEqualTo(DecodeStatus.TRUNCATED);
            assertThat(out.error().field()).isEqualTo(DecodeError.FIELD_PACKET_LENGTH);
            assertThat(out.error().bound()).isEqualTo(DecodeError.Bound.AT_MOST);
        }
        buf.limit(bytes.length - 1);
        assertThat(decoder.decode(buf, 0, bytes.length, out))
                .as("limit, not capacity, bounds the packet")
                .isEqualTo(DecodeStatus.TRUNCATED);
        assertError(DecodeStatus.TRUNCATED, DecodeError.FIELD_PACKET_LENGTH, bytes.length, bytes.length - 1);
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldCatchEverySingleBitFlip(Opcode opcode) {
        byte[] bytes = GoldenPackets.bytes(opcode);
        for (int bit = 0; bit < bytes.length * 8; bit++) {
            bytes[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
            DecodeStatus status = decode(bytes);
            bytes[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
            if (bit < 4) {
                assertThat(status).as("bit %d, in the major version", bit).isEqualTo(DecodeStatus.UNSUPPORTED_VERSION);
            } else if (bit >= 8 && bit < 16) {
                // A flipped opcode may name no opcode, or one whose header does not fit: both come before the CRC.
                assertThat(status)
                        .as("bit %d, in the opcode", bit)
                        .isIn(DecodeStatus.UNKNOWN_OPCODE, DecodeStatus.TRUNCATED, DecodeStatus.BAD_CRC);
            } else {
                assertThat(status).as("bit %d", bit).isEqualTo(DecodeStatus.BAD_CRC);
            }
        }
    }

    @Test
    void shouldReportTheStoredAndComputedCrc() {
        byte[] bytes = GoldenPackets.bytes(Opcode.PROBE);
        bytes[23] ^= 0x01;
        decode(bytes);
        assertError(DecodeStatus.BAD_CRC, DecodeError.FIELD_CRC32C, 0x8b07920bL, 0x8b07920aL);
        assertThat(out.error().clause()).isEqualTo("5.6.2");
        assertThat(out.error()).hasToString("BAD_CRC (5.6.2): crc32c = 0x8b07920b, expected == 0x8b07920a");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x01, 0x0F, 0x20, 0x21, 0x90, 0xF0, 0xFF})
    void shouldRejectUnsupportedMajorVersions(int version) {
        decode(edited(Opcode.WRITE, b -> b.put(0, (byte) version)));
        assertError(DecodeStatus.UNSUPPORTED_VERSION, DecodeError.FIELD_VERSION, version >>> 4, 1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x10, 0x11, 0x1A, 0x1F})
    void shouldAcceptAnyMinorVersionOfMajorOne(int version) {
        assertThat(decode(edited(Opcode.ACK, b -> b.put(0, (byte) version)))).isEqualTo(DecodeStatus.OK);
        assertThat(out.ack().versionMinor()).isEqualTo(version & 0x0F);
    }

    @Test
    void shouldRejectEveryUnknownOpcode() {
        for (int value = 0; value < 256; value++) {
            if (Opcode.fromValue(value) != null) {
                continue;
            }
            int opcode = value;
            decode(edited(Opcode.ACK, b -> b.put(1, (byte) opcode)));
            assertError(DecodeStatus.UNKNOWN_OPCODE, DecodeError.FIELD_OPCODE, value, 0);
            assertThat(out.error().bound()).isEqualTo(DecodeError.Bound.KNOWN_VALUE);
        }
    }

    @Test
    void shouldRejectAPacketShorterThanItsOpcodesHeader() {
        decode(edited(Opcode.PROBE, b -> b.put(1, (byte) Opcode.ACK.value())));
        assertError(DecodeStatus.TRUNCATED, DecodeError.FIELD_PACKET_LENGTH, 24, 64);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_RESPONSE"})
    void shouldRejectAPayloadLengthThatDisagreesWithThePacketLength(Opcode opcode) {
        int length = opcode.packetLength(4);
        decode(edited(opcode, b -> b.putShort(DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, (short) 5)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_PACKET_LENGTH, length, length + 1);
        decode(edited(opcode, b -> b.putShort(DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, (short) 3)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_PACKET_LENGTH, length, length - 1);
        decode(edited(opcode, b -> b.putShort(DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, (short) 0xFFFF)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_PACKET_LENGTH, length, 0xFFFF + length - 4);
        assertThat(out.error().clause()).isEqualTo("5.1.3");
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"READ_REQUEST", "ACK", "NACK", "PROBE"})
    void shouldRejectTrailingBytesAfterAFixedLengthHeader(Opcode opcode) {
        byte[] golden = GoldenPackets.bytes(opcode);
        byte[] longer = new byte[golden.length + 1];
        System.arraycopy(golden, 0, longer, 0, golden.length - 4);
        decode(withFreshCrc(longer, b -> {}));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_PACKET_LENGTH, longer.length, golden.length);
    }

    @Test
    void shouldRejectASegmentThatRunsPastItsMessage() {
        // Golden WRITE: message length 0x0A0B0C0D, payload 4; the last valid offset is length - 4.
        assertThat(decode(edited(Opcode.WRITE, b -> b.putInt(28, 0x0A0B0C09)))).isEqualTo(DecodeStatus.OK);
        decode(edited(Opcode.WRITE, b -> b.putInt(28, 0x0A0B0C0A)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_MESSAGE_OFFSET, 0x0A0B0C0EL, 0x0A0B0C0DL);
        assertThat(out.error().clause()).isEqualTo("5.2.2");
        assertThat(out.error().toString()).contains("(message offset + payload length)", "expected <= ");
        // Offset + payload length must not wrap at 32 bits and pass.
        decode(edited(Opcode.SEND, b -> b.putInt(24, 0xFFFFFFFF).putInt(28, 0xFFFFFFFE)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_MESSAGE_OFFSET, 0x1_0000_0002L, 0xFFFF_FFFFL);
        decode(edited(Opcode.READ_RESPONSE, b -> b.putInt(24, 0)));
        assertError(DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_MESSAGE_OFFSET, 0x104, 0);
    }

    @Test
    void shouldAcceptAnEmptySegmentAtTheEndOfAMessage() {
        DataPacket empty = DataPacket.send(CommonHeader.of(1, 2, 3), 0, 0, 100, 100, 0, 0, new byte[0]);
        assertThat(decode(empty.toBytes())).isEqualTo(DecodeStatus.OK);
        assertThat(out.payloadLength()).isZero();
    }

    @Test
    void shouldRejectAReadRequestWithAPayloadOrAnOffset() {
        // Payload length set, no payload bytes: the length is right for READ_REQUEST, the field is not.
        decode(edited(Opcode.READ_REQUEST, b -> b.putShort(DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, (short) 4)));
        assertError(DecodeStatus.INVALID_FIELD, DecodeError.FIELD_PAYLOAD_LENGTH, 4, 0);
        assertThat(out.error().clause()).isEqualTo("5.2.5");
        // Payload length set and payload bytes present: READ_REQUEST has no payload, so the length is wrong.
        byte[] golden = GoldenPackets.bytes(Opcode.READ_REQUEST);
        byte[] withPayload = new byte[golden.length + 4];
        System.arraycopy(golden, 0, withPayload, 0, golden.length - 4);
        decode(withFreshCrc(withPayload, b -> b.putShort(DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, (short) 4)));
        assertError(
                DecodeStatus.INCONSISTENT_LENGTH, DecodeError.FIELD_PACKET_LENGTH, golden.length + 4, golden.length);
        decode(edited(Opcode.READ_REQUEST, b -> b.putInt(DataHeaderFlyweight.MESSAGE_OFFSET_OFFSET, 8)));
        assertError(DecodeStatus.INVALID_FIELD, DecodeError.FIELD_MESSAGE_OFFSET, 8, 0);
    }

    @Test
    void shouldRejectAnAckWithSackBitZeroSet() {
        decode(edited(Opcode.ACK, b -> b.put(AckFlyweight.SACK_BITMAP_OFFSET, (byte) 0x03)));
        assertError(DecodeStatus.INVALID_FIELD, DecodeError.FIELD_SACK_BITMAP, 1, 0);
        assertThat(out.error().clause()).isEqualTo("5.3.2");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x08, 0x10, 0x80, 0xFF})
    void shouldRejectANackWithAnUnknownCode(int code) {
        decode(edited(Opcode.NACK, b -> b.put(NackFlyweight.CODE_OFFSET, (byte) code)));
        assertError(DecodeStatus.INVALID_FIELD, DecodeError.FIELD_CODE, code, 0);
        assertThat(out.commonHeader().opcode()).isEqualTo(Opcode.NACK);
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldIgnoreReservedFieldsAndFlags(Opcode opcode) {
        byte[] bytes = edited(opcode, b -> {
            b.put(CommonHeaderFlyweight.RESERVED_1_OFFSET, (byte) 0xFF)
                    .putShort(CommonHeaderFlyweight.RESERVED_2_OFFSET, (short) 0xFFFF)
                    .putShort(CommonHeaderFlyweight.FLAGS_OFFSET, (short) 0xFFFF);
            if (opcode == Opcode.ACK) {
                b.putShort(AckFlyweight.RESERVED_OFFSET, (short) 0xFFFF);
            } else if (opcode == Opcode.NACK) {
                b.put(NackFlyweight.RESERVED_OFFSET, (byte) 0xFF);
            }
        });
        assertThat(decode(bytes)).isEqualTo(DecodeStatus.OK);
        assertThat(out.commonHeader().flags()).isEqualTo(0xFFFF);
        assertThat(out.commonHeader().reserved1()).isEqualTo(0xFF);
        assertThat(out.commonHeader().reserved2()).isEqualTo(0xFFFF);
    }

    @Test
    void shouldAcceptAProbeWithoutAckRequest() {
        // 5.5.1 obliges the sender; whether a receiver drops such a PROBE is left to the transport.
        assertThat(decode(edited(Opcode.PROBE, b -> b.putShort(2, (short) 0)))).isEqualTo(DecodeStatus.OK);
    }

    @Test
    void shouldStayUsableAfterAnError() {
        byte[] good = GoldenPackets.bytes(Opcode.SEND);
        byte[] bad = GoldenPackets.bytes(Opcode.SEND);
        bad[30] ^= 0x40;
        assertThat(decode(bad)).isEqualTo(DecodeStatus.BAD_CRC);
        assertThat(decode(new byte[3])).isEqualTo(DecodeStatus.TRUNCATED);
        assertThat(decode(good)).isEqualTo(DecodeStatus.OK);
        assertThat(out.error().kind()).isEqualTo(DecodeStatus.OK);
        assertThat(out.error().field()).isEmpty();
        assertThat(out.error()).hasToString("OK");
        assertThat(out.dataHeader().receiveSequenceNumber()).isEqualTo(0x13579BDFL);
    }

    @Test
    void shouldExposeTheCommonHeaderOfARejectedPacketButNoOtherFlyweight() {
        byte[] bytes = GoldenPackets.bytes(Opcode.WRITE);
        bytes[50] ^= 1;
        decode(bytes);
        assertThat(out.commonHeader().psn()).isEqualTo(0x66778899L);
        assertThatThrownBy(out::dataHeader)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("BAD_CRC");
        decode(new byte[10]);
        assertThatThrownBy(out::commonHeader).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldRefuseTheFlyweightOfAnotherOpcode() {
        decode(GoldenPackets.bytes(Opcode.ACK));
        assertThatThrownBy(out::dataHeader)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ACK");
        assertThatThrownBy(out::nack).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(out::probe).isInstanceOf(IllegalStateException.class);
        decode(GoldenPackets.bytes(Opcode.PROBE));
        assertThatThrownBy(out::ack).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldThrowAnIndependentCopyOfTheErrorFromDecodeOrThrow() {
        byte[] bytes = GoldenPackets.bytes(Opcode.NACK);
        bytes[0] = 0x20;
        MalformedPacketException thrown = null;
        try {
            decoder.decodeOrThrow(ByteBuffer.wrap(bytes), 0, bytes.length, out);
        } catch (MalformedPacketException e) {
            thrown = e;
        }
        assertThat(thrown).isNotNull();
        assertThat(decoder.decodeOrThrow(ByteBuffer.wrap(GoldenPackets.bytes(Opcode.NACK)), 0, 36, out)
                        .nack()
                        .code())
                .isEqualTo(NackCode.RECEIVER_NOT_READY);
        assertThat(thrown.status()).isEqualTo(DecodeStatus.UNSUPPORTED_VERSION);
        assertThat(thrown.error().actual()).isEqualTo(2);
        assertThat(thrown).hasMessage("UNSUPPORTED_VERSION (5.6.3): version = 2, expected == 1");
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldDecodeAtAnOffsetInAnyBufferKindAndByteOrder(Opcode opcode) {
        byte[] golden = GoldenPackets.bytes(opcode);
        Packet expected = GoldenPackets.RECORDS.get(opcode);
        for (boolean direct : new boolean[] {false, true}) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                for (int offset : new int[] {0, 1, 13}) {
                    ByteBuffer buf = direct
                            ? ByteBuffer.allocateDirect(offset + golden.length + 5)
                            : ByteBuffer.allocate(offset + golden.length + 5);
                    buf.put(offset, golden).order(order).position(2).limit(offset + golden.length + 1);
                    String where = "direct=" + direct + " order=" + order + " offset=" + offset;
                    assertThat(decoder.decode(buf, offset, golden.length, out))
                            .as(where)
                            .isEqualTo(DecodeStatus.OK);
                    assertThat(Packet.from(out)).as(where).isEqualTo(expected);
                    assertThat(decoder.decode(buf.asReadOnlyBuffer(), offset, golden.length, out))
                            .as(where + " read-only")
                            .isEqualTo(DecodeStatus.OK);
                    assertThat(Packet.from(out)).as(where + " read-only").isEqualTo(expected);
                    ByteBuffer slice = buf.duplicate().position(offset).slice().order(order);
                    assertThat(decoder.decode(slice, 0, golden.length, out))
                            .as(where + " slice")
                            .isEqualTo(DecodeStatus.OK);
                    assertThat(Packet.from(out)).as(where + " slice").isEqualTo(expected);
                    assertThat(buf.position()).isEqualTo(2);
                    assertThat(buf.limit()).isEqualTo(offset + golden.length + 1);
                    assertThat(buf.order()).isEqualTo(order);
                }
            }
        }
    }

    @Test
    void shouldExplainThatAFreshResultHoldsNothing() {
        DecodedPacket fresh = new DecodedPacket();
        assertThat(fresh.opcode()).isNull();
        assertThat(fresh).hasToString("DecodedPacket{nothing decoded}");
        assertThatThrownBy(fresh::dataHeader).hasMessageContaining("nothing decoded");
        assertThatThrownBy(() -> fresh.copyPayload(ByteBuffer.allocate(4), 0)).hasMessageContaining("nothing decoded");
        assertThatThrownBy(fresh::commonHeader).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldCopyThePayloadOutWithoutMovingPositions() {
        decode(GoldenPackets.bytes(Opcode.READ_RESPONSE));
        ByteBuffer dst = ByteBuffer.allocate(8);
        out.copyPayload(dst, 2);
        assertThat(dst.position()).isZero();
        assertThat(dst.array()).containsExactly(0, 0, 0xf0, 0xf1, 0xf2, 0xf3, 0, 0);
    }

    @Test
    void shouldSurviveOneHundredThousandRandomBuffers() {
        Random random = new Random(0xBADC0DE);
        int[] counts = new int[DecodeStatus.values().length];
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = new byte[random.nextInt(80)];
            random.nextBytes(bytes);
            int offset = random.nextInt(4) == 0 ? random.nextInt(bytes.length + 2) - 1 : 0;
            int length = random.nextInt(4) == 0 ? random.nextInt(bytes.length + 2) : bytes.length - Math.max(offset, 0);
            ByteBuffer buf = random.nextBoolean()
                    ? ByteBuffer.wrap(bytes)
                    : ByteBuffer.allocateDirect(bytes.length).put(bytes);
            counts[checkNeverThrows(buf, offset, length).ordinal()]++;
        }
        assertThat(counts[DecodeStatus.TRUNCATED.ordinal()]).isPositive();
        assertThat(counts[DecodeStatus.UNSUPPORTED_VERSION.ordinal()]).isPositive();
    }

    @Test
    void shouldSurviveRandomPacketsWithAValidPrefixAndCrc() {
        // Plain garbage rarely passes the CRC; fixing version, opcode and CRC reaches the later checks.
        Random random = new Random(0xFEED);
        Opcode[] opcodes = Opcode.values();
        int[] counts = new int[DecodeStatus.values().length];
        for (int i = 0; i < 100_000; i++) {
            Opcode opcode = opcodes[random.nextInt(opcodes.length)];
            byte[] bytes = new byte[opcode.headerLength() + 4 + random.nextInt(3) * random.nextInt(6)];
            random.nextBytes(bytes);
            bytes[0] = 0x10;
            bytes[1] = (byte) opcode.value();
            if (opcode.hasDataHeader() && random.nextBoolean()) {
                bytes[18] = 0;
                bytes[19] = (byte) (bytes.length - opcode.headerLength() - 4);
            }
            if (opcode == Opcode.ACK && random.nextBoolean()) {
                bytes[AckFlyweight.SACK_BITMAP_OFFSET] &= (byte) 0xFE;
            }
            ByteBuffer buf = ByteBuffer.wrap(withFreshCrc(bytes, b -> {}));
            counts[checkNeverThrows(buf, 0, bytes.length).ordinal()]++;
        }
        assertThat(counts[DecodeStatus.OK.ordinal()]).isPositive();
        assertThat(counts[DecodeStatus.INCONSISTENT_LENGTH.ordinal()]).isPositive();
        assertThat(counts[DecodeStatus.INVALID_FIELD.ordinal()]).isPositive();
        assertThat(counts[DecodeStatus.BAD_CRC.ordinal()]).isZero();
    }

    private DecodeStatus checkNeverThrows(ByteBuffer buf, int offset, int length) {
        DecodeStatus status;
        try {
            status = decoder.decode(buf, offset, length, out);
        } catch (RuntimeException e) {
            throw new AssertionError("decode threw for offset " + offset + " length " + length, e);
        }
        assertThat(out.status()).isEqualTo(status);
        assertThat(out.error().kind()).isEqualTo(status);
        if (status == DecodeStatus.OK) {
            assertThat(out.payloadIndex() + out.payloadLength() + WireConstants.TRAILER_LENGTH)
                    .isEqualTo(out.packetOffset() + out.packetLength());
            assertThat(out.toString()).isNotEmpty();
        } else {
            assertThat(out.error().field()).isNotEmpty();
            assertThat(out.error().toString()).startsWith(status.name());
        }
        return status;
    }
}
