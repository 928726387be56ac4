package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.TimerWatch;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.wire.Opcode;

/**
 * The rate-hint window floor (clause 10.1.5): while the rate hint is below the sender's line rate, its windows stay at
 * least at the hinted rate times the smoothed RTT, in packets (one path: the path window too). On one path the tester
 * gives the DUT a smoothed RTT of at least {@link #ECHO_AGE} (every ACK echoes a timestamp that much older) and a rate
 * hint H chosen so that H x {@link #ECHO_AGE} is a window F a few packets above what a CE decrease leaves of the
 * declared initial window; one ACK then reports a CE count, so the windows decrease (clause 10.1.1) but not below F.
 * With ACKs held back the DUT then sends a long WRITE at the hinted pace until its window stops it: once no new PSN has
 * come for {@link #QUIET_PACKETS} packet times at the hinted rate, or that many of the longest gaps the DUT left
 * between new PSNs so far (it may pace slower than the hint), at least F less one packet (rounding) must be in
 * flight.
 *
 * <p>The silence counts net of the tester host's longest stall in it ({@link StallAllowance#quietFor}): a DUT the host
 * held back was not stopped by its window, so the case waits on instead of counting a window cut short.
 *
 * <p>F is counted in packets of the connection's MTU, which the tester sets to the declared MTU. A DUT still sending when a timer of its expires (a pace slower than the hint, a loaded host) leaves
 * the window undecided (INCONCLUSIVE).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Rate-hint window floor")
class RateHintFloorCase {
    /** The least smoothed RTT the DUT can have: every ACK echoes a timestamp this much older than its own. */
    private static final Duration ECHO_AGE = Duration.ofMillis(100);

    /** How far above the decreased initial window the floor is aimed, in packets. */
    private static final int ABOVE_DECREASE = 6;

    /** The DUT is quiet (its window full) once no new PSN came for this many packet times at the hinted rate. */
    private static final int QUIET_PACKETS = 8;

    private static final Duration LEAST_QUIET = Duration.ofMillis(30);

    @Test
    @DisplayName("after a CE decrease the window stays at least at the hinted rate times the smoothed RTT")
    @Verifies("10.1.5")
    void windowStaysAtTheHintedFloor(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            final DeviceDeclaration.Congestion declared =
                    testbed.profile().parameters().congestion();
            final int mtu = testbed.profile().parameters().mtu();
            final int initial = CaseSteps.declaredFirstWindow(testbed);
            final long decreased = (long) Math.floor(Math.max(1, initial * declared.decreaseFactor()));
            final long aimed = Math.min(256, decreased + ABOVE_DECREASE);
            // H in whole Mbit/s, rounded up so that the floor H x age reaches the aimed window.
            final long hintMbps = (long) Math.ceil(aimed * 8.0 * mtu / (ECHO_AGE.toNanos() / 1e9) / 1e6);
            final long floor = (long) Math.floor(hintMbps * 1e6 / 8 * (ECHO_AGE.toNanos() / 1e9) / mtu);
            if (hintMbps >= declared.linkRateMbps() || floor <= decreased + 2) {
                throw Inconclusive.because("the declared MTU, window and link rate leave no rate hint below the line"
                        + " rate whose floor stands clear of the decreased window");
            }
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final long writeLength = 2 * floor * payload;
            CaseSteps.stage(testbed, Testbed.BASE, (int) Math.min(writeLength + 128, 1 << 20), 105);

            // An RTT of at least the echo age, and the rate hint H, from an ACK of each of two WRITEs.
            testbed.connection().ackRateHint(hintMbps);
            CaseSteps.stretchTheTimer(testbed, ECHO_AGE, 1050, Testbed.BASE, 64);
            testbed.connection().ackRateHint(-1);
            final TimerWatch timers = TimerWatch.start(testbed);
            // One more packet, acknowledged with a CE count: the windows decrease, but not below the floor.
            int mark = testbed.peer().mark();
            DutTraffic.postWrite(testbed, 1051, 64, 64);
            final ReceivedPacket marked = testbed.peer().await(mark, DutTraffic.dataFromDut(), Testbed.WAIT);
            testbed.connection().onReceived(marked);
            testbed.peer()
                    .send(testbed.connection()
                            .ackFor(0, (timestampOf(marked) - ECHO_AGE.toNanos()) & 0xFFFF_FFFFL)
                            .ceCount(1)
                            .rateHint(hintMbps));
            new CaseSteps.CompletionLog(testbed.control()).awaitWrId(1051, "10.1.5");

            mark = testbed.peer().mark();
            DutTraffic.postWrite(testbed, 1052, 128, Math.min(writeLength, (1 << 20) - 128));
            final long inFlight = untilQuiet(testbed, mark, hintMbps, mtu, timers, floor - 1);
            assertThat(inFlight)
                    .as(
                            "10.1.5: with a rate hint of %d Mbit/s and a smoothed RTT of at least %d ms, the window"
                                    + " stays at least %d packets of %d bytes after a CE decrease (to %d without the"
                                    + " floor); new PSNs in flight when the DUT stopped sending",
                            hintMbps, ECHO_AGE.toMillis(), floor, mtu, decreased)
                    .isGreaterThanOrEqualTo(floor - 1);
        }
    }

    /**
     * Counts the distinct new PSNs the DUT sends since {@code mark} until that count shows the window ({@code
     * enough}, the least count that passes), or the DUT has shown it stopped. A DUT stopped by its window sends no new
     * PSN until an ACK, which the tester does not send, or its retransmission timer: so quiet alone (no new PSN for
     * {@link #QUIET_PACKETS} packet times at the hinted rate, or of its own longest gap so far, at least {@link
     * #LEAST_QUIET}, net of the host's stalls) is not yet a stop. A DUT the host held back resumes with new PSNs, and is
     * counted on; the stop is proven when the DUT stays quiet until its timer expires, or for the whole wait. A timer
     * that expires while the DUT was still sending leaves the window undecided.
     */
    private static long untilQuiet(
            final Testbed testbed,
            final int mark,
            final long hintMbps,
            final int mtu,
            final TimerWatch timers,
            final long enough)
            throws Exception {
        final long packetNs = (long) (mtu * 8.0 / (hintMbps * 1e6) * 1e9);
        final StallMonitor stalls = testbed.stalls();
        final long deadlineNs = stalls.nowNs() + Testbed.WAIT.toNanos();
        int seen = -1;
        long changedNs = stalls.nowNs();
        // A DUT may pace slower than the hint (clause 10.1.4 sets only a ceiling): quiet means several of its own
        // longest gaps so far, not only of the hinted pace.
        long longestGapNs = 0;
        boolean quiet = false;
        while (true) {
            final Set<Long> psns = newPsns(testbed, mark);
            if (psns.size() >= enough) {
                return psns.size();
            }
            if (timers.expired()) {
                if (quiet && newPsns(testbed, mark).size() == psns.size()) {
                    // Quiet until the timer: stopped by its window.
                    return psns.size();
                }
                throw Inconclusive.because("a retransmission timer of the DUT expired before it stopped sending"
                        + " new PSNs, so how far its window reached is unknown");
            }
            final int now = psns.size();
            final long quietNs =
                    Math.max(LEAST_QUIET.toNanos(), Math.max(QUIET_PACKETS * packetNs, QUIET_PACKETS * longestGapNs));
            final long nowNs = stalls.nowNs();
            if (now != seen) {
                if (seen > 0) {
                    longestGapNs = Math.max(longestGapNs, nowNs - changedNs);
                }
                seen = now;
                changedNs = nowNs;
                quiet = false;
            } else {
                // Quiet net of the host's stalls: a DUT the host held back was not stopped by its window.
                quiet = StallAllowance.quietFor(stalls, changedNs, nowNs, quietNs);
            }
            if (nowNs - deadlineNs > 0) {
                if (quiet) {
                    return now;
                }
                throw Inconclusive.because("the DUT kept sending new PSNs for " + Testbed.WAIT.toSeconds() + " s"
                        + " (or the host stalled: longest stall " + stalls.longestStallNs(changedNs, nowNs) / 1_000_000
                        + " ms in the last quiet window)");
            }
            Thread.sleep(2);
        }
    }

    /** The distinct PSNs of the data the DUT sent since {@code mark}. */
    private static Set<Long> newPsns(final Testbed testbed, final int mark) {
        final Set<Long> psns = new HashSet<>();
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, DutTraffic.dataFromDut())) {
            psns.add(packet.data().orElseThrow().header().psn());
        }
        return psns;
    }

    private static long timestampOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().transmitTimestamp();
    }
}
