package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The tail-loss probe of clause 6.3.4 (SHOULD, multipath). The tester first stretches the DUT's RTT estimate of a
 * one-path connection to {@link #stretch} with one old echoed timestamp, so that after that single sample the DUT's
 * RTO is three times the sample (RFC 6298, clauses 6.6.1 and 6.6.2): a wide span in which a tail-loss probe, due after
 * a quiet time shorter than the RTO, stands apart from the timer's expiry on any loaded host. Then the DUT sends a
 * one-packet WRITE and the tester answers nothing but what the case needs.
 *
 * <p>Everything is judged by the order of the DUT's own packets on the wire, never by the tester's clock: the
 * PROBEs a silent path draws before its first retransmission (the timer's expiry, as no ACK came), and the source
 * port of the first retransmission after the probe's ACK. Where the DUT's timer expired before the tester could answer
 * the probe, the case cannot decide and says so.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Tail-loss probe")
class TailLossProbeCase {
    private static final long REMOTE_ADDRESS = 0x00E4_0000L;
    private static final long REMOTE_KEY = 0x64;
    private static final int LENGTH = 64;
    /** The RTT the tester makes the DUT estimate, at most: long against a loaded host's scheduling delays. */
    private static final Duration LONGEST_STRETCH = Duration.ofMillis(60);

    @Test
    @DisplayName("a healthy path whose last packet draws no ACK sends one PROBE before its timer expires, not more")
    @Verifies("6.3.4")
    void aSilentTailDrawsOneProbePerTimerRun(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final Duration stretch = stretch(testbed.profile().parameters().timers());
            final Tail tail = quietTail(testbed, stretch, 1301);
            final int mark = tail.mark();
            final ReceivedPacket first = tail.first();
            final long psn = first.data().orElseThrow().header().psn();
            final ReceivedPacket resend = firstResend(testbed, mark, psn, stretch);
            final List<ReceivedPacket> probes = testbed.peer().recorder().matching(mark, probes()).stream()
                    .filter(probe -> probe.index() < resend.index())
                    .toList();
            assertThat(probes.size())
                    .as(
                            "6.3.4: PROBEs on the path between its last packet (PSN %d) and the timer's first resend"
                                    + " of it, with no ACK in between: %s",
                            psn, probes)
                    .isLessThanOrEqualTo(1);
            assertThat(probes)
                    .as(
                            "6.3.4: a PROBE on the quiet path before its timer expired (the RTO was about three times"
                                    + " the stretched RTT of %d ms)",
                            stretch.toMillis())
                    .isNotEmpty();
            testbed.peer().send(ackAll(resend));
        }
    }

    @Test
    @DisplayName("what the probe's ACK shows missing is resent from a new UDP source port")
    @Verifies("6.3.4")
    void whatTheProbeShowsMissingIsResentFromANewPort(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final Duration stretch = stretch(testbed.profile().parameters().timers());
            final Tail tail = quietTail(testbed, stretch, 1303);
            final int mark = tail.mark();
            final ReceivedPacket first = tail.first();
            final long psn = first.data().orElseThrow().header().psn();
            final Optional<ReceivedPacket> probe =
                    testbed.peer().recorder().awaitFirst(mark, probes().or(resends(psn)), watch(testbed, stretch));
            if (probe.isEmpty() || probe.get().probe().isEmpty()) {
                throw Inconclusive.because("the DUT sent no PROBE before its timer's resend of PSN " + psn
                        + "; aSilentTailDrawsOneProbePerTimerRun judges that, and there is no probe to answer here");
            }
            // The probe's answer: nothing received on the path since the stretch, so the WRITE's packet is missing.
            final int answered = testbed.peer().mark();
            testbed.peer()
                    .send(CaseSteps.ack(
                            0, psn, probe.get().probe().orElseThrow().transmitTimestamp()));
            final ReceivedPacket resend = firstResend(testbed, mark, psn, stretch);
            if (resend.index() < answered) {
                throw Inconclusive.because("the DUT's timer resent PSN " + psn
                        + " before the tester could answer its probe; the probe's answer cannot be judged");
            }
            assertThat(resend.captured().sourcePort())
                    .as(
                            "6.3.4: the resend of PSN %d after the probe's ACK showed it missing leaves from a new"
                                    + " source port, not the one it was sent from (%d)",
                            psn, first.captured().sourcePort())
                    .isNotEqualTo(first.captured().sourcePort());
            testbed.peer().send(ackAll(resend));
        }
    }

    /**
     * Stretches the DUT's RTT estimate to {@code stretch} with a first one-packet WRITE (work request {@code wrId}),
     * then posts a second ({@code wrId + 1}) that the tester leaves unanswered: its first transmission, and the
     * recorder's mark from just before it was posted (the stretch's packets lie before it).
     */
    private static Tail quietTail(final Testbed testbed, final Duration stretch, final long wrId) throws Exception {
        CaseSteps.stage(testbed, Testbed.BASE, LENGTH, wrId);
        CaseSteps.stretchTheTimer(testbed, stretch, wrId, Testbed.BASE, LENGTH);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(CaseSteps.request(testbed, 0, wrId + 1, Testbed.BASE, LENGTH), REMOTE_ADDRESS, REMOTE_KEY);
        return new Tail(mark, testbed.peer().await(mark, ours(), Testbed.WAIT));
    }

    /** The unanswered WRITE's first transmission and the mark from which its traffic is read. */
    private record Tail(int mark, ReceivedPacket first) {}

    /**
     * The RTT the tester makes the DUT estimate: at most {@link #LONGEST_STRETCH}, and short enough that three times
     * it, the RTO after one sample, stays within the declared maximum RTO.
     */
    private static Duration stretch(final DeviceDeclaration.Timers timers) {
        final Duration room = timers.maxRto().minus(timers.tolerance()).dividedBy(3);
        final Duration stretch = room.compareTo(LONGEST_STRETCH) < 0 ? room : LONGEST_STRETCH;
        if (stretch.compareTo(Duration.ofMillis(5)) < 0) {
            throw Inconclusive.because(
                    "the declared maximum RTO (" + timers.maxRto().toMillis()
                            + " ms) leaves no room for an RTT the tester's scheduling cannot blur");
        }
        return stretch;
    }

    /**
     * How long the timer's first resend may take: the RTO after one stretched sample (three times it, clamped to the
     * declared bounds), the tolerance, and the tester's usual wait.
     */
    private static Duration watch(final Testbed testbed, final Duration stretch) {
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        Duration rto = stretch.multipliedBy(3);
        rto = rto.compareTo(timers.minRto()) < 0 ? timers.minRto() : rto;
        rto = rto.compareTo(timers.maxRto()) > 0 ? timers.maxRto() : rto;
        return rto.plus(timers.tolerance()).plus(Testbed.WAIT);
    }

    /** The first retransmission of {@code psn}; the case cannot decide without one. */
    private static ReceivedPacket firstResend(
            final Testbed testbed, final int mark, final long psn, final Duration stretch) {
        final Duration watch = watch(testbed, stretch);
        return testbed.peer()
                .recorder()
                .awaitFirst(mark, resends(psn), watch)
                .orElseThrow(() -> Inconclusive.because("the DUT did not resend PSN " + psn + " within " + watch
                        + " of silence; its timer is judged by TimerCase, and this case needs the resend as a"
                        + " boundary"));
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }

    private static PacketMatcher resends(final long psn) {
        return ours().psn(psn).retransmission();
    }

    private static PacketMatcher probes() {
        return PacketMatcher.expect()
                .probe()
                .connection(Testbed.TESTER_CONNECTION)
                .path(0);
    }

    private static org.mrconf.peer.PacketBuilder ackAll(final ReceivedPacket packet) {
        final DataPacket data = packet.data().orElseThrow();
        return CaseSteps.ack(data.header().pathId(), Psn.add(data.header().psn(), 1), data.transmitTimestamp());
    }
}
