package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * Reads an Ethernet capture, classic pcap or pcapng, in pure Java (no libpcap), one {@link CapturedFrame} per
 * {@link #next()} call until it returns {@code null}. The file is streamed, never held whole in memory, and a record
 * longer than the declared maximum ({@link #MAX_RECORD_LENGTH} unless {@link #open(Path, int)} says otherwise) is
 * refused before anything is allocated for it. Not thread-safe.
 *
 * <p>Classic pcap: either byte order, microsecond ({@code 0xA1B2C3D4}) or nanosecond ({@code 0xA1B23C4D})
 * timestamps, seconds read as the unsigned 32-bit value they are (as Wireshark reads them: up to 2106). pcapng:
 * Section Header, Interface Description, Enhanced, Simple and (obsolete) Packet Blocks, several sections of either
 * byte order, each interface's {@code if_tsresol} and {@code if_tsoffset}; every other block and option is skipped.
 * Only Ethernet ({@code LINKTYPE_ETHERNET} = 1) is read, because that is what every MetaRoCE capture is.
 *
 * <p>A missing, empty or non-capture file, a damaged header or record, or an unsupported link type is a
 * {@link CaptureFileException} naming the file, the byte offset and the field; nothing else is ever thrown for the
 * file's content. After a damaged record the reader stops: {@link #next()} returns {@code null}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PcapReader implements AutoCloseable {

    /**
     * The longest record read by default: libpcap's largest snapshot length (256 KiB), far above any jumbo frame. A
     * record that declares more is refused as damaged, so a hostile length never makes the reader allocate it.
     */
    public static final int MAX_RECORD_LENGTH = 262_144;

    private static final int MAGIC_PCAP_MICRO = 0xA1B2C3D4;
    private static final int MAGIC_PCAP_MICRO_SWAPPED = 0xD4C3B2A1;
    private static final int MAGIC_PCAP_NANO = 0xA1B23C4D;
    private static final int MAGIC_PCAP_NANO_SWAPPED = 0x4D3CB2A1;
    /** pcapng Section Header Block type; a palindrome, so byte order does not matter. */
    private static final int MAGIC_PCAPNG = 0x0A0D0D0A;

    private static final int PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int BLOCK_IDB = 0x00000001;
    private static final int BLOCK_PB = 0x00000002;
    private static final int BLOCK_SPB = 0x00000003;
    private static final int BLOCK_EPB = 0x00000006;
    private static final int OPT_ENDOFOPT = 0;
    private static final int OPT_IF_TSRESOL = 9;
    private static final int OPT_IF_TSOFFSET = 14;
    /** The longest option area or non-packet block body kept in memory (an IDB's options); larger ones are refused. */
    private static final int MAX_OPTIONS = 1 << 16;

    private static final int LINKTYPE_ETHERNET = 1;
    private static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;
    private static final int BUFFER = 1 << 16;

    private final Path file;
    private final CaptureFormat format;
    private final InputStream in;
    private final int maxRecord;
    /** Bytes consumed so far: the offset of the next byte. */
    private long offset;
    /** Byte order of the file (classic) or of the current section (pcapng). */
    private ByteOrder order;
    /** The interfaces of the current pcapng section, in order. */
    private final List<Interface> interfaces = new ArrayList<>();

    /** Classic pcap: whether the sub-second field counts nanoseconds (else microseconds). */
    private boolean nanos;

    private int index;
    private boolean done;
    private boolean closed;

    /** One pcapng interface: its snapshot length and how to turn its timestamp units into an instant. */
    private record Interface(int snaplen, boolean powerOfTwo, int exponent, long offsetSeconds) {}

    private PcapReader(Path file, CaptureFormat format, InputStream in, int maxRecord) {
        this.file = file;
        this.format = format;
        this.in = in;
        this.maxRecord = maxRecord;
    }

    /**
     * Opens a pcap or pcapng capture of Ethernet frames, refusing records over {@link #MAX_RECORD_LENGTH} bytes.
     *
     * @throws CaptureFileException if the file is missing, empty, not a capture, unreadable, or not Ethernet
     */
    public static PcapReader open(Path file) throws CaptureFileException {
        return open(file, MAX_RECORD_LENGTH);
    }

    /**
     * Opens a pcap or pcapng capture of Ethernet frames, refusing (as damaged) any record that declares more than
     * {@code maxRecordLength} captured bytes.
     *
     * @throws CaptureFileException if the file is missing, empty, not a capture, unreadable, or not Ethernet
     */
    public static PcapReader open(Path file, int maxRecordLength) throws CaptureFileException {
        Objects.requireNonNull(file, "file");
        if (maxRecordLength < 1) {
            throw new IllegalArgumentException("maxRecordLength must be positive: " + maxRecordLength);
        }
        InputStream in;
        try {
            in = new BufferedInputStream(UserFiles.open(file, UserFiles.Kind.CAPTURE), BUFFER);
        } catch (UserFileException e) {
            throw refused(file, e);
        }
        try {
            byte[] head = new byte[4];
            int n = in.readNBytes(head, 0, 4);
            if (n == 0) {
                throw new CaptureFileException(file, "file is empty (0 bytes): not a pcap or pcapng capture");
            }
            if (n < 4) {
                throw new CaptureFileException(
                        file, "file is only " + n + " bytes: too short to be a pcap or pcapng capture");
            }
            int magic = ByteBuffer.wrap(head).getInt();
            CaptureFormat format = formatOf(magic);
            if (format == null) {
                byte[] more = new byte[12];
                int extra = in.readNBytes(more, 0, more.length);
                byte[] start = new byte[4 + extra];
                System.arraycopy(head, 0, start, 0, 4);
                System.arraycopy(more, 0, start, 4, extra);
                throw new CaptureFileException(
                        file,
                        String.format(
                                Locale.ROOT,
                                "not a pcap or pcapng capture: bad magic number 0x%08x%s",
                                magic,
                                textHint(start, start.length)));
            }
            PcapReader reader = new PcapReader(file, format, in, maxRecordLength);
            reader.offset = 4;
            if (format == CaptureFormat.PCAPNG) {
                reader.openPcapng();
            } else {
                reader.openClassic(magic);
            }
            return reader;
        } catch (CaptureFileException e) {
            closeQuietly(in);
            throw e;
        } catch (IOException e) {
            closeQuietly(in);
            throw new CaptureFileException(file, "cannot read capture file: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(in);
            throw e;
        }
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
     * @throws CaptureFileException if a record is damaged (e.g. the file was cut short mid-record); the reader then
     *                              stops, and later calls return {@code null}
     */
    public CapturedFrame next() throws CaptureFileException {
        if (closed) {
            throw new IllegalStateException(file + ": reader is closed");
        }
        if (done) {
            return null;
        }
        try {
            CapturedFrame frame = format == CaptureFormat.PCAPNG ? nextPcapng() : nextClassic();
            if (frame == null) {
                done = true;
            }
            return frame;
        } catch (CaptureFileException e) {
            done = true; // the position is unknown after damage: stop rather than read garbage
            throw e;
        } catch (IOException e) {
            done = true;
            throw damaged(offset, "cannot read: " + e.getMessage(), e);
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
            closeQuietly(in);
        }
    }

    /**
     * A capture file {@link UserFiles} refused, in this reader's words: a FIFO or device is never opened (it would
     * wait for a writer, or read without end).
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

    // ---- classic pcap ----

    private void openClassic(int magic) throws IOException {
        order = magic == MAGIC_PCAP_MICRO || magic == MAGIC_PCAP_NANO ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        nanos = format == CaptureFormat.PCAP_NANO;
        ByteBuffer h = read(FILE_HEADER - 4);
        if (h == null) {
            throw new CaptureFileException(
                    file,
                    "unreadable pcap capture: truncated file header (" + (offset) + " of " + FILE_HEADER
                            + " bytes; the file was cut short)");
        }
        int major = h.getShort(0) & 0xFFFF;
        if (major != 2) {
            throw new CaptureFileException(
                    file,
                    "unreadable pcap capture: file header version " + major + "." + (h.getShort(2) & 0xFFFF)
                            + " at offset 4 is not 2.x");
        }
        // The link type's low 16 bits; the top 6 bits may carry the FCS length; the 10 between are reserved, and a
        // file that sets them is damaged (libpcap refuses it too).
        int linkField = h.getInt(16);
        if ((linkField & 0x03FF_0000) != 0) {
            throw new CaptureFileException(
                    file,
                    String.format(
                            Locale.ROOT,
                            "unreadable pcap capture: link type field 0x%08x at offset 20 sets reserved bits",
                            linkField));
        }
        int linkType = linkField & 0xFFFF;
        if (linkType != LINKTYPE_ETHERNET) {
            throw unsupportedLinkType(linkType, 20);
        }
    }

    private CapturedFrame nextClassic() throws IOException {
        long at = offset;
        ByteBuffer h = read(RECORD_HEADER);
        if (h == null) {
            if (offset == at) {
                return null; // a clean end between records
            }
            throw damaged(
                    at,
                    "truncated record header (" + (offset - at) + " of " + RECORD_HEADER + " bytes; file cut short)");
        }
        long seconds = h.getInt(0) & 0xFFFF_FFFFL;
        long fraction = h.getInt(4) & 0xFFFF_FFFFL;
        long captured = h.getInt(8) & 0xFFFF_FFFFL;
        long original = h.getInt(12) & 0xFFFF_FFFFL;
        long perSecond = nanos ? 1_000_000_000L : 1_000_000L;
        if (fraction >= perSecond) {
            throw damaged(at + 4, "sub-second field " + fraction + " is not below " + perSecond);
        }
        checkLength(at + 8, captured);
        byte[] data = readFully((int) captured);
        if (data == null) {
            throw damaged(
                    at + RECORD_HEADER, "truncated record data (file cut short; " + captured + " bytes declared)");
        }
        Instant ts = Instant.ofEpochSecond(seconds, nanos ? fraction : fraction * 1_000L);
        return new CapturedFrame(index++, ts, data, (int) Math.min(Integer.MAX_VALUE, original));
    }

    // ---- pcapng ----

    private void openPcapng() throws IOException {
        readSectionHeader(0);
        // libpcap reads up to the first interface when it opens a pcapng file; so do we, to refuse a link type early.
        while (interfaces.isEmpty()) {
            long at = offset;
            ByteBuffer head = read(8, ByteOrder.BIG_ENDIAN);
            if (head == null) {
                if (offset == at) {
                    // As libpcap: a capture must describe the interface its packets came from.
                    throw new CaptureFileException(
                            file,
                            "unreadable pcapng capture: no Interface Description Block before the end, at offset "
                                    + at);
                }
                throw new CaptureFileException(
                        file, "unreadable pcapng capture: truncated block header at offset " + at);
            }
            int type = head.order(order).getInt(0);
            if (type == MAGIC_PCAPNG) {
                throw new CaptureFileException(
                        file, "unreadable pcapng capture: a second section at offset " + at + " before any interface");
            }
            long length = head.getInt(4) & 0xFFFF_FFFFL;
            if (type == BLOCK_EPB || type == BLOCK_SPB || type == BLOCK_PB) {
                throw new CaptureFileException(
                        file,
                        "unreadable pcapng capture: packet block at offset " + at
                                + " before any Interface Description Block");
            }
            block(at, type, length);
        }
    }

    /** Reads a Section Header Block whose type field (at {@code at}) has just been read. */
    private void readSectionHeader(long at) throws IOException {
        ByteBuffer h = read(8, ByteOrder.BIG_ENDIAN);
        if (h == null) {
            throw new CaptureFileException(
                    file, "unreadable pcapng capture: truncated Section Header Block at offset " + at);
        }
        int magic = h.getInt(4);
        if (magic == PCAPNG_BYTE_ORDER_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (Integer.reverseBytes(magic) == PCAPNG_BYTE_ORDER_MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            throw new CaptureFileException(
                    file,
                    String.format(
                            Locale.ROOT,
                            "unreadable pcapng capture: byte-order magic 0x%08x at offset %d is not 0x1a2b3c4d",
                            magic,
                            at + 8));
        }
        long length = h.order(order).getInt(0) & 0xFFFF_FFFFL;
        checkBlockLength(at, length, 28);
        ByteBuffer body = readBody(at, length - 16, "Section Header Block");
        int major = body.getShort(0) & 0xFFFF;
        if (major != 1) {
            throw new CaptureFileException(
                    file,
                    "unreadable pcapng capture: section version " + major + "." + (body.getShort(2) & 0xFFFF)
                            + " at offset " + (at + 12) + " is not 1.x");
        }
        trailer(at, length);
        interfaces.clear();
    }

    private CapturedFrame nextPcapng() throws IOException {
        while (true) {
            long at = offset;
            ByteBuffer head = read(4, ByteOrder.BIG_ENDIAN);
            if (head == null) {
                if (offset == at) {
                    return null;
                }
                throw damaged(at, "truncated block header (file cut short)");
            }
            int type = head.order(order).getInt(0);
            if (type == MAGIC_PCAPNG) {
                readSectionHeader(at);
                continue;
            }
            ByteBuffer len = read(4);
            if (len == null) {
                throw damaged(at + 4, "truncated block header (file cut short)");
            }
            CapturedFrame frame = block(at, type, len.getInt(0) & 0xFFFF_FFFFL);
            if (frame != null) {
                return frame;
            }
        }
    }

    /** Reads the rest of a block (its type and length read); a packet block gives a frame, any other null. */
    private CapturedFrame block(long at, int type, long length) throws IOException {
        switch (type) {
            case BLOCK_IDB:
                interfaceDescription(at, length);
                return null;
            case BLOCK_EPB:
                return packet(at, length, true);
            case BLOCK_PB:
                return packet(at, length, false);
            case BLOCK_SPB:
                return simplePacket(at, length);
            default:
                checkBlockLength(at, length, 12);
                skip(at, length - 12);
                trailer(at, length);
                return null;
        }
    }

    private void interfaceDescription(long at, long length) throws IOException {
        checkBlockLength(at, length, 20);
        ByteBuffer body = readBody(at, length - 12, "Interface Description Block");
        int linkType = body.getShort(0) & 0xFFFF;
        if (linkType != LINKTYPE_ETHERNET) {
            throw unsupportedLinkType(linkType, at + 8);
        }
        int snaplen = body.getInt(4);
        boolean powerOfTwo = false;
        int exponent = 6; // the default resolution: microseconds
        long offsetSeconds = 0;
        int p = 8;
        while (p + 4 <= body.limit()) {
            int code = body.getShort(p) & 0xFFFF;
            int optionLength = body.getShort(p + 2) & 0xFFFF;
            if (code == OPT_ENDOFOPT) {
                break;
            }
            int value = p + 4;
            if (value + optionLength > body.limit()) {
                throw damaged(
                        at + 8 + p, "interface option " + code + " of " + optionLength + " bytes overruns its block");
            }
            if (code == OPT_IF_TSRESOL && optionLength >= 1) {
                int r = body.get(value) & 0xFF;
                powerOfTwo = (r & 0x80) != 0;
                exponent = r & 0x7F;
                if (powerOfTwo ? exponent > 62 : exponent > 18) {
                    throw damaged(
                            at + 8 + value,
                            "if_tsresol " + (powerOfTwo ? "2^-" : "10^-") + exponent + " is finer than can be read");
                }
            } else if (code == OPT_IF_TSOFFSET && optionLength >= 8) {
                offsetSeconds = body.getLong(value);
            }
            p = value + ((optionLength + 3) & ~3);
        }
        interfaces.add(new Interface(snaplen, powerOfTwo, exponent, offsetSeconds));
        trailer(at, length);
    }

    /** An Enhanced Packet Block ({@code enhanced}) or an obsolete Packet Block. */
    private CapturedFrame packet(long at, long length, boolean enhanced) throws IOException {
        checkBlockLength(at, length, 32);
        ByteBuffer h = read(20);
        if (h == null) {
            throw damaged(at + 8, "truncated packet block header (file cut short)");
        }
        int interfaceId = enhanced ? h.getInt(0) : h.getShort(0) & 0xFFFF;
        long units = ((h.getInt(4) & 0xFFFF_FFFFL) << 32) | (h.getInt(8) & 0xFFFF_FFFFL);
        long captured = h.getInt(12) & 0xFFFF_FFFFL;
        long original = h.getInt(16) & 0xFFFF_FFFFL;
        Interface itf = interfaceOf(at + 8, interfaceId);
        checkLength(at + 20, captured);
        long padded = (captured + 3) & ~3L;
        if (28 + padded + 4 > length) {
            throw damaged(at + 20, "captured length " + captured + " overruns its block of " + length + " bytes");
        }
        byte[] data = readFully((int) captured);
        if (data == null) {
            throw damaged(at + 28, "truncated packet data (file cut short; " + captured + " bytes declared)");
        }
        skip(at, length - 28 - captured - 4); // padding and options
        trailer(at, length);
        Instant ts = timestamp(itf, units, at + 12);
        return new CapturedFrame(index++, ts, data, (int) Math.min(Integer.MAX_VALUE, original));
    }

    private CapturedFrame simplePacket(long at, long length) throws IOException {
        checkBlockLength(at, length, 16);
        ByteBuffer h = read(4);
        if (h == null) {
            throw damaged(at + 8, "truncated Simple Packet Block (file cut short)");
        }
        long original = h.getInt(0) & 0xFFFF_FFFFL;
        Interface itf = interfaceOf(at + 8, 0);
        long captured = Math.min(original, length - 16);
        if (itf.snaplen() > 0) {
            captured = Math.min(captured, itf.snaplen());
        }
        checkLength(at + 8, captured);
        byte[] data = readFully((int) captured);
        if (data == null) {
            throw damaged(at + 12, "truncated packet data (file cut short; " + captured + " bytes declared)");
        }
        skip(at, length - 16 - captured);
        trailer(at, length);
        // A Simple Packet Block has no timestamp: libpcap and Wireshark give it 0.
        return new CapturedFrame(index++, Instant.EPOCH, data, (int) Math.min(Integer.MAX_VALUE, original));
    }

    private Interface interfaceOf(long at, int id) throws CaptureFileException {
        if (id < 0 || id >= interfaces.size()) {
            throw damaged(
                    at,
                    "packet block names interface " + Integer.toUnsignedString(id) + ", but the section describes "
                            + interfaces.size());
        }
        return interfaces.get(id);
    }

    private Instant timestamp(Interface itf, long units, long at) throws CaptureFileException {
        long seconds;
        long nanos;
        if (itf.powerOfTwo()) {
            BigInteger u = new BigInteger(Long.toUnsignedString(units));
            BigInteger[] qr = u.divideAndRemainder(BigInteger.ONE.shiftLeft(itf.exponent()));
            if (qr[0].bitLength() > 62) {
                throw damaged(at, "timestamp out of range");
            }
            seconds = qr[0].longValue();
            nanos = qr[1].multiply(BigInteger.valueOf(1_000_000_000L))
                    .shiftRight(itf.exponent())
                    .longValue();
        } else {
            long perSecond = pow10(itf.exponent());
            seconds = Long.divideUnsigned(units, perSecond);
            long fraction = Long.remainderUnsigned(units, perSecond);
            int digits = itf.exponent();
            nanos = digits <= 9 ? fraction * pow10(9 - digits) : fraction / pow10(digits - 9);
        }
        try {
            if (seconds < 0) {
                throw new DateTimeException("seconds overflow");
            }
            return Instant.ofEpochSecond(Math.addExact(seconds, itf.offsetSeconds()), nanos);
        } catch (DateTimeException | ArithmeticException e) {
            throw damaged(at, "timestamp " + Long.toUnsignedString(units) + " is out of range", e);
        }
    }

    // ---- shared ----

    private void checkLength(long at, long captured) throws CaptureFileException {
        if (captured > maxRecord) {
            throw damaged(
                    at, "captured length " + captured + " exceeds the maximum record length " + maxRecord + " bytes");
        }
    }

    private void checkBlockLength(long at, long length, int minimum) throws CaptureFileException {
        if (length < minimum || (length & 3) != 0) {
            throw damaged(
                    at + 4,
                    "block total length " + length + " is "
                            + (length < minimum
                                    ? "shorter than the " + minimum + " bytes this block needs"
                                    : "not a multiple of 4"));
        }
    }

    /** Reads the {@code n} bytes of a non-packet block's body (up to {@value #MAX_OPTIONS} bytes of options). */
    private ByteBuffer readBody(long at, long n, String what) throws IOException {
        if (n > MAX_OPTIONS + 16) {
            throw damaged(at + 4, what + " of " + n + " bytes is larger than any this reader keeps in memory");
        }
        ByteBuffer body = read((int) n);
        if (body == null) {
            throw damaged(at, "truncated " + what + " (file cut short)");
        }
        return body;
    }

    /** Reads and checks a block's trailing copy of its total length. */
    private void trailer(long at, long length) throws IOException {
        ByteBuffer t = read(4);
        if (t == null) {
            throw damaged(offset, "truncated block (file cut short before its trailing length)");
        }
        long trailing = t.getInt(0) & 0xFFFF_FFFFL;
        if (trailing != length) {
            throw damaged(
                    offset - 4,
                    "trailing block length " + trailing + " differs from the leading " + length + " at " + at);
        }
    }

    private void skip(long at, long n) throws IOException {
        if (n <= 0) {
            return;
        }
        long skipped = 0;
        while (skipped < n) {
            long s = in.skip(n - skipped);
            if (s <= 0) {
                if (in.read() < 0) {
                    offset += skipped;
                    throw damaged(at, "truncated block (file cut short)");
                }
                s = 1;
            }
            skipped += s;
        }
        offset += n;
    }

    /** Reads exactly {@code n} bytes in the file's byte order, or returns null at the end (offset moved past). */
    private ByteBuffer read(int n) throws IOException {
        return read(n, order);
    }

    private ByteBuffer read(int n, ByteOrder byteOrder) throws IOException {
        byte[] b = readFully(n);
        return b == null ? null : ByteBuffer.wrap(b).order(byteOrder);
    }

    /** Exactly {@code n} bytes, or null if the file ends first (offset then moves past what there was). */
    private byte[] readFully(int n) throws IOException {
        byte[] b = new byte[n];
        int got = in.readNBytes(b, 0, n);
        offset += got;
        return got < n ? null : b;
    }

    private CaptureFileException unsupportedLinkType(int linkType, long at) {
        String name = linkTypeName(linkType);
        return new CaptureFileException(
                file,
                "link type " + linkType + " is not supported; only Ethernet (LINKTYPE_ETHERNET = 1) captures can be"
                        + " read (" + (name.isEmpty() ? "" : linkType + " is LINKTYPE_" + name + ", ")
                        + "link type field at offset " + at + ")");
    }

    private static String linkTypeName(int linkType) {
        switch (linkType) {
            case 0:
                return "NULL";
            case 101:
                return "RAW";
            case 113:
                return "LINUX_SLL";
            case 228:
                return "IPV4";
            case 229:
                return "IPV6";
            case 276:
                return "LINUX_SLL2";
            default:
                return "";
        }
    }

    private CaptureFileException damaged(long at, String problem) {
        return damaged(at, problem, null);
    }

    private CaptureFileException damaged(long at, String problem, Throwable cause) {
        return new CaptureFileException(
                file,
                "damaged record " + index + " (after " + index + " good frames) at offset " + at + ": " + problem,
                cause);
    }

    private static CaptureFormat formatOf(int magic) {
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
                return null;
        }
    }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) {
            v *= 10;
        }
        return v;
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

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // nothing was written: nothing to lose
        }
    }
}
