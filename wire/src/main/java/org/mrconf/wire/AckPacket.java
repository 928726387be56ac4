package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * An ACK (Table 5-9) as an immutable value; see {@link Packet}. The header's psn is the cumulative
 * PSN. The SACK bitmap is held as {@link AckFlyweight#SACK_WORDS} longs, bit j of word w being SACK
 * bit 64w + j.
 */
public record AckPacket(CommonHeader header, long echoedTimestamp, int ceCount, long rateHint, long[] sackWords)
        implements Packet {
    public AckPacket {
        Objects.requireNonNull(header, "header");
        FieldWidth.u32(echoedTimestamp, "echoed timestamp");
        FieldWidth.u16(ceCount, "CE count");
        FieldWidth.u32(rateHint, "rate hint");
        if (sackWords.length != AckFlyweight.SACK_WORDS) {
            throw new IllegalArgumentException("SACK bitmap needs " + AckFlyweight.SACK_WORDS + " words");
        }
        sackWords = sackWords.clone();
    }

    /** An ACK with the listed SACK bits set. */
    public static AckPacket of(CommonHeader header, long echoedTimestamp, int ceCount, long rateHint, int... sackBits) {
        long[] words = new long[AckFlyweight.SACK_WORDS];
        for (int bit : sackBits) {
            Objects.checkIndex(bit, WireConstants.SACK_BITS);
            words[bit >>> 6] |= 1L << (bit & 63);
        }
        return new AckPacket(header, echoedTimestamp, ceCount, rateHint, words);
    }

    /** A copy of the bitmap words. */
    @Override
    public long[] sackWords() {
        return sackWords.clone();
    }

    public boolean sackBit(int bit) {
        Objects.checkIndex(bit, WireConstants.SACK_BITS);
        return (sackWords[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    /** The set SACK bits in ascending order. */
    public int[] sackBits() {
        int count = 0;
        for (long word : sackWords) {
            count += Long.bitCount(word);
        }
        int[] bits = new int[count];
        int next = 0;
        for (int bit = 0; bit < WireConstants.SACK_BITS; bit++) {
            if (sackBit(bit)) {
                bits[next++] = bit;
            }
        }
        return bits;
    }

    public long cumulativePsn() {
        return header.psn();
    }

    @Override
    public Opcode opcode() {
        return Opcode.ACK;
    }

    @Override
    public int encodedLength() {
        return Opcode.ACK.packetLength(0);
    }

    @Override
    public int encode(PacketEncoder encoder, ByteBuffer buffer, int offset) {
        AckFlyweight ack = encoder.ack(buffer, offset);
        header.writeTo(ack);
        ack.echoedTimestamp(echoedTimestamp).ceCount(ceCount).rateHint(rateHint);
        for (int w = 0; w < AckFlyweight.SACK_WORDS; w++) {
            ack.sackWord(w, sackWords[w]);
        }
        return encoder.finish(buffer, offset, encodedLength());
    }

    static AckPacket from(AckFlyweight ack) {
        long[] words = new long[AckFlyweight.SACK_WORDS];
        for (int w = 0; w < words.length; w++) {
            words[w] = ack.sackWord(w);
        }
        return new AckPacket(CommonHeader.readFrom(ack), ack.echoedTimestamp(), ack.ceCount(), ack.rateHint(), words);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AckPacket a
                && header.equals(a.header)
                && echoedTimestamp == a.echoedTimestamp
                && ceCount == a.ceCount
                && rateHint == a.rateHint
                && Arrays.equals(sackWords, a.sackWords);
    }

    @Override
    public int hashCode() {
        return Objects.hash(header, echoedTimestamp, ceCount, rateHint, Arrays.hashCode(sackWords));
    }

    @Override
    public String toString() {
        return "AckPacket[header=" + header + ", echoedTimestamp=" + echoedTimestamp + ", ceCount=" + ceCount
                + ", rateHint=" + rateHint + ", sackBits=" + Arrays.toString(sackBits()) + "]";
    }
}
