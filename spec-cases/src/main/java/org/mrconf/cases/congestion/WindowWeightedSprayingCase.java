package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
import org.mrconf.cases.TimerWatch;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.wire.Opcode;

/**
 * Window-weighted spraying (clause 10.2.2): each new packet goes on the healthy path with the most free window, ties
 * broken in round-robin order. With the tester's ACKs held back and every path's window at its declared initial value,
 * four new packets over four paths must take the four paths one each (each pick leaves the others with more free
 * window). The tester then acknowledges path 1's packet only: path 1 has the most free window, so the next new packet
 * must go there; acknowledged again, the one after that too. A plain round robin cannot put both on path 1. With one
 * packet in flight on every path again, the next new packet breaks the tie: the round-robin order continues after the
 * path the previous new packet took, tie or not, so it goes to path 2. Path 0's packet acknowledged,
 * path 0 wins outright, and the tie after it, among paths 0, 1 and 3, goes to path 1.
 *
 * <p>"Free window" is read two ways, and a device may take either as long as it keeps to it at every tie: floor(W)
 * less the packets in flight (10.1.1 gates new packets on floor(W)), or W itself, fraction included. The windows grow by 1/W for each packet acknowledged, so
 * paths the stretch or the tester acknowledged more often have slightly larger windows; under the second reading the
 * tie is then among the most acknowledged of the tied paths only. The tester knows how many packets it acknowledged
 * on each path, so it knows both answers.
 *
 * <p>Each packet the tester acknowledges is a WRITE of its own, on a stream of its own where the device has streams
 * enough, so its completion shows that the DUT took the ACK in before the next post; else the DUT's path_status
 * shows it. Where neither can, a pick that neither reading allows is INCONCLUSIVE, not a failure.
 *
 * <p>Only what needs no order between packets of different paths is judged, since the arrival order across paths need
 * not be the send order: each tie the case judges is one packet, or a set of packets on distinct paths. The order of
 * the very first new packet may start anywhere, and is not judged. Every path's RTT is first stretched, so that no
 * timer fires while the tester holds ACKs back; an expiry all the same (a retransmission collapses a window, clause
 * 10.1.3) leaves the windows unknown to the tester (INCONCLUSIVE).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Window-weighted spraying")
class WindowWeightedSprayingCase {
    static final int PATHS = 4;

    /** Fresh connections the case tries before it gives up on stretching the RTTs without an expiry. */
    private static final int ATTEMPTS = 3;

    /** The path whose packets the tester acknowledges. */
    private static final int FREED = 1;

    /** How much older than its own timestamp each ACK of the tester echoes: every path's RTO stays far away. */
    static final Duration ECHO_AGE = Duration.ofMillis(200);

    /** The first work request id of the case's own WRITEs; the stretch uses the one before. */
    static final long FIRST_WR = 2201;

    /**
     * The smallest declared initial path window the case judges: the stretch acknowledges at most {@code 3 x PATHS}
     * packets on one path, and the case 2 more, each growing its window by 1/W (clause 10.1.1), so from 16 up the
     * whole-packet windows all stay at the declared value, and every path is tied when the judging begins.
     */
    private static final int SMALLEST_JUDGED_WINDOW = 16;

    @Test
    @DisplayName("each new packet takes the path with the most free window: one per path, then twice the path an ACK"
            + " freed, then the tie goes to the path after it")
    @Verifies("10.2.2")
    void newPacketsTakeTheMostFreeWindow(final DeviceUnderTest dut) throws Exception {
        // Each attempt is sound on its own: one that cannot decide (a timer the case does not control, an ACK not yet
        // taken in) leaves the verdict to the next, on a fresh connection.
        final List<String> undecided = new java.util.ArrayList<>();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                if (judged(dut)) {
                    return;
                }
                undecided.add("attempt " + attempt + ": a retransmission timer of the DUT expired before its RTT was"
                        + " stretched (the tester answered after the initial RTO), so its path windows were not what"
                        + " the tester knows");
            } catch (final Inconclusive e) {
                undecided.add("attempt " + attempt + ": " + e.getMessage());
            }
        }
        throw Inconclusive.because(String.join("; ", undecided));
    }

    /**
     * One attempt on a fresh connection; false, with nothing judged, when a timer expired while the RTTs were being
     * stretched (the initial RTO is short, and a loaded host may answer later).
     */
    private static boolean judged(final DeviceUnderTest dut) throws Exception {
        final int streams = Math.min(PATHS, dut.control().hello().limits().maxStreams());
        try (Testbed testbed = Testbed.open(dut, PATHS, streams)) {
            TesterMessages.requireProfile(testbed, Profile.MULTIPATH);
            requireRoom(testbed.profile().parameters().congestion());
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            // The stretch's two packets per path, then the case's nine one-packet WRITEs.
            CaseSteps.stage(testbed, Testbed.BASE, (2 * PATHS + 9) * payload, 10);
            // Counted from before the stretch: an expiry there may have collapsed a window as well.
            final TimerWatch timers = TimerWatch.start(testbed);
            final int stretchMark = testbed.peer().mark();
            // A WRITE of two packets per path, each ACK echoing a timestamp ECHO_AGE old, stretches every path it
            // lands on; a path the DUT left out keeps its short RTO, and its expiry is found below.
            CaseSteps.stretchTheTimer(testbed, ECHO_AGE, FIRST_WR - 1, Testbed.BASE, 2L * PATHS * payload);
            stretchThePathsLeftOut(testbed, stretchMark, payload);
            if (timers.expired()) {
                return false;
            }
            final SprayLedger ledger = new SprayLedger(testbed, timers, streams, payload);
            ledger.countStretch(stretchMark);
            testbed.connection().ackEchoAge(ECHO_AGE);
            try {
                // Every path at its initial window, nothing in flight: four new packets, one per path.
                final List<SprayLedger.Sent> first = new java.util.ArrayList<>();
                for (int packet = 0; packet < PATHS; packet++) {
                    first.add(ledger.post());
                }
                assertThat(first.stream().map(SprayLedger.Sent::path).toList())
                        .as("10.2.2: four new packets over four paths with equal free windows take one path each")
                        .doesNotHaveDuplicates();

                // Path 1's packet acknowledged: it has the most free window now, twice over.
                SprayLedger.Sent freed = sentOn(first, FREED);
                for (int round = 0; round < 2; round++) {
                    ledger.acknowledge(freed);
                    freed = ledger.postAndJudgeOutright(freed.stream(), FREED, "new packet " + (round + 1));
                }
                // Every path has one packet in flight: the tie goes to the path after FREED, picked last.
                ledger.postAndJudgeTie(freed.stream(), FREED);
                // Path 0's packet acknowledged: it alone has nothing in flight, so it wins outright; then paths 0, 1
                // and 3 tie (path 2 took the last tie and has two in flight), and the tie goes to path 1. A pointer
                // left where the last tie put it would send it to path 3.
                final SprayLedger.Sent zero = sentOn(first, 0);
                ledger.acknowledge(zero);
                ledger.postAndJudgeOutright(freed.stream(), 0, "the next new packet");
                ledger.postAndJudgeTie(freed.stream(), 0);
                return true;
            } finally {
                testbed.connection().ackEchoAge(Duration.ZERO);
            }
        }
    }

    /**
     * One-packet WRITEs, each acknowledged at once with the stretched echo, until every path carried a packet of the
     * stretch, for at most {@code PATHS} of them: a device that left a path out of the stretch's WRITE would otherwise
     * run its short initial RTO there, and expire while the tester holds ACKs back. A conforming device covers every
     * path with the first WRITE (each pick leaves the others with more free window), so this adds nothing for it; the
     * packets added stay few enough that no whole-packet window grows ({@link #SMALLEST_JUDGED_WINDOW}).
     */
    private static void stretchThePathsLeftOut(final Testbed testbed, final int stretchMark, final int payload)
            throws Exception {
        for (int extra = 0; extra < PATHS; extra++) {
            final long covered = testbed.peer().recorder().matching(stretchMark, DutTraffic.dataFromDut()).stream()
                    .map(p -> p.data().orElseThrow().header().pathId())
                    .distinct()
                    .count();
            if (covered == PATHS) {
                return;
            }
            CaseSteps.stretchTheTimer(testbed, ECHO_AGE, FIRST_WR - 2 - extra, Testbed.BASE, payload);
        }
    }

    private static SprayLedger.Sent sentOn(final List<SprayLedger.Sent> sent, final int path) {
        return sent.stream().filter(s -> s.path() == path).findFirst().orElseThrow();
    }

    /** Both windows must leave room for the case's packets: a smaller declared one is not judged. */
    private static void requireRoom(final DeviceDeclaration.Congestion declared) {
        // The connection window must never be what ties the paths: a device may count a path's free window as the
        // least of its own room and the connection's.
        if (declared.initialPathWindow() <= 0 || declared.initialConnectionWindow() <= 0) {
            throw Inconclusive.because("the device declares no initial "
                    + (declared.initialPathWindow() <= 0 ? "path" : "connection") + " window (a device without the"
                    + " congestion profile need not, clause 12.1.6), so the tester cannot know that its paths start"
                    + " with equal windows large enough to tell the most free path; declaring initialPathWindow of at"
                    + " least " + SMALLEST_JUDGED_WINDOW + " and initialConnectionWindow of at least that plus "
                    + 2 * PATHS + " would make it conclusive");
        }
        if (declared.initialPathWindow() < SMALLEST_JUDGED_WINDOW
                || declared.initialConnectionWindow() < declared.initialPathWindow() + 2 * PATHS) {
            throw NotApplicable.because("the device's configuration: the declared initial windows ("
                    + declared.initialPathWindow() + " per path, " + declared.initialConnectionWindow() + " per"
                    + " connection) leave no room to tell the most free path from the others; an initialPathWindow of"
                    + " at least " + SMALLEST_JUDGED_WINDOW + " and an initialConnectionWindow of at least that plus "
                    + 2 * PATHS + " would exercise it");
        }
    }
}
