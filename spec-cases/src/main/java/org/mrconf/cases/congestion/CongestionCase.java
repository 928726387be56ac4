package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowRounds.WARM_UP_RTT;
import static org.mrconf.cases.congestion.WindowRounds.acknowledgeAll;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WireLink;
import org.mrconf.dut.WorkRequest;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * Congestion signals and the reaction to them (spec sections 8.2.2, 8.2.3, 10.1 and 10.2), observed from the tester.
 * As receiver the DUT counts the CE marks the tester puts on its packets per path and carries a rate hint in every
 * ACK; as sender it reacts to the CE counts and rate hints in the tester's ACKs: its per-path windows, measured as
 * the packets it puts in flight while the tester withholds ACKs, shrink by the declared factor at most once per
 * smoothed RTT and grow by about one packet per RTT; its rate keeps to the hint; and new data is sprayed over every
 * healthy path. The tester first acknowledges one packet late, so that the DUT's smoothed RTT (and with it its
 * retransmission timeout) is far longer than a measuring round, and no timer the case does not control fires.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Congestion control")
class CongestionCase {
    /**
     * How long after the decrease the second CE reports may come and still be "within one smoothed RTT": the warm-up
     * gives the DUT a smoothed RTT of about {@link WindowRounds#WARM_UP_RTT}, and every later ACK of the case echoes a timestamp
     * that much older than the latest, so every sample (6.6.1) is at least that long and the smoothed RTT stays above
     * it; 0.7 of it leaves a margin for a DUT that samples differently.
     */
    /** The smallest window in which a halving stands out from the one packet the case allows either way. */
    private static final int MIN_JUDGED_WINDOW = 8;

    /** Rounds without CE the case gives the windows to grow to {@link #MIN_JUDGED_WINDOW} (one packet per round). */
    private static final int MAX_GROWTH_ROUNDS = 16;

    private static final Duration WITHIN_ONE_SRTT = WARM_UP_RTT.multipliedBy(7).dividedBy(10);

    @Test
    @DisplayName("each ACK counts the CE-marked packets of its own path since the previous ACK of that path")
    @Verifies("8.2.2")
    void ceCountPerPath(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.CONGESTION);
        final WireLink link = testbed.peer().link();
        if (!link.can(WireLink.Capability.SEND_ECN)) {
            throw Inconclusive.because("the wire link cannot set the ECN field, so no CE mark can reach the DUT");
        }
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();
        final boolean[] marked = {true, false, true, true, false, true};
        int ce = 0;
        for (int i = 0; i < marked.length; i++) {
            // Path 0 carries the marks; path 1's packets, interleaved, carry none.
            send(testbed, 0, i, marked[i] ? Ecn.CE : Ecn.ECT_0);
            send(testbed, 1, i, Ecn.ECT_0);
            ce += marked[i] ? 1 : 0;
        }
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .path(0)
                                .covers(testbed.connection().nextPsn(0) - 1),
                        Testbed.WAIT);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .path(1)
                                .covers(testbed.connection().nextPsn(1) - 1),
                        Testbed.WAIT);
        testbed.peer().recorder().awaitQuiet(Duration.ofMillis(50), Testbed.WAIT);
        final int path0 = ceSum(testbed, mark, 0);
        final int path1 = ceSum(testbed, mark, 1);
        final long counted = testbed.grew(before, DutCounters.RX_CE_MARKED);
        if (path0 == 0 && path1 == 0 && counted == 0) {
            throw Inconclusive.because(
                    "the DUT neither counted (" + DutCounters.RX_CE_MARKED + ") nor reported any of the " + ce
                            + " CE marks the tester sent: the marks did not reach it through this link, or it ignores them");
        }
        assertThat(path0)
                .as("8.2.2: the CE counts of path 0's ACKs add up to the marked packets of path 0")
                .isEqualTo(ce);
        assertThat(path1)
                .as("8.2.2: path 1 received no CE-marked packet, so its ACKs report none")
                .isZero();
    }

    @Test
    @DisplayName("every kind of ACK carries a rate hint: requested, for a gap, for a duplicate, coalesced, for a PROBE")
    @Verifies("8.2.3")
    void rateHintInEveryAck(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.CONGESTION);
        final int mark = testbed.peer().mark();
        final long first = testbed.connection().nextPsn(0);
        send(testbed, 0, 0, Ecn.ECT_0); // in order, coalesced
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(first), Testbed.WAIT);
        final PacketBuilder gap = testbed.connection().packet(Opcode.WRITE, 0).psn(first + 2).stream(0)
                .msn(testbed.connection().takeMsn(0))
                .messageLength(16)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .payloadPattern(16, 3)
                .transmitTimestamp(9);
        testbed.peer().send(gap); // a gap
        testbed.peer().send(gap.retransmission()); // a duplicate
        testbed.connection().setNextPsn(0, first + 1);
        send(testbed, 0, 1, Ecn.ECT_0); // fills the gap
        testbed.connection().setNextPsn(0, first + 3);
        testbed.connection().write(0, Testbed.BASE + 4096, testbed.key(), new byte[32], 1); // requested
        if (testbed.profile().claims(Profile.MULTIPATH)) {
            testbed.peer()
                    .send(PacketBuilder.probe()
                            .connection(Testbed.DUT_CONNECTION)
                            .path(1)
                            .psn(testbed.connection().nextPsn(1))
                            .transmitTimestamp(11)
                            .ackRequest());
        }
        testbed.peer().recorder().awaitQuiet(Duration.ofMillis(50), Testbed.WAIT);
        final List<ReceivedPacket> acks = testbed.peer()
                .recorder()
                .matching(mark, PacketMatcher.expect().ack().connection(Testbed.TESTER_CONNECTION));
        assertThat(acks.size()).as("the DUT acknowledged the packets").isGreaterThanOrEqualTo(4);
        for (final ReceivedPacket received : acks) {
            assertThat(received.ack().orElseThrow().rateHint())
                    .as("8.2.3: the rate hint of %s: a fair share of the receiver's link, never 0 Mbit/s", received)
                    .isNotZero();
        }
    }

    @Test
    @DisplayName(
            "a path's window halves (by the declared factor) on a CE report, at most once per RTT, and another grows by one")
    @Verifies("10.1.1")
    void perPathAimd(final DeviceUnderTest dut) throws Exception {
        // A CE report decreases the connection window too (10.1.2), and the connection window caps the packets in
        // flight whatever the path windows allow: a round's per-path counts are path windows only while the
        // connection window cannot have held them. Two paths are judged (one decreased, the other growing) when the
        // declared first connection window leaves room for both paths' windows in every round; otherwise one path is:
        // there the count is the smaller of the path and connection windows, which both follow the same AIMD rule
        // from the same ACKs (10.1.1, 10.1.2), so the decrease and its once-per-RTT limit show whichever binds.
        final boolean twoPaths = connectionWindowLeavesRoom(dut.profile());
        try (Testbed testbed = Testbed.open(dut, twoPaths ? 2 : 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            judgePerPathAimd(testbed);
        } catch (final org.mrconf.dut.DutControlException e) {
            if (String.valueOf(e.getMessage()).contains("has failed")) {
                // The rounds withhold ACKs; on a slow tester they can outlast the DUT's connection timeout (6.7.3),
                // a timer this case does not control.
                throw org.mrconf.cases.Inconclusive.because("the DUT's connection timed out while the case withheld"
                        + " ACKs between rounds, so the rounds could not be judged: " + e.getMessage());
            }
            throw e;
        }
    }

    /**
     * Rounds without CE over which the additive increase is judged, from a window of at least {@link
     * #MIN_JUDGED_WINDOW}: "about one packet per RTT" adds up to more than the counts' slack. Such a window grows by
     * 1 / W for each of the floor(W) packets a round acknowledges, at least 7/8 of a packet per round, so the count
     * grows by at least {@code ADDITIVE_ROUNDS - 2}; the case allows one packet more of slack.
     */
    private static final int ADDITIVE_ROUNDS = 8;

    @Test
    @DisplayName("without CE the windows grow by about one packet per round trip: six rounds of a full window, each"
            + " acknowledged without CE, put about six more packets in flight")
    @Verifies("10.1.1")
    @Verifies("10.1.2")
    void windowsGrowAdditivelyWithoutCe(final DeviceUnderTest dut) throws Exception {
        // One path: its count is the smaller of the path and connection windows, which grow by the same rule from the
        // same ACKs (10.1.1, 10.1.2), so a window of either that does not grow holds the count back. A second
        // connection gets another try when a timer the case does not control left the first undecided.
        Attempts.onNewConnections(dut, 1, 2, testbed -> {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            judgeAdditiveIncrease(testbed);
        });
    }

    /**
     * Counts the packets in flight round by round, each round after an ACK of all of the previous without CE. A window
     * below {@link #MIN_JUDGED_WINDOW} (a small declared first window, or a timer in the warm-up) first grows, up to
     * {@link #MAX_GROWTH_ROUNDS} rounds: from any window, 1 / W per acknowledged packet adds at least half a packet a
     * round and loses less than three packets in all over those rounds to rounding, so a window still below it after
     * them did not grow as clause 10.1.1 says. Then {@link #ADDITIVE_ROUNDS} rounds are judged: the count grows by at
     * least {@code ADDITIVE_ROUNDS - 3} and at most {@code ADDITIVE_ROUNDS + 2}.
     */
    private static void judgeAdditiveIncrease(final Testbed testbed) throws Exception {
        WindowRounds.warmUp(testbed, "10.1.1", 340);
        final int maximum = testbed.profile().parameters().congestion().maxConnectionWindow();
        if (maximum > 0 && maximum < MIN_JUDGED_WINDOW + ADDITIVE_ROUNDS) {
            throw NotApplicable.because(String.format(
                    "the device's configuration: its declared maximum connection window of %d (10.1.2, freedom F-24)"
                            + " leaves too little room over %d packets to show %d rounds of growth; a larger declared"
                            + " maximum would exercise it",
                    maximum, MIN_JUDGED_WINDOW, ADDITIVE_ROUNDS));
        }
        final int mark = testbed.peer().mark();
        postLongWrite(testbed, 351, LONG_WRITE);
        final List<Integer> counts = new java.util.ArrayList<>();
        counts.add(round(testbed, mark)[0]);
        while (counts.get(counts.size() - 1) < MIN_JUDGED_WINDOW && counts.size() <= MAX_GROWTH_ROUNDS) {
            counts.add(nextRound(testbed, mark));
        }
        final int grown = counts.get(counts.size() - 1);
        if (grown < MIN_JUDGED_WINDOW) {
            assertThat(grown - counts.get(0))
                    .as(
                            "10.1.1 and 10.1.2: growth of the packets in flight over %d rounds each acknowledged"
                                    + " without CE (counts %s): about one packet per round trip (1 / W for each newly"
                                    + " acknowledged packet)",
                            counts.size() - 1, counts)
                    .isGreaterThanOrEqualTo(counts.size() - 1 - 4);
        }
        final int from = counts.size() - 1;
        for (int r = 0; r < ADDITIVE_ROUNDS; r++) {
            counts.add(nextRound(testbed, mark));
        }
        final int last = counts.get(counts.size() - 1);
        if (last + 1 >= 256 || (maximum > 0 && last + 1 >= maximum)) {
            throw NotApplicable.because(String.format(
                    "the device's configuration: its window reached %s within the rounds (%s), past which it need not"
                            + " grow; smaller declared first windows would exercise it",
                    last + 1 >= 256
                            ? "the ceiling of 256 packets (10.1.1)"
                            : "its declared maximum connection window of " + maximum + " (10.1.2, freedom F-24)",
                    counts));
        }
        assertThat(last - grown)
                .as(
                        "10.1.1 and 10.1.2: growth of the packets in flight over the %d rounds after round %d, each"
                                + " acknowledged without CE (counts %s): about one packet per round trip (1 / W for"
                                + " each newly acknowledged packet)",
                        ADDITIVE_ROUNDS, from, counts)
                .isBetween(ADDITIVE_ROUNDS - 3, ADDITIVE_ROUNDS + 2);
        testbed.connection().autoAck(true);
        acknowledgeAll(testbed, mark, new int[1], false);
    }

    /** Acknowledges everything since {@code mark} without CE and counts the next round on path 0. */
    private static int nextRound(final Testbed testbed, final int mark) throws Exception {
        final int next = testbed.peer().mark();
        acknowledgeAll(testbed, mark, new int[1], false, WARM_UP_RTT.toNanos());
        final int count = round(testbed, next)[0];
        requireDataLeft(testbed, mark);
        return count;
    }

    /**
     * Whether the declared first connection window (undeclared: unbounded, as for a device without the congestion
     * profile) exceeds what two paths' windows can reach in the case's rounds, so that it never binds them: the
     * larger of the declared first path window and {@link #MIN_JUDGED_WINDOW}, plus a packet per growth round and
     * three rounds more, per path.
     */
    private static boolean connectionWindowLeavesRoom(final org.mrconf.dut.DeviceDeclaration profile) {
        final int connection = profile.parameters().congestion().initialConnectionWindow();
        if (connection <= 0) {
            return true;
        }
        final int path =
                Math.max(MIN_JUDGED_WINDOW, profile.parameters().congestion().initialPathWindow());
        return connection > 2 * (path + MAX_GROWTH_ROUNDS + 3);
    }

    /**
     * The smallest the connection window can be after {@code decreases} decreases from the declared first one (no CE
     * before them; additive increase only adds): below it, a round's total was held back by the path windows.
     */
    private static double connectionFloor(final Testbed testbed, final int decreases) {
        final int declared = testbed.profile().parameters().congestion().initialConnectionWindow();
        if (declared <= 0) {
            return Double.MAX_VALUE;
        }
        double floor = declared;
        for (int i = 0; i < decreases; i++) {
            floor = Math.max(
                    1, Math.floor(floor * testbed.profile().parameters().decreaseFactor()));
        }
        return floor;
    }

    /** Inconclusive when a two-path round's total may have been held back by the connection window, not the paths. */
    private static void requirePathBound(final Testbed testbed, final int[] counts, final int decreases) {
        if (counts.length < 2) {
            return;
        }
        final int total = java.util.Arrays.stream(counts).sum();
        if (total >= connectionFloor(testbed, decreases)) {
            // The declared windows (a connection window that decreases with the paths' and can bind first), not the
            // tester, left the path windows unshown.
            throw NotApplicable.because(String.format(
                    "the device's configuration: a round put %d packets in flight (per path: %s), as many as the"
                            + " connection window may have been (declared first window %d, %d decrease(s)): the"
                            + " connection window, not the paths', may have held them (10.1.2); a larger declared"
                            + " initialConnectionWindow would exercise it",
                    total,
                    java.util.Arrays.toString(counts),
                    testbed.profile().parameters().congestion().initialConnectionWindow(),
                    decreases));
        }
    }

    private static int smallest(final int[] counts) {
        return java.util.Arrays.stream(counts).min().orElse(0);
    }

    private void judgePerPathAimd(final Testbed testbed) throws Exception {
        WindowRounds.warmUp(testbed, "10.1.1", 290);
        final double factor = testbed.profile().parameters().decreaseFactor();
        final int paths = testbed.connection().spec().paths();
        final boolean other = paths > 1;
        final int mark = testbed.peer().mark();
        postLongWrite(testbed, 301, LONG_WRITE);
        int[] w0 = round(testbed, mark);
        // A window of a few packets cannot show a halving within the one packet the case allows either way (a
        // timer in the warm-up may have shrunk it; the declared first windows may be as small as 1): grow the
        // windows first with rounds without CE, about one packet per round (10.1.1, 10.1.2).
        for (int grown = 0; grown < MAX_GROWTH_ROUNDS && smallest(w0) < MIN_JUDGED_WINDOW; grown++) {
            final int next = testbed.peer().mark();
            acknowledgeAll(testbed, mark, new int[paths], false, WARM_UP_RTT.toNanos());
            w0 = round(testbed, next);
        }
        requireDataLeft(testbed, mark);
        if (smallest(w0) < MIN_JUDGED_WINDOW) {
            throw Inconclusive.because(String.format(
                    "the windows stayed below %d packets after %d rounds without CE (%s), too small to show a"
                            + " multiplicative decrease",
                    MIN_JUDGED_WINDOW, MAX_GROWTH_ROUNDS, java.util.Arrays.toString(w0)));
        }
        requirePathBound(testbed, w0, 0);
        // Round 1: path 0 reports CE, path 1 (when judged) does not.
        final int[] ce = new int[paths];
        ce[0] = 1;
        int next = testbed.peer().mark();
        final long decreasedNs = testbed.peer().link().nowNs();
        acknowledgeAll(testbed, mark, ce, false, WARM_UP_RTT.toNanos());
        final int[] w1 = round(testbed, next);
        requireDataLeft(testbed, mark);
        requirePathBound(testbed, w1, 1);
        assertThat(w1[0])
                .as(
                        "10.1.1%s: path 0's window after a CE report: %d x %.2f",
                        other ? "" : " (and 10.1.2: one path, the smaller of its window and the connection's)",
                        w0[0],
                        factor)
                .isBetween(
                        (int) Math.max(1, Math.floor(w0[0] * factor)) - 1,
                        (int) Math.max(1, Math.ceil(w0[0] * factor)) + 1);
        if (other) {
            assertThat(w1[1])
                    .as("10.1.1: path 1's window after a round without CE: %d plus about one packet", w0[1])
                    .isBetween(w0[1], w0[1] + 2);
        }
        // Round 2, well within one smoothed RTT of the decrease: two more CE reports on path 0 decrease nothing.
        next = testbed.peer().mark();
        acknowledgeAll(testbed, mark, ce, true, WARM_UP_RTT.toNanos());
        final long sinceDecreaseNs = testbed.peer().link().nowNs() - decreasedNs;
        if (sinceDecreaseNs > WITHIN_ONE_SRTT.toNanos()) {
            throw Inconclusive.because(String.format(
                    "the second CE reports went out %d ms after the decrease, too late to be surely within one"
                            + " smoothed RTT (about %d ms) of it; the tester was too slow to judge 'at most once per RTT'",
                    sinceDecreaseNs / 1_000_000, WARM_UP_RTT.toMillis()));
        }
        final int[] w2 = round(testbed, next);
        requireDataLeft(testbed, mark);
        requirePathBound(testbed, w2, 1);
        assertThat(w2[0])
                .as(
                        "10.1.1: path 0's window after more CE reports within one smoothed RTT of its decrease (was %d)",
                        w1[0])
                .isBetween(w1[0] - 1, w1[0] + 1);
        if (other) {
            assertThat(w2[1])
                    .as("10.1.1: path 1's window keeps growing by about one packet")
                    .isBetween(w1[1], w1[1] + 2);
        }
        testbed.connection().autoAck(true);
        acknowledgeAll(testbed, mark, new int[paths], false);
    }

    @Test
    @DisplayName("the DUT's sending rate keeps to the most recent rate hint")
    @Verifies("10.1.4")
    void sendingRateKeepsToTheHint(final Testbed testbed) throws Exception {
        judgeTheHintedRate(testbed, 310, false);
    }

    @Test
    @DisplayName("a late ACK does not replace the rate hint of the newer ACK before it: each ACK at 10 Mbit/s followed"
            + " by a late one with no limit still paces the DUT to 10 Mbit/s")
    @Verifies("10.1.4")
    @Verifies("5.6.5")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void aLateAckDoesNotReplaceTheHint(final Testbed testbed) throws Exception {
        judgeTheHintedRate(testbed, 312, true);
    }

    /**
     * Paces the DUT with a 10 Mbit/s hint in every ACK and judges the bytes it sends in {@link #RATE_WINDOW} of its own
     * clock; with {@code lateAcks}, each ACK is followed by a late one (Table 5-13: its cumulative PSN behind the
     * newest) with no limit, which clause 10.1.4 says is not the most recent hint. The link keeps the
     * order of the tester's ACKs (loopback, the in-memory link, a namespace pair); should it lose some, the late ACK
     * lags enough to stay late ({@link org.mrconf.peer.PeerConnection#lateAckAfterEach}), and a rate above the hint
     * is inconclusive when the DUT counted fewer packets than the tester sent.
     */
    private static void judgeTheHintedRate(final Testbed testbed, final long wrId, final boolean lateAcks)
            throws Exception {
        TesterMessages.requireProfile(testbed, Profile.CONGESTION);
        final long hintMbps = 10;
        testbed.connection().ackRateHint(hintMbps);
        testbed.connection().autoAck(true);
        // A short WRITE first: its completion shows that the DUT took in an ACK carrying the hint, so the message
        // below is paced from its first packet, and the case does not race the DUT's handling of that ACK.
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE, 64),
                        0x1000,
                        0x77);
        assertThat(TesterMessages.awaitCompletions(testbed, wrId).get(wrId).status())
                .as("10.1.4 set-up: a short WRITE, every packet acknowledged, completes successfully")
                .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
        // What the tester puts on the link and what the DUT counts from here on: a late ACK is only late behind the
        // newer ACKs the DUT heard, so a link that lost some can make one the most recent (see below).
        final long sentBefore = testbed.peer().sender().packetsTransmitted();
        final var countersBefore = testbed.counters();
        testbed.connection().lateAckAfterEach(lateAcks);
        // A message that takes far longer than the measuring window at the hinted rate.
        final int length = 4 << 20;
        final int mark = testbed.peer().mark();
        postLongWrite(testbed, wrId + 1, length);
        final PacketMatcher message = PacketMatcher.expect()
                .data()
                .connection(Testbed.TESTER_CONNECTION)
                .messageLength(length);
        // Measured on the DUT's own clock (each packet's transmit timestamp, clause 5.2), so that when the tester's
        // threads are slow to read the packets the rate does not seem to bunch up.
        final long firstStamp = testbed.peer()
                .await(mark, message, Testbed.WAIT)
                .data()
                .orElseThrow()
                .transmitTimestamp();
        final long windowNs = RATE_WINDOW.toNanos();
        final java.util.function.Predicate<ReceivedPacket> pastWindow = p -> sinceStampNs(p, firstStamp) >= windowNs;
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (testbed.peer().recorder().matching(mark, message).stream().noneMatch(pastWindow)
                && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        long bytes = 0;
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, message)) {
            final long since = sinceStampNs(packet, firstStamp);
            if (since >= 0 && since < windowNs) {
                bytes += packet.captured().length();
            }
        }
        final double seconds = windowNs / 1e9;
        final long tolerance =
                testbed.profile().parameters().timers().tolerance().toNanos();
        // Allowed, as clause 10.1.4 says: the hint over the interval and the device's declared timer
        // tolerance, plus four full packets of burst at the interval's edges (at 10 Mbit/s four packets are 13 ms of
        // sending). The clause holds for every interval of at least one SRTT; this is one of them.
        final double allowedBytes = hintMbps * 1e6 / 8 * (seconds + tolerance / 1e9)
                + 4 * testbed.profile().parameters().mtu();
        if (lateAcks && bytes > allowedBytes) {
            requireNoAckLost(testbed, sentBefore, countersBefore);
        }
        assertThat((double) bytes)
                .as(
                        "10.1.4: bytes the DUT sent in %.0f ms of its clock under a %d Mbit/s hint%s",
                        seconds * 1000,
                        hintMbps,
                        lateAcks ? ", each ACK followed by a late one with no limit (Table 5-13)" : "")
                .isLessThanOrEqualTo(allowedBytes);
        testbed.connection().lateAckAfterEach(false);
        testbed.connection().ackRateHint(-1);
    }

    /**
     * Inconclusive when the link may have lost enough of the tester's packets since {@code sentBefore} to make a late
     * ACK the most recent one the DUT heard. A late ACK lags the newest by {@link PeerConnection#LATE_ACK_LAG} - 1
     * cumulative PSNs of its path, so it is only "not late" for the DUT when the ACKs carrying each of those newer
     * cumulative PSNs were all lost: at least that many packets. Its "no limit" would then rightly replace the hint
     * (10.1.4). Fewer losses cannot do that, so the rate is judged. Inconclusive too when the DUT counted
     * ({@code rx_packets}) more than the tester sent, for then the count proves nothing. Stops the auto-ACKs first, so
     * that every packet counted has had time to arrive; losses after the measuring window are counted too, which can
     * only make the case inconclusive more often, never fail it.
     */
    private static void requireNoAckLost(
            final Testbed testbed, final long sentBefore, final java.util.Map<String, Long> countersBefore)
            throws Exception {
        testbed.connection().autoAck(false);
        Thread.sleep(QUIET_BEFORE_COUNTING.toMillis());
        // Read after the pause: an auto-ACK already under way when they stopped is counted on both sides.
        final long sent = testbed.peer().sender().packetsTransmitted() - sentBefore;
        final long counted = testbed.grew(countersBefore, DutCounters.RX_PACKETS);
        final long lost = sent - counted;
        if (lost >= PeerConnection.LATE_ACK_LAG - 1 || counted > sent) {
            throw Inconclusive.because(String.format(
                    "the DUT counted %d packets (%s) of the %d the tester sent while it measured the rate: a late ACK"
                            + " that follows %d or more lost ACKs of its path is the most recent one the DUT heard, so"
                            + " its 'no limit' may rightly have replaced the hint",
                    counted, DutCounters.RX_PACKETS, sent, PeerConnection.LATE_ACK_LAG - 1));
        }
    }

    /** How long the tester waits, sending nothing, before it reads a counter of what it sent. */
    private static final Duration QUIET_BEFORE_COUNTING = Duration.ofMillis(100);

    /** The window over which the rate is judged. */
    private static final Duration RATE_WINDOW = Duration.ofMillis(100);

    /** How long after {@code firstStamp} the DUT stamped {@code packet}, on its clock (modulo 2^32 ns). */
    private static long sinceStampNs(final ReceivedPacket packet, final long firstStamp) {
        final long delta = (packet.data().orElseThrow().transmitTimestamp() - firstStamp) & 0xFFFF_FFFFL;
        return delta >= (1L << 31) ? delta - (1L << 32) : delta;
    }

    @Test
    @DisplayName("new data held back for lack of window on some paths goes out on every other healthy path")
    @Verifies("10.2.1")
    void spraysOverEveryHealthyPath(final DeviceUnderTest dut) throws Exception {
        final int paths = Math.min(4, dut.profile().parameters().paths());
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            TesterMessages.requireProfile(testbed, Profile.MULTIPATH);
            final int mark = testbed.peer().mark();
            postBigWrite(testbed, 321);
            // 10.2.1 forbids an idle path only while new data is held back for lack of window on other paths: not
            // while the connection window (10.1.2) is full. A round whose packets stay below the smallest the
            // connection window can be (its declared first value: no CE is reported, so it only grows) was held back
            // by the path windows, and must have used every path. Otherwise the rounds go on, every packet
            // acknowledged between them, until every path has carried new data.
            final double connectionFloor = connectionFloor(testbed, 0);
            final boolean[] everUsed = new boolean[paths];
            int roundMark = mark;
            final List<String> rounds = new java.util.ArrayList<>();
            for (int attempt = 0; attempt < SPRAY_ROUNDS; attempt++) {
                final int[] used = round(testbed, roundMark, false);
                final int total = java.util.Arrays.stream(used).sum();
                rounds.add(java.util.Arrays.toString(used));
                if (total >= connectionFloor) {
                    for (int path = 0; path < paths; path++) {
                        everUsed[path] |= used[path] > 0;
                    }
                } else {
                    if (sentSince(testbed, mark) >= Testbed.REGION) {
                        throw Inconclusive.because(
                                "the DUT sent the whole message before the rounds ended, so no data was held back");
                    }
                    for (int path = 0; path < paths; path++) {
                        assertThat(used[path])
                                .as(
                                        "10.2.1: new PSNs on healthy path %d while data was held back for lack of"
                                                + " path window, with %d packets in flight, fewer than the connection"
                                                + " window (at least %.0f) (per path: %s)",
                                        path, total, connectionFloor, java.util.Arrays.toString(used))
                                .isPositive();
                    }
                    java.util.Arrays.fill(everUsed, true);
                }
                if (allTrue(everUsed)) {
                    break;
                }
                roundMark = testbed.peer().mark();
                acknowledgeAll(testbed, mark, new int[paths], false);
            }
            if (!allTrue(everUsed)) {
                // Connection-bound every round: acknowledge only the newest packet, so that one packet of connection
                // window opens while the other paths keep what they have in flight, and see where the next new packet
                // goes; a sender that breaks ties after the path its previous packet took (10.2.2) reaches every
                // path. A MUST of 10.2.1 is never judged here (the connection window held the data back).
                drawOntoIdlePaths(testbed, mark, everUsed);
            }
            if (!allTrue(everUsed)) {
                // Still connection-bound: let the busy paths' timers expire (a sender that implements 10.1.3 sets
                // their windows to 1 packet, while the connection window keeps what it grew to), then acknowledge
                // everything: the paths' windows, no longer the connection's, now hold the data back.
                collapseBusyPaths(testbed, everUsed);
                final int collapsed = testbed.peer().mark();
                acknowledgeAll(testbed, mark, new int[paths], false);
                final int[] used = round(testbed, collapsed, false);
                rounds.add(java.util.Arrays.toString(used) + " after timeouts");
                for (int path = 0; path < paths; path++) {
                    everUsed[path] |= used[path] > 0;
                }
            }
            if (!allTrue(everUsed)) {
                // Every round, even after the timeouts, the connection window held the data back: the device's legal
                // windows and spraying choice (10.2.2), not the tester, kept the condition 10.2.1 judges from arising.
                throw NotApplicable.because(String.format(
                        "the device's configuration: some healthy paths carried no new data in %d rounds (per path and"
                                + " round: %s), but every round filled as many packets as the connection window may"
                                + " hold (declared first window %d), which 10.2.1 does not forbid; a declared"
                                + " initialConnectionWindow above the paths' windows would exercise it",
                        SPRAY_ROUNDS,
                        rounds,
                        testbed.profile().parameters().congestion().initialConnectionWindow()));
            }
            testbed.connection().autoAck(true);
            acknowledgeAll(testbed, mark, new int[paths], false);
        }
    }

    /**
     * Acknowledges the newest first transmission alone, {@code 4 x paths} times at most, each time waiting for the next
     * new packet and marking the path it took in {@code everUsed}, until every path has carried one.
     */
    private static void drawOntoIdlePaths(final Testbed testbed, final int mark, final boolean[] everUsed)
            throws Exception {
        for (int step = 0; step < 4 * everUsed.length && !allTrue(everUsed); step++) {
            final List<ReceivedPacket> fresh = testbed.peer().recorder().matching(mark, WindowRounds.FRESH_DATA);
            if (fresh.isEmpty()) {
                return;
            }
            final ReceivedPacket newest = fresh.get(fresh.size() - 1);
            final int next = testbed.peer().mark();
            testbed.connection().onReceived(newest);
            final var data = newest.data().orElseThrow();
            testbed.peer().send(testbed.connection().ackFor(data.header().pathId(), data.transmitTimestamp()));
            final java.util.Optional<ReceivedPacket> sent =
                    testbed.peer().recorder().awaitFirst(next, WindowRounds.FRESH_DATA, Testbed.QUIET);
            if (sent.isEmpty()) {
                return;
            }
            everUsed[sent.get().data().orElseThrow().header().pathId()] = true;
        }
    }

    /** Waits, acknowledging nothing, until each path that carried data has resent a packet (its timer expired). */
    private static void collapseBusyPaths(final Testbed testbed, final boolean[] busy) {
        final int since = testbed.peer().mark();
        final Duration patience = testbed.profile()
                .parameters()
                .timers()
                .maxRto()
                .plus(testbed.profile().parameters().timers().tolerance())
                .plus(Testbed.WAIT);
        for (int path = 0; path < busy.length; path++) {
            if (busy[path]) {
                testbed.peer()
                        .recorder()
                        .awaitFirst(
                                since,
                                PacketMatcher.expect().data().retransmission().path(path),
                                patience);
            }
        }
    }

    /** Rounds {@link #spraysOverEveryHealthyPath} gives a connection-bound DUT to use every path. */
    private static final int SPRAY_ROUNDS = 8;

    private static boolean allTrue(final boolean[] flags) {
        for (final boolean flag : flags) {
            if (!flag) {
                return false;
            }
        }
        return true;
    }

    /** Payload bytes of the first transmissions of the connection since {@code mark}. */
    private static long sentSince(final Testbed testbed, final int mark) {
        return testbed.peer().recorder().matching(mark, WindowRounds.FRESH_DATA).stream()
                .mapToLong(p -> p.data().orElseThrow().payloadLength())
                .sum();
    }

    // helpers --------------------------------------------------------------------------------------------

    /** One new WRITE packet from the tester on {@code path} with the ECN codepoint {@code ecn}, asking for an ACK. */
    private static void send(final Testbed testbed, final int path, final int i, final Ecn ecn) throws Exception {
        final PacketBuilder packet = testbed.connection().packet(Opcode.WRITE, path).stream(0)
                .msn(testbed.connection().takeMsn(0))
                .messageLength(16)
                .remoteAddress(Testbed.BASE + 1024L * path + 32L * i)
                .remoteKey(testbed.key())
                .payloadPattern(16, i)
                .transmitTimestamp(0x6000 + i)
                .ackRequest();
        final long psn = testbed.connection().nextPsn(path);
        testbed.peer().sender().send(packet.build(), ecn);
        testbed.connection().setNextPsn(path, psn + 1);
    }

    /** The sum of the CE counts of the ACKs of {@code path} since {@code mark}. */
    static int ceSum(final Testbed testbed, final int mark, final int path) {
        return testbed
                .peer()
                .recorder()
                .matching(mark, PacketMatcher.expect().ack().path(path))
                .stream()
                .mapToInt(p -> p.ack().orElseThrow().ceCount())
                .sum();
    }

    /** Bytes of the message {@link #postLongWrite} posts: more than three rounds at the largest windows. */
    private static final int LONG_WRITE = 16 << 20;

    /**
     * Posts a WRITE of {@code length} bytes to the tester from a region of its own ({@link #LONG_WRITE}: long enough
     * that three rounds at the largest windows, 256 packets per path by 10.1.1, cannot send all of it).
     */
    private static void postLongWrite(final Testbed testbed, final long wrId, final int length) throws Exception {
        final long source = Testbed.BASE + 8L * Testbed.REGION;
        final long key = testbed.control()
                .registerRegion(source, length, java.util.EnumSet.of(org.mrconf.dut.RegionAccess.LOCAL_WRITE));
        testbed.control()
                .postWrite(new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, key, source, length), 0x1000, 0x77);
    }

    /** A window the message ran out in shows nothing: inconclusive once all of it has been sent. */
    private static void requireDataLeft(final Testbed testbed, final int mark) {
        long bytes = 0;
        for (final ReceivedPacket packet : testbed.peer()
                .recorder()
                .matching(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .connection(Testbed.TESTER_CONNECTION)
                                .messageLength(LONG_WRITE)
                                .firstTransmission())) {
            bytes += packet.data().orElseThrow().payloadLength();
        }
        if (bytes >= LONG_WRITE) {
            throw Inconclusive.because("the DUT sent the whole " + LONG_WRITE + "-byte message within the rounds, so"
                    + " its windows were not what held it back");
        }
    }

    /** Posts a WRITE of the whole testbed region to the tester. */
    private static void postBigWrite(final Testbed testbed, final long wrId) throws Exception {
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE, Testbed.REGION),
                        0x1000,
                        0x77);
    }

    /** Waits until the DUT stops putting new PSNs on the wire; returns how many it put on each path since {@code mark}. */
    private static int[] round(final Testbed testbed, final int mark) throws Exception {
        return round(testbed, mark, true);
    }

    private static int[] round(final Testbed testbed, final int mark, final boolean timersMustNotFire)
            throws Exception {
        final PacketMatcher fresh = PacketMatcher.expect()
                .data()
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
        final List<ReceivedPacket> sent = TesterMessages.awaitStalled(testbed, mark, fresh);
        if (timersMustNotFire
                && !testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().data().retransmission())
                        .isEmpty()) {
            throw Inconclusive.because(
                    "the DUT retransmitted during a measuring round (a timer fired that the case does"
                            + " not control), so the windows it shows are not its congestion windows");
        }
        final int[] perPath = new int[testbed.connection().spec().paths()];
        for (final ReceivedPacket packet : sent) {
            perPath[packet.data().orElseThrow().header().pathId()]++;
        }
        return perPath;
    }
}
