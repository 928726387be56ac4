package org.mrconf.cases.congestion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.mrconf.cases.Testbed;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SentPacket;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.Packet;

/**
 * What the tester's own ACKs tell of a path's smoothed RTT, for a device whose agent does not report it (the {@code
 * srttNs} of {@code path_status} is optional). Each ACK the DUT takes in gives it one RTT sample, its clock then less the
 * echoed timestamp (6.6.1), and a smoothed RTT of RFC 6298 is a weighted mean of its samples, so it lies between the
 * smallest and the largest of them. A sample is bounded on both sides from the wire:
 *
 * <ul>
 *   <li>below by the age the tester gave the echo: the DUT took the ACK in after it stamped the packet whose timestamp
 *       the ACK echoes, since the tester only learnt that timestamp from the packet;
 *   <li>above by when the DUT must have taken the ACK in, on the DUT's clock, less the echo. The tester knows the ACK
 *       was taken in once it has seen the completion of a WRITE that ACK was the first to acknowledge a packet of (a
 *       <em>checkpoint</em>: every WRITE posted so far has completed), and the tester's link delivers its ACKs in the
 *       order sent, as the other cases assume when they take a completion as proof that an ACK was taken in ({@code
 *       TimerCase}). That tester time becomes a DUT time through the clocks' offset, which a WRITE bounds: the DUT
 *       stamped its first packet after the post reached it, so the offset is at most that timestamp less the post's
 *       tester time.
 * </ul>
 *
 * <p>The slack of an upper bound is only the latency of a post and of a completion poll, plus the time since the ACK
 * until the checkpoint; a host stall lengthens it (the bound stays sound, only looser). Timestamps are 32-bit
 * nanoseconds (about 4.3 s): each is unwrapped against the tester's clock by its packet's arrival.
 */
final class EchoedRtt {
    private final Testbed testbed;
    private final long[] echoAgeNs;
    private final int fromMark;
    private final long fromNs;
    private final List<Long> checkpointsNs = new ArrayList<>();
    /** Tester time just before a post, and the DUT packets of what it posted (each stamped after it arrived). */
    private final List<Post> posts = new ArrayList<>();

    private record Post(long postedNs, List<ReceivedPacket> packets) {}

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
        checkpointsNs.add(nowNs());
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
     * The least a path's smoothed RTT can be: the age of the echoes its ACKs carried, or {@link Long#MAX_VALUE} when the
     * tester sent it none (it then has no sample, and no smoothed RTT).
     */
    long lowestNs(final int path) {
        return ackedSince(path, fromNs - 1) ? echoAgeNs[path] : Long.MAX_VALUE;
    }

    /**
     * The upper bound of a path's smoothed RTT so far.
     *
     * @param highestNs at most this, or -1 when some sample of the path cannot be bounded; {@link #why} then says why
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
        final int[] lastProgressBefore = new int[checkpointsNs.size()];
        for (int c = 0; c < checkpointsNs.size(); c++) {
            lastProgressBefore[c] = -1;
            for (int i = 0; i < acks.size() && acks.get(i).sentNs() <= checkpointsNs.get(c); i++) {
                if (acks.get(i).progress()) {
                    lastProgressBefore[c] = i;
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
        long highest = 0;
        int sampled = 0;
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
                                "the tester's ACK of path %d sent %d ms into the case echoes no timestamp of a packet it"
                                        + " received",
                                path, (ack.sentNs() - fromNs) / 1_000_000));
            }
            long takenInByNs = -1;
            for (int c = 0; c < checkpointsNs.size() && takenInByNs < 0; c++) {
                if (lastProgressBefore[c] >= i) {
                    takenInByNs = checkpointsNs.get(c);
                }
            }
            if (takenInByNs < 0) {
                return new Bounds(
                        -1,
                        String.format(
                                "no completion the tester saw shows when the DUT took in its ACK of path %d sent %d ms into"
                                        + " the case",
                                path, (ack.sentNs() - fromNs) / 1_000_000));
            }
            // On the DUT's clock: taken in by the checkpoint plus the clocks' offset; the echo was the packet's
            // timestamp less the path's echo age.
            final long echoNs = unwrap.dutNs(echoed) - echoAgeNs[path];
            highest = Math.max(highest, takenInByNs + offsetNs - echoNs);
            sampled++;
        }
        if (sampled == 0) {
            return new Bounds(-1, "the tester sent no ACK on path " + path + ", so it has no RTT sample");
        }
        return new Bounds(highest, null);
    }

    /** Whether the tester has sent any ACK on {@code path} after tester time {@code afterNs}. */
    boolean ackedSince(final int path, final long afterNs) {
        return sent().stream()
                .filter(p -> p.atNs() > afterNs)
                .map(EchoedRtt::ackOf)
                .anyMatch(ack -> ack != null && ack.header().pathId() == path);
    }

    /** One ACK the tester sent on the testbed's connection, and whether it acknowledged a PSN for the first time. */
    private record Ack(long sentNs, AckPacket packet, boolean progress) {}

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
            acks.add(new Ack(packet.atNs(), ack, covered.add(ack)));
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

        /** Takes in an ACK; whether it acknowledged a PSN no earlier ACK had. */
        boolean add(final AckPacket ack) {
            final long cum = Psn.distance(base, ack.header().psn());
            boolean progress = false;
            if (cum > cumulative) {
                final long alreadySacked = sacked.subSet(cumulative, cum).size();
                progress = cum - cumulative > alreadySacked;
                sacked.headSet(cum).clear();
                cumulative = cum;
            }
            for (final int bit : ack.sackBits()) {
                final long offset = cum + bit;
                if (bit > 0 && offset >= cumulative && sacked.add(offset)) {
                    progress = true;
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
