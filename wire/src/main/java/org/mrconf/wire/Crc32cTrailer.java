package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The CRC32C trailer that ends every packet (clause 5.6.1, Table 5-12): CRC32C (Castagnoli) of every
 * byte before it, stored big-endian in the last 4 bytes. The encoder writes it and the decoder checks
 * it; an instance is reused per thread and is not thread-safe.
 *
 * <pre>
 * +----------------------------------+---------------------------------+
 * | header and payload (n - 4 bytes) | CRC32C of bytes 0 to n - 5 (BE) |
 * +----------------------------------+---------------------------------+
 * </pre>
 *
 * <p>Computing never copies the bytes and never touches the caller's position or limit. Heap buffers
 * are read through their backing array. Other buffers (direct, read-only) go through a duplicate that
 * is created once per distinct buffer and kept, so a hot loop over one receive buffer allocates
 * nothing; the kept reference is the price of that. (For a read-only heap buffer the JDK's CRC32C
 * itself copies through a small temporary array.)
 */
public final class Crc32cTrailer {
    /** The trailer's length. */
    public static final int LENGTH = WireConstants.TRAILER_LENGTH;
    /** The crc32c field's size (Table 5-12). */
    public static final int CRC32C_SIZE = 4;

    private final CRC32C crc = new CRC32C();
    private ByteBuffer viewSource;
    private ByteBuffer view;

    /** Offset of the trailer from the start of a packet of {@code packetLength} bytes (Table 5-12). */
    public static int trailerOffset(int packetLength) {
        return packetLength - LENGTH;
    }

    /** The CRC stored in the trailer of the packet at {@code packetOffset}, as an unsigned 32-bit value. */
    public static long read(ByteBuffer buffer, int packetOffset, int packetLength) {
        return BigEndian.getU32(buffer, packetOffset + trailerOffset(packetLength));
    }

    /** CRC32C of the {@code length} bytes at absolute index {@code offset}. */
    public long compute(ByteBuffer buffer, int offset, int length) {
        crc.reset();
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + offset, length);
        } else {
            if (buffer != viewSource) {
                viewSource = buffer;
                view = buffer.duplicate();
            }
            // clear() first: the previous window may lie beyond the new limit.
            view.clear().limit(offset + length).position(offset);
            crc.update(view);
        }
        return crc.getValue();
    }

    /** Computes the CRC over all but the last 4 bytes of the packet, writes it there and returns it. */
    public long write(ByteBuffer buffer, int packetOffset, int packetLength) {
        long value = compute(buffer, packetOffset, trailerOffset(packetLength));
        BigEndian.putU32(buffer, packetOffset + trailerOffset(packetLength), value);
        return value;
    }

    /** Whether the packet's trailer matches its bytes; the packet must be at least 4 bytes long. */
    public boolean verify(ByteBuffer buffer, int packetOffset, int packetLength) {
        return compute(buffer, packetOffset, trailerOffset(packetLength)) == read(buffer, packetOffset, packetLength);
    }
}
