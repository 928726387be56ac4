package org.mrconf.cases.congestion;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.mrconf.cases.SmoothedRttBounds;
import org.mrconf.cases.Testbed;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SentPacket;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.Packet;

/**
 * What the tester's own ACKs tell of a path's smoothed RTT, for a device whose agent does not report it (the {@code
 * srttNs} of {@code path_status} is optional). Each ACK the DUT takes in gives it one RTT sample, its clock then less
 * the echoed timestamp (6.6.1), and its smoothed RTT follows RFC 6298 (alpha 1/8), which is monotone in each sample:
 * the recursion run on upper bounds of the samples, in the order the ACKs were sent, bounds it from above, and it is
 * never below the smallest sample. A sample is bounded on both sides from the wire:
 *
 * <ul>
 *   <li>below by the age the tester gave the echo: the DUT took the ACK in after it stamped the packet whose timestamp
 *       the ACK echoes, since the tester only learnt that timestamp from the packet;
 *   <li>above by when the DUT must have taken the ACK in, on the DUT's clock, less the echo. The tester knows an ACK
 *       that was the first to acknowledge a packet was taken in by a <em>checkpoint</em>: once it has seen every WRITE
 *       it posted complete, or once {@code path_status} reports the path's oldest unacknowledged PSN past that packet
 *       (the same account the case takes the path's health from). Its link delivers its ACKs in the order sent, so
 *       every ACK sent before that one was taken in too, as the other cases assume when they take a completion as
 *       proof that an ACK was taken in ({@code TimerCase}). That tester time becomes a DUT time through the clocks'
 *       offset, which a WRITE bounds: the DUT stamped its first packet after the post reached it, so the offset is at
 *       most that timestamp less the post's tester time.
 * </ul>
 *
 * <p>The recursion takes every ACK of the path as a sample, as clause 6.6.1 and Table 5-13 ask (a late ACK's echo
 * counts too); the bound is the larger of that and the same recursion over only the ACKs that acknowledged something
 * new, so that a device sampling only those is not wronged either. The slack of a sample's bound is only the latency of
 * a post and of a checkpoint, plus the time from the ACK to its checkpoint; a host stall lengthens it (the bound stays
 * sound, only looser). Timestamps are 32-bit nanoseconds (about 4.3 s): each is unwrapped against the tester's clock by
 * its packet's arrival.
 */
final class EchoedRtt {
    private final Testbed testbed;
    private final long[] echoAgeNs;
    private final int fromMark;
    private final long fromNs;
    private final List<Checkpoint> checkpoints = new ArrayList<>();
    /** Tester time just before a post, and the DUT packets of what it posted (each stamped after it arrived). */
    private final List<Post> posts = new ArrayList<>();

    private record Post(long postedNs, List<ReceivedPacket> packets) {}

    /**
     * A tester time by which the DUT had taken in every ACK that was the first to acknowledge a PSN of {@code path}
     * before {@code psn}; of every path and PSN when {@code path} is -1 (every WRITE posted had completed).
     */
    private record Checkpoint(long atNs, int path, long psn) {
        /** Whether {@code ack} is one this checkpoint shows taken in (when sent by then). */
        boolean shows(final Ack ack) {
            if (ack.sentNs() > atNs || !ack.progress()) {
                return false;
            }
            return path < 0
                    || ack.packet().header().pathId() == path
                            && ack.belowCumulative()
                            && Psn.atOrBefore(ack.packet().header().psn(), psn);
        }
    }

    private EchoedRtt(final Testbed testbed, final long[] echoAgeNs) {
        this.testbed = testbed;
        this.echoAgeNs = echoAgeNs.clone();
        this.fromMark = testbed.peer().mark();
        this.fromNs = testbed.peer().link().nowNs();
    }

    /** Starts watching the testbed's ACKs, each path's echoing a timestamp {@code echoAgeNs[path]} old. */
    static EchoedRtt watch(final Testbed testbed, final long[] echoAgeNs) {
        return new EchoedRtt(testbed, echoAgeNs);
    }

    /** The tester's clock, the one its packets are stamped with. */
    long nowNs() {
        return testbed.peer().link().nowNs();
    }

    /** Marks now as a moment by which the tester has seen every WRITE it posted complete. */
    void checkpoint() {
        checkpoints.add(new Checkpoint(nowNs(), -1, 0));
    }

    /**
     * Waits, up to {@code wait}, until {@code path_status} reports {@code path}'s oldest unacknowledged PSN at or past
     * the cumulative PSN the tester last acknowledged there, and marks then as a checkpoint of the ACKs that first
     * acknowledged the PSNs before it. Nothing is marked when the agent does not say so in time.
     */
    void awaitTakenIn(final int path, final Duration wait) throws Exception {
        final long cumulative = testbed.connection().receiveState(path).cumulativePsn();
        final long deadline = nowNs() + wait.toNanos();
        while (true) {
            final var state = testbed.control().pathStatus(Testbed.DUT_CONNECTION).stream()
                    .flatMap(List::stream)
                    .filter(p -> p.pathId() == path)
                    .findFirst();
            final long now = nowNs();
            if (state.isEmpty()) {
                return;
            }
            final long oldest = state.get().oldestUnackedPsn();
            if (Psn.atOrBefore(cumulative, oldest)) {
                checkpoints.add(new Checkpoint(now, path, oldest));
                return;
            }
            if (now - deadline > 0) {
                return;
            }
            Thread.sleep(1);
        }
    }

    /** Notes WRITEs posted no earlier than {@code postedNs} (tester clock) whose packets are {@code packets}. */
    void posted(final long postedNs, final List<ReceivedPacket> packets) {
        posts.add(new Post(postedNs, List.copyOf(packets)));
    }

    /** When the watch began, on the tester's clock. */
    long startedNs() {
        return fromNs;
    }

    /**
     * The least a path's smoothed RTT can be: the age of the echoes its ACKs carried, or {@link Long#MAX_VALUE} when
     * the tester sent it none (it then has no sample, and no smoothed RTT).
     */
    long lowestNs(final int path) {
        return ackedSince(path, fromNs - 1) ? echoAgeNs[path] : Long.MAX_VALUE;
    }

    /**
     * The upper bound of a path's smoothed RTT so far.
     *
     * @param highestNs at most this (RFC 6298 on the samples' upper bounds), or -1 when some sample of the path cannot
     *                  be bounded; {@link #why} then says why
     * @param why       why there is no upper bound, or null
     */
    record Bounds(long highestNs, String why) {
        boolean bounded() {
            return highestNs >= 0;
        }
    }

    /** The upper bound of {@code path}'s smoothed RTT from every ACK the tester has sent on it since {@link #watch}. */
    Bounds path(final int path) {
        final List<ReceivedPacket> dut = testbed.peer().recorder().matching(fromMark, WindowRounds.DATA);
        if (dut.isEmpty() || posts.isEmpty()) {
            return new Bounds(-1, "the tester has no WRITE of its own to relate the two clocks by");
        }
        final Unwrap unwrap = new Unwrap(dut.get(0));
        long offsetNs = Long.MAX_VALUE;
        for (final Post post : posts) {
            for (final ReceivedPacket packet : post.packets()) {
                offsetNs = Math.min(offsetNs, unwrap.dutNs(packet) - post.postedNs());
            }
        }
        if (offsetNs == Long.MAX_VALUE) {
            return new Bounds(-1, "no packet of the tester's WRITEs arrived to relate the two clocks by");
        }
        final List<Ack> acks = acks(dut);
        // For each checkpoint the last ACK it shows taken in: every ACK sent before it was taken in too.
        final int[] lastShown = new int[checkpoints.size()];
        for (int c = 0; c < checkpoints.size(); c++) {
            lastShown[c] = -1;
            for (int i = 0; i < acks.size(); i++) {
                if (checkpoints.get(c).shows(acks.get(i))) {
                    lastShown[c] = i;
                }
            }
        }
        final java.util.Map<Long, List<ReceivedPacket>> byStamp = new java.util.HashMap<>();
        for (final ReceivedPacket packet : dut) {
            final var data = packet.data().orElseThrow();
            byStamp.computeIfAbsent(
                            ((long) data.header().pathId() << 32) | data.transmitTimestamp(), k -> new ArrayList<>())
                    .add(packet);
        }
        // Each sample is the most it can have been (the ACK was taken in by the checkpoint), and SRTT rises with every
        // sample, so the SRTT of these samples is the most the DUT's can be.
        final SmoothedRttBounds everyAck = new SmoothedRttBounds();
        final SmoothedRttBounds newsOnly = new SmoothedRttBounds();
        for (int i = 0; i < acks.size(); i++) {
            final Ack ack = acks.get(i);
            if (ack.packet().header().pathId() != path) {
                continue;
            }
            final ReceivedPacket echoed = echoedPacket(byStamp, ack);
            if (echoed == null) {
                return new Bounds(
                        -1,
                        String.format(
                                "the tester's ACK of path %d sent %d ms into the case echoes no timestamp of a"
                                        + " packet it received",
                                path, (ack.sentNs() - fromNs) / 1_000_000));
            }
            long takenInByNs = Long.MAX_VALUE;
            for (int c = 0; c < checkpoints.size(); c++) {
                if (lastShown[c] >= i) {
                    takenInByNs = Math.min(takenInByNs, checkpoints.get(c).atNs());
                }
            }
            if (takenInByNs == Long.MAX_VALUE) {
                return new Bounds(
                        -1,
                        String.format(
                                "no completion or path_status the tester saw shows when the DUT took in its ACK"
                                        + " of path %d sent %d ms into the case",
                                path, (ack.sentNs() - fromNs) / 1_000_000));
            }
            // On the DUT's clock: taken in by the checkpoint plus the clocks' offset; the echo was the packet's
            // timestamp less the path's echo age.
            final long echoNs = unwrap.dutNs(echoed) - echoAgeNs[path];
            final long sampleNs = takenInByNs + offsetNs - echoNs;
            everyAck.sample(sampleNs, sampleNs);
            if (ack.progress()) {
                newsOnly.sample(sampleNs, sampleNs);
            }
        }
        if (!everyAck.sampled()) {
            return new Bounds(-1, "the tester sent no ACK on path " + path + ", so it has no RTT sample");
        }
        return new Bounds(Math.max(ceiling(everyAck), ceiling(newsOnly)), null);
    }

    /** Whether the tester has sent any ACK on {@code path} after tester time {@code afterNs}. */
    boolean ackedSince(final int path, final long afterNs) {
        return sent().stream()
                .filter(p -> p.atNs() > afterNs)
                .map(EchoedRtt::ackOf)
                .anyMatch(ack -> ack != null && ack.header().pathId() == path);
    }

    /**
     * One ACK the tester sent on the testbed's connection, whether it acknowledged a PSN for the first time, and
     * whether one such PSN lay before its cumulative PSN.
     */
    private record Ack(long sentNs, AckPacket packet, boolean progress, boolean belowCumulative) {}

    /** The tester's ACKs on the DUT's connection since {@link #watch}, in the order sent. */
    private List<Ack> acks(final List<ReceivedPacket> dut) {
        final List<SentPacket> sent = new ArrayList<>(sent());
        sent.sort(Comparator.comparingLong(SentPacket::atNs));
        final java.util.Map<Integer, Coverage> coverage = new java.util.HashMap<>();
        final List<Ack> acks = new ArrayList<>();
        for (final SentPacket packet : sent) {
            final AckPacket ack = ackOf(packet);
            if (ack == null || packet.atNs() < fromNs) {
                continue;
            }
            final int path = ack.header().pathId();
            final Coverage covered = coverage.computeIfAbsent(path, p -> new Coverage(firstPsn(dut, p)));
            final int progress = covered.add(ack);
            acks.add(new Ack(packet.atNs(), ack, progress != Coverage.NOTHING, progress == Coverage.BELOW_CUMULATIVE));
        }
        return acks;
    }

    private List<SentPacket> sent() {
        final List<SentPacket> all = new ArrayList<>(testbed.peer().sender().transmissions());
        all.addAll(testbed.peer().sender().controlTransmissions());
        return all;
    }

    private static AckPacket ackOf(final SentPacket packet) {
        try {
            return Packet.fromBytes(packet.bytes()) instanceof AckPacket ack
                            && ack.header().destinationConnectionId() == Testbed.DUT_CONNECTION
                    ? ack
                    : null;
        } catch (final RuntimeException e) {
            return null; // not a well-formed packet of the tester's own: not an ACK the DUT samples
        }
    }

    /** The lowest PSN the DUT sent on {@code path} since the watch began: what the first ACK can acknowledge from. */
    private static long firstPsn(final List<ReceivedPacket> dut, final int path) {
        return dut.stream()
                .map(p -> p.data().orElseThrow().header())
                .filter(h -> h.pathId() == path)
                .map(h -> h.psn())
                .reduce((a, b) -> Psn.precedes(b, a) ? b : a)
                .orElse(0L);
    }

    /**
     * The latest packet of the ACK's path received before it was sent whose timestamp it echoes, or null; {@code
     * byStamp} holds the DUT's packets by path and timestamp.
     */
    private ReceivedPacket echoedPacket(final java.util.Map<Long, List<ReceivedPacket>> byStamp, final Ack ack) {
        final int path = ack.packet().header().pathId();
        final long stamp = Psn.add(ack.packet().echoedTimestamp(), echoAgeNs[path]);
        ReceivedPacket echoed = null;
        for (final ReceivedPacket packet : byStamp.getOrDefault(((long) path << 32) | stamp, List.of())) {
            if (packet.receivedNs() <= ack.sentNs()) {
                echoed = packet;
            }
        }
        return echoed;
    }

    /** RFC 6298's smoothed RTT (alpha 1/8) of the samples given so far, in order; 0 before any. */
    /** The largest SRTT {@code smoothed} allows, in whole nanoseconds; 0 before any sample. */
    private static long ceiling(final SmoothedRttBounds smoothed) {
        return (long) Math.ceil(Math.max(0, smoothed.srttHighNs()));
    }

    /** The PSNs of one path that the tester's ACKs have acknowledged so far. */
    private static final class Coverage {
        private final long base;
        private long cumulative;
        /** SACKed offsets from {@link #base} at or after the cumulative PSN. */
        private final TreeSet<Long> sacked = new TreeSet<>();

        Coverage(final long base) {
            this.base = base;
            this.cumulative = 0;
        }

        /** The ACK acknowledged no PSN for the first time. */
        static final int NOTHING = 0;
        /** It acknowledged some PSN for the first time by a SACK bit only. */
        static final int BY_SACK = 1;
        /** It acknowledged a PSN before its cumulative PSN for the first time. */
        static final int BELOW_CUMULATIVE = 2;

        /** Takes in an ACK; what it acknowledged that no earlier ACK had. */
        int add(final AckPacket ack) {
            final long cum = Psn.distance(base, ack.header().psn());
            int progress = NOTHING;
            if (cum > cumulative) {
                final long alreadySacked = sacked.subSet(cumulative, cum).size();
                progress = cum - cumulative > alreadySacked ? BELOW_CUMULATIVE : NOTHING;
                sacked.headSet(cum).clear();
                cumulative = cum;
            }
            for (final int bit : ack.sackBits()) {
                final long offset = cum + bit;
                if (bit > 0 && offset >= cumulative && sacked.add(offset) && progress == NOTHING) {
                    progress = BY_SACK;
                }
            }
            return progress;
        }
    }

    /** DUT timestamps unwrapped from 32 bits to a line, by their packets' arrival on the tester's clock. */
    private static final class Unwrap {
        private final long baseStamp;
        private final long baseReceivedNs;

        Unwrap(final ReceivedPacket base) {
            this.baseStamp = base.data().orElseThrow().transmitTimestamp();
            this.baseReceivedNs = base.receivedNs();
        }

        /**
         * The packet's timestamp on a DUT clock that does not wrap: the base's timestamp plus the one difference,
         * modulo 2^32, nearest to the difference of their arrival times (a link's delays are far below 2^31 ns).
         */
        long dutNs(final ReceivedPacket packet) {
            final long byTester = packet.receivedNs() - baseReceivedNs;
            final long modulo = Psn.MASK + 1;
            final long residue = Math.floorMod(packet.data().orElseThrow().transmitTimestamp() - baseStamp, modulo);
            final long turns = Math.round((double) (byTester - residue) / modulo);
            return baseStamp + residue + turns * modulo;
        }
    }
}
