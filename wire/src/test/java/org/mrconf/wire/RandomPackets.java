package org.mrconf.wire;

import java.util.Random;

/**
 * Seeded random valid packets for property-style tests. Values lean on the field boundaries (0, 1,
 * the maximum and its neighbours, the sign bit) as often as on uniform values.
 */
final class RandomPackets {
    private final Random random;

    RandomPackets(long seed) {
        this.random = new Random(seed);
    }

    Random random() {
        return random;
    }

    /** A u32 value, boundary-biased. */
    long u32() {
        return inRange(0, WireConstants.MAX_PSN);
    }

    int u16() {
        return (int) inRange(0, 0xFFFF);
    }

    int u8() {
        return (int) inRange(0, 0xFF);
    }

    long u64() {
        return switch (random.nextInt(6)) {
            case 0 -> 0L;
            case 1 -> -1L;
            case 2 -> Long.MIN_VALUE;
            case 3 -> Long.MAX_VALUE;
            default -> random.nextLong();
        };
    }

    /** A value in [lo, hi], one of the ends or their neighbours half of the time. */
    long inRange(long lo, long hi) {
        return switch (random.nextInt(10)) {
            case 0 -> lo;
            case 1 -> hi;
            case 2 -> Math.min(lo + 1, hi);
            case 3 -> Math.max(hi - 1, lo);
            case 4 -> lo + (hi - lo) / 2;
            default -> lo + (long) (random.nextDouble() * (hi - lo + 1));
        };
    }

    CommonHeader header() {
        return new CommonHeader(WireConstants.VERSION_1_0, u16(), u32(), u8(), u32());
    }

    byte[] payload() {
        // Mostly short: a 64 KiB payload on every iteration would only slow the tests down.
        int length = switch (random.nextInt(16)) {
            case 0 -> 0;
            case 1 -> WireConstants.MAX_PAYLOAD_LENGTH;
            default -> random.nextInt(200);
        };
        byte[] payload = new byte[length];
        random.nextBytes(payload);
        return payload;
    }

    Packet packet(Opcode opcode) {
        CommonHeader header = header();
        return switch (opcode) {
            case ACK -> ack(header);
            case NACK ->
                new NackPacket(
                        header,
                        NackCode.values()[random.nextInt(NackCode.values().length)],
                        u16(),
                        u32(),
                        u32(),
                        u32());
            case PROBE -> new ProbePacket(header, u32());
            default -> data(opcode, header);
        };
    }

    AckPacket ack(CommonHeader header) {
        long[] words = new long[AckFlyweight.SACK_WORDS];
        for (int w = 0; w < words.length; w++) {
            words[w] = u64();
        }
        words[0] &= ~1L; // bit 0 is the cumulative PSN itself (5.3.2)
        return new AckPacket(header, u32(), u16(), u32(), words);
    }

    DataPacket data(Opcode opcode, CommonHeader header) {
        if (opcode == Opcode.READ_REQUEST) {
            return DataPacket.readRequest(header, u16(), u32(), u32(), u32(), u64(), u32(), u32());
        }
        byte[] payload = payload();
        long messageLength = inRange(payload.length, WireConstants.MAX_PSN);
        long messageOffset = inRange(0, messageLength - payload.length);
        return switch (opcode) {
            case WRITE ->
                DataPacket.write(header, u16(), u32(), messageLength, messageOffset, u32(), u64(), u32(), payload);
            case WRITE_WITH_IMMEDIATE ->
                DataPacket.writeWithImmediate(
                        header, u16(), u32(), messageLength, messageOffset, u32(), u64(), u32(), u32(), payload);
            case SEND -> DataPacket.send(header, u16(), u32(), messageLength, messageOffset, u32(), u32(), payload);
            case READ_RESPONSE ->
                DataPacket.readResponse(header, u16(), u32(), messageLength, messageOffset, u32(), u32(), payload);
            default -> throw new AssertionError(opcode);
        };
    }
}
