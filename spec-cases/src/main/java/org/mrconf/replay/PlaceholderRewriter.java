package org.mrconf.replay;

import java.nio.ByteBuffer;
import java.util.Map;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.Opcode;

/**
 * Rewrites a recorded stimulus packet to the DUT's actual values: the destination connection id, the PSN (shifted from
 * the recorded base to the actual one), and a WRITE's or READ_REQUEST's remote key and address (from the recorded
 * region to the DUT's), and a READ_RESPONSE's sink handle, MSN and stream (from a recorded READ_REQUEST of the DUT to
 * the one it actually sent, once {@link #bind} named it). The CRC32C is then recomputed, keeping exactly the error a packet was recorded with: a vector
 * of a bad CRC stays bad by the same bits. Fields the packet is too short to hold are left alone.
 */
final class PlaceholderRewriter {
    private static final long MASK = 0xFFFF_FFFFL;
    private static final int CONNECTION_OFFSET = 4;
    private static final int PSN_OFFSET = 12;
    private static final int REMOTE_ADDRESS_OFFSET = 36;
    private static final int REMOTE_KEY_OFFSET = 44;
    private static final int STREAM_OFFSET = 16;
    private static final int MSN_OFFSET = 20;
    private static final int SINK_HANDLE_OFFSET = 36;

    private final Sidecar.Placeholders recorded;
    private final long actualConnection;
    private final long actualPsnBase;
    private final Map<String, ActualRegion> regions;
    private final Crc32cTrailer crc = new Crc32cTrailer();
    private final Map<Long, BoundRequest> bound = new java.util.HashMap<>();

    /** A READ_REQUEST the DUT sent, as a READ_RESPONSE must name it. */
    record BoundRequest(int stream, long msn, long sinkHandle) {}

    /** Where the DUT put a region of the sidecar. */
    record ActualRegion(long address, long key, long length) {}

    PlaceholderRewriter(
            final Sidecar.Placeholders recorded,
            final long actualConnection,
            final long actualPsnBase,
            final Map<String, ActualRegion> regions) {
        this.recorded = recorded;
        this.actualConnection = actualConnection;
        this.actualPsnBase = actualPsnBase;
        this.regions = Map.copyOf(regions);
    }

    /**
     * From now on, READ_RESPONSEs recorded with the sink handle of request placeholder {@code name} answer
     * {@code actual} instead.
     */
    void bind(final String name, final BoundRequest actual) {
        final Sidecar.RequestPlaceholder placeholder = recorded.requests().get(name);
        if (placeholder != null) {
            bound.put(placeholder.sinkHandle(), actual);
        }
    }

    /** The packet to send in place of {@code packet}. */
    byte[] rewrite(final byte[] packet) {
        final byte[] out = packet.clone();
        final ByteBuffer buffer = ByteBuffer.wrap(out);
        final int length = out.length;
        final boolean hasTrailer = length >= 20;
        final long crcError = hasTrailer
                ? Crc32cTrailer.read(buffer, 0, length) ^ crc.compute(buffer, 0, length - Crc32cTrailer.LENGTH)
                : 0;
        if (length >= CONNECTION_OFFSET + 4 && u32(buffer, CONNECTION_OFFSET) == recorded.connection()) {
            buffer.putInt(CONNECTION_OFFSET, (int) actualConnection);
        }
        if (length >= PSN_OFFSET + 4) {
            final long psn = u32(buffer, PSN_OFFSET);
            buffer.putInt(PSN_OFFSET, (int) ((psn - recorded.psnBase() + actualPsnBase) & MASK));
        }
        final Opcode opcode = Opcode.fromValue(out.length > 1 ? out[1] & 0xFF : -1);
        if ((opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST)
                && length >= REMOTE_KEY_OFFSET + 4) {
            rewriteRegion(buffer);
        }
        if (opcode == Opcode.READ_RESPONSE && length >= SINK_HANDLE_OFFSET + 4) {
            final BoundRequest request = bound.get(u32(buffer, SINK_HANDLE_OFFSET));
            if (request != null) {
                buffer.putShort(STREAM_OFFSET, (short) request.stream());
                buffer.putInt(MSN_OFFSET, (int) request.msn());
                buffer.putInt(SINK_HANDLE_OFFSET, (int) request.sinkHandle());
            }
        }
        if (hasTrailer) {
            final long value = crc.compute(buffer, 0, length - Crc32cTrailer.LENGTH) ^ crcError;
            buffer.putInt(length - Crc32cTrailer.LENGTH, (int) value);
        }
        return out;
    }

    private void rewriteRegion(final ByteBuffer buffer) {
        final long key = u32(buffer, REMOTE_KEY_OFFSET);
        final long address = buffer.getLong(REMOTE_ADDRESS_OFFSET);
        for (final Map.Entry<String, Sidecar.RegionPlaceholder> entry :
                recorded.regions().entrySet()) {
            final ActualRegion actual = regions.get(entry.getKey());
            if (actual == null || entry.getValue().key() != key) {
                continue;
            }
            buffer.putInt(REMOTE_KEY_OFFSET, (int) actual.key());
            // Addresses inside the recorded region move with it; others (a bounds test) keep their distance from it.
            buffer.putLong(REMOTE_ADDRESS_OFFSET, address - entry.getValue().address() + actual.address());
            return;
        }
    }

    private static long u32(final ByteBuffer buffer, final int offset) {
        return buffer.getInt(offset) & MASK;
    }
}
