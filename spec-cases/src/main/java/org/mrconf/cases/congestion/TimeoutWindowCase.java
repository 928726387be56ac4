package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * A timeout collapses the path window (clause 10.1.3): on a retransmission timeout the path's congestion window
 * becomes 1 packet. On one path, with the tester's ACKs held back, the DUT sends a two-packet WRITE, well inside its
 * declared initial window, and its timer expires (the resend of the oldest PSN shows it). A WRITE posted then must not
 * put a new PSN on the path: its packets in flight (at least the resent one) are not below a window of 1. Without the
 * collapse, the declared window would let it go at once; a first window of one or two packets is grown first
 * ({@link WindowGrowth}) until the DUT has been seen with three in flight. Only new PSNs are judged; the timer's resends, PROBEs and
 * the path turning unhealthy after more expiries (clause 6.7.1) change nothing.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Timeout collapses the path window")
class TimeoutWindowCase {
    /** The WRITE sent before the timeout, in packets. */
    private static final int BEFORE = 2;

    /** The first work request of the WRITEs that grow a first window of one or two packets. */
    private static final long GROWTH_WR = 1_040;

    @Test
    @DisplayName("after a retransmission timeout no new PSN goes on the path while a packet is in flight")
    @Verifies("10.1.3")
    void timeoutLeavesAWindowOfOnePacket(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            final int firstWindow = CaseSteps.declaredFirstWindow(testbed);
            if (firstWindow <= BEFORE) {
                // A first window of one or two packets would hold the new PSN back without any collapse: grow it
                // first, until the DUT has been seen with more than BEFORE packets in flight at once.
                final WindowGrowth.Grown grown = WindowGrowth.grow(
                        testbed, firstWindow + 1.0, firstWindow, new long[1], GROWTH_WR, g -> g.lower() > BEFORE);
                if (grown.lower() <= BEFORE) {
                    throw NotApplicable.because(String.format(
                            "the device's configuration: its declared first windows (%d packets) hold a new PSN back"
                                    + " after %d packets in flight even without the timeout, and in %d rounds of ACKs"
                                    + " without CE it never had more than %d in flight at once, so a collapse would"
                                    + " not show",
                            firstWindow, BEFORE, grown.rounds(), grown.lower()));
                }
            }
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            CaseSteps.stage(testbed, Testbed.BASE, (BEFORE + 1) * payload, 103);
            final int mark = testbed.peer().mark();
            DutTraffic.postWrite(testbed, 1031, 0, (long) BEFORE * payload);
            testbed.peer().recorder().awaitCount(mark, DutTraffic.dataFromDut(), BEFORE, Testbed.WAIT);
            // Nothing acknowledged: the first resend is the timer's (the DUT's counter may lag; the resend does not).
            final java.time.Duration expiry = testbed.profile()
                    .parameters()
                    .timers()
                    .initialRto()
                    .plus(testbed.profile().parameters().timers().tolerance())
                    .plus(Testbed.WAIT);
            try {
                testbed.peer()
                        .recorder()
                        .awaitCount(mark, PacketMatcher.expect().data().retransmission(), 1, expiry);
            } catch (final AssertionError none) {
                throw Inconclusive.because("no resend came within the declared initial RTO, the tolerance and "
                        + Testbed.WAIT.toSeconds() + " s, so no timeout was seen: " + none.getMessage());
            }

            final int afterTimeout = testbed.peer().mark();
            DutTraffic.postWrite(testbed, 1032, (long) BEFORE * payload, payload);
            // The DUT's quiet window: a new PSN the post allowed would have left by then (the timer's resends go on).
            Thread.sleep(testbed.quiet().toMillis());
            final List<ReceivedPacket> fresh =
                    testbed.peer().recorder().matching(afterTimeout, DutTraffic.dataFromDut());
            assertThat(fresh)
                    .as(
                            "10.1.3: after the timeout the path window is 1 packet and %d are in flight, so no new"
                                    + " PSN goes out while the tester acknowledges nothing",
                            BEFORE)
                    .isEmpty();
        }
    }
}
