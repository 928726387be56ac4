package org.mrconf.pcap;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Test-side checksum arithmetic, written independently of {@link FrameCodec}: it lays the pseudo-header out as
 * bytes exactly as the RFCs draw it and sums 16-bit words read through a ByteBuffer.
 */
final class Checksums {

    private Checksums() {}

    /** RFC 791 header checksum of the IPv4 header at offset 14, computed with the checksum field zeroed. */
    static int ipv4HeaderChecksum(byte[] frame) {
        int ihl = (frame[14] & 0x0F) * 4;
        byte[] header = Arrays.copyOfRange(frame, 14, 14 + ihl);
        header[10] = 0;
        header[11] = 0;
        return complement(header);
    }

    /** The IPv4 header checksum field as found in the frame. */
    static int ipv4HeaderChecksumField(byte[] frame) {
        return ((frame[24] & 0xFF) << 8) | (frame[25] & 0xFF);
    }

    /** The UDP checksum a sender must put in the frame (IPv4 or IPv6 by EtherType), 0 mapped to 0xFFFF. */
    static int udpChecksum(byte[] frame) {
        boolean v6 = (frame[12] & 0xFF) == 0x86 && (frame[13] & 0xFF) == 0xDD;
        int udp = v6 ? 14 + 40 : 14 + (frame[14] & 0x0F) * 4;
        int udpLength = ((frame[udp + 4] & 0xFF) << 8) | (frame[udp + 5] & 0xFF);
        ByteArrayOutputStream pseudo = new ByteArrayOutputStream();
        if (v6) {
            pseudo.write(frame, 14 + 8, 16); // source address
            pseudo.write(frame, 14 + 24, 16); // destination address
            pseudo.writeBytes(ByteBuffer.allocate(4).putInt(udpLength).array()); // upper-layer length, 32 bits
            pseudo.writeBytes(new byte[] {0, 0, 0, 17}); // three zero bytes, next header
        } else {
            pseudo.write(frame, 14 + 12, 4);
            pseudo.write(frame, 14 + 16, 4);
            pseudo.writeBytes(new byte[] {0, 17});
            pseudo.writeBytes(ByteBuffer.allocate(2).putShort((short) udpLength).array());
        }
        byte[] segment = Arrays.copyOfRange(frame, udp, udp + udpLength);
        segment[6] = 0;
        segment[7] = 0;
        pseudo.writeBytes(segment);
        int c = complement(pseudo.toByteArray());
        return c == 0 ? 0xFFFF : c;
    }

    /** The UDP checksum field as found in the frame. */
    static int udpChecksumField(byte[] frame) {
        boolean v6 = (frame[12] & 0xFF) == 0x86;
        int udp = v6 ? 14 + 40 : 14 + (frame[14] & 0x0F) * 4;
        return ((frame[udp + 6] & 0xFF) << 8) | (frame[udp + 7] & 0xFF);
    }

    private static int complement(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data.length % 2 == 0 ? data : Arrays.copyOf(data, data.length + 1));
        long sum = 0;
        while (b.hasRemaining()) {
            sum += Short.toUnsignedInt(b.getShort());
        }
        while (sum > 0xFFFF) {
            sum = (sum >> 16) + (sum & 0xFFFF);
        }
        return (int) (~sum & 0xFFFF);
    }
}
