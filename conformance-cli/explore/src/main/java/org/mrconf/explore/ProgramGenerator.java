package org.mrconf.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutLimits;

/**
 * Draws random legal programs within what a device declares: only the opcodes of the profiles it claims
 * (WRITE_WITH_IMMEDIATE with {@code immediate}, READ with {@code read}), more than one path only with {@code multipath} and more than one
 * stream only with {@code streams}, within its limits of paths, streams and message length, and never more messages
 * on a stream than its maximum outstanding messages (clause 7.5.10: the tester does not wait for ACKs, so every
 * message of a stream may be outstanding at once; a READ counts like any message). When the tester sends, one message in {@value #FAULT_ONE_IN} is
 * one the device must refuse (a {@link Program.Fault}), and the impairments include damaged copies and copies with
 * reserved fields set. Half the programs have the device send the messages instead
 * (posted through its control channel); their only impairment is a CE count in the tester's ACKs, and only for a
 * device that claims {@code congestion}, and losses (never in a program with a READ: see {@link #lossy}). The same
 * seed always draws the same program.
 */
public final class ProgramGenerator {
    /** Most messages a program has: enough for the purposes to meet, few enough to shrink fast. */
    static final int MAX_MESSAGES = 8;

    static final int MAX_PATHS = 4;
    static final int MAX_STREAMS = 4;
    static final int MAX_IMPAIRMENTS = 6;
    /** When the tester sends, one message in this many is one the device must refuse ({@link Program.Fault}). */
    static final int FAULT_ONE_IN = 4;
    /** When the device sends, one program in this many has the tester NACK its first message with a final code. */
    static final int NACK_ONE_IN = 3;

    /** The faults a WRITE can have, each failing one check of clause 5.6.6. */
    private static final List<Program.Fault> WRITE_FAULTS = List.of(
            Program.Fault.BAD_KEY,
            Program.Fault.NO_WRITE_ACCESS,
            Program.Fault.NO_WRITE_ACCESS_PAST_END,
            Program.Fault.CROSSES_END,
            Program.Fault.FAR_ABOVE,
            Program.Fault.UNKNOWN_STREAM);

    /**
     * The faults a READ can have, each failing one check of clause 5.6.6 whose answer the draft fixes: a key that names
     * no region (11.1.1), a region without REMOTE_READ (11.1.2), and with it a range past its end (access first,
     * 5.6.6), a range past the end (11.1.3), an offset that does not fit 32 bits (11.1.3), a stream the connection
     * lacks (Table 5-13).
     */
    private static final List<Program.Fault> READ_FAULTS = List.of(
            Program.Fault.BAD_KEY,
            Program.Fault.NO_READ_ACCESS,
            Program.Fault.NO_READ_ACCESS_PAST_END,
            Program.Fault.CROSSES_END,
            Program.Fault.FAR_ABOVE,
            Program.Fault.UNKNOWN_STREAM);

    private final DeviceDeclaration profile;
    private final int segment;

    /**
     * @param profile what the device declares
     * @param segment the largest WRITE payload the tester puts in one packet at the device's MTU
     */
    public ProgramGenerator(final DeviceDeclaration profile, final int segment) {
        this.profile = profile;
        this.segment = segment;
    }

    /** The program of {@code seed}. */
    public Program draw(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final boolean deviceSends = random.nextBoolean();
        final DutLimits limits = profile.conformance().limits();
        final int paths =
                profile.claims(Profile.MULTIPATH) ? 1 + random.nextInt(Math.min(MAX_PATHS, limits.maxPaths())) : 1;
        final int streams =
                profile.claims(Profile.STREAMS) ? 1 + random.nextInt(Math.min(MAX_STREAMS, limits.maxStreams())) : 1;
        final boolean immediate = profile.claims(Profile.IMMEDIATE);
        final boolean read = profile.claims(Profile.READ);
        // The opcodes drawn: WRITE, SEND, then those of the profiles claimed (so a device without read draws exactly
        // the programs it drew before READ was added).
        final List<Program.Op> ops = new ArrayList<>(List.of(Program.Op.WRITE, Program.Op.SEND));
        if (immediate) {
            ops.add(Program.Op.WRITE_WITH_IMMEDIATE);
        }
        if (read) {
            ops.add(Program.Op.READ);
        }
        final int perStream = Math.max(1, limits.maxOutstandingMessages());
        final int[] onStream = new int[streams];
        final int count = 1 + random.nextInt(MAX_MESSAGES);
        final List<Program.Message> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            final int stream = random.nextInt(streams);
            if (onStream[stream] >= perStream) {
                continue;
            }
            onStream[stream]++;
            final Program.Op op = ops.get(random.nextInt(ops.size()));
            final Program.Fault fault =
                    !deviceSends && random.nextInt(FAULT_ONE_IN) == 0 ? fault(random, op) : Program.Fault.NONE;
            messages.add(new Program.Message(
                    op,
                    stream,
                    fault == Program.Fault.NONE
                            ? length(random, limits.maxMessageLength())
                            : faultLength(random, limits.maxMessageLength()),
                    op == Program.Op.WRITE_WITH_IMMEDIATE ? random.nextLong() & 0xFFFF_FFFFL : 0,
                    random.nextInt(paths),
                    random.nextInt(4) == 0 ? random.nextInt(64) : 0,
                    random.nextLong(),
                    fault));
        }
        if (deviceSends && !messages.isEmpty() && random.nextInt(NACK_ONE_IN) == 0) {
            messages.set(0, nacked(random, messages.get(0)));
        }
        final List<Program.Impairment> impairments = new ArrayList<>();
        final int impaired = random.nextInt(MAX_IMPAIRMENTS + 1);
        for (int i = 0; i < impaired; i++) {
            final Program.Kind kind = Program.Kind.values()[random.nextInt(Program.Kind.values().length)];
            final boolean ceCount = kind == Program.Kind.CE && profile.claims(Profile.CONGESTION);
            final boolean lostPsn = kind == Program.Kind.LOSS && limits.maxMessageLength() >= Stimulus.STRETCH_LENGTH;
            if (deviceSends && !ceCount && !lostPsn) {
                continue; // when the device sends, the tester's ACKs carry CE counts, or it loses PSNs (see Stimulus)
            }
            impairments.add(new Program.Impairment(kind, random.nextInt(1 << 16), 1 + random.nextInt(4)));
        }
        final long initialPsn = random.nextInt(4) == 0 ? (0xFFFF_FFFFL - random.nextInt(8)) : random.nextInt(1 << 20);
        if (deviceSends && impairments.stream().anyMatch(i -> i.kind() == Program.Kind.LOSS)) {
            if (lossyPackets() < 2) {
                impairments.removeIf(i -> i.kind() == Program.Kind.LOSS);
            } else {
                return lossy(new Program(seed, true, 1, streams, initialPsn, messages, impairments));
            }
        }
        return new Program(seed, deviceSends, paths, streams, initialPsn, messages, impairments);
    }

    /** Whether some programs have the tester lose what the device sends (it declares first windows of 2 or more). */
    public boolean losesWhatTheDeviceSends() {
        return lossyPackets() >= 2 && profile.conformance().limits().maxMessageLength() >= Stimulus.STRETCH_LENGTH;
    }

    /** Most packets the device sends while the tester loses some. */
    static final int LOSSY_PACKETS = 6;

    /**
     * How many packets the device may send while the tester holds its ACKs and loses some: at most its declared
     * first windows, path and connection (the stretching WRITE, acknowledged without CE, can only have grown them,
     * clause 10.1.1), so that it sends them all whatever legal windows it keeps; 0 for a device that declares none
     * (it gets no such program: a tester assumes no more than one packet in flight, section 10).
     */
    private int lossyPackets() {
        final var congestion = profile.parameters().congestion();
        return Math.min(LOSSY_PACKETS, Math.min(congestion.initialPathWindow(), congestion.initialConnectionWindow()));
    }

    /**
     * A program in which the tester loses some of what the device sends, on one path (see {@link Stimulus}): its
     * messages cut to the first that fit in {@link #lossyPackets()} packets, so that the device sends them all while
     * the tester holds its ACKs. Its READs are left out: the tester answers a READ only once its READ_REQUEST has
     * been awaited, and holding ACKs back while it sends READ_RESPONSEs would judge the device's windows on both
     * sides at once, which the lossy shape does not model.
     */
    private Program lossy(final Program program) {
        final List<Program.Message> kept = new ArrayList<>();
        int packets = 0;
        final List<Program.Message> candidates = program.messages().stream()
                .filter(m -> m.op() != Program.Op.READ)
                .toList();
        for (final Program.Message message : candidates) {
            final int more = Math.max(1, (message.length() + segment - 1) / segment);
            if (packets + more > lossyPackets()) {
                break;
            }
            kept.add(message.onPath(0));
            packets += more;
        }
        if (kept.isEmpty() && !candidates.isEmpty()) {
            kept.add(candidates
                    .get(0)
                    .onPath(0)
                    .withLength(Math.min(candidates.get(0).length(), lossyPackets() * segment)));
        }
        if (kept.isEmpty()) {
            // Only READs: no packet of the device's to lose; the program keeps its READs and drops the losses.
            return program.withImpairments(program.impairments().stream()
                    .filter(i -> i.kind() != Program.Kind.LOSS)
                    .toList());
        }
        return program.withMessages(kept);
    }

    /**
     * A fault that fits {@code op}: a SEND can only be longer than its receive; a WRITE can break any WRITE rule, a
     * READ any READ rule.
     */
    private static Program.Fault fault(final SplittableRandom random, final Program.Op op) {
        if (op == Program.Op.SEND) {
            return Program.Fault.LONGER_THAN_RECEIVE;
        }
        final List<Program.Fault> faults = op == Program.Op.READ ? READ_FAULTS : WRITE_FAULTS;
        return faults.get(random.nextInt(faults.size()));
    }

    /**
     * The first message of a program the device sends, to be NACKed with a final code that fits its opcode (clause
     * 9.1.7): one packet long at most, so that the device sends it whole into any window while the tester holds its
     * ACKs back (a READ's READ_REQUEST is one packet whatever its length; the tester NACKs it as a responder would
     * and answers it with nothing).
     */
    private static Program.Message nacked(final SplittableRandom random, final Program.Message first) {
        final Program.Fault fault;
        if (first.op() == Program.Op.SEND) {
            fault = Program.Fault.LONGER_THAN_RECEIVE;
        } else {
            final List<Program.Fault> codes =
                    List.of(Program.Fault.BAD_KEY, Program.Fault.CROSSES_END, Program.Fault.UNKNOWN_STREAM);
            fault = codes.get(random.nextInt(codes.size()));
        }
        return new Program.Message(
                first.op(),
                first.stream(),
                Math.min(first.length(), 64),
                first.immediate(),
                first.firstPath(),
                first.slack(),
                first.dataSeed(),
                fault);
    }

    /**
     * The length of a message the device must refuse: empty one time in four (a check that looks only at the bytes
     * it places misses it), of several packets one time in two (a check of each packet's own bytes places the
     * packets that lie inside), else short.
     */
    private int faultLength(final SplittableRandom random, final long maxMessageLength) {
        final int roll = random.nextInt(4);
        final long length =
                roll == 0 ? 0 : roll == 1 ? 1 + random.nextInt(64) : segment + 1 + random.nextInt(3 * segment);
        return (int) Math.min(length, maxMessageLength);
    }

    private int length(final SplittableRandom random, final long maxMessageLength) {
        final int roll = random.nextInt(20);
        final long length;
        if (roll == 0) {
            length = 0;
        } else if (roll < 8) {
            length = 1 + random.nextInt(64);
        } else if (roll < 16) {
            length = 1 + random.nextInt(2 * segment);
        } else {
            length = 1 + random.nextInt(4 * segment);
        }
        return (int) Math.min(length, maxMessageLength);
    }
}
