package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TimerWatch;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.HostStalled;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SenderClock;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.Opcode;

/**
 * Reorder tolerance (clause 6.3.3, a MAY), for a sender that declares one of K packets and a time T: a PSN p that an
 * ACK shows missing is deemed lost once K PSNs after it are reported received, or T after the first ACK that shows the
 * gap (never later than a quarter of the path's smoothed RTT), whichever comes first, and not before.
 *
 * <p>The DUT's RTT is first stretched to five times T (every ACK echoes a timestamp that much older), so that T, not a
 * quarter of the smoothed RTT, is the time that binds, and its retransmission timer stands well clear. The DUT sends a
 * WRITE of K + 1 packets on one path; the tester holds its ACK for 1.5 T (a device counting the time from p's
 * transmission, not from the ACK, would deem p lost at once), then reports the K - 1 PSNs after p received. No resend
 * of p may come while neither condition holds: the tester watches for (T - tolerance) / 2, by its own clock, which
 * the DUT's cannot have outrun since it got the ACK later. It then reports the K-th PSN received, and p must be resent
 * before the time condition could have held (T - tolerance after the first ACK). A resend that comes later could be
 * either condition's; the case then tries a fresh connection, and after three tries is INCONCLUSIVE, as it is where a
 * retransmission timer expired, or may have: its expiry counter grew (read again after a pause), or by the DUT's own
 * transmit timestamps the resend left at least the stretched RTO, less the timer tolerance, after the original. A
 * resend before the first ACK left is no tolerance's doing, and undecided too. Which ACK a resend followed is judged by
 * when it left the DUT (its transmit timestamp on the tester's clock), not by when it arrived. This test does not judge
 * how soon p is resent once only the time has passed.
 *
 * <p>The time condition has a test of its own, judged against an upper bound only, which leaves every conforming
 * device room: K - 1 PSNs after the gap are reported and never the K-th, and the gap
 * must be resent within T plus the timer tolerance of that ACK, long before the stretched RTO. A device that deems a
 * gap lost only by count, or leaves it to its timer, misses that bound by at least four times T.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Reorder tolerance")
class ReorderToleranceCase {
    /** Fresh connections the case tries before it gives up. */
    private static final int ATTEMPTS = 3;

    @Test
    @DisplayName("a gap's PSN is not deemed lost before the declared packets or time, and is once the packets are"
            + " reported")
    @Verifies("6.3.3")
    void gapWaitsForTheDeclaredTolerance(final DeviceUnderTest dut) throws Exception {
        String why = "";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            why = judged(dut);
            if (why.isEmpty()) {
                return;
            }
        }
        throw Inconclusive.because(
                "in each of " + ATTEMPTS + " attempts the tester could not decide; the last: " + why);
    }

    @Test
    @DisplayName("a gap's PSN is deemed lost once the declared time has passed after the ACK that showed it, though"
            + " fewer than the declared packets are reported")
    @Verifies("6.3.3")
    void gapIsLostOnceTheDeclaredTimePasses(final DeviceUnderTest dut) throws Exception {
        HostStalled.retry(ATTEMPTS, () -> {
            try (Testbed testbed = Testbed.open(dut, 1, 1)) {
                judgeTheTimeCondition(testbed);
            }
        });
    }

    /**
     * The time condition alone: K - 1 PSNs after the gap are reported at once, and never the K-th. A device deems the
     * gap lost within T of that ACK (or a quarter of the smoothed RTT, which the stretch made longer than T), so the
     * resend must reach the tester within T plus the timer tolerance of the ACK's sending; the stretched RTO, at least
     * five times T, is far past that, so a device that waits for the count or its timer misses the bound by more than
     * any tolerance. A miss no larger than a host stall in that window is the host's (INCONCLUSIVE, retried).
     */
    private static void judgeTheTimeCondition(final Testbed testbed) throws Exception {
        requireSomethingToJudge(testbed, false);
        final OpenGap open = OpenGap.of(
                        testbed,
                        6310,
                        testbed.profile().conformance().reorderTolerance().packets())
                // The tester answered the stretching WRITE later than the DUT's first RTO: its host was slow (a cold
                // start, a loaded machine), and a fresh connection may not be.
                .orElseThrow(() -> new HostStalled("a retransmission timer expired before the RTT was stretched: the"
                        + " tester answered later than the DUT's initial RTO"));
        final int packets = open.sent().size();
        reportReceived(testbed, open.gap(), open.sent().subList(1, packets), open.echoAge());
        // Read once the ACK is sent, not before: the tester's own thread may be held back while it builds the ACK
        // (a loaded host), and the DUT cannot be late for an ACK it does not have yet.
        final long ackNs = testbed.peer().link().nowNs();
        final Duration bound = open.time().plus(open.tolerance());
        final ReceivedPacket resend = testbed.peer()
                .await(
                        open.mark(),
                        PacketMatcher.expect().data().retransmission().psn(open.gap()),
                        CaseSteps.stretchedRtoFloor(testbed, open.echoAge())
                                .multipliedBy(4)
                                .plus(Testbed.WAIT));
        final long waitedNs = resend.receivedNs() - ackNs;
        final long echo =
                resend.data().orElseThrow().transmitTimestamp() - open.echoAge().toNanos();
        testbed.peer().send(CaseSteps.ack(0, Psn.add(open.gap(), packets), echo & 0xFFFF_FFFFL));
        final String what = String.format(
                "6.3.3: PSN %d, reported missing with %d of the %d declared PSNs after it received and never the"
                        + " last, resent (ms after the ACK that showed the gap, by the tester's clock) once the"
                        + " declared %d ms had passed, plus the timer tolerance; by the DUT's own timestamps the"
                        + " resend left %.1f ms after the original, whose packets the tester had held %.1f ms"
                        + " before that ACK; the host stalled at most %.1f ms meanwhile",
                open.gap(),
                packets - 1,
                packets,
                open.time().toMillis(),
                Psn.distance(
                                open.sent().get(0).data().orElseThrow().transmitTimestamp(),
                                resend.data().orElseThrow().transmitTimestamp())
                        / 1e6,
                (ackNs - open.sent().get(0).receivedNs()) / 1e6,
                testbed.stalls().longestStallNs(ackNs, resend.receivedNs()) / 1e6);
        StallAllowance.excuse(
                testbed.stalls(), what, StallAllowance.overNs(waitedNs, bound.toNanos()), ackNs, resend.receivedNs());
        assertThat(waitedNs / 1_000_000.0).as(what).isLessThanOrEqualTo(bound.toNanos() / 1_000_000.0);
    }

    /**
     * A gap ready to be shown: the DUT's RTT stretched to five times the declared reorder time T, then a WRITE of
     * {@code packets} packets on path 0, every one received and none acknowledged; its first PSN is the gap. Empty when
     * a retransmission timer expired during the stretch, which leaves the DUT's timers unknown.
     *
     * @param sent the WRITE's packets in PSN order
     */
    private record OpenGap(
            List<ReceivedPacket> sent,
            int mark,
            Duration echoAge,
            Duration time,
            Duration tolerance,
            TimerWatch timerWatch) {
        /** The gap: the first PSN of the WRITE. */
        long gap() {
            return psnOf(sent.get(0));
        }

        static Optional<OpenGap> of(final Testbed testbed, final long wrId, final int packets) throws Exception {
            final Duration time =
                    testbed.profile().conformance().reorderTolerance().time();
            final Duration tolerance = testbed.profile().parameters().timers().tolerance();
            final Duration echoAge = time.multipliedBy(5);
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            CaseSteps.stage(testbed, Testbed.BASE, packets * payload + 64, 63);
            final TimerWatch timerWatch = TimerWatch.start(testbed);
            CaseSteps.stretchTheTimer(testbed, echoAge, wrId, Testbed.BASE, 64);
            if (timerWatch.expired()) {
                return Optional.empty();
            }
            final int mark = testbed.peer().mark();
            DutTraffic.postWrite(testbed, wrId + 1, 64, (long) packets * payload);
            final long base = testbed.connection().spec().initialSendPsn();
            final List<ReceivedPacket> sent =
                    testbed.peer().recorder().awaitCount(mark, DutTraffic.dataFromDut(), packets, Testbed.WAIT).stream()
                            .sorted(Comparator.comparingLong(p -> Psn.distance(base, psnOf(p))))
                            .toList();
            return Optional.of(new OpenGap(sent, mark, echoAge, time, tolerance, timerWatch));
        }
    }

    /** One attempt on a fresh connection: empty when judged, else why nothing could be. */
    private static String judged(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            requireSomethingToJudge(testbed, true);
            final int packets =
                    testbed.profile().conformance().reorderTolerance().packets();
            final Optional<OpenGap> opened = OpenGap.of(testbed, 6300, packets + 1);
            if (opened.isEmpty()) {
                return "a retransmission timer expired before the RTT was stretched";
            }
            final OpenGap open = opened.get();
            final List<ReceivedPacket> sent = open.sent();
            final Duration time = open.time();
            final Duration tolerance = open.tolerance();
            final Duration echoAge = open.echoAge();
            final TimerWatch timerWatch = open.timerWatch();
            final int mark = open.mark();
            final Duration hold = time.multipliedBy(3).dividedBy(2);
            final Duration firstWatch = time.minus(tolerance).dividedBy(2);
            final long gap = open.gap();
            final PacketMatcher resent =
                    PacketMatcher.expect().data().retransmission().psn(gap);

            // A device that counts from the transmission, not from the ACK, deems the gap lost as soon as it shows.
            sleepUntil(testbed, sent.get(0).receivedNs() + hold.toNanos());
            final long firstAckNs = testbed.peer().link().nowNs();
            reportReceived(testbed, gap, sent.subList(1, packets), echoAge);
            sleepUntil(testbed, firstAckNs + firstWatch.toNanos());
            // The K-th PSN after the gap reported: it is lost now. Every resend sent before this ACK left is
            // judged as one that neither condition allowed unless the declared time had passed.
            final long secondAckNs = testbed.peer().link().nowNs();
            reportReceived(testbed, gap, sent.subList(1, packets + 1), echoAge);
            final ReceivedPacket resend = testbed.peer().await(mark, resent, Testbed.WAIT);
            final String timer = timerMayHaveResent(testbed, timerWatch, sent.get(0), resend, echoAge);
            if (!timer.isEmpty()) {
                return timer;
            }
            // When the resend left the DUT, on the tester's clock (never earlier than the truth): which ACK it followed
            // is judged by that, not by when it happened to arrive, which a loaded host delays.
            final List<ReceivedPacket> stamped = new java.util.ArrayList<>(sent);
            stamped.add(resend);
            final long resentNs = SenderClock.from(stamped).sentNs(resend);
            final long afterFirstAckNs = resentNs - firstAckNs;
            if (resentNs < firstAckNs) {
                return "PSN " + gap + " was resent before any ACK showed it missing, which the reorder tolerance"
                        + " cannot have made";
            }
            if (resentNs < secondAckNs) {
                assertThat(afterFirstAckNs / 1000)
                        .as(
                                "6.3.3: PSN %d resent (us after the ACK that first showed it missing, by the DUT's"
                                        + " transmit timestamp) while %d of the %d declared PSNs after it were"
                                        + " reported received, and the declared %d ms had not passed (nor had a"
                                        + " quarter of the smoothed RTT, at least %d ms)",
                                gap,
                                packets - 1,
                                packets,
                                time.toMillis(),
                                echoAge.dividedBy(4).toMillis())
                        .isGreaterThanOrEqualTo(time.minus(tolerance).toNanos() / 1000);
            }
            if (afterFirstAckNs >= time.minus(tolerance).toNanos()) {
                return "PSN " + gap + " was resent " + afterFirstAckNs / 1_000_000 + " ms after the first ACK that"
                        + " showed it missing, when the declared " + time.toMillis() + " ms may have passed too, so"
                        + " which condition made it is unknown";
            }
            return "";
        }
    }

    /**
     * Why the DUT's retransmission timer, not its reorder tolerance, may have made {@code resend}, or empty when it
     * cannot have: its {@code rto_expirations} counter grew (read twice, the second time after a pause, since a device
     * may count an expiry just after it acted on it), or by the DUT's own transmit timestamps the resend left at least
     * the shortest RTO it can run with, less the timer tolerance, after the original.
     */
    private static String timerMayHaveResent(
            final Testbed testbed,
            final TimerWatch timerWatch,
            final ReceivedPacket original,
            final ReceivedPacket resend,
            final Duration echoAge)
            throws Exception {
        if (timerWatch.counted()) {
            return "a retransmission timer expired before PSN " + psnOf(original) + " was resent";
        }
        final long stampedNs = (resend.data().orElseThrow().transmitTimestamp()
                        - original.data().orElseThrow().transmitTimestamp())
                & 0xFFFF_FFFFL;
        final Duration floor = CaseSteps.stretchedRtoFloor(testbed, echoAge)
                .minus(testbed.profile().parameters().timers().tolerance());
        if (stampedNs >= floor.toNanos()) {
            return "PSN " + psnOf(original) + " was resent " + stampedNs / 1_000_000 + " ms after its original by the"
                    + " DUT's clock, when its retransmission timer (at least " + floor.toMillis() + " ms) may have"
                    + " expired";
        }
        Thread.sleep(COUNTER_SETTLE.toMillis());
        return timerWatch.counted()
                ? "a retransmission timer expired around when PSN " + psnOf(original) + " was resent"
                : "";
    }

    /** How long the case waits before it reads the expiry counter a second time. */
    private static final Duration COUNTER_SETTLE = Duration.ofMillis(50);

    /**
     * Only a tolerance that holds a gap back, with timers that leave room to watch it, can be judged. The lower bound
     * ({@code watchesEarlyResends}) needs a time well clear of the timer tolerance; the upper bound needs a stretched
     * RTO well past the time and its tolerance, so that a resend on the timer cannot pass for one on the time.
     */
    private static void requireSomethingToJudge(final Testbed testbed, final boolean watchesEarlyResends) {
        final DeviceDeclaration.ReorderTolerance declared =
                testbed.profile().conformance().reorderTolerance();
        final int packets = declared.packets();
        final Duration time = declared.time();
        final var timers = testbed.profile().parameters().timers();
        final Duration tolerance = timers.tolerance();
        final Duration maxRto = timers.maxRto();
        final Duration connectionTimeout = timers.connectionTimeout();
        if (packets < 2 || time.isZero()) {
            throw Inconclusive.because("the declared reorder tolerance (" + packets + " packets, "
                    + time.toNanos() / 1000 + " us) holds nothing back: an ACK that shows a gap already reports one"
                    + " PSN after it, and a time of 0 holds at once (clause 6.3.1 governs)");
        }
        if (watchesEarlyResends && time.compareTo(tolerance.multipliedBy(3)) <= 0) {
            throw Inconclusive.because("the declared reorder time of " + time.toNanos() / 1000 + " us is within three"
                    + " timer tolerances (" + tolerance.toNanos() / 1000 + " us each) of 0: too short to watch");
        }
        // Timestamps are 32-bit nanoseconds (clause 5.2): an RTT sample of the stretched echo plus the watch must stay
        // below half their range, or the DUT may read it as negative.
        if (time.multipliedBy(8).toNanos() >= 1L << 31) {
            throw Inconclusive.because("the declared reorder time of " + time.toMillis() + " ms is too long: the"
                    + " case stretches the RTT to five times it, and with the watch that is past the 2^31 ns a 32-bit"
                    + " echoed timestamp can carry");
        }
        if (connectionTimeout.compareTo(time.multipliedBy(3)) <= 0) {
            throw Inconclusive.because("the declared connection timeout of " + connectionTimeout.toMillis() + " ms"
                    + " could fail the connection within the "
                    + time.multipliedBy(3).toMillis() + " ms the tester stays"
                    + " silent");
        }
        if (maxRto.compareTo(time.multipliedBy(3)) < 0) {
            throw Inconclusive.because("the declared maximum RTO of " + maxRto.toMillis() + " ms lets the timer"
                    + " resend within the " + time.multipliedBy(3).toMillis() + " ms the case watches");
        }
        final Duration latest = time.plus(tolerance);
        if (!watchesEarlyResends
                && CaseSteps.stretchedRtoFloor(testbed, time.multipliedBy(5)).compareTo(latest.multipliedBy(2)) < 0) {
            throw Inconclusive.because("the stretched RTO (at least "
                    + CaseSteps.stretchedRtoFloor(testbed, time.multipliedBy(5)).toMillis() + " ms, five times the"
                    + " declared reorder time or the declared maximum RTO) is not twice the " + latest.toMillis()
                    + " ms by which the time alone must deem the gap lost, so a resend on the timer could pass for"
                    + " one on the time; a longer maximum RTO would let the case decide");
        }
        if (CaseSteps.declaredFirstWindow(testbed) < packets + 1) {
            throw Inconclusive.because("the declared first windows let the DUT send fewer than " + (packets + 1)
                    + " packets before an ACK: the tester cannot report " + packets + " PSNs after a gap");
        }
    }

    /**
     * An ACK of path 0 that leaves {@code gap} missing and reports {@code received} (each after it), echoing the newest
     * of them less {@code echoAge}, so that the RTT sample it gives stays that long.
     */
    private static void reportReceived(
            final Testbed testbed, final long gap, final List<ReceivedPacket> received, final Duration echoAge)
            throws Exception {
        final long newest =
                received.get(received.size() - 1).data().orElseThrow().transmitTimestamp();
        final long[] psns =
                received.stream().mapToLong(ReorderToleranceCase::psnOf).toArray();
        testbed.peer().send(CaseSteps.ack(0, gap, (newest - echoAge.toNanos()) & 0xFFFF_FFFFL, psns));
    }

    private static void sleepUntil(final Testbed testbed, final long linkNs) throws InterruptedException {
        final long remainingNs = linkNs - testbed.peer().link().nowNs();
        if (remainingNs > 0) {
            Thread.sleep(remainingNs / 1_000_000, (int) (remainingNs % 1_000_000));
        }
    }

    private static long psnOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().header().psn();
    }
}
