package org.mrconf.replay;

import java.util.List;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.NackPacket;
import org.opentest4j.TestAbortedException;

/**
 * Expectations over every packet the DUT sent on the vector's connection, in arrival order: the order and contents of
 * its ACKs and NACKs ({@link Sidecar.Expect#nacksFirst()}, {@link Sidecar.Expect#rateHintInEveryAck()}) and the sink
 * handles of its READ_REQUESTs ({@link Sidecar.Expect#distinctSinkHandles()}), and the UDP checksums of its frames
 * ({@link Sidecar.Expect#sentUdpChecksums()}).
 */
final class SentChecks {
    private SentChecks() {}

    /**
     * Clause 9.1.6: no ACK of a NACK's path that came before the NACK reports the NACK's PSN as received, and the
     * NACK's cumulative psn does not cover its own PSN (it is taken before the PSN is recorded). A vector with this
     * expectation also expects the NACK itself ({@code responses}); without one nothing here is judged.
     */
    static void nacksFirst(final List<ReceivedPacket> answers, final List<String> failures) {
        for (int i = 0; i < answers.size(); i++) {
            final NackPacket nack = nackOf(answers.get(i));
            if (nack == null) {
                continue;
            }
            final long psn = nack.header().psn();
            final int path = nack.header().pathId();
            if (!Psn.atOrBefore(nack.cumulativePsn(), psn)) {
                failures.add(String.format(
                        "the NACK %s of PSN %d carries the cumulative psn %d, which reports its own PSN as received;"
                                + " 9.1.6: the cumulative PSN is taken before the rejected PSN is recorded",
                        nack.code(), psn, nack.cumulativePsn()));
            }
            for (int j = 0; j < i; j++) {
                final AckPacket ack = ackOf(answers.get(j));
                if (ack != null && ack.header().pathId() == path && PacketMatcher.covers(ack, psn)) {
                    failures.add(String.format(
                            "an ACK of path %d (cumulative PSN %d) that reports PSN %d as received came before the"
                                    + " NACK %s of that PSN; 9.1.6: the NACK comes first",
                            path, ack.cumulativePsn(), psn, nack.code()));
                    break;
                }
            }
        }
    }

    /**
     * Clause 8.2.3: every ACK carries the receiver's fair-share rate hint, never 0 Mbit/s (0xFFFFFFFF asks for no
     * limit and is a hint too). A DUT that sent no ACK leaves nothing to judge here; the vector's {@code responses}
     * say which ACKs it owes.
     */
    static void rateHintInEveryAck(final List<ReceivedPacket> answers, final List<String> failures) {
        everyAck(
                answers,
                failures,
                "no rate hint",
                ack -> ack.rateHint() == 0
                        ? " carries the rate hint 0 Mbit/s; 8.2.3: every ACK carries the receiver's current fair-share"
                                + " rate hint"
                        : null);
    }

    /**
     * Clause 8.2.6: a device without the congestion profile sends every ACK with CE count 0 and rate hint 0xFFFFFFFF
     * (no limit). A DUT that sent no ACK leaves nothing to judge here.
     */
    static void noCongestionSignals(final List<ReceivedPacket> answers, final List<String> failures) {
        everyAck(
                answers,
                failures,
                "no ACK",
                ack -> ack.ceCount() != 0 || ack.rateHint() != AckFlyweight.RATE_HINT_NO_LIMIT
                        ? " carries CE count " + ack.ceCount() + " and rate hint 0x" + Long.toHexString(ack.rateHint())
                                + "; 8.2.6: a device without the congestion profile sends CE count 0 and rate hint"
                                + " 0xffffffff in every ACK"
                        : null);
    }

    /**
     * Checks every ACK among {@code answers}: the first that {@code fault} describes (non-null: what is wrong with it)
     * is the failure. No ACK at all leaves {@code what} unjudged (INCONCLUSIVE).
     */
    private static void everyAck(
            final List<ReceivedPacket> answers,
            final List<String> failures,
            final String what,
            final java.util.function.Function<AckPacket, String> fault) {
        int acks = 0;
        for (final ReceivedPacket answer : answers) {
            final AckPacket ack = ackOf(answer);
            if (ack == null) {
                continue;
            }
            acks++;
            final String wrong = fault.apply(ack);
            if (wrong != null) {
                failures.add("the ACK " + answer + wrong);
                return;
            }
        }
        if (acks == 0) {
            throw new TestAbortedException("the DUT sent no ACK, so " + what + " can be judged");
        }
    }

    /**
     * Clause 8.1.4: on each path, each ACK of the DUT advances the cumulative PSN over the one before it (the first
     * over {@code initialPsn}) by at most {@code coalescing} packets. The stimulus is a run of in-order packets without
     * ACK_REQUEST, so every advance is a run of packets the DUT let wait for one ACK; a DUT that coalesces less (or
     * acknowledges every packet) passes. An ACK lost on the link would look like a long run: the links this runs on
     * (embedded, loopback UDP and raw Ethernet) do not lose, which is also the stance of {@code
     * AcknowledgementCase.ackCoalescingIsBounded}. No ACK that advances leaves nothing to judge.
     */
    static void ackCoalescing(
            final List<ReceivedPacket> answers,
            final long initialPsn,
            final int coalescing,
            final List<String> failures) {
        final java.util.Map<Integer, Long> previous = new java.util.TreeMap<>();
        int advances = 0;
        for (final ReceivedPacket answer : answers) {
            final AckPacket ack = ackOf(answer);
            if (ack == null) {
                continue;
            }
            final int path = ack.header().pathId();
            final long before = previous.getOrDefault(path, initialPsn);
            final long cumulative = ack.cumulativePsn();
            if (!Psn.precedes(before, cumulative)) {
                continue;
            }
            advances++;
            final long run = Psn.distance(before, cumulative);
            if (run > coalescing) {
                failures.add(String.format(
                        "the ACK %s of path %d advances the cumulative PSN from %d to %d: %d in-order packets"
                                + " acknowledged by one ACK; 8.1.4: an ACK follows at most the declared ACK coalescing"
                                + " count of %d such packets",
                        answer, path, before, cumulative, run, coalescing));
                return;
            }
            previous.put(path, cumulative);
        }
        if (advances == 0) {
            throw new TestAbortedException(
                    "the DUT sent no ACK that advances a cumulative PSN, so its ACK coalescing cannot be judged");
        }
    }

    /**
     * Clause 7.4.4: no READ_REQUEST of the DUT carries the sink handle of an earlier READ_REQUEST of another READ
     * (another MSN or stream; a retransmission repeats its own). A vector with this expectation posts its READs one
     * after the other, each finished before the next, so a device that hands a finished READ's handle out again
     * shows it.
     */
    static void distinctSinkHandles(final List<ReceivedPacket> sent, final List<String> failures) {
        final java.util.Map<Long, org.mrconf.wire.DataPacket> byHandle = new java.util.HashMap<>();
        int reads = 0;
        for (final ReceivedPacket packet : sent) {
            final org.mrconf.wire.DataPacket read = packet.data()
                    .filter(d -> d.opcode() == org.mrconf.wire.Opcode.READ_REQUEST)
                    .filter(d -> d.header().destinationConnectionId() == VectorReplay.TESTER_CONNECTION)
                    .orElse(null);
            if (read == null) {
                continue;
            }
            final org.mrconf.wire.DataPacket earlier = byHandle.putIfAbsent(read.sinkHandle(), read);
            if (earlier == null) {
                reads++;
            } else if (earlier.streamId() != read.streamId()
                    || earlier.messageSequenceNumber() != read.messageSequenceNumber()) {
                failures.add(String.format(
                        "the READ_REQUEST of stream %d, MSN %d carries sink handle 0x%08x, which the READ_REQUEST of"
                                + " stream %d, MSN %d carried before it; 7.4.4: a sink handle is never reused on a"
                                + " connection",
                        read.streamId(),
                        read.messageSequenceNumber(),
                        read.sinkHandle(),
                        earlier.streamId(),
                        earlier.messageSequenceNumber()));
                return;
            }
        }
        if (reads < 2) {
            throw new TestAbortedException("the DUT sent fewer than two READ_REQUESTs, so no reuse can be judged");
        }
    }

    /**
     * Clause 4.1.6: every datagram the DUT sent carries a right UDP checksum, or over IPv4 a zero one
     * ({@link org.mrconf.pcap.DecodedFrame#udpChecksumOk()}). On a virtual interface ({@code wireChecksums} false) a
     * DUT on the same host may leave its checksums to an offload, so a frame that shows only the pseudo-header sum
     * makes the vector INCONCLUSIVE: what a NIC would put on a wire cannot be seen there.
     */
    static void udpChecksums(
            final List<ReceivedPacket> sent, final boolean wireChecksums, final List<String> failures) {
        if (sent.isEmpty()) {
            throw new TestAbortedException("the DUT sent no datagram, so no UDP checksum can be judged");
        }
        org.mrconf.peer.SentUdpChecksums.firstWrong(sent, wireChecksums).ifPresent(packet -> {
            final int field = org.mrconf.peer.SentUdpChecksums.frameOf(packet).udpChecksumField();
            failures.add(String.format(
                    "%s carries the UDP checksum 0x%04x, which is wrong%s; 4.1.6: a sender computes the UDP checksum"
                            + " (over IPv4 it may send zero)",
                    packet, field, field == 0 ? " over IPv6" : ""));
        });
    }

    /** The ACK {@code answer} is, on the vector's connection, or null. */
    private static AckPacket ackOf(final ReceivedPacket answer) {
        return answer.ack()
                .filter(a -> a.header().destinationConnectionId() == VectorReplay.TESTER_CONNECTION)
                .orElse(null);
    }

    /** The NACK {@code answer} is, on the vector's connection, or null. */
    private static NackPacket nackOf(final ReceivedPacket answer) {
        return answer.nack()
                .filter(n -> n.header().destinationConnectionId() == VectorReplay.TESTER_CONNECTION)
                .orElse(null);
    }
}
