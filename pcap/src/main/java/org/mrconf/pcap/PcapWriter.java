package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapDumper;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * Writes an Ethernet (DLT_EN10MB) classic pcap file through libpcap ({@code pcap_open_dead} +
 * {@code pcap_dump_open}), with nanosecond (default) or microsecond timestamps. Not thread-safe.
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

    private final Path file;
    private final TimestampResolution resolution;
    private final PcapHandle handle;
    private final PcapDumper dumper;
    private int framesWritten;
    private boolean closed;

    private PcapWriter(Path file, TimestampResolution resolution, PcapHandle handle, PcapDumper dumper) {
        this.file = file;
        this.resolution = resolution;
        this.handle = handle;
        this.dumper = dumper;
    }

    /** Creates (or truncates) {@code file} as a nanosecond-resolution pcap. */
    public static PcapWriter create(Path file) throws CaptureFileException {
        return create(file, TimestampResolution.NANO);
    }

    /**
     * Creates (or truncates) {@code file} as a pcap with the given timestamp resolution.
     *
     * @throws CaptureFileException     if libpcap cannot create the file (its reason is in the message)
     * @throws PcapUnavailableException if libpcap cannot be loaded
     */
    public static PcapWriter create(Path file, TimestampResolution resolution) throws CaptureFileException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(resolution, "resolution");
        Libpcap.version(); // fails with a clear PcapUnavailableException if libpcap is missing
        PcapHandle handle = null;
        try {
            handle = Pcaps.openDead(
                    DataLinkType.EN10MB,
                    SNAPLEN,
                    resolution == TimestampResolution.NANO ? TimestampPrecision.NANO : TimestampPrecision.MICRO);
            return new PcapWriter(file, resolution, handle, handle.dumpOpen(file.toString()));
        } catch (PcapNativeException e) {
            if (handle != null) {
                handle.close();
            }
            throw new CaptureFileException(file, "cannot create pcap file: " + e.getMessage(), e);
        } catch (NotOpenException e) {
            throw new AssertionError("a handle just opened is open", e);
        } catch (LinkageError e) {
            // Belt and braces: Libpcap.version() has already loaded the core binding.
            throw new PcapUnavailableException(e);
        }
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
     * Writes an Ethernet frame exactly as given (no FCS expected).
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
        // Pcap4J 1.8.2 derives seconds from Timestamp.getTime() / 1000, which rounds a negative time the wrong
        // way, and the file stores an unsigned 32-bit value: reject what cannot round-trip.
        if (timestamp.getEpochSecond() < 0 || timestamp.getEpochSecond() > MAX_PCAP_SECONDS) {
            throw new IllegalArgumentException("timestamp " + timestamp + " is outside the pcap range 1970..2106");
        }
        try {
            dumper.dumpRaw(frame, Timestamp.from(timestamp));
        } catch (NotOpenException e) {
            throw new IllegalStateException(file + ": writer is closed", e);
        }
        framesWritten++;
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    public TimestampResolution resolution() {
        return resolution;
    }

    /** Frames written so far. */
    public int framesWritten() {
        return framesWritten;
    }

    /**
     * Flushes and closes the file. Idempotent.
     *
     * @throws CaptureFileException if the final flush fails (disk full, for instance); the file is closed anyway
     */
    @Override
    public void close() throws CaptureFileException {
        if (closed) {
            return;
        }
        closed = true;
        PcapNativeException flushFailure = null;
        try {
            // pcap_dump itself reports no write errors; an explicit flush is the one place they surface.
            dumper.flush();
        } catch (PcapNativeException e) {
            flushFailure = e;
        } catch (NotOpenException e) {
            throw new AssertionError("dumper closed behind our back", e);
        } finally {
            dumper.close();
            handle.close();
        }
        if (flushFailure != null) {
            throw new CaptureFileException(
                    file, "writing the capture failed: " + flushFailure.getMessage(), flushFailure);
        }
    }
}
