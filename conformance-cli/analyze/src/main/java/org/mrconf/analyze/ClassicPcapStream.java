package org.mrconf.analyze;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Instant;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.PcapReader;

/**
 * Streams the records of a classic pcap file (either byte order, micro- or nanosecond timestamps) in pure Java, for
 * the analyser's speed: libpcap through Pcap4J allocates native memory and a cleaner per record, which made reading
 * most of the analyser's cost. pcapng files, and classic files of another link type, go through
 * {@link org.mrconf.pcap.PcapReader} as before ({@link #open} returns null for them).
 */
final class ClassicPcapStream implements AutoCloseable {
    private static final int MAGIC_MICRO = 0xA1B2C3D4;
    private static final int MAGIC_NANO = 0xA1B23C4D;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;
    /** Larger than any frame a sane capture holds (libpcap's own limit is 256 KiB). */
    private static final int MAX_RECORD = 1 << 18;

    private final Path file;
    private final InputStream in;
    private final ByteBuffer header;
    private final boolean nanos;
    private long records;

    /** One record: its bytes as captured, its timestamp, and whether the capture cut it short. */
    record Record(byte[] bytes, Instant timestamp, boolean truncated) {}

    private ClassicPcapStream(final Path file, final InputStream in, final ByteOrder order, final boolean nanos) {
        this.file = file;
        this.in = in;
        this.header = ByteBuffer.allocate(RECORD_HEADER).order(order);
        this.nanos = nanos;
    }

    /** The stream of {@code file} when it is a classic Ethernet pcap, else null (use PcapReader). */
    static ClassicPcapStream open(final Path file) throws CaptureFileException {
        final byte[] head = new byte[FILE_HEADER];
        final InputStream in;
        try {
            in = new BufferedInputStream(UserFiles.open(file, UserFiles.Kind.CAPTURE), 1 << 20);
            if (in.readNBytes(head, 0, FILE_HEADER) < FILE_HEADER) {
                in.close();
                return null; // PcapReader says what is wrong with a short file
            }
        } catch (final UserFileException e) {
            if (e.reason() == UserFileException.Reason.NOT_REGULAR) {
                throw PcapReader.refused(file, e); // a FIFO or device is never opened, here or by libpcap
            }
            return null; // PcapReader says why it cannot be read
        } catch (final IOException e) {
            return null; // PcapReader says why it cannot be read
        }
        final ByteBuffer big = ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN);
        final ByteBuffer little = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer view = null;
        for (final ByteBuffer candidate : new ByteBuffer[] {big, little}) {
            final int magic = candidate.getInt(0);
            if (magic == MAGIC_MICRO || magic == MAGIC_NANO) {
                view = candidate;
            }
        }
        if (view == null || view.getInt(20) != LINKTYPE_ETHERNET) {
            close(in);
            return null;
        }
        return new ClassicPcapStream(file, in, view.order(), view.getInt(0) == MAGIC_NANO);
    }

    /** The next record, or null at the end of the file. */
    Record next() throws CaptureFileException {
        try {
            final int got = in.readNBytes(header.array(), 0, RECORD_HEADER);
            if (got == 0) {
                return null;
            }
            if (got < RECORD_HEADER) {
                throw new EOFException("record header cut short");
            }
            // Seconds are unsigned 32-bit (as Wireshark and PcapWriter have them).
            final long seconds = header.getInt(0) & 0xFFFF_FFFFL;
            final long fraction = header.getInt(4) & 0xFFFF_FFFFL;
            // Unsigned 32-bit, as the format has it: 0xFFFFFFFF is 4294967295, not -1.
            final long captured = header.getInt(8) & 0xFFFF_FFFFL;
            final long original = header.getInt(12) & 0xFFFF_FFFFL;
            if (captured > MAX_RECORD || fraction >= (nanos ? 1_000_000_000L : 1_000_000L)) {
                throw new CaptureFileException(
                        file,
                        "damaged record " + records + " (after " + records + " good frames): captured length "
                                + captured + ", sub-second field " + fraction);
            }
            final byte[] bytes = in.readNBytes((int) captured);
            if (bytes.length < captured) {
                throw new EOFException("record data cut short");
            }
            records++;
            return new Record(
                    bytes, Instant.ofEpochSecond(seconds, nanos ? fraction : fraction * 1_000), original > captured);
        } catch (final CaptureFileException e) {
            throw e;
        } catch (final IOException e) {
            throw new CaptureFileException(
                    file, "damaged record " + records + " (after " + records + " good frames): " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        close(in);
    }

    private static void close(final InputStream in) {
        try {
            in.close();
        } catch (final IOException e) {
            // nothing was written: nothing to lose
        }
    }
}
