package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * A timeout collapses the path window (clause 10.1.3): on a retransmission timeout the path's congestion window
 * becomes 1 packet. On one path, with the tester's ACKs held back, the DUT sends a two-packet WRITE, well inside its
 * declared initial window, and its timer expires (the resend of the oldest PSN shows it). A WRITE posted then must not
 * put a new PSN on the path: its packets in flight (at least the resent one) are not below a window of 1. Without the
 * collapse, the declared window would let it go at once. Only new PSNs are judged; the timer's resends, PROBEs and
 * the path turning unhealthy after more expiries (clause 6.7.1) change nothing.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Timeout collapses the path window")
class TimeoutWindowCase {
    /** The WRITE sent before the timeout, in packets. */
    private static final int BEFORE = 2;

    private static final long REMOTE = 0x00F0_0000L;

    @Test
    @DisplayName("after a retransmission timeout no new PSN goes on the path while a packet is in flight")
    @Verifies("10.1.3")
    void timeoutLeavesAWindowOfOnePacket(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            if (CaseSteps.declaredFirstWindow(testbed) <= BEFORE) {
                throw Inconclusive.because("the declared initial windows would hold a new PSN back after " + BEFORE
                        + " packets in flight even without the timeout, so a collapse would not show");
            }
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            CaseSteps.stage(testbed, Testbed.BASE, (BEFORE + 1) * payload, 103);
            final var before = testbed.counters();
            final int mark = testbed.peer().mark();
            post(testbed, 1031, 0, (long) BEFORE * payload);
            testbed.peer().recorder().awaitCount(mark, fresh(), BEFORE, Testbed.WAIT);
            // Nothing acknowledged: the first resend is the timer's.
            testbed.peer().await(mark, PacketMatcher.expect().data().retransmission(), Testbed.WAIT);
            assertThat(testbed.grew(before, DutCounters.RTO_EXPIRATIONS))
                    .as("the DUT counts the expiry whose resend the tester saw (rto_expirations)")
                    .isPositive();

            final int afterTimeout = testbed.peer().mark();
            post(testbed, 1032, (long) BEFORE * payload, payload);
            // The DUT's quiet window: a new PSN the post allowed would have left by then (the timer's resends go on).
            Thread.sleep(testbed.quiet().toMillis());
            final List<ReceivedPacket> fresh = testbed.peer().recorder().matching(afterTimeout, fresh());
            assertThat(fresh)
                    .as(
                            "10.1.3: after the timeout the path window is 1 packet and %d are in flight, so no new"
                                    + " PSN goes out while the tester acknowledges nothing",
                            BEFORE)
                    .isEmpty();
        }
    }

    private static PacketMatcher fresh() {
        return PacketMatcher.expect()
                .data()
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
    }

    private static void post(final Testbed testbed, final long wrId, final long offset, final long length)
            throws Exception {
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE + offset, length),
                        REMOTE + offset,
                        0x61);
    }
}
