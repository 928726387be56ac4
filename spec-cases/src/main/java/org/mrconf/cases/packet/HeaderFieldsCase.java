package org.mrconf.cases.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.WireConstants;

/**
 * Section 5 as the DUT writes it: version 1.0, reserved fields and flags zero, the data header of every data packet
 * (stream, payload length, MSN, message length and offset), the WRITE, SEND, READ_REQUEST and READ_RESPONSE
 * extensions, and a big-endian CRC32C over the whole packet; and, as the DUT reads it, reserved fields ignored.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Header fields")
class HeaderFieldsCase {
    private static final int KNOWN_FLAGS = PacketFlags.RETRANSMISSION | PacketFlags.ACK_REQUEST;

    /** The DUT's traffic the sender-side checks judge: one message of each kind it can send, in MSN order. */
    private record Traffic(
            List<ReceivedPacket> write,
            List<ReceivedPacket> firstSend,
            List<ReceivedPacket> immediate,
            List<ReceivedPacket> secondSend,
            java.util.Optional<ReceivedPacket> read,
            int writeLength,
            int sendLength,
            int immediateLength) {
        List<ReceivedPacket> all() {
            final List<ReceivedPacket> all = new ArrayList<>(write);
            all.addAll(firstSend);
            all.addAll(immediate);
            all.addAll(secondSend);
            read.ifPresent(all::add);
            return all;
        }
    }

    /**
     * MSN 0 a 3-packet WRITE, 1 a 3-packet SEND (RSN 0), 2 a 2-packet WRITE_WITH_IMMEDIATE, 3 a SEND (RSN 1), 4 a READ.
     * A device without the immediate profile sends a plain WRITE at MSN 2, and one without the read profile no READ
     * (clause 5.6.7: its agent refuses them), so that every device is judged on what it can send.
     */
    private static Traffic traffic(final Testbed testbed) throws Exception {
        final boolean immediateClaimed = testbed.profile().claims(Profile.IMMEDIATE);
        final boolean readClaimed = testbed.profile().claims(Profile.READ);
        final PeerConnection connection = testbed.connection();
        final int write = 2 * connection.maxPayload(Opcode.WRITE) + 100;
        final int immediate = connection.maxPayload(Opcode.WRITE_WITH_IMMEDIATE) + 7;
        final int send = 2 * connection.maxPayload(Opcode.SEND) + 1;
        return new Traffic(
                DutTraffic.write(testbed, 0, 1, write, OptionalLong.empty()),
                DutTraffic.send(testbed, 0, 2, send),
                DutTraffic.write(
                        testbed, 0, 3, immediate, immediateClaimed ? OptionalLong.of(0xCAFE) : OptionalLong.empty()),
                DutTraffic.send(testbed, 0, 4, 10),
                readClaimed ? java.util.Optional.of(DutTraffic.read(testbed, 0, 5, 5000)) : java.util.Optional.empty(),
                write,
                send,
                immediate);
    }

    @Test
    @DisplayName("every packet the DUT sends (WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST) carries version 1.0")
    @Verifies("5.6.3")
    void dutSendsVersionOneZero(final Testbed testbed) throws Exception {
        for (final ReceivedPacket packet : traffic(testbed).all()) {
            assertThat(packet.isValid()).as("5.6.3: a valid packet: %s", packet).isTrue();
            assertThat(packet.captured().bytes()[0] & 0xFF)
                    .as("5.6.3: version of %s", packet)
                    .isEqualTo(WireConstants.VERSION_1_0);
        }
    }

    @Test
    @DisplayName("every packet the DUT sends has zero reserved bytes and no reserved flag")
    @Verifies("5.1.1")
    void dutSendsReservedAsZero(final Testbed testbed) throws Exception {
        for (final ReceivedPacket packet : traffic(testbed).all()) {
            final byte[] bytes = packet.captured().bytes();
            assertThat(bytes[9] | bytes[10] | bytes[11])
                    .as("5.1.1: reserved bytes 9 to 11 of %s", packet)
                    .isZero();
            final int flags = (bytes[2] & 0xFF) << 8 | bytes[3] & 0xFF;
            assertThat(flags & ~KNOWN_FLAGS)
                    .as("5.1.1: reserved flags of %s", packet)
                    .isZero();
        }
    }

    @Test
    @DisplayName("every data packet of a multi-packet WRITE, WRITE_WITH_IMMEDIATE and SEND carries its message's"
            + " stream, MSN, message length, offset and payload length, and the payloads cover the message")
    @Verifies("5.2.1")
    void dutSendsTheDataHeader(final Testbed testbed) throws Exception {
        final Traffic traffic = traffic(testbed);
        check(traffic.write(), 1, 0, traffic.writeLength());
        check(traffic.firstSend(), 2, 1, traffic.sendLength());
        check(traffic.immediate(), 3, 2, traffic.immediateLength());
        check(traffic.secondSend(), 4, 3, 10);
        traffic.read()
                .ifPresent(read -> assertThat(read.data().orElseThrow().messageSequenceNumber())
                        .as("5.2.1: MSN of the READ")
                        .isEqualTo(4));
    }

    @Test
    @DisplayName("every packet of a WRITE and a WRITE_WITH_IMMEDIATE carries the message's remote address, key and"
            + " immediate")
    @Verifies("5.2.3")
    void dutSendsTheWriteExtension(final Testbed testbed) throws Exception {
        final Traffic traffic = traffic(testbed);
        final List<ReceivedPacket> writes = new ArrayList<>(traffic.write());
        writes.addAll(traffic.immediate());
        for (final ReceivedPacket packet : writes) {
            final DataPacket data = packet.data().orElseThrow();
            assertThat(data.remoteAddress())
                    .as("5.2.3: the address of the message's first byte, at offset %d", data.messageOffset())
                    .isEqualTo(DutTraffic.REMOTE_ADDRESS);
            assertThat(data.remoteKey()).as("5.2.3: remote key").isEqualTo(DutTraffic.REMOTE_KEY);
            if (data.opcode() == Opcode.WRITE_WITH_IMMEDIATE) {
                assertThat(data.immediate()).as("5.2.3: immediate").isEqualTo(0xCAFE);
            }
        }
    }

    @Test
    @DisplayName("every packet of the n-th SEND of a stream carries RSN n, whatever its MSN")
    @Verifies("5.2.4")
    void dutSendsTheRsn(final Testbed testbed) throws Exception {
        final Traffic traffic = traffic(testbed);
        for (final ReceivedPacket packet : traffic.firstSend()) {
            assertThat(packet.data().orElseThrow().receiveSequenceNumber())
                    .as("5.2.4: RSN of the first SEND of the stream (MSN 1)")
                    .isZero();
        }
        for (final ReceivedPacket packet : traffic.secondSend()) {
            assertThat(packet.data().orElseThrow().receiveSequenceNumber())
                    .as("5.2.4: RSN of the second SEND of the stream (MSN 3)")
                    .isEqualTo(1);
        }
    }

    @Test
    @DisplayName("the DUT's READ_REQUEST has payload length 0, message offset 0, the bytes to read as message length,"
            + " and the remote address and key")
    @Verifies("5.2.5")
    void dutSendsTheReadRequestExtension(final Testbed testbed) throws Exception {
        final DataPacket request = DutTraffic.read(testbed, 0, 5, 5000).data().orElseThrow();
        assertThat(request.payloadLength())
                .as("5.2.5: READ_REQUEST payload length")
                .isZero();
        assertThat(request.messageOffset())
                .as("5.2.5: READ_REQUEST message offset")
                .isZero();
        assertThat(request.messageLength()).as("5.2.5: bytes to read").isEqualTo(5000);
        assertThat(request.remoteAddress()).as("5.2.5: remote address").isEqualTo(DutTraffic.REMOTE_ADDRESS);
        assertThat(request.remoteKey()).as("5.2.5: remote key").isEqualTo(DutTraffic.REMOTE_KEY);
    }

    @Test
    @DisplayName("every packet the DUT sends ends with the CRC32C of all its bytes before the trailer, big-endian")
    @Verifies("5.6.1")
    void dutSendsABigEndianCrc(final Testbed testbed) throws Exception {
        final List<ReceivedPacket> packets = new ArrayList<>(traffic(testbed).all());
        final int mark = testbed.peer().mark();
        testbed.connection().sendNew(testbed.write(0, Testbed.BASE + 8192, testbed.key(), new byte[16]), 0);
        packets.add(testbed.peer().await(mark, PacketMatcher.expect().ack().path(0), Testbed.WAIT));
        for (final ReceivedPacket packet : packets) {
            final byte[] bytes = packet.captured().bytes();
            final CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            final long stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt() & 0xFFFF_FFFFL;
            assertThat(stored)
                    .as("5.6.1: CRC32C trailer of %s, big-endian", packet)
                    .isEqualTo(crc.getValue());
        }
    }

    @Test
    @DisplayName("READ_RESPONSEs carry the sink handle, stream, MSN and length of the READ_REQUEST they answer,"
            + " and their offsets cover the read")
    @Verifies("5.2.6")
    void readResponsesEchoTheRequest(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final byte[] region = Testbed.randomBytes(4096, 56);
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, region);
        final int mark = testbed.peer().mark();
        // A WRITE first, so the READ is MSN 1 of the stream. It lies outside the range the READ reads, and must stay
        // so: the READ follows it unacknowledged, and clause 7.4.1 fixes no order between the two.
        connection.sendNew(testbed.write(0, Testbed.BASE + 8192, testbed.key(), new byte[16]), 0);
        final int payload = connection.maxPayload(Opcode.READ_RESPONSE);
        final int length = Math.min(2 * payload + 9, region.length);
        final long msn = connection.nextMsn(0);
        connection.readRequest(0, Testbed.BASE, testbed.key(), length, 0xBEEF, 1);
        final int count = (length + payload - 1) / payload;
        final List<DataPacket> responses = new ArrayList<>(testbed
                .peer()
                .recorder()
                .awaitCount(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .opcode(Opcode.READ_RESPONSE)
                                .firstTransmission(),
                        count,
                        Testbed.WAIT)
                .stream()
                .map(p -> p.data().orElseThrow())
                .toList());
        responses.sort(Comparator.comparingLong(DataPacket::messageOffset));
        final ByteBuffer read = ByteBuffer.allocate(length);
        for (final DataPacket response : responses) {
            assertThat(response.sinkHandle()).as("5.2.6: sink handle").isEqualTo(0xBEEF);
            assertThat(response.streamId()).as("5.2.6: stream id").isZero();
            assertThat(response.messageSequenceNumber())
                    .as("5.2.6: MSN of the READ_REQUEST")
                    .isEqualTo(msn);
            assertThat(response.messageLength())
                    .as("5.2.6: message length of the read")
                    .isEqualTo(length);
            read.put((int) response.messageOffset(), response.payload());
        }
        assertThat(read.array())
                .as("5.2.6: offsets within the read")
                .isEqualTo(java.util.Arrays.copyOf(region, length));
    }

    @Test
    @DisplayName("the DUT ignores reserved fields and reserved flags on receipt: such a WRITE is placed and"
            + " acknowledged")
    @Verifies("5.1.1")
    void reservedFieldsAreIgnoredOnReceipt(final Testbed testbed) throws Exception {
        final byte[] data = Testbed.randomBytes(200, 51);
        final int mark = testbed.peer().mark();
        testbed.connection()
                .sendNew(
                        testbed.write(0, Testbed.BASE, testbed.key(), data)
                                .reserved1(0xA5)
                                .reserved2(0x5A5A)
                                .addFlags(0x8004),
                        0);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(0), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                .as("5.1.1: placed despite reserved bits")
                .isEqualTo(data);
    }

    /** Checks the data headers of one message of {@code length} bytes from work request {@code wrId}, MSN {@code msn}. */
    private static void check(final List<ReceivedPacket> packets, final long wrId, final long msn, final int length) {
        final byte[] bytes = DutTraffic.bytesOf(wrId, length);
        final ByteBuffer seen = ByteBuffer.allocate(length);
        for (final ReceivedPacket packet : packets) {
            final DataPacket data = packet.data().orElseThrow();
            assertThat(data.streamId()).as("5.2.1: stream id").isZero();
            assertThat(data.messageSequenceNumber()).as("5.2.1: MSN").isEqualTo(msn);
            assertThat(data.messageLength())
                    .as("5.2.1: message length on every packet")
                    .isEqualTo(length);
            assertThat(data.payloadLength()).as("5.2.1: payload length").isEqualTo(data.payload().length);
            assertThat(data.payload())
                    .as("5.2.1: payload at message offset %d", data.messageOffset())
                    .isEqualTo(java.util.Arrays.copyOfRange(
                            bytes, (int) data.messageOffset(), (int) data.messageOffset() + data.payloadLength()));
            seen.position((int) data.messageOffset()).put(data.payload());
        }
        assertThat(seen.array())
                .as("5.2.1: offsets and payloads cover the message")
                .isEqualTo(bytes);
    }
}
