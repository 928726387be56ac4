package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Clause 9.1.9: a PSN NACKed RECEIVER_NOT_READY waits for its retry-after whatever
 * happens meanwhile. On a one-path connection the DUT sends a SEND and then a WRITE; the tester NACKs the SEND
 * RECEIVER_NOT_READY with a retry-after longer than the DUT's declared maximum RTO, and at once acknowledges the WRITE
 * alone, so its ACK shows the SEND's PSN missing with a later PSN received (what clause 6.3.1 calls a gap) and leaves
 * that PSN outstanding, so the path's timer expires during the wait. Neither may resend the SEND before its
 * retry-after; afterwards it must come, and the SEND succeeds once acknowledged.
 *
 * <p>A first WRITE, acknowledged with an echo 400 ms old, stretches the DUT's RTO first, so that its timer does not
 * fire before the tester's NACK. The resend is judged by the tester's clock from the moment it sent the NACK, which
 * can only make the DUT's wait look longer than it was. A resend of the SEND before the NACK went out means the DUT's
 * timer fired first all the same: the case cannot tell what the NACK changed, and says so (INCONCLUSIVE).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Waiting for a RECEIVER_NOT_READY retry")
class RetryWaitCase {
    private static final long SOURCE = Testbed.BASE + 0x4_0000;
    private static final byte[] DATA = Testbed.randomBytes(64, 97);
    /** The longest retry-after the case asks for: a device with a longer maximum RTO is judged on a shorter wait. */
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(2);
    /** How much older than its packet the echoed timestamp of the first ACK is. */
    private static final Duration STRETCH = Duration.ofMillis(400);

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a PSN NACKed RECEIVER_NOT_READY is not resent before its retry-after, although an ACK shows it"
            + " missing and the path's timer expires meanwhile")
    @Verifies("9.1.9")
    @Verifies("6.3.1")
    @Verifies("6.6.2")
    void waitsThroughAGapAndATimeout(final DeviceUnderTest dut) throws Exception {
        judgeTheWait(dut, Opcode.SEND, 1810);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE NACKed RECEIVER_NOT_READY, a code no WRITE earns, waits for its retry-after as a SEND"
            + " would: the code's action is taken whatever the opcode")
    @Verifies("9.1.2")
    @Verifies("9.1.9")
    void aWriteWaitsLikeASend(final DeviceUnderTest dut) throws Exception {
        judgeTheWait(dut, Opcode.WRITE, 1820);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a NACK RECEIVER_NOT_READY with a retry-after of 0 is acted on, not dropped as invalid: the PSN is"
            + " resent and the SEND succeeds once acknowledged")
    @Verifies("9.1.9")
    void aRetryAfterOfZeroIsActedOn(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            testbed.control().writeRegion(testbed.key(), SOURCE, DATA);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postSend(new WorkRequest(Testbed.DUT_CONNECTION, 0, 1830, testbed.key(), SOURCE, DATA.length));
            final DataPacket rejected = first(testbed, mark, Opcode.SEND).data().orElseThrow();
            final Map<String, Long> before = testbed.counters();
            final long nackNs = testbed.peer().link().nowNs();
            final int afterNack = testbed.peer().mark();
            testbed.peer().send(receiverNotReady(rejected, 0));
            final ReceivedPacket resent = testbed.peer()
                    .await(
                            afterNack,
                            resendOf(rejected).where("received after the NACK went out", p -> p.receivedNs() >= nackNs),
                            Testbed.WAIT.plus(
                                    testbed.profile().parameters().timers().maxRto()));
            org.mrconf.cases.CaseSteps.acknowledge(testbed, resent);
            assertThat(testbed.awaitCompletion(1830).status())
                    .as("9.1.9: the SEND succeeds once its retry is acknowledged")
                    .isEqualTo(CompletionStatus.SUCCESS);
            assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                    .as("9.1.9: a retry-after of 0 is valid (the sender may resend at once): the NACK is not dropped"
                            + " and counted under rx_invalid_field")
                    .isZero();
        }
    }

    /**
     * On a one-path connection the DUT sends a message of {@code opcode} and then a WRITE; the tester NACKs the first
     * RECEIVER_NOT_READY, acknowledges the WRITE alone, and judges when the first comes again (see the class comment).
     */
    private static void judgeTheWait(final DeviceUnderTest dut, final Opcode opcode, final long wrId) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            // Past the maximum RTO by four tolerances: the path's timer, re-armed by the ACK below, expires well inside
            // the wait whatever its RTO.
            final Duration retryAfter =
                    min(timers.maxRto().plus(timers.tolerance().multipliedBy(4)), LONGEST_WAIT);
            testbed.control().writeRegion(testbed.key(), SOURCE, DATA);
            org.mrconf.cases.CaseSteps.stretchTheTimer(testbed, STRETCH, wrId - 1, SOURCE, DATA.length);
            final int mark = testbed.peer().mark();
            final WorkRequest nacked =
                    new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), SOURCE, DATA.length);
            if (opcode == Opcode.SEND) {
                testbed.control().postSend(nacked);
            } else {
                testbed.control().postWrite(nacked, 0x00D1_0000L, 0x61);
            }
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId + 1, testbed.key(), SOURCE, DATA.length),
                            0x00D0_0000L,
                            0x61);
            final ReceivedPacket first = first(testbed, mark, opcode);
            final DataPacket rejected = first.data().orElseThrow();
            final PacketMatcher secondMessage = DutTraffic.dataFromDut()
                    .opcode(Opcode.WRITE)
                    .where(
                            "the second message",
                            p -> p.data().orElseThrow().header().psn()
                                    != rejected.header().psn());
            // A DUT may keep one packet in flight (section 10): the WRITE then waits for the first message, no ACK can
            // show a gap, and only the wait through the path's timer is judged. The WRITE is awaited for no longer
            // than half the stretched RTO, so that the first message's timer does not fire before the NACK.
            final java.util.Optional<ReceivedPacket> write =
                    org.mrconf.cases.CaseSteps.awaitWhileOthersHeld(testbed, mark, secondMessage, STRETCH.dividedBy(2));
            final PacketMatcher resends = resendOf(rejected);

            final long nackNs = testbed.peer().link().nowNs();
            final int afterNack = testbed.peer().mark();
            testbed.peer().send(receiverNotReady(rejected, retryAfter.toNanos() / 1000));
            // The WRITE alone: cumulative PSN at the rejected message, the WRITE's bit set.
            if (write.isPresent()) {
                org.mrconf.cases.CaseSteps.acknowledge(testbed, write.get());
            }
            final List<ReceivedPacket> early = testbed.peer().recorder().matching(mark, resends).stream()
                    .filter(p -> p.receivedNs() < nackNs)
                    .toList();
            if (early.size() > 1) {
                throw Inconclusive.because("the DUT resent the " + opcode + " before the tester's NACK went out (its"
                        + " timer fired first), so what the NACK changed cannot be told");
            }
            final ReceivedPacket resent = testbed.peer()
                    .await(
                            afterNack,
                            resends.where("received after the NACK went out", p -> p.receivedNs() >= nackNs),
                            Testbed.WAIT.plus(retryAfter.multipliedBy(2)));
            final long waitedNs = resent.receivedNs() - nackNs;
            StallAllowance.excuse(
                    testbed.stalls(),
                    "9.1.9: the resend after the RECEIVER_NOT_READY NACK",
                    StallAllowance.underNs(
                            waitedNs, retryAfter.minus(timers.tolerance()).toNanos()),
                    nackNs,
                    resent.receivedNs());
            assertThat(waitedNs)
                    .as(
                            "9.1.9%s: the %s NACKed RECEIVER_NOT_READY came again %d us after the NACK, before its"
                                    + " retry-after of %d us less the tolerance, though only an ACK showing it"
                                    + " missing (6.3.1) and the path's timer (6.6.2) could have sent it",
                            opcode == Opcode.SEND ? "" : ", 9.1.2 (the code's action whatever the opcode)",
                            opcode,
                            waitedNs / 1000,
                            retryAfter.toNanos() / 1000)
                    .isGreaterThanOrEqualTo(retryAfter.minus(timers.tolerance()).toNanos());
            org.mrconf.cases.CaseSteps.acknowledge(testbed, resent);
            if (write.isEmpty()) {
                org.mrconf.cases.CaseSteps.acknowledge(
                        testbed, testbed.peer().await(mark, secondMessage, Testbed.WAIT));
            }
            assertThat(testbed.awaitCompletion(wrId).status())
                    .as("9.1.2: the %s succeeds once its retry is acknowledged", opcode)
                    .isEqualTo(CompletionStatus.SUCCESS);
            assertThat(testbed.awaitCompletion(wrId + 1).status())
                    .as("the WRITE")
                    .isEqualTo(CompletionStatus.SUCCESS);
            if (write.isEmpty()) {
                throw org.mrconf.cases.NotApplicable.because("the device's configuration: the DUT kept one packet in"
                        + " flight (section 10), so the WRITE went out only after the " + opcode + ", and no ACK could"
                        + " show the NACKed PSN missing with a later PSN received (6.3.1); the wait through the path's"
                        + " timer (6.6.2) was judged and holds. Windows of two packets or more would exercise the gap");
            }
        }
    }

    private static PacketBuilder receiverNotReady(final DataPacket rejected, final long retryAfterMicros) {
        return DutTraffic.nackOf(rejected, NackCode.RECEIVER_NOT_READY, Testbed.DUT_CONNECTION)
                .retryAfter(retryAfterMicros);
    }

    private static PacketMatcher resendOf(final DataPacket rejected) {
        return PacketMatcher.expect()
                .data()
                .opcode(rejected.opcode())
                .connection(Testbed.TESTER_CONNECTION)
                .psn(rejected.header().psn());
    }

    private static ReceivedPacket first(final Testbed testbed, final int mark, final Opcode opcode) {
        return testbed.peer().await(mark, DutTraffic.dataFromDut().opcode(opcode), Testbed.WAIT);
    }

    private static Duration min(final Duration a, final Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
