package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Writes an Ethernet ({@code LINKTYPE_ETHERNET}) capture in pure Java (no libpcap): classic pcap with nanosecond
 * (default) or microsecond timestamps, byte for byte what libpcap's {@code pcap_dump} writes (host byte order,
 * version 2.4, snapshot length {@link #SNAPLEN}), or pcapng ({@link #create(Path, CaptureFormat)}) with one Ethernet
 * interface at nanosecond resolution. Buffered; not thread-safe.
 *
 * <pre>{@code
 * try (PcapWriter w = PcapWriter.create(path)) {
 *     w.write(frame);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PcapWriter implements AutoCloseable {

    /** Snapshot length in the file header: libpcap's maximum, so a 9000-byte jumbo frame is never cut. */
    public static final int SNAPLEN = 262_144;

    /** The largest seconds value the 32-bit unsigned pcap record header can hold (year 2106). */
    private static final long MAX_PCAP_SECONDS = 0xFFFF_FFFFL;

    private static final int LINKTYPE_ETHERNET = 1;
    private static final int BUFFER = 1 << 16;

    private final Path file;
    private final CaptureFormat format;
    private final OutputStream out;
    private final ByteBuffer buffer;
    private int framesWritten;
    private boolean closed;
    /** The first write that failed; reported by {@link #close()}, as libpcap's flush reported it. */
    private IOException failure;

    private PcapWriter(Path file, CaptureFormat format, OutputStream out) {
        this.file = file;
        this.format = format;
        this.out = out;
        // Host byte order, as libpcap writes: a reader learns it from the magic number.
        this.buffer = ByteBuffer.allocate(BUFFER).order(ByteOrder.nativeOrder());
    }

    /** Creates (or truncates) {@code file} as a nanosecond-resolution pcap. */
    public static PcapWriter create(Path file) throws CaptureFileException {
        return create(file, TimestampResolution.NANO);
    }

    /**
     * Creates (or truncates) {@code file} as a classic pcap with the given timestamp resolution.
     *
     * @throws CaptureFileException if the file cannot be created (the reason is in the message)
     */
    public static PcapWriter create(Path file, TimestampResolution resolution) throws CaptureFileException {
        Objects.requireNonNull(resolution, "resolution");
        return create(
                file, resolution == TimestampResolution.NANO ? CaptureFormat.PCAP_NANO : CaptureFormat.PCAP_MICRO);
    }

    /**
     * Creates (or truncates) {@code file} in the given format: classic pcap at micro- or nanosecond resolution, or
     * pcapng (one Section Header Block, one Ethernet Interface Description Block with {@code if_tsresol} = 9, then an
     * Enhanced Packet Block per frame).
     *
     * @throws CaptureFileException if the file cannot be created (the reason is in the message)
     */
    public static PcapWriter create(Path file, CaptureFormat format) throws CaptureFileException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(format, "format");
        OutputStream out;
        try {
            out = Files.newOutputStream(file); // create, truncate, write
        } catch (IOException | UnsupportedOperationException e) {
            throw new CaptureFileException(file, "cannot create pcap file: " + reason(e), e);
        }
        PcapWriter writer = new PcapWriter(file, format, out);
        writer.header();
        return writer;
    }

    /** Encodes a well-formed frame and writes it at {@link UdpFrame#timestamp()}. */
    public void write(UdpFrame frame) {
        write(frame, EncodeOptions.DEFAULT);
    }

    /** Encodes the frame as {@code options} say (possibly malformed on purpose) and writes it. */
    public void write(UdpFrame frame, EncodeOptions options) {
        writeRaw(FrameCodec.encode(frame, options), frame.timestamp());
    }

    /**
     * Writes an Ethernet frame exactly as given (no FCS expected). A failure of the file system (a full disk) is
     * reported by {@link #close()}.
     *
     * @throws IllegalArgumentException if the frame exceeds {@link #SNAPLEN} or the timestamp is outside what pcap
     *                                  can store (1970 to 2106)
     * @throws IllegalStateException    if the writer is closed
     */
    public void writeRaw(byte[] frame, Instant timestamp) {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(timestamp, "timestamp");
        if (closed) {
            throw new IllegalStateException(file + ": writer is closed");
        }
        if (frame.length > SNAPLEN) {
            throw new IllegalArgumentException(
                    "frame of " + frame.length + " bytes exceeds the snapshot length " + SNAPLEN);
        }
        // The classic record header stores seconds as an unsigned 32-bit value: reject what cannot round-trip.
        if (timestamp.getEpochSecond() < 0 || timestamp.getEpochSecond() > MAX_PCAP_SECONDS) {
            throw new IllegalArgumentException("timestamp " + timestamp + " is outside the pcap range 1970..2106");
        }
        if (format == CaptureFormat.PCAPNG) {
            int padded = (frame.length + 3) & ~3;
            int total = 32 + padded;
            long units = timestamp.getEpochSecond() * 1_000_000_000L + timestamp.getNano();
            room(28);
            buffer.putInt(0x00000006)
                    .putInt(total)
                    .putInt(0) // interface 0
                    .putInt((int) (units >>> 32))
                    .putInt((int) units)
                    .putInt(frame.length)
                    .putInt(frame.length);
            put(frame);
            room(4 + padded - frame.length);
            buffer.put(new byte[padded - frame.length]).putInt(total);
        } else {
            long fraction = format == CaptureFormat.PCAP_NANO ? timestamp.getNano() : timestamp.getNano() / 1_000;
            room(16);
            buffer.putInt((int) timestamp.getEpochSecond())
                    .putInt((int) fraction)
                    .putInt(frame.length)
                    .putInt(frame.length);
            put(frame);
        }
        framesWritten++;
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    /** The timestamp resolution: nanoseconds for pcapng. */
    public TimestampResolution resolution() {
        return format == CaptureFormat.PCAP_MICRO ? TimestampResolution.MICRO : TimestampResolution.NANO;
    }

    /** The container format being written. */
    public CaptureFormat format() {
        return format;
    }

    /** Frames written so far. */
    public int framesWritten() {
        return framesWritten;
    }

    /**
     * Flushes and closes the file. Idempotent.
     *
     * @throws CaptureFileException if a write or the final flush failed (disk full, for instance); the file is
     *                              closed anyway
     */
    @Override
    public void close() throws CaptureFileException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
        try {
            out.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new CaptureFileException(file, "writing the capture failed: " + reason(failure), failure);
        }
    }

    private void header() {
        if (format == CaptureFormat.PCAPNG) {
            // Section Header Block: byte-order magic, version 1.0, section length unknown (-1), no options.
            buffer.putInt(0x0A0D0D0A)
                    .putInt(28)
                    .putInt(0x1A2B3C4D)
                    .putShort((short) 1)
                    .putShort((short) 0)
                    .putLong(-1L)
                    .putInt(28);
            // Interface Description Block: Ethernet, snaplen, if_tsresol = 9 (nanoseconds), opt_endofopt.
            buffer.putInt(0x00000001)
                    .putInt(32)
                    .putShort((short) LINKTYPE_ETHERNET)
                    .putShort((short) 0)
                    .putInt(SNAPLEN)
                    .putShort((short) 9)
                    .putShort((short) 1)
                    .put(new byte[] {9, 0, 0, 0})
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(32);
        } else {
            buffer.putInt(format == CaptureFormat.PCAP_NANO ? 0xA1B23C4D : 0xA1B2C3D4)
                    .putShort((short) 2)
                    .putShort((short) 4)
                    .putInt(0) // thiszone
                    .putInt(0) // sigfigs
                    .putInt(SNAPLEN)
                    .putInt(LINKTYPE_ETHERNET);
        }
    }

    /** Makes room for {@code n} more bytes in the buffer (n at most its capacity). */
    private void room(int n) {
        if (buffer.remaining() < n) {
            flush();
        }
    }

    /** Appends the frame's bytes: through the buffer if they fit, else straight to the file. */
    private void put(byte[] frame) {
        if (frame.length <= buffer.remaining()) {
            buffer.put(frame);
            return;
        }
        flush();
        if (frame.length <= buffer.remaining()) {
            buffer.put(frame);
        } else {
            writeFully(frame, frame.length);
        }
    }

    private void flush() {
        writeFully(buffer.array(), buffer.position());
        buffer.clear();
    }

    private void writeFully(byte[] bytes, int length) {
        if (failure != null || length == 0) {
            return; // once a write failed the capture is lost; close() says so
        }
        try {
            out.write(bytes, 0, length);
        } catch (IOException e) {
            failure = e;
        }
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return String.valueOf(e.getMessage());
    }
}
