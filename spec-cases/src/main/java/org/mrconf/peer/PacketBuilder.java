package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeaderFlyweight;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackFlyweight;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketEncoder;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.ProbePacket;
import org.mrconf.wire.WireConstants;

/**
 * Builds the bytes of one MetaRoCE packet of any opcode, with every field settable to any value, valid or not:
 * the tester peer's way to put exactly the packet a test needs on the wire. Start from an opcode
 * ({@link #write()}, {@link #ack()}, {@link #opcode(int)} for undefined ones...) or from a record
 * ({@link #from(Packet)}), set fields, then {@link #build()}.
 *
 * <pre>{@code
 * byte[] p = PacketBuilder.write().connection(7).path(2).psn(5).msn(0).remoteAddress(0x1000).remoteKey(0x22)
 *     .payload(data).build();
 * byte[] bad = PacketBuilder.from(record).version(0x20).build();           // unsupported major version
 * byte[] cut = PacketBuilder.ack().cumulativePsn(3).badCrc().build();     // CRC that does not match
 * }</pre>
 *
 * <p>Defaults give a valid packet: version 1.0, no flags (a PROBE has ACK_REQUEST), zero ids and PSN, an empty
 * payload, a payload length field equal to the payload, a message length of message offset + payload length, and
 * an ACK rate hint of "no limit". The encoder writes the header ({@link PacketEncoder}), then the builder writes
 * each field through the flyweights' raw accessors, so nothing is range-checked beyond the field's width, then the
 * raw pokes, then the CRC32C trailer, then the deliberate corruptions ({@link #badCrc()}, {@link #crc(long)},
 * {@link #truncateTo(int)}). An opcode extension field set on an opcode that does not carry it is refused at
 * {@link #build()}: use the raw pokes to put bytes there. Not thread-safe; reusable (each build starts afresh).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PacketBuilder {
    private static final long NO_RATE_LIMIT = AckFlyweight.RATE_HINT_NO_LIMIT;

    private final int opcodeValue;
    private final Opcode opcode;
    private int headerLength;
    private int version = WireConstants.VERSION_1_0;
    private int flags;
    private long connection;
    private int path;
    private int reserved1;
    private int reserved2;
    private long psn;
    // Data header, and the NACK's stream and MSN.
    private int stream;
    private long msn;
    private Long messageLength;
    private long messageOffset;
    private long transmitTimestamp;
    private Integer payloadLengthField;
    private byte[] payload = new byte[0];
    private Long remoteAddress;
    private Long remoteKey;
    private Long immediate;
    private Long rsn;
    private Long sinkHandle;
    // ACK.
    private long echoedTimestamp;
    private int ceCount;
    private long rateHint = NO_RATE_LIMIT;
    private final long[] sack = new long[AckFlyweight.SACK_WORDS];
    // NACK.
    private int nackCode;
    private long nackCumulativePsn;
    private long retryAfter;
    // Deliberate damage.
    private final List<long[]> pokes = new ArrayList<>();
    private int padding;
    private Long crc;
    private boolean badCrc;
    private Integer truncateTo;
    private byte[] trailing = new byte[0];

    private PacketBuilder(int opcodeValue, int headerLength) {
        this.opcodeValue = opcodeValue;
        this.opcode = Opcode.fromValue(opcodeValue);
        this.headerLength = headerLength;
        if (opcode == Opcode.PROBE) {
            flags = PacketFlags.ACK_REQUEST;
        }
    }

    public static PacketBuilder of(Opcode opcode) {
        return new PacketBuilder(opcode.value(), opcode.headerLength());
    }

    public static PacketBuilder write() {
        return of(Opcode.WRITE);
    }

    public static PacketBuilder writeWithImmediate() {
        return of(Opcode.WRITE_WITH_IMMEDIATE);
    }

    public static PacketBuilder send() {
        return of(Opcode.SEND);
    }

    public static PacketBuilder readRequest() {
        return of(Opcode.READ_REQUEST);
    }

    public static PacketBuilder readResponse() {
        return of(Opcode.READ_RESPONSE);
    }

    public static PacketBuilder ack() {
        return of(Opcode.ACK);
    }

    public static PacketBuilder nack(NackCode code) {
        return of(Opcode.NACK).code(code);
    }

    public static PacketBuilder probe() {
        return of(Opcode.PROBE);
    }

    /**
     * A packet with any opcode byte. A defined opcode gets its header; an undefined one gets just the 16-byte
     * common header (change it with {@link #headerLength(int)}) and no opcode fields but the raw pokes.
     */
    public static PacketBuilder opcode(int opcodeValue) {
        if ((opcodeValue & ~0xFF) != 0) {
            throw new IllegalArgumentException("opcode is one byte: " + opcodeValue);
        }
        Opcode known = Opcode.fromValue(opcodeValue);
        return new PacketBuilder(
                opcodeValue, known != null ? known.headerLength() : CommonHeaderFlyweight.HEADER_LENGTH);
    }

    /** A builder holding every field of {@code packet}, to send it again or to damage one field. */
    public static PacketBuilder from(Packet packet) {
        PacketBuilder b = of(packet.opcode());
        b.version = packet.header().version();
        b.flags = packet.header().flags();
        b.connection = packet.header().destinationConnectionId();
        b.path = packet.header().pathId();
        b.psn = packet.header().psn();
        if (packet instanceof DataPacket d) {
            b.stream = d.streamId();
            b.msn = d.messageSequenceNumber();
            b.messageLength = d.messageLength();
            b.messageOffset = d.messageOffset();
            b.transmitTimestamp = d.transmitTimestamp();
            b.payload = d.payload();
            switch (d.opcode()) {
                case WRITE -> b.remoteAddress(d.remoteAddress()).remoteKey(d.remoteKey());
                case WRITE_WITH_IMMEDIATE ->
                    b.remoteAddress(d.remoteAddress()).remoteKey(d.remoteKey()).immediate(d.immediate());
                case SEND -> b.rsn(d.receiveSequenceNumber());
                case READ_REQUEST ->
                    b.remoteAddress(d.remoteAddress()).remoteKey(d.remoteKey()).sinkHandle(d.sinkHandle());
                case READ_RESPONSE -> b.sinkHandle(d.sinkHandle());
                default -> throw new AssertionError(d.opcode());
            }
        } else if (packet instanceof AckPacket a) {
            b.echoedTimestamp = a.echoedTimestamp();
            b.ceCount = a.ceCount();
            b.rateHint = a.rateHint();
            System.arraycopy(a.sackWords(), 0, b.sack, 0, b.sack.length);
        } else if (packet instanceof NackPacket n) {
            b.nackCode = n.code().value();
            b.stream = n.streamId();
            b.msn = n.messageSequenceNumber();
            b.nackCumulativePsn = n.cumulativePsn();
            b.retryAfter = n.retryAfter();
        } else if (packet instanceof ProbePacket p) {
            b.transmitTimestamp = p.transmitTimestamp();
        }
        return b;
    }

    // Common header (Table 5-1).

    /** The version byte, e.g. {@code 0x11} (minor version 1) or {@code 0x20} (an unknown major version). */
    public PacketBuilder version(int value) {
        this.version = value;
        return this;
    }

    /** The whole flags field, reserved bits included. */
    public PacketBuilder flags(int value) {
        this.flags = value;
        return this;
    }

    public PacketBuilder addFlags(int mask) {
        this.flags |= mask;
        return this;
    }

    public PacketBuilder retransmission() {
        return addFlags(PacketFlags.RETRANSMISSION);
    }

    public PacketBuilder ackRequest() {
        return addFlags(PacketFlags.ACK_REQUEST);
    }

    /** The destination connection id: the receiver's id of the connection. */
    public PacketBuilder connection(long destinationConnectionId) {
        this.connection = destinationConnectionId;
        return this;
    }

    public PacketBuilder path(int pathId) {
        this.path = pathId;
        return this;
    }

    public PacketBuilder psn(long value) {
        this.psn = value;
        return this;
    }

    /** The reserved byte at offset 9. */
    public PacketBuilder reserved1(int value) {
        this.reserved1 = value;
        return this;
    }

    /** The reserved 16 bits at offset 10. */
    public PacketBuilder reserved2(int value) {
        this.reserved2 = value;
        return this;
    }

    // Data header (Table 5-4) and extensions (Tables 5-5 to 5-8); NACKs share stream and MSN.

    public PacketBuilder stream(int streamId) {
        this.stream = streamId;
        return this;
    }

    public PacketBuilder msn(long value) {
        this.msn = value;
        return this;
    }

    /** The message length field; by default message offset + payload length (for a READ_REQUEST: 0). */
    public PacketBuilder messageLength(long value) {
        this.messageLength = value;
        return this;
    }

    public PacketBuilder messageOffset(long value) {
        this.messageOffset = value;
        return this;
    }

    public PacketBuilder transmitTimestamp(long value) {
        this.transmitTimestamp = value;
        return this;
    }

    /** The payload bytes (copied); the payload length field follows them unless set. */
    public PacketBuilder payload(byte[] bytes) {
        this.payload = bytes.clone();
        return this;
    }

    /** A payload of {@code length} bytes {@code (seed + i) & 0xFF}, recognisable in a memory dump. */
    public PacketBuilder payloadPattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed + i);
        }
        this.payload = bytes;
        return this;
    }

    /** A payload length field that may disagree with the payload actually sent (spec clause 5.1.3). */
    public PacketBuilder payloadLengthField(int value) {
        this.payloadLengthField = value;
        return this;
    }

    public PacketBuilder remoteAddress(long value) {
        this.remoteAddress = value;
        return this;
    }

    public PacketBuilder remoteKey(long value) {
        this.remoteKey = value;
        return this;
    }

    public PacketBuilder immediate(long value) {
        this.immediate = value;
        return this;
    }

    /** The receive sequence number of a SEND. */
    public PacketBuilder rsn(long value) {
        this.rsn = value;
        return this;
    }

    public PacketBuilder sinkHandle(long value) {
        this.sinkHandle = value;
        return this;
    }

    // ACK (Table 5-9).

    /** For an ACK the common PSN field; for a NACK its own cumulative PSN field. */
    public PacketBuilder cumulativePsn(long value) {
        if (opcode == Opcode.NACK) {
            this.nackCumulativePsn = value;
        } else {
            this.psn = value;
        }
        return this;
    }

    public PacketBuilder echoedTimestamp(long value) {
        this.echoedTimestamp = value;
        return this;
    }

    public PacketBuilder ceCount(int value) {
        this.ceCount = value;
        return this;
    }

    /** Mbit/s; the default is 0xFFFFFFFF, "no limit", so a DUT is never throttled by accident. */
    public PacketBuilder rateHint(long value) {
        this.rateHint = value;
        return this;
    }

    /** Sets these SACK bits (0 to 255; bit 0 is invalid on the wire and allowed here on purpose). */
    public PacketBuilder sackBits(int... bits) {
        for (int bit : bits) {
            Objects.checkIndex(bit, WireConstants.SACK_BITS);
            sack[bit >>> 6] |= 1L << (bit & 63);
        }
        return this;
    }

    /** Sets the SACK bits of these PSNs relative to the cumulative PSN already set. */
    public PacketBuilder sackPsns(long... psns) {
        for (long p : psns) {
            long bit = Psn.distance(psn, p);
            if (bit < 1 || bit >= WireConstants.SACK_BITS) {
                throw new IllegalArgumentException("PSN " + p + " is outside the SACK window of cumulative PSN " + psn);
            }
            sackBits((int) bit);
        }
        return this;
    }

    public PacketBuilder clearSack() {
        Arrays.fill(sack, 0);
        return this;
    }

    // NACK (Table 5-10).

    public PacketBuilder code(NackCode code) {
        this.nackCode = code.value();
        return this;
    }

    /** Any code byte, defined in Table 9-1 or not. */
    public PacketBuilder codeValue(int value) {
        this.nackCode = value;
        return this;
    }

    /** Microseconds. */
    public PacketBuilder retryAfter(long value) {
        this.retryAfter = value;
        return this;
    }

    // Deliberate damage.

    /** Header length for an undefined opcode (the payload starts there); defined opcodes keep theirs. */
    public PacketBuilder headerLength(int length) {
        if (opcode != null) {
            throw new IllegalStateException(opcode + " has a fixed header length; use padding() or truncateTo()");
        }
        if (length < CommonHeaderFlyweight.HEADER_LENGTH) {
            throw new IllegalArgumentException("header length must be at least 16: " + length);
        }
        this.headerLength = length;
        return this;
    }

    /** Writes one byte at {@code offset} after the fields, before the CRC. */
    public PacketBuilder rawU8(int offset, int value) {
        pokes.add(new long[] {offset, 1, value});
        return this;
    }

    public PacketBuilder rawU16(int offset, int value) {
        pokes.add(new long[] {offset, 2, value});
        return this;
    }

    public PacketBuilder rawU32(int offset, long value) {
        pokes.add(new long[] {offset, 4, value});
        return this;
    }

    public PacketBuilder rawU64(int offset, long value) {
        pokes.add(new long[] {offset, 8, value});
        return this;
    }

    /** Zero bytes between payload and trailer, covered by a correct CRC: a packet longer than its header says. */
    public PacketBuilder padding(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("padding must not be negative: " + bytes);
        }
        this.padding = bytes;
        return this;
    }

    /** A trailer that does not match: the correct CRC32C with bits flipped. */
    public PacketBuilder badCrc() {
        this.badCrc = true;
        return this;
    }

    /** Exactly this trailer value. */
    public PacketBuilder crc(long value) {
        this.crc = value;
        return this;
    }

    /** Cuts the finished packet to its first {@code length} bytes (after the CRC is written). */
    public PacketBuilder truncateTo(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative: " + length);
        }
        this.truncateTo = length;
        return this;
    }

    /** Bytes appended after the trailer, outside the CRC. */
    public PacketBuilder trailingBytes(byte[] bytes) {
        this.trailing = bytes.clone();
        return this;
    }

    /** The packet's opcode, or {@code null} for an undefined opcode byte. */
    public Opcode opcode() {
        return opcode;
    }

    /** Length of the packet {@link #build()} returns. */
    public int length() {
        int full = headerLength + payload.length + padding + Crc32cTrailer.LENGTH;
        return (truncateTo != null ? Math.min(truncateTo, full) : full) + trailing.length;
    }

    /** The packet's bytes. */
    public byte[] build() {
        int length = headerLength + payload.length + padding + Crc32cTrailer.LENGTH;
        ByteBuffer buffer = ByteBuffer.allocate(length);
        PacketEncoder encoder = new PacketEncoder();
        if (opcode == null) {
            encoder.header(buffer, 0, opcodeValue, headerLength);
        } else {
            switch (opcode) {
                case ACK -> writeAck(encoder.ack(buffer, 0));
                case NACK -> writeNack(encoder.nack(buffer, 0));
                case PROBE -> encoder.probe(buffer, 0).transmitTimestamp(transmitTimestamp);
                default -> writeData(encoder.data(buffer, 0, opcode));
            }
        }
        requireCarried();
        CommonHeaderFlyweight header = new CommonHeaderFlyweight().wrap(buffer, 0);
        header.version(version)
                .opcodeValue(opcodeValue)
                .flags(flags)
                .destinationConnectionId(connection)
                .pathId(path)
                .reserved1(reserved1)
                .reserved2(reserved2)
                .psn(psn);
        buffer.put(headerLength, payload);
        for (long[] poke : pokes) {
            int offset = (int) poke[0];
            if (offset < 0 || offset + poke[1] > length - Crc32cTrailer.LENGTH) {
                throw new IllegalArgumentException("raw write at offset " + offset + " of " + poke[1]
                        + " bytes lies outside the " + (length - Crc32cTrailer.LENGTH) + " bytes before the trailer");
            }
            switch ((int) poke[1]) {
                case 1 -> header.rawU8(offset, (int) poke[2]);
                case 2 -> header.rawU16(offset, (int) poke[2]);
                case 4 -> header.rawU32(offset, poke[2]);
                default -> header.rawU64(offset, poke[2]);
            }
        }
        encoder.finish(buffer, 0, length);
        long trailer = Crc32cTrailer.read(buffer, 0, length);
        if (crc != null) {
            trailer = crc & 0xFFFF_FFFFL;
        }
        if (badCrc) {
            trailer ^= 0x5A5A_A5A5L;
        }
        buffer.putInt(length - Crc32cTrailer.LENGTH, (int) trailer);
        byte[] bytes = buffer.array();
        if (truncateTo != null && truncateTo < bytes.length) {
            bytes = Arrays.copyOf(bytes, truncateTo);
        }
        if (trailing.length > 0) {
            byte[] longer = Arrays.copyOf(bytes, bytes.length + trailing.length);
            System.arraycopy(trailing, 0, longer, bytes.length, trailing.length);
            bytes = longer;
        }
        return bytes;
    }

    /** Builds and decodes the packet as a record; throws if the packet is malformed on purpose. */
    public Packet toPacket() {
        return Packet.fromBytes(build());
    }

    private void writeData(DataHeaderFlyweight data) {
        long length = messageLength != null
                ? messageLength
                : opcode == Opcode.READ_REQUEST ? 0 : messageOffset + payload.length;
        data.streamId(stream)
                .payloadLength(payloadLengthField != null ? payloadLengthField : payload.length)
                .messageSequenceNumber(msn)
                .messageLength(length)
                .messageOffset(messageOffset)
                .transmitTimestamp(transmitTimestamp);
        switch (opcode) {
            case WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST -> {
                data.rawU64(DataHeaderFlyweight.REMOTE_ADDRESS_OFFSET, orZero(remoteAddress));
                data.rawU32(DataHeaderFlyweight.REMOTE_KEY_OFFSET, orZero(remoteKey));
                if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
                    data.rawU32(DataHeaderFlyweight.IMMEDIATE_OFFSET, orZero(immediate));
                } else if (opcode == Opcode.READ_REQUEST) {
                    data.rawU32(DataHeaderFlyweight.READ_REQUEST_SINK_HANDLE_OFFSET, orZero(sinkHandle));
                }
            }
            case SEND -> data.rawU32(DataHeaderFlyweight.RECEIVE_SEQUENCE_NUMBER_OFFSET, orZero(rsn));
            case READ_RESPONSE -> data.rawU32(DataHeaderFlyweight.READ_RESPONSE_SINK_HANDLE_OFFSET, orZero(sinkHandle));
            default -> throw new AssertionError(opcode);
        }
    }

    private void writeAck(AckFlyweight ack) {
        ack.echoedTimestamp(echoedTimestamp).ceCount(ceCount).rateHint(rateHint);
        for (int w = 0; w < sack.length; w++) {
            ack.sackWord(w, sack[w]);
        }
    }

    private void writeNack(NackFlyweight nack) {
        nack.codeValue(nackCode)
                .streamId(stream)
                .messageSequenceNumber(msn)
                .cumulativePsn(nackCumulativePsn)
                .retryAfter(retryAfter);
    }

    private void requireCarried() {
        boolean region =
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST;
        refuse(remoteAddress != null && !region, "remote address");
        refuse(remoteKey != null && !region, "remote key");
        refuse(immediate != null && opcode != Opcode.WRITE_WITH_IMMEDIATE, "immediate");
        refuse(rsn != null && opcode != Opcode.SEND, "receive sequence number");
        refuse(sinkHandle != null && opcode != Opcode.READ_REQUEST && opcode != Opcode.READ_RESPONSE, "sink handle");
        refuse(payloadLengthField != null && (opcode == null || !opcode.hasDataHeader()), "payload length field");
    }

    private void refuse(boolean set, String field) {
        if (set) {
            throw new IllegalStateException(
                    (opcode != null ? opcode.name() : "opcode 0x" + Integer.toHexString(opcodeValue))
                            + " does not carry a " + field + "; write the bytes with rawU*()");
        }
    }

    private static long orZero(Long value) {
        return value != null ? value : 0;
    }
}
