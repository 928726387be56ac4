package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * Reads an Ethernet capture, classic pcap or pcapng, through libpcap ({@code pcap_open_offline}, which reads
 * both), one {@link CapturedFrame} per {@link #next()} call until it returns {@code null}. Timestamps are
 * requested at nanosecond precision so nothing is lost whatever the file's resolution. Not thread-safe (Pcap4J
 * keeps the last timestamp per thread).
 *
 * <p>The file is checked before libpcap sees it, so a missing, empty or non-capture file fails with a
 * {@link CaptureFileException} that says so plainly instead of libpcap's terse "unknown file format".
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PcapReader implements AutoCloseable {

    private static final int MAGIC_PCAP_MICRO = 0xA1B2C3D4;
    private static final int MAGIC_PCAP_MICRO_SWAPPED = 0xD4C3B2A1;
    private static final int MAGIC_PCAP_NANO = 0xA1B23C4D;
    private static final int MAGIC_PCAP_NANO_SWAPPED = 0x4D3CB2A1;
    /** pcapng Section Header Block type; a palindrome, so byte order does not matter. */
    private static final int MAGIC_PCAPNG = 0x0A0D0D0A;

    private final Path file;
    private final CaptureFormat format;
    private final PcapHandle handle;
    private int index;
    private boolean done;
    private boolean closed;

    private PcapReader(Path file, CaptureFormat format, PcapHandle handle) {
        this.file = file;
        this.format = format;
        this.handle = handle;
    }

    /**
     * Opens a pcap or pcapng capture of Ethernet frames.
     *
     * @throws CaptureFileException     if the file is missing, empty, not a capture, unreadable, or not Ethernet
     * @throws PcapUnavailableException if libpcap cannot be loaded
     */
    public static PcapReader open(Path file) throws CaptureFileException {
        Objects.requireNonNull(file, "file");
        byte[] head = new byte[24];
        CaptureFormat format = sniff(file, head);
        Libpcap.version(); // fails with a clear PcapUnavailableException if libpcap is missing
        PcapHandle handle;
        try {
            handle = Pcaps.openOffline(file.toString(), TimestampPrecision.NANO);
        } catch (PcapNativeException e) {
            // The magic was right, so this is a damaged file: libpcap's reason (e.g. "truncated dump file") says how.
            throw new CaptureFileException(file, "unreadable " + describe(format) + ": " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new PcapUnavailableException(e);
        }
        DataLinkType dlt = handle.getDlt();
        if (!DataLinkType.EN10MB.equals(dlt)) {
            handle.close();
            // libpcap maps some file link types to other DLT numbers (LINKTYPE_RAW 101 to DLT_RAW 12): name the
            // number the file holds, as Wireshark and tcpdump do.
            int inFile = format == CaptureFormat.PCAPNG ? dlt.value() : classicLinkType(head);
            throw new CaptureFileException(
                    file,
                    "link type " + inFile + (inFile == dlt.value() ? " (" + dlt.name() + ")" : "")
                            + " is not supported; only Ethernet (LINKTYPE_ETHERNET = 1) captures can be read");
        }
        return new PcapReader(file, format, handle);
    }

    /** Reads every frame of {@code file}. */
    public static List<CapturedFrame> readAll(Path file) throws CaptureFileException {
        try (PcapReader r = open(file)) {
            return r.readAll();
        }
    }

    /** The capture file. */
    public Path file() {
        return file;
    }

    /** The container format, from the magic number. */
    public CaptureFormat format() {
        return format;
    }

    /**
     * The next frame, or {@code null} at the end of the file.
     *
     * @throws CaptureFileException if a record is damaged (e.g. the file was cut short mid-record)
     */
    public CapturedFrame next() throws CaptureFileException {
        if (closed) {
            throw new IllegalStateException(file + ": reader is closed");
        }
        if (done) {
            return null;
        }
        try {
            while (true) {
                try {
                    byte[] data = handle.getNextRawPacketEx();
                    Timestamp ts = handle.getTimestamp();
                    Integer original = handle.getOriginalLength();
                    return new CapturedFrame(
                            index++, unsignedSeconds(ts.toInstant()), data, original == null ? data.length : original);
                } catch (TimeoutException e) {
                    // Only live captures time out; an offline read never should, but retrying is harmless.
                    continue;
                }
            }
        } catch (EOFException e) {
            done = true;
            return null;
        } catch (PcapNativeException e) {
            done = true; // libpcap's position is unknown after an error: stop rather than read garbage.
            throw new CaptureFileException(
                    file, "damaged record " + index + " (after " + index + " good frames): " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            // java.sql.Timestamp.setNanos rejects a sub-second field of a billion or more.
            done = true;
            throw new CaptureFileException(file, "record " + index + " has an invalid timestamp: " + e.getMessage(), e);
        } catch (NotOpenException e) {
            throw new IllegalStateException(file + ": reader is closed", e);
        }
    }

    /** The remaining frames. */
    public List<CapturedFrame> readAll() throws CaptureFileException {
        List<CapturedFrame> frames = new ArrayList<>();
        for (CapturedFrame f = next(); f != null; f = next()) {
            frames.add(f);
        }
        return frames;
    }

    /** Closes the file. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            handle.close();
        }
    }

    /**
     * Classic pcap stores seconds as an unsigned 32-bit value (Wireshark reads it so, and {@link PcapWriter}
     * writes it so up to 2106), but libpcap 1.10 reads it as signed and returns 1901..1969 for 2038..2106.
     * Undo that; pcapng timestamps are 64-bit and never come back negative.
     */
    private Instant unsignedSeconds(Instant ts) {
        if (format != CaptureFormat.PCAPNG && ts.getEpochSecond() < 0) {
            return ts.plusSeconds(1L << 32);
        }
        return ts;
    }

    /** Checks the file exists, is non-empty and starts with a capture magic number; returns its format. */
    /**
     * A capture file {@link UserFiles} refused, in this reader's words: a FIFO or device is never opened (libpcap
     * would wait for a writer, or read without end).
     */
    public static CaptureFileException refused(Path file, UserFileException e) {
        switch (e.reason()) {
            case MISSING:
                return new CaptureFileException(file, "capture file does not exist", e);
            case NOT_REGULAR:
                return new CaptureFileException(
                        file,
                        Files.isDirectory(file)
                                ? "is a directory, not a capture file"
                                : "is not a regular file (a FIFO or device); give a pcap or pcapng capture file",
                        e);
            default:
                return new CaptureFileException(file, e.problem(), e);
        }
    }

    /** The link type of a classic pcap file header (its low 16 bits; the upper bits may carry FCS flags). */
    private static int classicLinkType(byte[] head) {
        boolean big = head[0] == (byte) 0xA1;
        int value = big
                ? ((head[20] & 0xFF) << 24) | ((head[21] & 0xFF) << 16) | ((head[22] & 0xFF) << 8) | (head[23] & 0xFF)
                : ((head[23] & 0xFF) << 24) | ((head[22] & 0xFF) << 16) | ((head[21] & 0xFF) << 8) | (head[20] & 0xFF);
        return value & 0xFFFF;
    }

    private static CaptureFormat sniff(Path file, byte[] head) throws CaptureFileException {
        int n;
        try (InputStream in = UserFiles.open(file, UserFiles.Kind.CAPTURE)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (UserFileException e) {
            throw refused(file, e);
        } catch (IOException e) {
            throw new CaptureFileException(file, "cannot read capture file: " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new CaptureFileException(file, "file is empty (0 bytes): not a pcap or pcapng capture");
        }
        if (n < 4) {
            throw new CaptureFileException(
                    file, "file is only " + n + " bytes: too short to be a pcap or pcapng capture");
        }
        int magic = ((head[0] & 0xFF) << 24) | ((head[1] & 0xFF) << 16) | ((head[2] & 0xFF) << 8) | (head[3] & 0xFF);
        switch (magic) {
            case MAGIC_PCAP_MICRO:
            case MAGIC_PCAP_MICRO_SWAPPED:
                return CaptureFormat.PCAP_MICRO;
            case MAGIC_PCAP_NANO:
            case MAGIC_PCAP_NANO_SWAPPED:
                return CaptureFormat.PCAP_NANO;
            case MAGIC_PCAPNG:
                return CaptureFormat.PCAPNG;
            default:
                throw new CaptureFileException(
                        file,
                        String.format(
                                Locale.ROOT,
                                "not a pcap or pcapng capture: bad magic number 0x%08x%s",
                                magic,
                                textHint(head, Math.min(n, 16))));
        }
    }

    /** If the file starts like text (JSON, a log, a hex dump), say so: that is the usual mistake. */
    private static String textHint(byte[] head, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int c = head[i] & 0xFF;
            if (c == '\n' || c == '\r' || c == '\t') {
                sb.append(' ');
            } else if (c >= 0x20 && c < 0x7F) {
                sb.append((char) c);
            } else {
                return "";
            }
        }
        return " (the file starts with text \"" + sb.toString().strip() + "\": JSON or a log, not a capture?)";
    }

    private static String describe(CaptureFormat format) {
        return format == CaptureFormat.PCAPNG ? "pcapng capture" : "pcap capture";
    }
}
