package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * Long-haul timers (clause 6.6.5), for a device that claims the long-haul profile: its declared
 * timers reach a maximum RTO of at least 1 s with a minimum RTO of at most 20 ms and an initial RTO above 10 ms plus
 * the tolerance, its timer really backs off up to that maximum (a timer that cannot hold it, e.g. a field too narrow,
 * shows as resends that come early), and a path whose ACKs come back 10 ms late carries as many packets as the
 * declared first windows allow (at most 8), all sent before any ACK, without a spurious retransmission.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Long-haul timers")
class LongHaulCase {
    private static final Duration RTT = Duration.ofMillis(10);

    @Test
    @DisplayName("the declared timers suit a 10 ms RTT, and a 10 ms RTT causes no spurious retransmission")
    @Verifies("6.6.5")
    void tenMillisecondRttNeedsNoRetransmission(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration.Timers timers = longHaulTimers(dut);
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            // As many packets as the declared first windows let the DUT send before any ACK (a tester assumes one
            // where they are not declared, section 10), at most 8.
            final int packets = Math.min(8, CaseSteps.declaredFirstWindow(testbed));
            CaseSteps.stage(testbed, Testbed.BASE, packets * payload, 6);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            CaseSteps.request(testbed, 0, 1400, Testbed.BASE, (long) packets * payload),
                            0x0200_0000L,
                            1);
            final List<ReceivedPacket> sent = testbed.peer()
                    .recorder()
                    .awaitCount(mark, PacketMatcher.expect().data().firstTransmission(), packets, Testbed.WAIT);
            Thread.sleep(RTT.toMillis());
            for (final ReceivedPacket packet : sent) {
                testbed.connection().onReceived(packet);
            }
            final long echo = sent.get(sent.size() - 1).data().orElseThrow().transmitTimestamp();
            testbed.peer().send(testbed.connection().ackFor(0, echo));
            // How long after the first packet the ACK left: a tester delayed past the initial RTO makes a resend legal.
            final long answeredAfterNs =
                    testbed.peer().link().nowNs() - sent.get(0).receivedNs();
            assertThat(new CaseSteps.CompletionLog(testbed.control())
                            .awaitWrId(1400, "6.6.5")
                            .status())
                    .isEqualTo(CompletionStatus.SUCCESS);
            final List<ReceivedPacket> resent = testbed.peer()
                    .recorder()
                    .matching(mark, PacketMatcher.expect().data().retransmission());
            if (!resent.isEmpty()
                    && answeredAfterNs
                            >= timers.initialRto().minus(timers.tolerance()).toNanos()) {
                throw Inconclusive.because("the tester answered " + answeredAfterNs / 1000 + " us after the first"
                        + " packet, not well inside the declared initial RTO of "
                        + timers.initialRto().toMillis()
                        + " ms, so the DUT's resend may be its timer's due");
            }
            assertThat(resent).as("6.6.5: no retransmission with a 10 ms RTT").isEmpty();
        }
    }

    @Test
    @DisplayName("the timer backs off from the initial RTO up to the declared maximum of 1 s or more")
    @Verifies("6.6.5")
    void backsOffUpToTheLongHaulMaximum(final DeviceUnderTest dut) throws Exception {
        longHaulTimers(dut);
        TimerCase.backOffUnanswered(dut, 1401, 7, "6.6.5", false);
    }

    /** The declared timers of a device that claims long-haul, which must allow what clause 6.6.5 asks. */
    private static DeviceDeclaration.Timers longHaulTimers(final DeviceUnderTest dut) {
        Assumptions.assumeTrue(dut.profile().claims(Profile.LONG_HAUL), "the device does not claim long-haul");
        final DeviceDeclaration.Timers timers = dut.profile().parameters().timers();
        assertThat(timers.maxRto())
                .as("6.6.5: a maximum RTO of at least 1 s")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(timers.minRto())
                .as("6.6.5: a minimum RTO of at most 20 ms")
                .isLessThanOrEqualTo(Duration.ofMillis(20));
        assertThat(timers.initialRto())
                .as(
                        "6.6.5: an initial RTO longer than 10 ms plus the declared tolerance of %d ms",
                        timers.tolerance().toMillis())
                .isGreaterThan(RTT.plus(timers.tolerance()));
        return timers;
    }
}
