package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The retransmission timer of clause 6.6.2 judged per path, on every path of a connection of two to four: each path's
 * timer starts when a PSN becomes outstanding on it while none was, and restarts on an ACK of the path that acknowledges
 * a PSN for the first time. First every path's RTO is stretched far above the timer tolerance (ACKs echoing an old
 * timestamp, {@link CaseSteps#stretchTheTimer}); then a message is sent on all paths and never acknowledged, except
 * that on every odd path the tester acknowledges the path's first PSN only, half an RTO later. A path's first resend
 * must then come one RTO after the path's own first PSN (even paths) or after the partial ACK (odd paths), never
 * sooner by more than the tolerance, and must come. The tester never races the timer: it answers half an RTO before the
 * earliest expiry a conforming device may have.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Retransmission timer per path")
class PathTimerCase {
    private static final long REMOTE_ADDRESS = 0x00E8_0000L;
    private static final long REMOTE_KEY = 0x67;
    /** The echo age that stretches every path's RTO: far above the standard timers and their tolerance. */
    private static final Duration AGE = Duration.ofMillis(200);

    @Test
    @DisplayName("each path's timer starts with its own first PSN and restarts on its own partial ACK")
    @Verifies("6.6.2")
    void eachPathTimesItsOwnPsns(final DeviceUnderTest dut) throws Exception {
        final int paths = Math.min(4, dut.profile().conformance().limits().maxPaths());
        if (paths < 2) {
            throw NotApplicable.because("the device declares a single path; the per-path timer needs two");
        }
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            final long toleranceNs = timers.tolerance().toNanos();
            final long floorNs = CaseSteps.stretchedRtoFloor(testbed, AGE).toNanos();
            if (floorNs <= 4 * toleranceNs) {
                throw Inconclusive.because(
                        "the declared maximum RTO (" + timers.maxRto().toMillis() + " ms) is not"
                                + " above four times the timer tolerance ("
                                + timers.tolerance().toMillis() + " ms), so an"
                                + " early expiry cannot be told from a timely one; a larger maximum RTO or a smaller tolerance"
                                + " would make this case conclusive");
            }
            final int segment = testbed.connection().maxPayload(Opcode.WRITE);
            // Many samples on every path: the stretched RTO settles close to the echo age, its floor.
            final int stretchLength = 12 * paths * segment;
            CaseSteps.stage(testbed, Testbed.BASE, stretchLength, 40);
            final int stretchMark = testbed.peer().mark();
            CaseSteps.stretchTheTimer(testbed, AGE, 1400, Testbed.BASE, stretchLength);
            final boolean[] stretched = new boolean[paths];
            for (final ReceivedPacket p : testbed.peer().recorder().matching(stretchMark, data())) {
                stretched[p.data().orElseThrow().header().pathId()] = true;
            }

            // Nothing is outstanding now, so no timer runs. Wait past any deadline a timer of the stretch could still
            // hold (at most a few stretched RTOs, never above the maximum RTO): a path whose timer is not started
            // afresh by the next PSN then shows it by expiring at once.
            Thread.sleep(Math.min(timers.maxRto().toNanos(), 4 * floorNs) / 1_000_000 + 1);

            // Rounds: a message is sent and never acknowledged (but for the partial ACKs); each path that carries it
            // is judged; then everything is acknowledged. A device whose windows let one packet out at a time puts one
            // path's timer to the test per round, so rounds go on until two paths, one of them not path 0, were judged.
            final boolean[] judged = new boolean[paths];
            final int length = 3 * paths * segment;
            final long source = Testbed.BASE + 0x10_0000L / 2;
            CaseSteps.stage(testbed, source, length, 41);
            long wrId = 1401;
            int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, wrId, source, length), REMOTE_ADDRESS, REMOTE_KEY);
            for (int round = 0; round < 4 * paths && !enough(judged); round++) {
                List<ReceivedPacket> firsts = TesterMessages.awaitStalled(testbed, mark, ours().firstTransmission());
                if (firsts.isEmpty()) {
                    // The message is complete: another one.
                    testbed.awaitCompletion(wrId);
                    mark = testbed.peer().mark();
                    testbed.control()
                            .postWrite(
                                    CaseSteps.request(testbed, 0, ++wrId, source, length), REMOTE_ADDRESS, REMOTE_KEY);
                    firsts = TesterMessages.awaitStalled(testbed, mark, ours().firstTransmission());
                }
                final List<ReceivedPacket> last = judgeRound(testbed, mark, firsts, paths, floorNs, stretched, judged);
                // Acknowledge everything sent, echoing an old timestamp again: every path's RTO stays stretched.
                mark = testbed.peer().mark();
                for (final ReceivedPacket packet : last) {
                    final DataPacket data = packet.data().orElseThrow();
                    final int path = data.header().pathId();
                    final long echo = (data.transmitTimestamp() - AGE.toNanos()) & 0xFFFF_FFFFL;
                    testbed.peer()
                            .send(CaseSteps.ack(path, Psn.add(data.header().psn(), 1), echo));
                    stretched[path] = true;
                }
            }
            if (!enough(judged)) {
                throw Inconclusive.because("over " + 4 * paths + " rounds the device's packets took too few of its "
                        + paths + " paths to judge a timer on two paths, one of them not path 0; a device that sprays"
                        + " its packets over its paths makes this case conclusive");
            }
        }
    }

    /** Whether two paths were judged, one of them not path 0. */
    private static boolean enough(final boolean[] judged) {
        int count = 0;
        for (final boolean j : judged) {
            count += j ? 1 : 0;
        }
        return count >= 2;
    }

    /**
     * Judges one round: {@code firsts} are the first transmissions the DUT sent since {@code mark} before it stopped.
     * Acknowledges the first PSN alone of every odd path with two or more, half the RTO floor after it, then judges the
     * first resend of every path that carried a packet. Returns, per path judged, the newest packet, whose PSN and
     * timestamp an ACK of everything takes.
     */
    private static List<ReceivedPacket> judgeRound(
            final Testbed testbed,
            final int mark,
            final List<ReceivedPacket> firsts,
            final int paths,
            final long floorNs,
            final boolean[] stretched,
            final boolean[] judged)
            throws Exception {
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        final long toleranceNs = timers.tolerance().toNanos();
        final List<List<ReceivedPacket>> byPath = new ArrayList<>();
        for (int p = 0; p < paths; p++) {
            byPath.add(new ArrayList<>());
        }
        for (final ReceivedPacket p : firsts) {
            byPath.get(p.data().orElseThrow().header().pathId()).add(p);
        }
        // Half the floor after each odd path's first PSN, acknowledge that PSN alone: the timer restarts there. The
        // earliest expiry a conforming device may have is a full floor after it, so the tester does not race it.
        final long[] restartedAtNs = new long[paths];
        // When each of those ACKs had surely left: the tester's thread may be held back between reading the clock and
        // sending (a loaded host), so the restart is judged from before the send and its lateness from after it.
        final long[] ackLeftNs = new long[paths];
        for (int p = 1; p < paths; p += 2) {
            if (byPath.get(p).size() < 2) {
                continue; // one PSN only: acknowledging it would stop the timer, not restart it
            }
            final ReceivedPacket first = byPath.get(p).get(0);
            final long dueNs = first.receivedNs() + floorNs / 2;
            while (testbed.peer().link().nowNs() - dueNs < 0) {
                Thread.sleep(1);
            }
            final DataPacket data = first.data().orElseThrow();
            final long echo = (data.transmitTimestamp() - AGE.toNanos()) & 0xFFFF_FFFFL;
            restartedAtNs[p] = testbed.peer().link().nowNs();
            testbed.peer().send(CaseSteps.ack(p, Psn.add(data.header().psn(), 1), echo));
            ackLeftNs[p] = testbed.peer().link().nowNs();
        }
        final List<ReceivedPacket> newest = new ArrayList<>();
        for (int p = 0; p < paths; p++) {
            if (byPath.get(p).isEmpty()) {
                continue;
            }
            final ReceivedPacket first = byPath.get(p).get(0);
            final long rtoFloorNs = stretched[p] ? floorNs : timers.initialRto().toNanos();
            final boolean restarted = restartedAtNs[p] != 0;
            final long fromNs = restarted ? restartedAtNs[p] : first.receivedNs();
            final Duration within =
                    timers.maxRto().multipliedBy(2).plus(timers.tolerance()).plus(Testbed.WAIT);
            final Optional<ReceivedPacket> resend =
                    testbed.peer().recorder().awaitFirst(mark, ours().path(p).retransmission(), within);
            assertThat(resend)
                    .as(
                            "6.6.2: path %d has PSNs outstanding and never acknowledged, so its timer expires and"
                                    + " resends within twice the declared maximum RTO of %d ms",
                            p, timers.maxRto().toMillis())
                    .isPresent();
            final ReceivedPacket again = resend.orElseThrow();
            final long byTester = again.receivedNs() - fromNs;
            // The DUT's own clock, from its first PSN of the path; it cannot see when the ACK arrived.
            final long byDut = Psn.distance(
                    first.data().orElseThrow().transmitTimestamp(),
                    again.data().orElseThrow().transmitTimestamp());
            final long lowest = rtoFloorNs - toleranceNs;
            final String what = restarted
                    ? String.format(
                            "6.6.2: path %d's first resend after an ACK of its first PSN alone (sent %d ms after that"
                                    + " PSN) restarted its timer",
                            p, (restartedAtNs[p] - first.receivedNs()) / 1_000_000)
                    : String.format("6.6.2: path %d's first resend after its own first PSN", p);
            // A resend comes no sooner than the RTO after the later of the path's first PSN and its partial ACK. The
            // tester's clock only lengthens the interval from the ACK (both legs of the link add to it); from the first
            // PSN, where jitter could shorten it, both clocks must say early.
            final long earliest = restarted ? byTester : Math.max(byTester, byDut);
            if (restarted
                    && earliest < lowest
                    && ackLeftNs[p] - first.receivedNs() > floorNs - toleranceNs - floorNs / 4) {
                // The tester was held back past half the floor: its ACK left so near the first PSN's own expiry that
                // the resend may be that expiry, which the ACK came too late to restart.
                throw Inconclusive.because(String.format(
                        "%s: the tester's ACK left %d ms after the PSN, not the %d ms it aimed at (a host stall), so near"
                                + " the earliest expiry of the PSN's own timer (%d ms less the tolerance) that the resend"
                                + " %d us after the ACK may be that expiry; re-run on an idle host",
                        what,
                        (ackLeftNs[p] - first.receivedNs()) / 1_000_000,
                        floorNs / 2_000_000,
                        floorNs / 1_000_000,
                        byTester / 1000));
            }
            StallAllowance.excuse(
                    testbed.stalls(), what, StallAllowance.underNs(earliest, lowest), fromNs, again.receivedNs());
            assertThat(earliest)
                    .as(
                            "%s: not before the path's RTO (at least %d ms%s) less the tolerance of %d ms; the tester"
                                    + " measured %d us, the DUT's timestamps from the first PSN %d us",
                            what,
                            rtoFloorNs / 1_000_000,
                            stretched[p] ? ", stretched" : ", the initial RTO",
                            toleranceNs / 1_000_000,
                            byTester / 1000,
                            byDut / 1000)
                    .isGreaterThanOrEqualTo(lowest);
            judged[p] = true;
            newest.add(byPath.get(p).get(byPath.get(p).size() - 1));
        }
        return newest;
    }

    private static PacketMatcher data() {
        return PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION);
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }
}
