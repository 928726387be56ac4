package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import org.apiguardian.api.API;

/** One record of a capture file: the frame's bytes as captured, its timestamp and its original length. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CapturedFrame {

    private final int index;
    private final Instant timestamp;
    private final byte[] data;
    private final int originalLength;

    CapturedFrame(int index, Instant timestamp, byte[] data, int originalLength) {
        this.index = index;
        this.timestamp = timestamp;
        this.data = data;
        this.originalLength = originalLength;
    }

    /** Position in the file, from 0. */
    public int index() {
        return index;
    }

    /** Capture timestamp at the file's resolution (exact for nanosecond pcap and if_tsresol=9 pcapng). */
    public Instant timestamp() {
        return timestamp;
    }

    /** The captured bytes, read-only. */
    public ByteBuffer data() {
        return ByteBuffer.wrap(data).asReadOnlyBuffer();
    }

    /** A copy of the captured bytes. */
    public byte[] bytes() {
        return data.clone();
    }

    /** Bytes captured. */
    public int capturedLength() {
        return data.length;
    }

    /** Length of the frame on the wire; larger than {@link #capturedLength()} if the capture cut it. */
    public int originalLength() {
        return originalLength;
    }

    /** True if the capture holds only part of the frame (snapshot length smaller than the frame). */
    public boolean isTruncated() {
        return data.length < originalLength;
    }

    /** Decodes the bytes as an Ethernet/IP/UDP frame stamped with this record's timestamp. */
    public DecodedFrame decode() throws FrameDecodeException {
        return FrameCodec.decode(data, timestamp);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CapturedFrame
                && ((CapturedFrame) o).index == index
                && ((CapturedFrame) o).originalLength == originalLength
                && ((CapturedFrame) o).timestamp.equals(timestamp)
                && Arrays.equals(((CapturedFrame) o).data, data);
    }

    @Override
    public int hashCode() {
        return (31 * index + timestamp.hashCode()) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "CapturedFrame[#" + index + " " + timestamp + " " + data.length + "/" + originalLength + "B]";
    }
}
