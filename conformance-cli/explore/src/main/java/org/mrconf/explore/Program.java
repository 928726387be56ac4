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
 *     them (acknowledging each packet at once), or the tester sends them to the device
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

    /** What the tester sends. */
    public enum Op {
        WRITE,
        WRITE_WITH_IMMEDIATE,
        SEND
    }

    /**
     * One message to the device.
     *
     * @param op         its opcode
     * @param stream     its stream
     * @param length     its message length in bytes (0 allowed)
     * @param immediate  the immediate data of a WRITE_WITH_IMMEDIATE (else 0)
     * @param firstPath  the path of its first segment; segment j goes on path (firstPath + j) mod paths
     * @param slack      for a SEND, how many bytes the posted receive has beyond the message length
     * @param dataSeed   the seed of its payload bytes
     */
    public record Message(Op op, int stream, int length, long immediate, int firstPath, int slack, long dataSeed) {
        public Message {
            Objects.requireNonNull(op, "op");
        }

        Message withLength(final int newLength) {
            return new Message(op, stream, newLength, immediate, firstPath, slack, dataSeed);
        }

        Message onStream(final int newStream) {
            return new Message(op, newStream, length, immediate, firstPath, slack, dataSeed);
        }
    }

    /** What the network may do to one packet, inside the draft's envelope. */
    public enum Kind {
        /** The packet is lost; the tester resends it (RETRANSMISSION flag, fresh timestamp) {@code distance} later. */
        LOSS,
        /** The network delivers a second copy {@code distance} packets later (clause 6.5.1). */
        DUPLICATE,
        /** The packet is overtaken by the next {@code distance} packets, within a path's window (clause 6.3.2). */
        REORDER,
        /**
         * The packet arrives marked Congestion Experienced (clauses 4.1.7, 8.2.2); when the device sends, the tester's ACKs
         * report a CE count instead (clauses 8.2.2, 10.1.1).
         */
        CE
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
