package org.mrconf.wire;

import java.util.Map;

/**
 * One fully populated packet per opcode, as hand-written hex and as the record it encodes. The field
 * values are distinct and recognisable; the CRC32C values come from an independent bitwise CRC32C
 * (polynomial 0x82F63B78 reflected), not from this codec.
 */
final class GoldenPackets {
    static final CommonHeader HEADER = CommonHeader.of(0x11223344L, 0x55, 0x66778899L);
    static final byte[] PAYLOAD = {(byte) 0xf0, (byte) 0xf1, (byte) 0xf2, (byte) 0xf3};
    static final long REMOTE_ADDRESS = 0x0123456789ABCDEFL;
    static final long REMOTE_KEY = 0xDEADBEEFL;
    static final long TIMESTAMP = 0xCAFEBABEL;

    static final String WRITE = """
            10 01 0001               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            aabb 0004                # stream id, payload length
            01020304                 # message sequence number
            0a0b0c0d                 # message length
            00000100                 # message offset
            cafebabe                 # transmit timestamp
            0123456789abcdef         # remote address
            deadbeef                 # remote key
            f0f1f2f3                 # payload
            88ca81b7                 # crc32c
            """;

    static final String WRITE_WITH_IMMEDIATE = """
            10 02 0001               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            aabb 0004                # stream id, payload length
            01020304                 # message sequence number
            0a0b0c0d                 # message length
            00000100                 # message offset
            cafebabe                 # transmit timestamp
            0123456789abcdef         # remote address
            deadbeef                 # remote key
            feedface                 # immediate
            f0f1f2f3                 # payload
            9c86defe                 # crc32c
            """;

    static final String SEND = """
            10 03 0001               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            aabb 0004                # stream id, payload length
            01020304                 # message sequence number
            0a0b0c0d                 # message length
            00000100                 # message offset
            cafebabe                 # transmit timestamp
            13579bdf                 # receive sequence number
            f0f1f2f3                 # payload
            be1a8f34                 # crc32c
            """;

    static final String READ_REQUEST = """
            10 04 0000               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            aabb 0000                # stream id, payload length
            01020304                 # message sequence number
            00100000                 # message length
            00000000                 # message offset
            cafebabe                 # transmit timestamp
            0123456789abcdef         # remote address
            deadbeef                 # remote key
            2468ace0                 # sink handle
            0f69af5c                 # crc32c
            """;

    static final String READ_RESPONSE = """
            10 05 0000               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            aabb 0004                # stream id, payload length
            01020304                 # message sequence number
            0a0b0c0d                 # message length
            00000100                 # message offset
            cafebabe                 # transmit timestamp
            2468ace0                 # sink handle
            f0f1f2f3                 # payload
            dfd05e16                 # crc32c
            """;

    static final String ACK = """
            10 10 0000               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            cafebabe                 # echoed timestamp
            1234 0000                # CE count, reserved
            00009c40                 # rate hint
            0201000000000080         # SACK bytes 0-7: bits 1, 8, 63
            0100000000000000         # SACK bytes 8-15: bit 64
            0000000000000000         # SACK bytes 16-23
            0000000000000080         # SACK bytes 24-31: bit 255
            ff3a445d                 # crc32c
            """;

    static final String NACK = """
            10 11 0000               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            03 00 aabb               # code RECEIVER_NOT_READY, reserved, stream id
            01020304                 # message sequence number
            66778890                 # cumulative psn
            000003e8                 # retry after
            324a735d                 # crc32c
            """;

    static final String PROBE = """
            10 12 0002               # version 1.0, opcode, flags
            11223344                 # destination connection id
            55 00 0000               # path id, reserved 1, reserved 2
            66778899                 # psn
            cafebabe                 # transmit timestamp
            8b07920a                 # crc32c
            """;

    static final Map<Opcode, String> HEX = Map.of(
            Opcode.WRITE, WRITE,
            Opcode.WRITE_WITH_IMMEDIATE, WRITE_WITH_IMMEDIATE,
            Opcode.SEND, SEND,
            Opcode.READ_REQUEST, READ_REQUEST,
            Opcode.READ_RESPONSE, READ_RESPONSE,
            Opcode.ACK, ACK,
            Opcode.NACK, NACK,
            Opcode.PROBE, PROBE);

    static final Map<Opcode, Packet> RECORDS = Map.of(
            Opcode.WRITE,
                    DataPacket.write(
                            HEADER.withFlags(PacketFlags.RETRANSMISSION),
                            0xAABB,
                            0x01020304L,
                            0x0A0B0C0DL,
                            0x100,
                            TIMESTAMP,
                            REMOTE_ADDRESS,
                            REMOTE_KEY,
                            PAYLOAD),
            Opcode.WRITE_WITH_IMMEDIATE,
                    DataPacket.writeWithImmediate(
                            HEADER.withFlags(PacketFlags.RETRANSMISSION),
                            0xAABB,
                            0x01020304L,
                            0x0A0B0C0DL,
                            0x100,
                            TIMESTAMP,
                            REMOTE_ADDRESS,
                            REMOTE_KEY,
                            0xFEEDFACEL,
                            PAYLOAD),
            Opcode.SEND,
                    DataPacket.send(
                            HEADER.withFlags(PacketFlags.RETRANSMISSION),
                            0xAABB,
                            0x01020304L,
                            0x0A0B0C0DL,
                            0x100,
                            TIMESTAMP,
                            0x13579BDFL,
                            PAYLOAD),
            Opcode.READ_REQUEST,
                    DataPacket.readRequest(
                            HEADER,
                            0xAABB,
                            0x01020304L,
                            0x00100000L,
                            TIMESTAMP,
                            REMOTE_ADDRESS,
                            REMOTE_KEY,
                            0x2468ACE0L),
            Opcode.READ_RESPONSE,
                    DataPacket.readResponse(
                            HEADER, 0xAABB, 0x01020304L, 0x0A0B0C0DL, 0x100, TIMESTAMP, 0x2468ACE0L, PAYLOAD),
            Opcode.ACK, AckPacket.of(HEADER, TIMESTAMP, 0x1234, 40_000, 1, 8, 63, 64, 255),
            Opcode.NACK, new NackPacket(HEADER, NackCode.RECEIVER_NOT_READY, 0xAABB, 0x01020304L, 0x66778890L, 1000),
            Opcode.PROBE, ProbePacket.of(HEADER, TIMESTAMP));

    private GoldenPackets() {}

    static byte[] bytes(Opcode opcode) {
        return Hex.bytes(HEX.get(opcode));
    }
}
