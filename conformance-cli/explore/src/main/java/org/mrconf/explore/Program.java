package org.mrconf.explore;

import java.util.List;
import java.util.Objects;

/**
 * One random legal program the tester plays against the device: the connection's shape, the messages it sends to
 * the device in order, and the network impairments it applies to their packets. A program is pure data: the
 * stimulus, the device's set-up and every expectation follow from it ({@link Stimulus}), so the same program always
 * replays the same way, and a shrunk program is just a smaller one.
 *
 * @param seed        the seed it was generated from (reported with every finding)
 * @param deviceSends whether the device posts the messages through its control channel and the tester receives
 *     them (acknowledging each packet at once, answering each READ from its own memory), or the tester sends them to
 *     the device (a READ then reads a stretch of the device's region, which the device answers)
 * @param paths       paths of the connection (1 to the device's limit)
 * @param streams     streams of the connection (1 to the device's limit)
 * @param initialPsn  the first PSN of every path the tester sends on (near the wrap at times, clause 6.1.2)
 * @param messages    the messages, in the order the tester posts them
 * @param impairments what the network does to their packets
 */
public record Program(
        long seed,
        boolean deviceSends,
        int paths,
        int streams,
        long initialPsn,
        List<Message> messages,
        List<Impairment> impairments) {
    public Program {
        messages = List.copyOf(messages);
        impairments = List.copyOf(impairments);
        if (paths < 1 || streams < 1) {
            throw new IllegalArgumentException("a program needs a path and a stream");
        }
    }

    /** What the tester sends (or, when the device sends, what the device posts). */
    public enum Op {
        WRITE,
        WRITE_WITH_IMMEDIATE,
        SEND,
        /**
         * A READ of {@code length} bytes: when the tester sends, a READ_REQUEST for a stretch of the device's region
         * that no message writes (its bytes set up before, so the answer does not depend on when the device reads,
         * clause 7.4.1); when the device sends, a READ the device posts into its own region, which the tester answers
         * with READ_RESPONSEs of its own bytes.
         */
        READ
    }

    /**
     * One message to the device.
     *
     * @param op         its opcode
     * @param stream     its stream
     * @param length     its message length in bytes (0 allowed)
     * @param immediate  the immediate data of a WRITE_WITH_IMMEDIATE (else 0)
     * @param firstPath  the path of its first segment; segment j goes on path (firstPath + j) mod paths (for a READ
     *     the device sends, the paths of the tester's READ_RESPONSEs)
     * @param slack      for a SEND, how many bytes the posted receive has beyond the message length
     * @param dataSeed   the seed of its payload bytes (for a READ, of the bytes read)
     * @param fault      what makes the receiver refuse it, if anything ({@link Fault#NONE}: a valid message); when
     *     the device sends, the first message's fault is the NACK the tester answers it with (clause 9.1.7)
     */
    public record Message(
            Op op, int stream, int length, long immediate, int firstPath, int slack, long dataSeed, Fault fault) {
        public Message {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(fault, "fault");
            if (fault != Fault.NONE && !fault.fits(op)) {
                throw new IllegalArgumentException(fault + " does not fit a " + op);
            }
        }

        /** A valid message. */
        public Message(
                final Op op,
                final int stream,
                final int length,
                final long immediate,
                final int firstPath,
                final int slack,
                final long dataSeed) {
            this(op, stream, length, immediate, firstPath, slack, dataSeed, Fault.NONE);
        }

        Message withLength(final int newLength) {
            return new Message(op, stream, newLength, immediate, firstPath, slack, dataSeed, fault);
        }

        Message onStream(final int newStream) {
            return new Message(op, newStream, length, immediate, firstPath, slack, dataSeed, fault);
        }

        Message onPath(final int path) {
            return new Message(op, stream, length, immediate, path, slack, dataSeed, fault);
        }

        /** Whether the receiver must refuse it (a LONGER_THAN_RECEIVE SEND of 0 or 1 byte fits its receive). */
        boolean refused() {
            return fault != Fault.NONE && (fault != Fault.LONGER_THAN_RECEIVE || length >= 2);
        }
    }

    /**
     * What makes a message the tester sends invalid, and the answer every conforming receiver gives it: a NACK with
     * the fault's code, nothing placed, no receive completed except the length error of clause 7.3.3 (clauses 9.1.1,
     * 9.1.3), and the rest of the program unaffected (the refused message is finished at the receiver, clause 7.5.9).
     * Each fault fails exactly one check of clause 5.6.6, so the code does not depend on the order a device checks
     * in, except where the draft fixes that order ({@link #NO_WRITE_ACCESS_PAST_END}).
     */
    public enum Fault {
        /** A valid message. */
        NONE("", "", Op.values()),
        /** A WRITE or READ whose key names no region (clause 11.1.1). */
        BAD_KEY("11.1.1", "REMOTE_ACCESS", Op.WRITE, Op.WRITE_WITH_IMMEDIATE, Op.READ),
        /** A WRITE into a region without REMOTE_WRITE, inside its bounds (clause 11.1.2). */
        NO_WRITE_ACCESS("11.1.2", "REMOTE_ACCESS", Op.WRITE, Op.WRITE_WITH_IMMEDIATE),
        /** A WRITE into a region without REMOTE_WRITE that also runs past its end: access comes first (5.6.6). */
        NO_WRITE_ACCESS_PAST_END("5.6.6", "REMOTE_ACCESS", Op.WRITE, Op.WRITE_WITH_IMMEDIATE),
        /**
         * A WRITE or READ whose range starts inside the region and runs past its end (an empty one: one byte past
         * it).
         */
        CROSSES_END("11.1.3", "BOUNDS", Op.WRITE, Op.WRITE_WITH_IMMEDIATE, Op.READ),
        /** A WRITE or READ 4 GiB above its place in the region: its offset does not fit 32 bits (clause 11.1.3). */
        FAR_ABOVE("11.1.3", "BOUNDS", Op.WRITE, Op.WRITE_WITH_IMMEDIATE, Op.READ),
        /** A WRITE or READ on a stream the connection lacks (Table 5-13, clause 9.1.1). */
        UNKNOWN_STREAM("9.1.1", "INVALID_REQUEST", Op.WRITE, Op.WRITE_WITH_IMMEDIATE, Op.READ),
        /** A SEND longer than the receive it matches (clause 7.3.3). */
        LONGER_THAN_RECEIVE("7.3.3", "MESSAGE_TOO_LONG", Op.SEND),
        /** A READ from a region without REMOTE_READ, inside its bounds (clause 11.1.2). */
        NO_READ_ACCESS("11.1.2", "REMOTE_ACCESS", Op.READ),
        /** A READ from a region without REMOTE_READ that also runs past its end: access comes first (5.6.6). */
        NO_READ_ACCESS_PAST_END("5.6.6", "REMOTE_ACCESS", Op.READ);

        private final String clause;
        private final String code;
        private final java.util.Set<Op> fits;

        Fault(final String clause, final String code, final Op... fits) {
            this.clause = clause;
            this.code = code;
            this.fits = java.util.Set.of(fits);
        }

        /** The clause a device breaks when it does not refuse such a message as it must. */
        public String clause() {
            return clause;
        }

        /** The NACK code a conforming receiver answers with. */
        public String nackCode() {
            return code;
        }

        /** Whether a message of {@code op} can have this fault. */
        boolean fits(final Op op) {
            return fits.contains(op);
        }

        /** The error status a sender completes a work request NACKed with this fault's code with (clause 9.1.7). */
        public String completionStatus() {
            return switch (code) {
                case "REMOTE_ACCESS" -> "REMOTE_ACCESS_ERROR";
                case "BOUNDS" -> "REMOTE_BOUNDS_ERROR";
                case "MESSAGE_TOO_LONG" -> "REMOTE_MESSAGE_TOO_LONG";
                case "INVALID_REQUEST" -> "REMOTE_INVALID_REQUEST";
                default -> "SUCCESS";
            };
        }
    }

    /** What the network may do to one packet, inside the draft's envelope. */
    public enum Kind {
        /**
         * The packet is lost; the tester resends it (RETRANSMISSION flag, fresh timestamp) {@code distance} later. When
         * the device sends, the tester loses, on every path, the new PSN at offset {@code segment} mod 4 of what the
         * program's messages put there, shows the holes in one ACK per path, and judges the resends (clauses 6.3.1,
         * 6.4.1, 6.4.2).
         */
        LOSS,
        /** The network delivers a second copy {@code distance} packets later (clause 6.5.1). */
        DUPLICATE,
        /** The packet is overtaken by the next {@code distance} packets, within a path's window (clause 6.3.2). */
        REORDER,
        /**
         * The packet arrives marked Congestion Experienced (clauses 4.1.7, 8.2.2); when the device sends, the tester's ACKs
         * report a CE count instead (clauses 8.2.2, 10.1.1).
         */
        CE,
        /**
         * The packet arrives with a bit of its payload flipped (its CRC32C no longer matches: clause 5.6.2, drop it
         * and count it); the tester resends it intact {@code distance} packets later.
         */
        CORRUPT,
        /**
         * The packet carries non-zero reserved fields and flags and minor version 1, which a receiver ignores
         * (clauses 5.1.1, 5.6.3): it must be handled exactly as the plain packet.
         */
        RESERVED_SET
    }

    /**
     * One impairment.
     *
     * @param kind     what happens
     * @param segment  which packet: the index among all the program's segments in posting order, modulo their number
     * @param distance how many packets later (LOSS, DUPLICATE, REORDER), at least 1
     */
    public record Impairment(Kind kind, int segment, int distance) {
        public Impairment {
            Objects.requireNonNull(kind, "kind");
        }
    }

    Program withMessages(final List<Message> newMessages) {
        return new Program(seed, deviceSends, paths, streams, initialPsn, newMessages, impairments);
    }

    Program withImpairments(final List<Impairment> newImpairments) {
        return new Program(seed, deviceSends, paths, streams, initialPsn, messages, newImpairments);
    }

    Program withPaths(final int newPaths) {
        return new Program(seed, deviceSends, newPaths, streams, initialPsn, messages, impairments);
    }

    Program withStreams(final int newStreams) {
        return new Program(
                seed,
                deviceSends,
                paths,
                newStreams,
                initialPsn,
                messages.stream().map(m -> m.onStream(m.stream() % newStreams)).toList(),
                impairments);
    }

    Program withInitialPsn(final long psn) {
        return new Program(seed, deviceSends, paths, streams, psn, messages, impairments);
    }

    /** A one-line summary for the console and the report. */
    public String summary() {
        return (deviceSends ? "the device sends " : "the tester sends ") + messages.size() + " messages, " + paths
                + " path(s), " + streams + " stream(s), " + impairments.size() + " impairment(s), initial PSN "
                + initialPsn;
    }
}
