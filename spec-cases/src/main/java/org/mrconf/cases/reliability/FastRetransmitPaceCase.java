package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
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
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.wire.Opcode;

/**
 * One fast retransmission per RTT (clause 6.4.3): a PSN that a gap made the DUT resend is not resent again because of
 * a gap within one smoothed RTT of that resend. The DUT's RTT is first stretched: every ACK of the tester echoes a
 * timestamp {@link #ECHO_AGE} older than the packet's own, so every RTT sample, and with them the smoothed RTT, is at
 * least that long (a timer that expires while it is stretched sends the case to a fresh connection, up to three
 * times). The tester then reports the first packet of a two-packet WRITE missing (its ACK acknowledges the second),
 * waits for the resend, and at once reports it missing again, acknowledging a newer packet too. Within the echo age
 * less the tolerance of that resend, by the tester's clock and by the DUT's own timestamps, no further copy may come.
 * A copy that may be the timer's (its expiry counter grew, or the copy left from a new source port, as a timer's
 * resend does after re-pathing, clause 6.6.4) is undecided (INCONCLUSIVE); so is a case whose declared maximum RTO
 * falls inside the watch, and a copy early by no more than the tester host's longest stall since the resend ({@link
 * StallAllowance}).
 */
@ExtendWith(DutExtension.class)
@DisplayName("One fast retransmission per RTT")
class FastRetransmitPaceCase {
    /** The least RTT every sample of the DUT's shows, since every ACK echoes a timestamp this much older. */
    private static final Duration ECHO_AGE = Duration.ofMillis(200);

    /** Fresh connections the case tries before it gives up on stretching the RTT without an expiry. */
    private static final int ATTEMPTS = 3;

    @Test
    @DisplayName("a PSN resent for a gap is not resent for a gap again within one smoothed RTT")
    @Verifies("6.4.3")
    void oneGapResendPerSmoothedRtt(final DeviceUnderTest dut) throws Exception {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (judged(dut)) {
                return;
            }
        }
        throw Inconclusive.because("in each of " + ATTEMPTS + " attempts a retransmission timer of the DUT expired"
                + " before its RTT was stretched (the tester answered after the initial RTO), which may collapse its"
                + " window (clause 10.1.3) and resends on its own");
    }

    /** One attempt on a fresh connection; false, with nothing judged, when a timer expired during the stretch. */
    private static boolean judged(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final var declared = testbed.profile().parameters().timers();
            if (declared.maxRto().compareTo(ECHO_AGE.plus(declared.tolerance())) <= 0) {
                throw Inconclusive.because(
                        "the declared maximum RTO of " + declared.maxRto().toMillis() + " ms lets the"
                                + " timer resend within the " + ECHO_AGE.toMillis() + " ms the case watches");
            }
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            CaseSteps.stage(testbed, Testbed.BASE, 4 * payload + 64, 43);
            final TimerWatch timers = TimerWatch.start(testbed);
            CaseSteps.stretchTheTimer(testbed, ECHO_AGE, 4300, Testbed.BASE, 64);
            if (timers.expired()) {
                return false;
            }
            final Duration watch =
                    ECHO_AGE.minus(testbed.profile().parameters().timers().tolerance());
            final int mark = testbed.peer().mark();

            DutTraffic.postWrite(testbed, 4301, 64, 2L * payload);
            final long base = testbed.connection().spec().initialSendPsn();
            // Whether the DUT can have two packets in flight is seen, not assumed from declarations (a device without
            // the congestion profile declares no windows, and section 10 lets a first window hold one packet). The
            // stretched RTO is far longer than the wait, so a second packet not sent by then is held by a window.
            final List<ReceivedPacket> sent;
            try {
                sent = testbed.peer().recorder().awaitCount(mark, DutTraffic.dataFromDut(), 2, ECHO_AGE).stream()
                        .sorted(Comparator.comparingLong(p -> Psn.distance(base, psnOf(p))))
                        .toList();
            } catch (final AssertionError e) {
                throw org.mrconf.cases.NotApplicable.because("the device's configuration: the DUT sent only one"
                        + " packet of a two-packet WRITE before an ACK, within " + ECHO_AGE.toMillis() + " ms (its"
                        + " windows may hold one packet: section 10), so no ACK can report a gap; a first path and"
                        + " connection window of 2 or more would exercise it");
            }
            final long lost = psnOf(sent.get(0));
            reportMissing(testbed, lost, List.of(sent.get(1)));
            final ReceivedPacket resent = testbed.peer()
                    .await(mark, PacketMatcher.expect().data().retransmission().psn(lost), Testbed.WAIT);

            // Reported missing again at once, with a newer packet acknowledged: a gap, but within one SRTT.
            final int newer = testbed.peer().mark();
            DutTraffic.postWrite(testbed, 4302, 64 + 2L * payload, payload);
            final ReceivedPacket extra = testbed.peer().await(newer, DutTraffic.dataFromDut(), Testbed.WAIT);
            reportMissing(testbed, lost, List.of(sent.get(1), extra));

            final long remainingNs = watch.toNanos() - (testbed.peer().link().nowNs() - resent.receivedNs());
            if (remainingNs > 0) {
                Thread.sleep(remainingNs / 1_000_000, (int) (remainingNs % 1_000_000));
            }
            final List<ReceivedPacket> again =
                    testbed
                            .peer()
                            .recorder()
                            .matching(
                                    mark,
                                    PacketMatcher.expect()
                                            .data()
                                            .retransmission()
                                            .psn(lost))
                            .stream()
                            .filter(p -> p.receivedNs() > resent.receivedNs())
                            .toList();
            for (final ReceivedPacket copy : again) {
                final long byTester = copy.receivedNs() - resent.receivedNs();
                final long byDut = (timestampOf(copy) - timestampOf(resent)) & 0xFFFF_FFFFL;
                if (Math.max(byTester, byDut) >= watch.toNanos()) {
                    continue; // one clock puts it past the smoothed RTT: the gap rule may apply again
                }
                // A timer's resend re-paths first (clause 6.6.4: a new source port); a resend for a gap stays on the
                // path's port (6.4.1). Either sign of an expiry leaves the copy undecided.
                if (timers.counted()
                        || copy.captured().sourcePort() != resent.captured().sourcePort()) {
                    throw Inconclusive.because("PSN " + lost + " came again " + byTester / 1000 + " us after its"
                            + " resend, but a retransmission timer of the DUT expired meanwhile (its counter, or a"
                            + " new source port), whose resend it may be");
                }
                judgeCopy(
                        lost,
                        byTester,
                        byDut,
                        watch.toNanos(),
                        testbed.stalls(),
                        resent.receivedNs(),
                        copy.receivedNs());
            }
            return true;
        }
    }

    /**
     * A copy of {@code lost} that came {@code byTester} after its resend for a gap ({@code byDut} by the DUT's
     * timestamps), with no timer expiry: it fails when both clocks put it within {@code watchNs} of that resend, unless
     * it is early by no more than the host's longest stall between the two ({@link StallAllowance}: INCONCLUSIVE).
     */
    static void judgeCopy(
            final long lost,
            final long byTester,
            final long byDut,
            final long watchNs,
            final StallMonitor stalls,
            final long fromNs,
            final long toNs) {
        StallAllowance.excuse(
                stalls,
                "6.4.3: PSN " + lost + " came again " + byTester / 1000 + " us after its resend for a gap",
                StallAllowance.underNs(Math.max(byTester, byDut), watchNs),
                fromNs,
                toNs);
        assertThat(byTester / 1000)
                .as(
                        "6.4.3: PSN %d, resent for a gap, came again %d us after that resend (%d us by the"
                                + " DUT's timestamps), because of a gap within one smoothed RTT (at least %d"
                                + " ms: every ACK echoed a timestamp that old), with no timer expiry",
                        lost, byTester / 1000, byDut / 1000, ECHO_AGE.toMillis())
                .isGreaterThanOrEqualTo(watchNs / 1000);
    }

    /**
     * An ACK of path 0 that leaves {@code lost} missing and reports {@code received} (each after it), echoing the
     * newest of them less {@link #ECHO_AGE}, so the RTT sample it gives stays that long.
     */
    private static void reportMissing(final Testbed testbed, final long lost, final List<ReceivedPacket> received)
            throws Exception {
        final long newest = received.stream()
                .map(FastRetransmitPaceCase::timestampOf)
                .reduce((a, b) -> b)
                .orElseThrow();
        final long[] psns =
                received.stream().mapToLong(FastRetransmitPaceCase::psnOf).toArray();
        testbed.peer().send(CaseSteps.ack(0, lost, (newest - ECHO_AGE.toNanos()) & 0xFFFF_FFFFL, psns));
    }

    private static long psnOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().header().psn();
    }

    private static long timestampOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().transmitTimestamp();
    }
}
