package org.mrconf.cases.congestion;

import java.time.Duration;
import java.util.List;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PathReceiveState;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;

/**
 * What the window cases of section 10 share: a warm-up that makes the DUT's smoothed RTT far longer than a measuring
 * round, so that no timer the case does not control fires while it withholds ACKs, and the ACKs that end a round,
 * with the CE counts the case chooses.
 */
final class WindowRounds {
    /** How late the tester acknowledges the warm-up packets: the DUT's smoothed RTT starts there. */
    static final Duration WARM_UP_RTT = Duration.ofMillis(400);

    /** The first data packets sent by the DUT as a first transmission on the testbed's connection. */
    static final PacketMatcher FRESH_DATA =
            PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION).firstTransmission();

    private WindowRounds() {}

    /**
     * Gives the DUT a smoothed RTT of about {@link #WARM_UP_RTT} on every path without waiting that long: two one-packet
     * WRITEs per path (work requests {@code firstWrId} on) are acknowledged at once, by the tester's receive thread so
     * that no first packet outlasts a short initial RTO, but echoing a timestamp {@link #WARM_UP_RTT} older than their
     * own, so their RTT samples (clause 6.6.1) and with them the retransmission timeouts are far longer than a
     * measuring round.
     *
     * @param clause the clause this sets up, for the messages
     * @return how many packets the tester acknowledged for the first time, each of which may have grown a window
     * @throws Inconclusive when every WRITE completed but some path carried none of them, so its timer keeps the
     *     initial RTO (spraying itself is judged by clause 10.2.1, not here)
     */
    static int warmUp(final Testbed testbed, final String clause, final long firstWrId) throws Exception {
        final WarmUp warmUp = warmUpSampling(
                testbed,
                clause,
                firstWrId,
                warmUpAges(testbed.connection().spec().paths()));
        if (!warmUp.unsampled().isEmpty()) {
            throw Inconclusive.because(String.format(
                    "set-up of %s: the DUT sent %d warm-up WRITEs without using paths %s, so those paths keep"
                            + " their initial RTO and their timers would fire during a measuring round",
                    clause, warmUp.acknowledged(), warmUp.unsampled()));
        }
        return warmUp.acknowledged();
    }

    /** {@link #WARM_UP_RTT} for each of {@code paths} paths: the echo ages of a warm-up that treats them alike. */
    static long[] warmUpAges(final int paths) {
        final long[] echoAgeNs = new long[paths];
        java.util.Arrays.fill(echoAgeNs, WARM_UP_RTT.toNanos());
        return echoAgeNs;
    }

    /**
     * What a warm-up did: how many packets the tester acknowledged for the first time (each of which may have grown a
     * window), and the paths that carried none of them, whose timers keep the initial RTO.
     */
    record WarmUp(int acknowledged, List<Integer> unsampled) {}

    /**
     * As {@link #warmUp(Testbed, String, long)}, each path's ACKs echoing a timestamp as much older than their own as
     * {@code echoAgeNs} gives for the path (so that paths get smoothed RTTs of their own), and leaving it to the caller
     * to judge paths that carried no warm-up packet. A DUT may legally keep to a few paths while its connection window (10.1.2) is what holds it back
     * (10.2.1 asks for spraying only once data is held back for lack of path window): a case that measures the
     * connection window itself then learns which paths its timers may fire on early, instead of giving up.
     */
    static WarmUp warmUpSampling(
            final Testbed testbed, final String clause, final long firstWrId, final long[] echoAgeNs) throws Exception {
        final int mark = testbed.peer().mark();
        final int paths = testbed.connection().spec().paths();
        final long[] wrIds = java.util.stream.LongStream.range(firstWrId, firstWrId + 2L * paths)
                .toArray();
        for (int path = 0; path < paths; path++) {
            testbed.connection().ackEchoAge(path, Duration.ofNanos(echoAgeNs[path]));
        }
        testbed.connection().autoAck(true);
        try {
            for (final long wrId : wrIds) {
                postShortWrite(testbed, wrId);
            }
            awaitCompletions(testbed, clause, wrIds);
        } finally {
            testbed.connection().autoAck(false);
            testbed.connection().ackEchoAge(Duration.ZERO);
        }
        List<Integer> idle = unsampled(testbed, mark, paths);
        if (idle.isEmpty()) {
            return new WarmUp(wrIds.length, idle);
        }
        // A DUT may keep new data on the paths with the most window while the others have room (clause 10.2.1 asks
        // for spraying only once data is held back): withhold ACKs, one more WRITE at a time, until its windows push
        // a packet onto every idle path; then acknowledge them all with the same old echo.
        final int heldMark = testbed.peer().mark();
        final long firstHeld = firstWrId + wrIds.length;
        final int cap = paths * 256 + paths;
        int held = 0;
        // ACKs are held for at most half the DUT's connection timeout (6.7.3), so that holding them never fails the
        // connection; a WRITE not sent within a quarter of it is taken as held back by the windows.
        final Duration timeout = testbed.profile().parameters().timers().connectionTimeout();
        final Duration stall = timeout.dividedBy(4).compareTo(Duration.ofSeconds(1)) < 0
                ? timeout.dividedBy(4)
                : Duration.ofSeconds(1);
        final long heldUntilNs = System.nanoTime() + timeout.dividedBy(2).toNanos();
        while (!idle.isEmpty() && held < cap && System.nanoTime() - heldUntilNs < 0) {
            postShortWrite(testbed, firstHeld + held);
            held++;
            try {
                // First transmissions only: a timer's resend of a held packet is no sign of window.
                testbed.peer().recorder().awaitCount(heldMark, WARM_UP_FRESH, held, stall);
            } catch (final AssertionError e) {
                // The connection window (10.1.2) holds the WRITE back while ACKs are withheld: no more paths will be
                // reached this way (undecided below, never a failure of the device).
                idle = unsampled(testbed, mark, paths);
                break;
            }
            idle = unsampled(testbed, mark, paths);
        }
        // The last WRITE may still have been held back by the windows: it goes out once the ACKs open them, and is
        // acknowledged at once, with the same old echo, like the first ones (auto-ACKs from before the held packets'
        // ACK, so that none arriving in between goes unacknowledged).
        for (int path = 0; path < paths; path++) {
            testbed.connection().ackEchoAge(path, Duration.ofNanos(echoAgeNs[path]));
        }
        testbed.connection().autoAck(true);
        try {
            acknowledge(testbed, heldMark, new int[paths], false, echoAgeNs, everyPath(paths));
            awaitCompletions(
                    testbed,
                    clause,
                    java.util.stream.LongStream.range(firstHeld, firstHeld + held)
                            .toArray());
        } finally {
            testbed.connection().autoAck(false);
            testbed.connection().ackEchoAge(Duration.ZERO);
        }
        return new WarmUp(wrIds.length + held, idle);
    }

    /** Every data packet of the testbed's connection: what the tester acknowledges. */
    static final PacketMatcher DATA = PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION);

    private static final PacketMatcher WARM_UP_DATA =
            PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION).messageLength(64);

    private static final PacketMatcher WARM_UP_FRESH = WARM_UP_DATA.firstTransmission();

    /**
     * Posts WRITEs of a whole region each on stream 0, work requests {@code firstWrId} on, enough for at least
     * {@code packets} packets of the connection's MTU: data a window count cannot run out of.
     */
    static long[] postLongWrites(final Testbed testbed, final long packets, final long firstWrId) throws Exception {
        final int payload = testbed.connection().maxPayload(org.mrconf.wire.Opcode.WRITE);
        final int perWrite = (Testbed.REGION + payload - 1) / payload;
        final int writes = (int) ((packets + perWrite - 1) / perWrite);
        for (int i = 0; i < writes; i++) {
            testbed.control()
                    .postWrite(
                            new WorkRequest(
                                    Testbed.DUT_CONNECTION,
                                    0,
                                    firstWrId + i,
                                    testbed.key(),
                                    Testbed.BASE,
                                    Testbed.REGION),
                            0x1000,
                            0x77);
        }
        return java.util.stream.LongStream.range(firstWrId, firstWrId + writes).toArray();
    }

    private static void postShortWrite(final Testbed testbed, final long wrId) throws Exception {
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE, 64),
                        0x1000,
                        0x77);
    }

    static void awaitCompletions(final Testbed testbed, final String clause, final long[] wrIds) throws Exception {
        final java.util.Set<Long> completed = new java.util.HashSet<>();
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (completed.size() < wrIds.length) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(String.format(
                        "set-up of %s: the %d WRITEs of the warm-up did not all complete within %s although"
                                + " the tester acknowledged every packet (completed: %d)",
                        clause, wrIds.length, Testbed.WAIT, completed.size()));
            }
            for (final var completion : testbed.control().pollCompletions(64, Duration.ofMillis(10))) {
                completed.add(completion.wrId());
            }
        }
    }

    /** The paths that carried no warm-up packet since {@code mark}. */
    private static List<Integer> unsampled(final Testbed testbed, final int mark, final int paths) {
        final boolean[] sampled = new boolean[paths];
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, WARM_UP_DATA)) {
            sampled[packet.data().orElseThrow().header().pathId()] = true;
        }
        final List<Integer> idle = new java.util.ArrayList<>();
        for (int path = 0; path < paths; path++) {
            if (!sampled[path]) {
                idle.add(path);
            }
        }
        return idle;
    }

    /**
     * Records every data packet since {@code mark} and acknowledges each path that carried one with one ACK echoing its latest
     * timestamp and reporting {@code ce[path]} CE marks; with {@code split}, path 0 gets two ACKs back to back, each
     * reporting the CE count.
     */
    static void acknowledgeAll(final Testbed testbed, final int mark, final int[] ce, final boolean split)
            throws Exception {
        acknowledgeAll(testbed, mark, ce, split, 0);
    }

    /**
     * As {@link #acknowledgeAll(Testbed, int, int[], boolean)}, each ACK echoing a timestamp {@code echoAgeNs} older
     * than the latest, so that the DUT's RTT samples (and its smoothed RTT) stay at least that long.
     */
    static void acknowledgeAll(
            final Testbed testbed, final int mark, final int[] ce, final boolean split, final long echoAgeNs)
            throws Exception {
        final long[] ages = new long[ce.length];
        java.util.Arrays.fill(ages, echoAgeNs);
        acknowledge(testbed, mark, ce, split, ages, everyPath(ce.length));
    }

    /**
     * As {@link #acknowledgeAll(Testbed, int, int[], boolean, long)}, with an echo age per path, sending ACKs only on
     * the paths {@code acknowledged} marks: the others' packets are recorded as received but stay unacknowledged.
     */
    static void acknowledge(
            final Testbed testbed,
            final int mark,
            final int[] ce,
            final boolean split,
            final long[] echoAgeNs,
            final boolean[] acknowledged)
            throws Exception {
        acknowledge(testbed, testbed.peer().recorder().matching(mark, DATA), ce, split, echoAgeNs, acknowledged);
    }

    /**
     * As {@link #acknowledge(Testbed, int, int[], boolean, long[], boolean[])}, for exactly {@code packets} (the
     * connection's data packets the tester received, in order): a packet that arrives meanwhile is neither recorded as
     * received nor acknowledged, so the caller knows what the ACKs cover.
     */
    static void acknowledge(
            final Testbed testbed,
            final List<ReceivedPacket> packets,
            final int[] ce,
            final boolean split,
            final long[] echoAgeNs,
            final boolean[] acknowledged)
            throws Exception {
        final int paths = ce.length;
        final long[] echo = new long[paths];
        final boolean[] carried = new boolean[paths];
        final long[] half = new long[paths];
        int[] count = new int[paths];
        for (final ReceivedPacket packet : packets) {
            final PathReceiveState.Arrival arrival = testbed.connection().onReceived(packet);
            final DataPacket data = packet.data().orElseThrow();
            final int path = data.header().pathId();
            echo[path] = (data.transmitTimestamp() - echoAgeNs[path]) & 0xFFFF_FFFFL;
            carried[path] = true;
            if (arrival == PathReceiveState.Arrival.NEW && ++count[path] == 1) {
                half[path] = data.header().psn();
            }
        }
        for (int path = 0; path < paths; path++) {
            // A path that carried none of these packets has no timestamp to echo: an ACK echoing 0 would hand the DUT
            // an RTT sample of up to 2^32 ns and drift that path's smoothed RTT, which the congestion cases read.
            if (!acknowledged[path] || !carried[path]) {
                continue;
            }
            if (split && path == 0 && ce[path] > 0) {
                // A first ACK of part of the path, then the full one: two CE reports within microseconds.
                final PacketBuilder partial = PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .cumulativePsn(half[path] + Math.max(1, count[path] / 2))
                        .echoedTimestamp(echo[path])
                        .ceCount(ce[path]);
                testbed.peer().send(partial);
            }
            testbed.peer().send(testbed.connection().ackFor(path, echo[path]).ceCount(ce[path]));
        }
    }

    /**
     * Counts the new PSNs the DUT sent since {@code mark} ({@link #newPsnsAtLeast}), as {@link #countInFlight(java.util.function.IntSupplier,
     * int, int, Duration)} does.
     */
    static int countInFlight(
            final Testbed testbed, final int mark, final int atLeast, final int bound, final Duration quiet)
            throws InterruptedException {
        return countInFlight(
                () -> newPsnsAtLeast(testbed.peer().recorder().matching(mark, FRESH_DATA)), atLeast, bound, quiet);
    }

    /**
     * Reads {@code inFlight} until it is more than {@code bound}, or at least {@code atLeast} and unchanged for
     * {@link TesterMessages#STALL}, or unchanged for {@code quiet} net of the host's longest stall in it ({@link
     * org.mrconf.peer.StallAllowance#quietFor}), or {@link Testbed#WAIT} ends, and returns its last value. A DUT that
     * exceeds a window does so at once, in the same burst, so the stall ends the count in time.
     */
    static int countInFlight(
            final java.util.function.IntSupplier inFlight, final int atLeast, final int bound, final Duration quiet)
            throws InterruptedException {
        // The quiet counts only net of the host's longest stall in it: a DUT the host held back did not stop.
        final org.mrconf.peer.StallMonitor stalls = org.mrconf.cases.DutSession.stalls();
        final long startNs = stalls.nowNs();
        long changedNs = startNs;
        int seen = -1;
        while (true) {
            final long nowNs = stalls.nowNs();
            final int now = inFlight.getAsInt();
            if (now != seen) {
                changedNs = nowNs;
            } else if (now >= atLeast) {
                return now;
            }
            if (now > bound
                    || org.mrconf.peer.StallAllowance.quietFor(stalls, changedNs, nowNs, quiet.toNanos())
                    || nowNs - startNs >= Testbed.WAIT.toNanos()) {
                return now;
            }
            seen = now;
            Thread.sleep(TesterMessages.STALL.toMillis());
        }
    }

    /**
     * The fewest new PSNs the DUT can have sent, given {@code packets}: on each path, every PSN from the lowest to the
     * highest first transmission seen (a path's new PSNs are consecutive, and only data and READ packets take one,
     * clause 6.1.1), so a packet the link lost or duplicated between two that arrived changes nothing.
     */
    static int newPsnsAtLeast(final List<ReceivedPacket> packets) {
        final java.util.Map<Integer, long[]> span = new java.util.HashMap<>();
        for (final ReceivedPacket packet : packets) {
            final var header = packet.data().orElseThrow().header();
            final long[] range = span.computeIfAbsent(header.pathId(), p -> new long[] {header.psn(), 0, 0});
            // Offsets from the path's first PSN seen, in serial arithmetic (clause 6.1.2), so a wrap changes nothing.
            final long offset = (int) (header.psn() - range[0]);
            range[1] = Math.min(range[1], offset);
            range[2] = Math.max(range[2], offset);
        }
        long total = 0;
        for (final long[] range : span.values()) {
            total += range[2] - range[1] + 1;
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    /**
     * How many different PSNs {@code packets} carry, path by path: fewer than {@link #newPsnsAtLeast} counts where one
     * inside their span is missing.
     */
    static int distinctPsns(final List<ReceivedPacket> packets) {
        final java.util.Set<Long> seen = new java.util.HashSet<>();
        for (final ReceivedPacket packet : packets) {
            final var header = packet.data().orElseThrow().header();
            seen.add(((long) header.pathId() << 32) | header.psn());
        }
        return seen.size();
    }

    /** The paths the DUT retransmitted on since {@code mark}: their timers fired (no ACK came to show a gap). */
    static java.util.Set<Integer> retransmittedOn(final Testbed testbed, final int mark) {
        final java.util.Set<Integer> paths = new java.util.TreeSet<>();
        for (final ReceivedPacket packet : testbed.peer()
                .recorder()
                .matching(mark, PacketMatcher.expect().data().retransmission())) {
            paths.add(packet.data().orElseThrow().header().pathId());
        }
        return paths;
    }

    /**
     * The packets the halved path windows allow in all, counting a path whose timer fired since {@code mark} as one
     * packet (its window may have collapsed, 10.1.3) and every other as {@code halvedPathWindow}.
     */
    static int roomAfterTimers(final Testbed testbed, final int mark, final int halvedPathWindow) {
        final int paths = testbed.connection().spec().paths();
        final int timedOut = retransmittedOn(testbed, mark).size();
        return (paths - timedOut) * halvedPathWindow + timedOut;
    }

    static boolean[] everyPath(final int paths) {
        final boolean[] all = new boolean[paths];
        java.util.Arrays.fill(all, true);
        return all;
    }
}
