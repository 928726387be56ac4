package org.mrconf.explore;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.WireConstants;

/**
 * What a {@link Program} becomes on the wire and in the device: the stimulus frames in the order the impaired
 * network delivers them, the device's set-up (one region, the receives the SENDs need) and the end state a
 * conforming device must reach whatever legal choices it takes: the region's bytes, and one receive-side completion
 * per SEND and WRITE_WITH_IMMEDIATE, in MSN order per stream (clauses 7.2.1, 7.2.2, 7.3.1, 7.5.1, 7.5.2, 7.5.5), and
 * the READ_RESPONSEs of each READ, carrying exactly its bytes (clauses 7.4.1, 7.4.3).
 *
 * <p>Every message gets its own stretch of the region, so the bytes do not depend on the order packets arrive in:
 * no two messages write the same byte, and a byte no message writes must keep its fill (0). A READ's stretch is set
 * up with its bytes and no message writes it, so what the device reads does not depend on when it reads (clause
 * 7.4.1 fixes no order between a READ and the WRITEs before it). When the device sends, a READ's stretch of its source
 * region is its sink, set up with the complement of the bytes the tester answers with, so that every byte must change.
 */
final class Stimulus {
    /** The placeholders the frames are built with; replay rewrites them to the device's values. */
    static final long CONNECTION = 0x0001_0001L;

    static final long TARGET_ADDRESS = 0x7000_0000L;
    static final long TARGET_KEY = 0x0000_0077L;
    static final String TARGET = "target";
    /** A second region, without REMOTE_WRITE, for the WRITEs that must be refused REMOTE_ACCESS (clause 11.1.2). */
    static final String LOCKED = "locked";

    static final long LOCKED_ADDRESS = 0x7100_0000L;
    static final long LOCKED_KEY = 0x0000_0088L;
    /** A key no placeholder names, so replay leaves it as it is: it names no region of the device (clause 11.1.1). */
    static final long BAD_KEY = 0x00BA_D077L;
    /** The free tail every region keeps at least, past the messages' stretches. */
    private static final int TAIL = 64;
    /** Receives are posted with work request ids from here (RECEIVE_IMMEDIATE completions carry 0). */
    static final long RECEIVE_WR_ID = 1000;
    /** Work requests the device posts (when it sends) have ids from here. */
    static final long SEND_WR_ID = 2000;
    /** The tester's address and key the device's WRITEs name (the tester keeps no memory; they are compared). */
    static final long TESTER_ADDRESS = 0x00AA_0000L;

    static final long TESTER_KEY = 0x42L;
    static final String SOURCE = "source";
    /** The sink handle of the READ_REQUEST of message i the tester sends is this plus i. */
    static final long TESTER_SINK_HANDLE = 0x5EED_0000L;
    /**
     * The sink handle the READ_RESPONSEs the tester answers the device's READ of message i with are recorded with is
     * this plus i: replay rewrites it, their stream and MSN to the READ_REQUEST the device actually sent.
     */
    static final long RECORDED_SINK_HANDLE = 0x5EED_1000L;

    private static final int ALIGN = 64;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int UDP_HEADER = 8;
    /** Above this many bytes the region is checked by SHA-256 instead of hex. */
    private static final int HEX_LIMIT = 2048;

    /** One frame of the stimulus. */
    /**
     * One frame of the stimulus: its bytes, path and CE mark, the message it carries a segment of, and whether it
     * arrives intact (a damaged copy does not count as an arrival).
     */
    record Frame(byte[] packet, int path, boolean ce, int message, int segment, boolean intact) {}

    /** The stretch of the region message {@code message} writes, and its whole span (a SEND's receive buffer). */
    record Chunk(int message, int offset, int length, int span) {}

    /**
     * A completion a conforming device delivers; {@code status} is SUCCESS except for the length error of a SEND
     * longer than its receive (clause 7.3.3), whose type and length the draft leaves open.
     */
    record Expected(
            int message,
            int stream,
            long msn,
            CompletionType type,
            long wrId,
            long length,
            long immediate,
            CompletionStatus status) {
        Expected(
                final int message,
                final int stream,
                final long msn,
                final CompletionType type,
                final long wrId,
                final long length,
                final long immediate) {
            this(message, stream, msn, type, wrId, length, immediate, CompletionStatus.SUCCESS);
        }
    }

    /**
     * A message the device must refuse: the NACK it answers with (naming the packet, when the message has only one,
     * as a NACK must, Table 5-10; a longer message's first arriving packet draws it, later ones are stale, 5.6.6).
     */
    record Refusal(int message, Program.Fault fault, int stream, long msn, int packets, long psnOffset) {}

    /** A receive the device is given, in posting order. */
    record Receive(int stream, int offset, int length, long wrId) {}

    /**
     * A READ: message {@code message} on {@code stream} with {@code msn}, answered by {@code packets} READ_RESPONSEs
     * (when the tester sends: the device's, at its MTU, clause 4.1.9; when the device sends: the tester's).
     */
    record Read(int message, int stream, long msn, int packets) {}

    final Program program;
    final List<Frame> frames;
    final int regionLength;
    final byte[] region;
    final List<Chunk> chunks;
    final List<Expected> completions;
    final List<Receive> receives;
    final List<Refusal> refusals;
    /** The READs answered: the tester's that the device must answer, or the device's that the tester answers. */
    final List<Read> reads;
    /** The region's bytes at set-up (a READ's stretch holds what is read; when the device sends, its complement). */
    final byte[] initial;

    final int segments;
    /** How many segments (PSNs) each path carries from the tester. */
    final int[] packetsPerPath;
    /** How many segments each message has. */
    final int[] packetsPerMessage;
    /** Whether the tester loses some of what the device sends ({@link #loses(Program, int)}). */
    final boolean loses;
    /** The packets the device sends for the program's messages, when it sends them. */
    final int devicePackets;

    private Stimulus(
            final Program program,
            final List<Frame> frames,
            final int regionLength,
            final byte[] region,
            final List<Chunk> chunks,
            final List<Expected> completions,
            final List<Receive> receives,
            final List<Refusal> refusals,
            final List<Read> reads,
            final byte[] initial,
            final int segments,
            final int[] packetsPerPath,
            final int[] packetsPerMessage,
            final boolean loses,
            final int devicePackets) {
        this.program = program;
        this.frames = frames;
        this.regionLength = regionLength;
        this.region = region;
        this.chunks = chunks;
        this.completions = completions;
        this.receives = receives;
        this.refusals = refusals;
        this.reads = reads;
        this.initial = initial;
        this.segments = segments;
        this.packetsPerPath = packetsPerPath;
        this.packetsPerMessage = packetsPerMessage;
        this.loses = loses;
        this.devicePackets = devicePackets;
    }

    /** The work-request completion type of a message the device sends. */
    static CompletionType sentType(final Program.Op op) {
        return switch (op) {
            case WRITE -> CompletionType.WRITE;
            case WRITE_WITH_IMMEDIATE -> CompletionType.WRITE_WITH_IMMEDIATE;
            case SEND -> CompletionType.SEND;
            case READ -> CompletionType.READ;
        };
    }

    /** The largest payload of one {@code opcode} packet at the IP {@code mtu} (clause 4.1.9). */
    static int maxPayload(final Opcode opcode, final int mtu, final boolean ipv6) {
        return Math.min(
                WireConstants.MAX_PAYLOAD_LENGTH,
                mtu
                        - (ipv6 ? IPV6_HEADER : IPV4_HEADER)
                        - UDP_HEADER
                        - opcode.headerLength()
                        - WireConstants.TRAILER_LENGTH);
    }

    static Opcode opcode(final Program.Op op) {
        return switch (op) {
            case WRITE -> Opcode.WRITE;
            case WRITE_WITH_IMMEDIATE -> Opcode.WRITE_WITH_IMMEDIATE;
            case SEND -> Opcode.SEND;
            case READ -> Opcode.READ_REQUEST;
        };
    }

    /** A message's payload bytes. */
    static byte[] data(final Program.Message message) {
        final byte[] bytes = new byte[message.length()];
        final SplittableRandom random = new SplittableRandom(message.dataSeed());
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    /** One segment of a message, before the network's fate. */
    private static final class Segment {
        final java.util.function.Supplier<PacketBuilder> builder;
        final int path;
        final int payload;
        final int message;

        Segment(
                final java.util.function.Supplier<PacketBuilder> builder,
                final int path,
                final int payload,
                final int message) {
            this.builder = builder;
            this.path = path;
            this.payload = payload;
            this.message = message;
        }
    }

    /** A flag bit the draft reserves (Table 5-1). */
    private static final int RESERVED_FLAG = 0x0100;

    /**
     * One transmission: a segment, resent or not, marked CE or not, corrupted or not, with its reserved fields set or
     * not. Duplicates are the same object twice.
     */
    private static final class Transmission {
        final Segment segment;
        final boolean resent;
        final boolean corrupt;
        boolean ce;
        boolean reservedSet;

        Transmission(final Segment segment, final boolean resent, final boolean ce, final boolean corrupt) {
            this.segment = segment;
            this.resent = resent;
            this.ce = ce;
            this.corrupt = corrupt;
        }
    }

    static Stimulus of(final Program program, final int mtu, final boolean ipv6) {
        final List<Segment> segments = new ArrayList<>();
        final List<Chunk> chunks = new ArrayList<>();
        final List<Expected> completions = new ArrayList<>();
        final List<Receive> receives = new ArrayList<>();
        final List<Refusal> refusals = new ArrayList<>();
        final List<Read> reads = new ArrayList<>();
        final long[] nextMsn = new long[program.streams()];
        final int devicePackets = program.deviceSends() ? devicePackets(program, mtu, ipv6) : 0;
        final boolean loses = loses(program, devicePackets);
        if (loses) {
            // The WRITE that stretches the device's timer goes first, on stream 0 (see describeSender).
            nextMsn[0] = 1;
            completions.add(
                    new Expected(STRETCH_MESSAGE, 0, 0, CompletionType.WRITE, STRETCH_WR_ID, STRETCH_LENGTH, 0));
        }
        final long[] nextRsn = new long[program.streams()];
        final long[] nextPsn = new long[program.paths()];
        long unknownMsn = 0;
        int end = 0;
        int tail = TAIL;
        for (final Program.Message message : program.messages()) {
            end += aligned(message.length() + (message.op() == Program.Op.SEND ? message.slack() : 0));
            if (!program.deviceSends() && message.refused()) {
                tail = Math.max(tail, message.length() + 1); // the free tail a WRITE crossing the end reaches into
            }
        }
        final int regionLength = regionLength(end, tail);
        int offset = 0;
        final List<byte[]> datas = new ArrayList<>();
        for (int i = 0; i < program.messages().size(); i++) {
            final Program.Message message = program.messages().get(i);
            final Opcode opcode = opcode(message.op());
            final byte[] data = data(message);
            datas.add(data);
            final int span = message.length() + (message.op() == Program.Op.SEND ? message.slack() : 0);
            chunks.add(new Chunk(i, offset, message.length(), span));
            final int chunk = offset;
            offset += aligned(span);
            final boolean refused = !program.deviceSends() && message.refused();
            final Program.Fault fault = refused ? message.fault() : Program.Fault.NONE;
            // A WRITE on a stream the connection lacks consumes no MSN of any stream the connection has; each one
            // gets its own MSN there, so that a NACK rate limit (clause 9.1.5, per message) cannot merge two.
            final boolean unknownStream = fault == Program.Fault.UNKNOWN_STREAM;
            final int stream = unknownStream ? program.streams() : message.stream();
            final long msn = unknownStream ? unknownMsn++ : nextMsn[stream]++;
            long rsn = -1;
            if (program.deviceSends()) {
                if (message.op() == Program.Op.READ && !(i == 0 && nacks(program))) {
                    // The tester answers at its own MTU, filling its segments as a sender must (clause 4.1.9).
                    final int size = maxPayload(Opcode.READ_RESPONSE, mtu, ipv6);
                    reads.add(new Read(i, stream, msn, Math.max(1, (message.length() + size - 1) / size)));
                }
                completions.add(new Expected(
                        i,
                        stream,
                        msn,
                        sentType(message.op()),
                        SEND_WR_ID + i,
                        message.length(),
                        0,
                        i == 0 && message.fault() != Program.Fault.NONE
                                ? CompletionStatus.valueOf(message.fault().completionStatus())
                                : CompletionStatus.SUCCESS));
                if (message.op() == Program.Op.SEND) {
                    nextRsn[stream]++;
                }
                continue; // the device cuts its own packets
            }
            if (message.op() == Program.Op.SEND) {
                rsn = nextRsn[stream]++;
                final long wrId = RECEIVE_WR_ID + i;
                if (refused) {
                    // The receive is half the message's length: the SEND is refused and the receive completes with a
                    // length error (clause 7.3.3), whose type and length the draft leaves open.
                    receives.add(new Receive(stream, chunk, message.length() / 2, wrId));
                    completions.add(new Expected(
                            i, stream, msn, CompletionType.RECEIVE, wrId, 0, 0, CompletionStatus.LOCAL_LENGTH_ERROR));
                } else {
                    receives.add(new Receive(stream, chunk, Math.max(1, span), wrId));
                    completions.add(new Expected(i, stream, msn, CompletionType.RECEIVE, wrId, message.length(), 0));
                }
            } else if (refused) {
                // A refused WRITE_WITH_IMMEDIATE completes no receive (clause 9.1.3), a refused READ draws no answer.
            } else if (message.op() == Program.Op.READ) {
                // A READ raises no completion at its responder; the device answers it with READ_RESPONSEs filled at
                // its MTU (clauses 4.1.9, 7.4.1), so their number is known.
                final int size = maxPayload(Opcode.READ_RESPONSE, mtu, ipv6);
                reads.add(new Read(i, stream, msn, Math.max(1, (message.length() + size - 1) / size)));
            } else if (message.op() == Program.Op.WRITE_WITH_IMMEDIATE) {
                completions.add(new Expected(
                        i, stream, msn, CompletionType.RECEIVE_IMMEDIATE, 0, message.length(), message.immediate()));
            }
            final int size = maxPayload(opcode, mtu, ipv6);
            // A READ is one READ_REQUEST, whatever its length (clause 5.2.5).
            final int count = message.op() == Program.Op.READ ? 1 : Math.max(1, (message.length() + size - 1) / size);
            if (refused) {
                final int firstPath = message.firstPath() % program.paths();
                refusals.add(new Refusal(i, fault, stream, msn, count, nextPsn[firstPath]));
            }
            final Target target = target(message, fault, chunk, regionLength);
            for (int j = 0; j < count; j++) {
                final int path = (message.firstPath() + j) % program.paths();
                final long psn = (program.initialPsn() + nextPsn[path]++) & 0xFFFF_FFFFL;
                final int from = j * size;
                final int to = message.op() == Program.Op.READ ? 0 : Math.min(message.length(), from + size);
                final long segmentRsn = rsn;
                final long sinkHandle = TESTER_SINK_HANDLE + i;
                final boolean last = j == count - 1;
                final java.util.function.Supplier<PacketBuilder> builder = () -> build(
                        message,
                        opcode,
                        path,
                        psn,
                        stream,
                        msn,
                        segmentRsn,
                        target,
                        sinkHandle,
                        from,
                        Arrays.copyOfRange(data, from, to),
                        last);
                segments.add(new Segment(builder, path, to - from, i));
            }
        }
        return finish(
                program,
                segments,
                chunks,
                completions,
                receives,
                refusals,
                reads,
                datas,
                regionLength,
                loses,
                devicePackets,
                mtu,
                ipv6);
    }

    private static int aligned(final int span) {
        return Math.max(ALIGN, (span + ALIGN - 1) / ALIGN * ALIGN);
    }

    /** The length of each region: the messages' stretches, then a free tail a WRITE crossing the end can reach. */
    private static int regionLength(final int end, final int tail) {
        return Math.max(4096, (end + tail + 4095) / 4096 * 4096);
    }

    /**
     * The offset of a refused WRITE that crosses its region's end: only its last byte lies past the end, so every
     * packet but its last lies wholly inside the region (a device that checks each packet's own bytes places those);
     * a one-byte WRITE starts at the end, an empty one a byte past it (clause 11.1.3: an empty range at the end is in
     * bounds).
     */
    private static long pastEnd(final Program.Message message, final int regionLength) {
        if (message.length() == 0) {
            return regionLength + 1L;
        }
        return regionLength - (message.length() - 1L);
    }

    /** Where a WRITE goes: its remote address and key (the placeholders replay rewrites, or a bad key). */
    private record Target(long address, long key) {}

    /**
     * The address and key of a message at {@code chunk}: its own stretch of the target region, or for a refused one
     * the place its fault names. The regions are as long as {@link #regionLength(int, int)} makes them.
     */
    private static Target target(
            final Program.Message message, final Program.Fault fault, final int chunk, final int regionLength) {
        return switch (fault) {
            case BAD_KEY -> new Target(TARGET_ADDRESS + chunk, BAD_KEY);
            case NO_WRITE_ACCESS, NO_READ_ACCESS -> new Target(LOCKED_ADDRESS + chunk, LOCKED_KEY);
            case NO_WRITE_ACCESS_PAST_END, NO_READ_ACCESS_PAST_END ->
                new Target(LOCKED_ADDRESS + pastEnd(message, regionLength), LOCKED_KEY);
            case CROSSES_END -> new Target(TARGET_ADDRESS + pastEnd(message, regionLength), TARGET_KEY);
            case FAR_ABOVE -> new Target(TARGET_ADDRESS + (1L << 32) + chunk, TARGET_KEY);
            default -> new Target(TARGET_ADDRESS + chunk, TARGET_KEY);
        };
    }

    private static PacketBuilder build(
            final Program.Message message,
            final Opcode opcode,
            final int path,
            final long psn,
            final int stream,
            final long msn,
            final long rsn,
            final Target target,
            final long sinkHandle,
            final int from,
            final byte[] payload,
            final boolean last) {
        final PacketBuilder builder = PacketBuilder.of(opcode).connection(CONNECTION).path(path).psn(psn).stream(stream)
                .msn(msn)
                .messageLength(message.length())
                .messageOffset(from);
        if (message.op() != Program.Op.READ) {
            builder.payload(payload); // a READ_REQUEST carries none (clause 5.2.5)
        }
        if (message.op() == Program.Op.READ) {
            builder.remoteAddress(target.address()).remoteKey(target.key()).sinkHandle(sinkHandle);
        } else if (message.op() == Program.Op.SEND) {
            builder.rsn(rsn);
        } else {
            builder.remoteAddress(target.address()).remoteKey(target.key());
            if (message.op() == Program.Op.WRITE_WITH_IMMEDIATE) {
                builder.immediate(message.immediate());
            }
        }
        if (last) {
            // The last packet asks for an ACK, as a sender's last packet may (clause 8.1.3).
            builder.ackRequest();
        }
        return builder;
    }

    private static Stimulus finish(
            final Program program,
            final List<Segment> segments,
            final List<Chunk> chunks,
            final List<Expected> completions,
            final List<Receive> receives,
            final List<Refusal> refusals,
            final List<Read> reads,
            final List<byte[]> datas,
            final int regionLength,
            final boolean loses,
            final int devicePackets,
            final int mtu,
            final boolean ipv6) {
        final byte[] region = new byte[regionLength];
        final byte[] initial = new byte[regionLength];
        for (final Chunk chunk : chunks) {
            final Program.Message message = program.messages().get(chunk.message());
            final byte[] data = datas.get(chunk.message());
            if (!program.deviceSends()) {
                if (message.refused()) {
                    continue; // nothing of a refused message is placed (clause 9.1.3), a refused READ reads nothing
                }
                if (message.op() == Program.Op.READ) {
                    System.arraycopy(data, 0, initial, chunk.offset(), chunk.length()); // read, never written
                }
                System.arraycopy(data, 0, region, chunk.offset(), chunk.length());
            } else if (message.op() == Program.Op.READ) {
                // A READ's sink starts as the complement of what the tester answers with, so every byte must change;
                // a READ the tester NACKs places nothing (clause 9.1.3).
                final byte[] complement = data.clone();
                for (int b = 0; b < complement.length; b++) {
                    complement[b] = (byte) ~complement[b];
                }
                System.arraycopy(complement, 0, initial, chunk.offset(), chunk.length());
                final boolean answered = reads.stream().anyMatch(r -> r.message() == chunk.message());
                System.arraycopy(answered ? data : complement, 0, region, chunk.offset(), chunk.length());
            } else {
                System.arraycopy(data, 0, initial, chunk.offset(), chunk.length()); // a source the device reads
                System.arraycopy(data, 0, region, chunk.offset(), chunk.length());
            }
        }
        completions.sort(java.util.Comparator.comparingInt(Expected::stream).thenComparingLong(Expected::msn));
        // In the order they are answered (the order of the awaits): a READ's READ_RESPONSEs take the next PSNs.
        reads.sort(java.util.Comparator.comparingInt(Read::stream).thenComparingLong(Read::msn));
        return new Stimulus(
                program,
                program.deviceSends()
                        ? responses(program, reads, datas, mtu, ipv6)
                        : frames(segments, program.impairments()),
                regionLength,
                region,
                chunks,
                completions,
                receives,
                refusals,
                reads,
                initial,
                segments.size(),
                segments.stream()
                        .mapToInt(t -> t.path)
                        .collect(() -> new int[program.paths()], (a, path) -> a[path]++, (a, b) -> {}),
                segments.stream()
                        .mapToInt(t -> t.message)
                        .collect(() -> new int[program.messages().size()], (a, m) -> a[m]++, (a, b) -> {}),
                loses,
                devicePackets);
    }

    /**
     * The READ_RESPONSEs the tester answers the device's READs with, READ by READ in the order the steps answer them
     * (by stream, then MSN), each READ's in offset order: filled at the device's MTU (clause 4.1.9), sprayed over the paths from the READ's first path,
     * with the PSNs of the tester's paths from the initial PSN, recorded with the READ's own stream and MSN and the
     * sink handle {@link #RECORDED_SINK_HANDLE} plus its index (replay rewrites all three to the READ_REQUEST the
     * device actually sent), the last asking for an ACK. No impairment acts on them.
     */
    private static List<Frame> responses(
            final Program program,
            final List<Read> reads,
            final List<byte[]> datas,
            final int mtu,
            final boolean ipv6) {
        final List<Frame> frames = new ArrayList<>();
        final long[] nextPsn = new long[program.paths()];
        final int size = maxPayload(Opcode.READ_RESPONSE, mtu, ipv6);
        for (final Read read : reads) {
            final Program.Message message = program.messages().get(read.message());
            final byte[] data = datas.get(read.message());
            for (int j = 0; j < read.packets(); j++) {
                final int path = (message.firstPath() + j) % program.paths();
                final long psn = (program.initialPsn() + nextPsn[path]++) & 0xFFFF_FFFFL;
                final int from = j * size;
                final int to = Math.min(message.length(), from + size);
                final PacketBuilder builder =
                        PacketBuilder.readResponse().connection(CONNECTION).path(path).psn(psn).stream(read.stream())
                                .msn(read.msn())
                                .messageLength(message.length())
                                .messageOffset(from)
                                .sinkHandle(RECORDED_SINK_HANDLE + read.message())
                                .payload(Arrays.copyOfRange(data, from, to))
                                .transmitTimestamp((1_000L + 997L * frames.size()) & 0xFFFF_FFFFL);
                if (j == read.packets() - 1) {
                    builder.ackRequest();
                }
                frames.add(new Frame(builder.build(), path, false, read.message(), frames.size(), true));
            }
        }
        return frames;
    }

    /** The segments as the impaired network delivers them; every segment arrives at least once. */
    private static List<Frame> frames(final List<Segment> segments, final List<Program.Impairment> impairments) {
        if (segments.isEmpty()) {
            return List.of(); // the device sends: the tester sends nothing but ACKs
        }
        final List<Transmission> order = new ArrayList<>();
        final List<Transmission> firsts = new ArrayList<>();
        for (final Segment segment : segments) {
            final Transmission first = new Transmission(segment, false, false, false);
            order.add(first);
            firsts.add(first);
        }
        for (final Program.Impairment impairment : impairments) {
            final int target = Math.floorMod(impairment.segment(), segments.size());
            final Segment segment = segments.get(target);
            int at = -1;
            for (int i = 0; i < order.size(); i++) {
                if (order.get(i).segment == segment) {
                    at = i;
                    break;
                }
            }
            final int distance = Math.max(1, impairment.distance());
            final Transmission transmission = order.get(at);
            switch (impairment.kind()) {
                case REORDER -> {
                    order.remove(at);
                    order.add(Math.min(at + distance, order.size()), transmission);
                }
                case DUPLICATE -> order.add(Math.min(at + 1 + distance, order.size()), transmission);
                case LOSS -> {
                    order.remove(at);
                    if (order.indexOf(transmission) < 0) {
                        // Every copy of it is gone: the tester's resend brings the segment back.
                        order.add(
                                Math.min(at + distance, order.size()),
                                new Transmission(segment, true, transmission.ce, false));
                    }
                }
                case CORRUPT -> {
                    // This copy arrives damaged; unless an intact copy still comes, the tester resends one later.
                    order.set(at, new Transmission(segment, transmission.resent, transmission.ce, true));
                    final boolean intactLeft = order.stream().anyMatch(t -> t.segment == segment && !t.corrupt);
                    if (!intactLeft) {
                        order.add(
                                Math.min(at + 1 + distance, order.size()),
                                new Transmission(segment, true, transmission.ce, false));
                    }
                }
                case CE -> transmission.ce = true;
                case RESERVED_SET -> transmission.reservedSet = true;
            }
        }
        final Map<Transmission, byte[]> built = new IdentityHashMap<>();
        final List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            final Transmission transmission = order.get(i);
            final long timestamp = (1_000L + 997L * i) & 0xFFFF_FFFFL;
            final byte[] bytes = built.computeIfAbsent(transmission, t -> {
                final PacketBuilder builder = t.segment.builder.get().transmitTimestamp(timestamp);
                if (t.resent) {
                    builder.retransmission();
                }
                if (t.reservedSet) {
                    // Ignored on receipt (clauses 5.1.1, 5.6.3): a reserved flag, both reserved fields, minor 1.
                    builder.addFlags(RESERVED_FLAG)
                            .reserved1(0xA5)
                            .reserved2(0x5A5A)
                            .version(0x11);
                }
                final byte[] packet = builder.build();
                if (t.corrupt) {
                    // One bit of the last payload byte (the CRC's last byte when there is none): the recorded CRC no
                    // longer matches, and replay keeps that error whatever fields it rewrites.
                    packet[packet.length - (t.segment.payload > 0 ? 1 + WireConstants.TRAILER_LENGTH : 1)] ^= 0x01;
                }
                return packet;
            });
            frames.add(new Frame(
                    bytes,
                    transmission.segment.path,
                    transmission.ce,
                    transmission.segment.message,
                    segments.indexOf(transmission.segment),
                    !transmission.corrupt));
        }
        return frames;
    }

    /** Whether a refused message names {@code fault}. */
    boolean refuses(final Program.Fault fault) {
        return refusals.stream().anyMatch(r -> r.fault() == fault);
    }

    /** The vector's kind: {@code invalid} when the tester sends a packet the device must refuse or drop. */
    String kind() {
        final boolean corrupt = program.impairments().stream().anyMatch(i -> i.kind() == Program.Kind.CORRUPT);
        return !program.deviceSends() && (!refusals.isEmpty() || corrupt) ? "invalid" : "valid";
    }

    /** The stretch of the region the expectations check: all of it when a refused WRITE crosses its end. */
    int used() {
        if (refuses(Program.Fault.CROSSES_END)) {
            return regionLength;
        }
        return Math.max(
                1,
                chunks.stream()
                        .mapToInt(c -> c.offset() + Math.max(c.span(), 1))
                        .max()
                        .orElse(1));
    }

    /**
     * The sidecar of a program the device sends: its source region holds the messages' bytes, the steps post each
     * message, then await each one whole (its header fields, reserved fields zero, segments full at the declared MTU,
     * and its bytes); the tester acknowledges every packet at once, its ACKs reporting a CE count when the program
     * marks CE. Every work request must complete SUCCESS, once, and the PSNs of every path run on from the initial
     * send PSN.
     */
    private void describeSender(final ObjectNode sidecar) {
        final ObjectNode setup = sidecar.putObject("setup");
        setup.put("paths", program.paths())
                .put("streams", program.streams())
                .put("initialSendPsn", program.initialPsn());
        if (!reads.isEmpty()) {
            setup.put("initialPsn", program.initialPsn()); // the PSNs of the tester's READ_RESPONSEs
        }
        final ArrayNode regionList = setup.putArray("regions");
        final ObjectNode source = regionList.addObject();
        source.put("name", SOURCE).put("length", regionLength);
        source.putArray("access").add("LOCAL_WRITE");
        source.put("fill", 0);
        source.put("hex", HexFormat.of().formatHex(Arrays.copyOf(initial, used())));
        if (loses) {
            final ObjectNode stretch = regionList.addObject();
            stretch.put("name", STRETCH).put("length", STRETCH_LENGTH);
            stretch.putArray("access").add("LOCAL_WRITE");
            stretch.put("fill", 0x5A);
        }
        final ObjectNode placeholders = sidecar.putObject("placeholders");
        placeholders.put("connection", String.format("0x%08x", CONNECTION));
        placeholders.put("psnBase", reads.isEmpty() ? 0 : program.initialPsn());
        placeholders.putObject("regions");
        if (!reads.isEmpty()) {
            // The READ_RESPONSEs are recorded against these; each await of the device's READ_REQUEST binds its own.
            final ObjectNode requests = placeholders.putObject("requests");
            for (final Read read : reads) {
                requests.putObject(readName(read))
                        .put("sinkHandle", String.format("0x%08x", RECORDED_SINK_HANDLE + read.message()))
                        .put("msn", read.msn());
            }
        }
        sidecar.put("pacing", "fast");
        final ObjectNode expect = sidecar.putObject("expect");
        if (!reads.isEmpty()) {
            // Each READ's sink holds exactly the tester's bytes, and nothing else of the region changed (7.4.2).
            expectBytes(expect.putArray("regions").addObject().put("region", SOURCE), Arrays.copyOf(region, used()));
        }
        final ArrayNode expected = expect.putArray("completions");
        for (final Expected completion : completions) {
            expected.addObject()
                    .put("wrId", completion.wrId())
                    .put("status", completion.status().name())
                    .put("type", completion.type().name());
        }
        expect.put("noOtherCompletions", true);
        if (program.streams() == 1 && completions.size() > 1) {
            expect.put("completionsInOrder", true);
        }
        expect.put("sentPsnsFromInitial", true);
        final ArrayNode steps = sidecar.putArray("steps");
        final long ce = program.impairments().stream()
                .filter(i -> i.kind() == Program.Kind.CE)
                .count();
        final long[] rsn = new long[program.streams()];
        final boolean nacks = nacked();
        if (nacks) {
            // The tester holds its ACKs, waits for the first message whole (one packet: it fits any window), NACKs
            // it with a final code, and only then acknowledges: the work request must fail with the code's status
            // (clause 9.1.7), the rest of the program go on as if nothing happened.
            steps.addObject().putObject("acks").put("hold", true);
            post(steps, chunks.get(0));
            final Expected first = completions.stream()
                    .filter(c -> c.message() == 0)
                    .findFirst()
                    .orElseThrow();
            if (program.messages().get(0).op() == Program.Op.READ) {
                awaitRequest(steps, first, NACKED); // NACKed as a responder would, and answered with nothing
            } else {
                await(steps, first, rsn).put("as", NACKED);
            }
            steps.addObject()
                    .putObject("nack")
                    .put("of", NACKED)
                    .put("code", program.messages().get(0).fault().nackCode());
            steps.addObject().putObject("acks").put("hold", false).put("ceCount", ce);
        } else if (loses) {
            // As the corpus's vector 6.3.1/dut-resends-every-hole-of-one-ack does: ACKs echoing timestamps 400 ms
            // old stretch the device's RTT and so its timer, over a first WRITE; then the tester holds its ACKs and
            // loses the PSNs the program names on every path; one ACK per path then shows the holes, and the device
            // must resend every hole and nothing the ACK reported received (clauses 6.3.1, 6.4.1), resends that
            // keep their path and fields (6.4.2, judged by the packet judge); then everything is acknowledged.
            steps.addObject().putObject("acks").put("hold", false).put("echoAge", 400);
            final ObjectNode stretch = steps.addObject().putObject("post");
            stretch.put("op", "WRITE")
                    .put("stream", 0)
                    .put("wrId", STRETCH_WR_ID)
                    .put("region", STRETCH)
                    .put("offset", 0)
                    .put("length", STRETCH_LENGTH)
                    .put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS))
                    .put("remoteKey", String.format("0x%08x", TESTER_KEY));
            steps.addObject()
                    .putObject("await")
                    .put("opcode", "WRITE")
                    .put("stream", 0)
                    .put("msn", 0);
            steps.addObject().putObject("check").putArray("completed").add(STRETCH_WR_ID);
            final ArrayNode lose =
                    steps.addObject().putObject("acks").put("hold", true).putArray("lose");
            program.impairments().stream()
                    .filter(i -> i.kind() == Program.Kind.LOSS)
                    .map(i -> Math.floorMod(i.segment(), devicePackets - 1))
                    .distinct()
                    .sorted()
                    .forEach(lose::add);
        } else if (ce > 0) {
            steps.addObject().putObject("acks").put("hold", false).put("ceCount", ce);
        }
        for (final Chunk chunk : chunks) {
            if (nacks && chunk.message() == 0) {
                continue;
            }
            post(steps, chunk);
        }
        boolean heldBack = false;
        for (final Expected completion : completions) {
            if (nacks && completion.message() == 0 || completion.message() == STRETCH_MESSAGE) {
                continue;
            }
            if (program.messages().get(completion.message()).op() == Program.Op.READ) {
                answer(steps, completion, !heldBack);
                heldBack = true;
            } else {
                await(steps, completion, rsn);
            }
        }
        if (loses) {
            steps.addObject().putObject("acks").put("hold", true).put("describe", true);
            steps.addObject().putObject("check").put("resentOnlyLost", true);
            steps.addObject().putObject("acks").put("hold", false);
            // Waited for (at most 5 s): a resend the describing ACKs did not ask for waits for the stretched timer.
            final ArrayNode done = steps.addObject().putObject("check").putArray("completed");
            completions.forEach(c -> done.add(c.wrId()));
        }
    }

    /** The work request of the WRITE that stretches the device's timer before the tester loses its packets. */
    static final long STRETCH_WR_ID = SEND_WR_ID - 1;
    /** Its length: enough packets that every path gets an RTT sample (the corpus's 6.3.1 vector uses 256 KiB). */
    static final int STRETCH_LENGTH = 64 * 1024;
    /** The message index the stretching WRITE's completion is filed under: no message of the program. */
    static final int STRETCH_MESSAGE = -1;

    private static final String STRETCH = "stretch";

    /**
     * Whether the tester loses some of what the device sends: a sender program with LOSS impairments, whose first
     * message the tester does not NACK.
     */
    static boolean loses(final Program program, final int packets) {
        // One path, so that every PSN the tester loses is followed by one it receives (a tail loss would leave the
        // repair to the device's stretched timer): the device fills its segments (clause 4.1.9), so its packets are
        // known, and the tester loses only PSNs before its last.
        return program.deviceSends()
                && !nacks(program)
                && program.messages().stream().noneMatch(m -> m.op() == Program.Op.READ)
                && program.paths() == 1
                && packets >= 2
                && program.impairments().stream().anyMatch(i -> i.kind() == Program.Kind.LOSS);
    }

    /** The packets a device that fills its segments (clause 4.1.9) sends for the program's messages. */
    static int devicePackets(final Program program, final int mtu, final boolean ipv6) {
        int packets = 0;
        for (final Program.Message message : program.messages()) {
            if (message.op() == Program.Op.READ) {
                packets++; // one READ_REQUEST, whatever its length (clause 5.2.5)
                continue;
            }
            final int size = maxPayload(opcode(message.op()), mtu, ipv6);
            packets += Math.max(1, (message.length() + size - 1) / size);
        }
        return packets;
    }

    /** The name the await of a message the tester NACKs binds it by. */
    private static final String NACKED = "nacked";

    /** Whether the tester NACKs the device's first message (a sender program whose first message has a fault). */
    boolean nacked() {
        return nacks(program);
    }

    /** Whether the tester NACKs the first message of {@code program}, a sender program whose first has a fault. */
    static boolean nacks(final Program program) {
        return program.deviceSends()
                && !program.messages().isEmpty()
                && program.messages().get(0).fault() != Program.Fault.NONE;
    }

    private void post(final ArrayNode steps, final Chunk chunk) {
        final Program.Message message = program.messages().get(chunk.message());
        final ObjectNode post = steps.addObject().putObject("post");
        post.put("op", message.op().name())
                .put("stream", message.stream())
                .put("wrId", SEND_WR_ID + chunk.message())
                .put("region", SOURCE)
                .put("offset", chunk.offset())
                .put("length", message.length());
        if (message.op() != Program.Op.SEND) {
            post.put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS + chunk.offset()))
                    .put("remoteKey", String.format("0x%08x", TESTER_KEY));
        }
        if (message.op() == Program.Op.WRITE_WITH_IMMEDIATE) {
            post.put("immediate", message.immediate());
        }
    }

    /** The name the await of the READ_REQUEST of {@code read} binds it by (a request placeholder). */
    private static String readName(final Read read) {
        return "read" + read.message();
    }

    /**
     * An await of the READ_REQUEST of a READ the device posted: its stream, MSN, length, the tester's address and
     * key, reserved fields zero, bound as {@code as}.
     */
    private void awaitRequest(final ArrayNode steps, final Expected completion, final String as) {
        final Program.Message message = program.messages().get(completion.message());
        final Chunk chunk = chunks.get(completion.message());
        steps.addObject()
                .putObject("await")
                .put("opcode", "READ_REQUEST")
                .put("stream", message.stream())
                .put("as", as)
                .put("msn", completion.msn())
                .put("messageLength", message.length())
                .put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS + chunk.offset()))
                .put("remoteKey", String.format("0x%08x", TESTER_KEY))
                .put("reservedZero", true);
    }

    /**
     * Awaits the READ_REQUEST of a READ the device posted and answers it with the tester's READ_RESPONSEs. With
     * {@code holdFirst} (the program's first answered READ), the response at offset 0 goes last, after a check that
     * the READ has not completed while a byte of it was missing (clauses 7.4.2, 7.5.4: a READ completes once every
     * byte is placed; an empty READ once its one READ_RESPONSE arrives, not when its READ_REQUEST is acknowledged).
     */
    private void answer(final ArrayNode steps, final Expected completion, final boolean holdFirst) {
        final Read read = reads.stream()
                .filter(r -> r.message() == completion.message())
                .findFirst()
                .orElseThrow();
        awaitRequest(steps, completion, readName(read));
        final List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).message() == read.message()) {
                indexes.add(i);
            }
        }
        if (holdFirst) {
            if (indexes.size() > 1) {
                final ArrayNode rest = steps.addObject().putObject("send").putArray("frames");
                indexes.subList(1, indexes.size()).forEach(rest::add);
            }
            steps.addObject().putObject("check").putArray("notCompleted").add(completion.wrId());
            steps.addObject().putObject("send").putArray("frames").add(indexes.get(0));
        } else {
            final ArrayNode all = steps.addObject().putObject("send").putArray("frames");
            indexes.forEach(all::add);
        }
    }

    private ObjectNode await(final ArrayNode steps, final Expected completion, final long[] rsn) {
        final Program.Message message = program.messages().get(completion.message());
        final Chunk chunk = chunks.get(completion.message());
        final ObjectNode await = steps.addObject().putObject("await");
        await.put("opcode", message.op().name())
                .put("stream", message.stream())
                .put("msn", completion.msn())
                .put("messageLength", message.length());
        if (message.op() == Program.Op.SEND) {
            await.put("rsn", rsn[message.stream()]++);
        } else {
            await.put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS + chunk.offset()))
                    .put("remoteKey", String.format("0x%08x", TESTER_KEY));
        }
        if (message.op() == Program.Op.WRITE_WITH_IMMEDIATE) {
            await.put("immediate", message.immediate());
        }
        final byte[] payload = Arrays.copyOfRange(region, chunk.offset(), chunk.offset() + message.length());
        if (payload.length == 0) {
            await.put("messageLength", 0); // nothing to compare but the length
        } else if (payload.length <= HEX_LIMIT) {
            await.put("payloadHex", HexFormat.of().formatHex(payload));
        } else {
            await.put("payloadSha256", org.mrconf.replay.VectorFiles.sha256(payload));
        }
        await.put("reservedZero", true).put("fullSegments", true);
        return await;
    }

    private static void expectBytes(final ObjectNode entry, final byte[] expected) {
        entry.put("offset", 0).put("length", expected.length);
        if (expected.length <= HEX_LIMIT) {
            entry.put("hex", HexFormat.of().formatHex(expected));
        } else {
            entry.put("sha256", org.mrconf.replay.VectorFiles.sha256(expected));
        }
    }

    /** Whether any frame arrives CE-marked (the sidecar then keeps the frames' ECN field as captured). */
    boolean marksCe() {
        return frames.stream().anyMatch(Frame::ce);
    }

    /** The sidecar's {@code setup}, {@code placeholders} and {@code expect}, into {@code sidecar}. */
    void describe(final ObjectNode sidecar) {
        if (program.deviceSends()) {
            describeSender(sidecar);
            return;
        }
        final ObjectNode setup = sidecar.putObject("setup");
        setup.put("paths", program.paths()).put("streams", program.streams()).put("initialPsn", program.initialPsn());
        final ArrayNode regionList = setup.putArray("regions");
        final ObjectNode target = regionList.addObject();
        target.put("name", TARGET).put("length", regionLength);
        target.putArray("access").add("LOCAL_WRITE").add("REMOTE_WRITE").add("REMOTE_READ");
        target.put("fill", 0);
        if (readEnd() > 0) {
            // The stretches the READs read hold their bytes from the start; no message writes them (an empty READ
            // reads none).
            target.put("hex", HexFormat.of().formatHex(Arrays.copyOf(initial, readEnd())));
        }
        final boolean locked = refuses(Program.Fault.NO_WRITE_ACCESS)
                || refuses(Program.Fault.NO_WRITE_ACCESS_PAST_END)
                || refuses(Program.Fault.NO_READ_ACCESS)
                || refuses(Program.Fault.NO_READ_ACCESS_PAST_END);
        if (locked) {
            final ObjectNode second = regionList.addObject();
            second.put("name", LOCKED).put("length", regionLength);
            second.putArray("access").add("LOCAL_WRITE");
            second.put("fill", 0);
        }
        if (!receives.isEmpty()) {
            final ArrayNode posted = setup.putArray("receives");
            for (final Receive receive : receives) {
                posted.addObject()
                        .put("stream", receive.stream())
                        .put("region", TARGET)
                        .put("offset", receive.offset())
                        .put("length", receive.length())
                        .put("wrId", receive.wrId());
            }
        }
        final ObjectNode placeholders = sidecar.putObject("placeholders");
        placeholders.put("connection", String.format("0x%08x", CONNECTION));
        placeholders.put("psnBase", program.initialPsn());
        final ObjectNode named = placeholders.putObject("regions");
        named.putObject(TARGET)
                .put("address", String.format("0x%08x", TARGET_ADDRESS))
                .put("key", String.format("0x%08x", TARGET_KEY));
        if (locked) {
            named.putObject(LOCKED)
                    .put("address", String.format("0x%08x", LOCKED_ADDRESS))
                    .put("key", String.format("0x%08x", LOCKED_KEY));
        }
        sidecar.put("pacing", "fast");
        if (marksCe()) {
            sidecar.putArray("asCaptured").add("ecn");
        }
        final ObjectNode expect = sidecar.putObject("expect");
        final int used = used();
        final ArrayNode regions = expect.putArray("regions");
        expectBytes(regions.addObject().put("region", TARGET), Arrays.copyOf(region, used));
        if (locked) {
            expectBytes(regions.addObject().put("region", LOCKED), new byte[regionLength]);
        }
        final ArrayNode responses = expect.putArray("responses");
        if (!reads.isEmpty()) {
            // Every READ the device accepts is answered once with READ_RESPONSEs filled at its MTU (clauses 4.1.9,
            // 7.4.1), a duplicate READ_REQUEST only acknowledged (7.4.3), a refused one not answered (9.1.3): exactly
            // this many first transmissions, whatever paths they take.
            final int answers = reads.stream().mapToInt(Read::packets).sum();
            responses
                    .addObject()
                    .put("opcode", "READ_RESPONSE")
                    .put("atLeast", answers)
                    .put("atMost", answers);
        }
        for (int path = 0; path < program.paths(); path++) {
            if (packetsPerPath[path] > 0) {
                // Once the last new PSN of a path has arrived, every PSN below it has too, and an ACK reporting it
                // follows within the ACK delay, after any NACK of it (clauses 8.1.2 to 8.1.4, 9.1.8): its
                // cumulative PSN is the path's next, whatever the device coalesced before.
                responses
                        .addObject()
                        .put("opcode", "ACK")
                        .put("path", path)
                        .put("cumulativePsnOffset", packetsPerPath[path]);
            }
        }
        if (!refusals.isEmpty()) {
            // Each refused message draws a NACK with its fault's code (clauses 9.1.1, 11.1.1 to 11.1.3, 7.3.3); a
            // one-packet message's names that packet (Table 5-10).
            for (final String code : List.of("REMOTE_ACCESS", "BOUNDS", "MESSAGE_TOO_LONG")) {
                final long finished = refusals.stream()
                        .filter(r -> r.fault().nackCode().equals(code))
                        .count();
                if (finished > 0) {
                    // Refused at step 8 of clause 5.6.6, a message is finished: its later packets are stale and
                    // acknowledged, never NACKed again (clause 7.5.6), so each such message draws exactly one NACK.
                    responses
                            .addObject()
                            .put("opcode", "NACK")
                            .put("nackCode", code)
                            .put("atLeast", finished)
                            .put("atMost", finished);
                }
            }
            final long unknownStreams = refusals.stream()
                    .filter(r -> r.fault() == Program.Fault.UNKNOWN_STREAM)
                    .count();
            if (unknownStreams > 1) {
                // Refused at step 3 of clause 5.6.6, each of these packets falls under the NACK rate limit, which a
                // device may count per stream or per connection (clause 9.1.5, freedom F-20): the first NACK
                // INVALID_REQUEST may hold back the others' within a smoothed RTT. Only one is certain.
                responses
                        .addObject()
                        .put("opcode", "NACK")
                        .put("nackCode", Program.Fault.UNKNOWN_STREAM.nackCode())
                        .put("atLeast", 1);
            }
            for (final Refusal refusal : refusals) {
                if (unknownStreams > 1 && refusal.fault() == Program.Fault.UNKNOWN_STREAM) {
                    continue;
                }
                final ObjectNode nack = responses
                        .addObject()
                        .put("opcode", "NACK")
                        .put("nackCode", refusal.fault().nackCode());
                if (refusal.packets() == 1) {
                    nack.putObject("rejected")
                            .put("psnOffset", refusal.psnOffset())
                            .put("stream", refusal.stream())
                            .put("msn", refusal.msn());
                }
            }
        }
        // Completions by work request id: RECEIVE_IMMEDIATEs all carry 0, so their immediate is expected only when
        // there is one of them (the sidecar matches by id); explore's own judge checks each by stream and MSN.
        final ArrayNode expectedCompletions = expect.putArray("completions");
        final long immediates = completions.stream()
                .filter(c -> c.type() == CompletionType.RECEIVE_IMMEDIATE)
                .count();
        boolean immediateListed = false;
        for (final Expected completion : completions) {
            if (completion.type() == CompletionType.RECEIVE_IMMEDIATE) {
                if (immediateListed) {
                    continue;
                }
                immediateListed = true;
            }
            final ObjectNode entry = expectedCompletions.addObject();
            entry.put("wrId", completion.wrId())
                    .put("status", completion.status().name());
            if (completion.status() == CompletionStatus.SUCCESS) {
                entry.put("type", completion.type().name());
            }
            if (completion.type() == CompletionType.RECEIVE_IMMEDIATE && immediates == 1) {
                entry.put("immediate", completion.immediate());
            }
        }
        expect.put("noOtherCompletions", true);
        if (program.streams() == 1 && immediates <= 1 && completions.size() > 1) {
            // Replay compares the order of the listed completions as one sequence: only sound on one stream.
            expect.put("completionsInOrder", true);
        }
        describePause(sidecar);
        describeReads(sidecar);
    }

    /** The end of the last stretch a READ reads (the region's bytes set up before the stimulus). */
    private int readEnd() {
        return reads.stream()
                .mapToInt(r -> chunks.get(r.message()).offset()
                        + chunks.get(r.message()).length())
                .max()
                .orElse(0);
    }

    /**
     * When the tester sends READs: steps that send the whole stimulus (unless a pause already does), then await the
     * READ_RESPONSEs of each READ the device must answer, whole: the READ's stream, MSN, message length and sink
     * handle, reserved fields zero, segments full at the declared MTU, and exactly the bytes of its stretch (clauses
     * 5.2.6, 7.4.1). Replay acknowledges each of the device's packets at once, as a correct requester does.
     */
    private void describeReads(final ObjectNode sidecar) {
        if (reads.isEmpty()) {
            return;
        }
        final ArrayNode steps;
        if (sidecar.has("steps")) {
            steps = (ArrayNode) sidecar.get("steps");
        } else {
            steps = sidecar.putArray("steps");
            final ArrayNode all = steps.addObject().putObject("send").putArray("frames");
            for (int i = 0; i < frames.size(); i++) {
                all.add(i);
            }
        }
        for (final Read read : reads) {
            final Program.Message message = program.messages().get(read.message());
            final Chunk chunk = chunks.get(read.message());
            final ObjectNode await = steps.addObject().putObject("await");
            await.put("opcode", "READ_RESPONSE")
                    .put("stream", read.stream())
                    .put("msn", read.msn())
                    .put("messageLength", message.length())
                    .put("sinkHandle", String.format("0x%08x", TESTER_SINK_HANDLE + read.message()));
            payload(await, Arrays.copyOfRange(region, chunk.offset(), chunk.offset() + message.length()));
            await.put("reservedZero", true).put("fullSegments", true);
        }
    }

    /** An await's expected message bytes: hex, or SHA-256 above {@link #HEX_LIMIT}; nothing for an empty one. */
    private static void payload(final ObjectNode await, final byte[] payload) {
        if (payload.length == 0) {
            return; // nothing to compare but the length
        }
        if (payload.length <= HEX_LIMIT) {
            await.put("payloadHex", HexFormat.of().formatHex(payload));
        } else {
            await.put("payloadSha256", org.mrconf.replay.VectorFiles.sha256(payload));
        }
    }

    /**
     * A pause in the stimulus where some SEND has arrived whole while an earlier message of its stream has not: the
     * tester sends the frames before it, checks that no such SEND's receive has completed (clause 7.5.9: a message
     * without a completion keeps its place; 7.5.2), and sends the rest. The pause is the frame where the most SENDs
     * are held back; a program with none has no steps.
     */
    private void describePause(final ObjectNode sidecar) {
        int bestAt = -1;
        List<Long> best = List.of();
        for (int at = 1; at < frames.size(); at++) {
            final List<Long> held = heldBack(at);
            if (held.size() > best.size()) {
                best = held;
                bestAt = at;
            }
        }
        if (best.isEmpty()) {
            return;
        }
        final ArrayNode steps = sidecar.putArray("steps");
        final ArrayNode before = steps.addObject().putObject("send").putArray("frames");
        for (int i = 0; i < bestAt; i++) {
            before.add(i);
        }
        final ArrayNode notCompleted = steps.addObject().putObject("check").putArray("notCompleted");
        best.forEach(notCompleted::add);
        final ArrayNode after = steps.addObject().putObject("send").putArray("frames");
        for (int i = bestAt; i < frames.size(); i++) {
            after.add(i);
        }
    }

    /**
     * The receives of SENDs that have arrived whole in the first {@code at} frames while an earlier message of their
     * stream is not finished (a valid one not whole yet, a refused one not yet arrived at all).
     */
    private List<Long> heldBack(final int at) {
        final int[] arrived = new int[program.messages().size()];
        final java.util.BitSet intact = new java.util.BitSet(segments);
        for (int i = 0; i < at; i++) {
            final Frame frame = frames.get(i);
            // Each segment counts once, at its first intact arrival (duplicates and resends come again).
            if (frame.intact() && !intact.get(frame.segment())) {
                intact.set(frame.segment());
                arrived[frame.message()]++;
            }
        }
        final List<Long> held = new ArrayList<>();
        for (final Expected completion : completions) {
            final Program.Message message = program.messages().get(completion.message());
            if (message.op() != Program.Op.SEND
                    || completion.status() != CompletionStatus.SUCCESS
                    || arrived[completion.message()] < packetsPerMessage[completion.message()]) {
                continue;
            }
            for (int earlier = 0; earlier < completion.message(); earlier++) {
                final Program.Message other = program.messages().get(earlier);
                final boolean sameStream = other.stream() == message.stream()
                        && !(other.refused() && other.fault() == Program.Fault.UNKNOWN_STREAM);
                final boolean finished =
                        other.refused() ? arrived[earlier] > 0 : arrived[earlier] >= packetsPerMessage[earlier];
                if (sameStream && !finished) {
                    held.add(completion.wrId());
                    break;
                }
            }
        }
        return held;
    }
}
