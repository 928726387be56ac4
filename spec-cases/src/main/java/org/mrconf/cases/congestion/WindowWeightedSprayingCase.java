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
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.TimerWatch;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.PathState;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * Window-weighted spraying (clause 10.2.2): each new packet goes on the healthy path with the most free window, ties
 * broken in round-robin order. With the tester's ACKs held back and every path's window at its declared initial value,
 * four new packets over four paths must take the four paths one each (each pick leaves the others with more free
 * window). The tester then acknowledges path 1's packet only: path 1 has the most free window, so the next new packet
 * must go there; acknowledged again, the one after that too. A plain round robin cannot put both on path 1. With one
 * packet in flight on every path again, the next new packet breaks the tie: the round-robin order continues after the
 * path the previous new packet took, tie or not (Open Draft 0.14), so it goes to path 2. Path 0's packet acknowledged,
 * path 0 wins outright, and the tie after it, among paths 0, 1 and 3, goes to path 1.
 *
 * <p>Only what needs no order between packets of different paths is judged, since the arrival order across paths need
 * not be the send order: each tie the case judges is one packet, or a set of packets on distinct paths. The order of
 * the very first new packet may start anywhere, and is not judged. Every path's RTT is first stretched, so that no timer fires while the tester
 * holds ACKs back; an expiry all the same (a retransmission collapses a window, clause 10.1.3) leaves the windows
 * unknown to the tester (INCONCLUSIVE).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Window-weighted spraying")
class WindowWeightedSprayingCase {
    private static final int PATHS = 4;

    /** How long the DUT is given to read an ACK it answered a later PROBE for, without path_status. */
    private static final Duration SETTLE = Duration.ofMillis(20);

    /** Fresh connections the case tries before it gives up on stretching the RTTs without an expiry. */
    private static final int ATTEMPTS = 3;

    /** The path whose packets the tester acknowledges. */
    private static final int FREED = 1;

    /** How much older than its own timestamp each ACK of the tester echoes: every path's RTO stays far away. */
    private static final Duration ECHO_AGE = Duration.ofMillis(200);

    /**
     * The smallest declared initial path window the case judges: the stretch acknowledges at most {@code 2 x PATHS}
     * packets on one path, each growing its window by 1/W (clause 10.1.1, "about"), so from 16 up the whole-packet
     * windows all stay at the declared value, with room to spare, and every path is tied when the judging begins.
     */
    private static final int SMALLEST_JUDGED_WINDOW = 16;

    @Test
    @DisplayName("each new packet takes the path with the most free window: one per path, then twice the path an ACK"
            + " freed, then the tie goes to the path after it")
    @Verifies("10.2.2")
    void newPacketsTakeTheMostFreeWindow(final DeviceUnderTest dut) throws Exception {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (judged(dut)) {
                return;
            }
        }
        throw Inconclusive.because("in each of " + ATTEMPTS + " attempts a retransmission timer of the DUT expired"
                + " before its RTT was stretched (the tester answered after the initial RTO), so its path windows were"
                + " not what the tester knows");
    }

    /**
     * One attempt on a fresh connection; false, with nothing judged, when a timer expired while the RTTs were being
     * stretched (the initial RTO is short, and a loaded host may answer later).
     */
    private static boolean judged(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, PATHS, 1)) {
            TesterMessages.requireProfile(testbed, Profile.MULTIPATH);
            requireRoom(testbed.profile().parameters().congestion());
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            CaseSteps.stage(testbed, Testbed.BASE, (2 * PATHS + PATHS + 1) * payload, 10);
            // Counted from before the stretch: an expiry there may have collapsed a window as well.
            final TimerWatch timers = TimerWatch.start(testbed);
            // A WRITE of two packets per path, each ACK echoing a timestamp ECHO_AGE old, stretches every path it
            // lands on; a path the DUT left out keeps its short RTO, and its expiry is found below.
            CaseSteps.stretchTheTimer(testbed, ECHO_AGE, 2200, Testbed.BASE, 2L * PATHS * payload);
            if (timers.expired()) {
                return false;
            }
            testbed.connection().ackEchoAge(ECHO_AGE);
            try {
                // Every path at its initial window, nothing in flight: four new packets, one per path.
                final List<ReceivedPacket> first = post(testbed, 2201, 0, PATHS * payload, PATHS);
                requireNoExpiry(timers);
                assertThat(paths(first))
                        .as("10.2.2: four new packets over four paths with equal free windows take one path each")
                        .doesNotHaveDuplicates();

                // Path 1's packet acknowledged: it has the most free window now, twice over.
                ReceivedPacket freed = first.stream()
                        .filter(p -> p.data().orElseThrow().header().pathId() == FREED)
                        .findFirst()
                        .orElseThrow();
                for (int round = 0; round < 2; round++) {
                    acknowledge(testbed, freed);
                    freed = post(testbed, 2202 + round, (PATHS + round) * (long) payload, payload, 1)
                            .get(0);
                    requireNoExpiry(timers);
                    assertThat(freed.data().orElseThrow().header().pathId())
                            .as(
                                    "10.2.2: with its one packet in flight acknowledged, path %d has the most free"
                                            + " window (every other path has a packet in flight), so new packet %d"
                                            + " goes there",
                                    FREED, round + 1)
                            .isEqualTo(FREED);
                }
                // Every path has one packet in flight: the tie goes to the path after FREED, picked last.
                judgeTheTieAfter(testbed, timers, FREED, 2204, (PATHS + 2) * (long) payload, payload);
                // Path 0's packet acknowledged: it alone has nothing in flight, so it wins outright; then paths 0, 1
                // and 3 tie (path 2 took the last tie and has two in flight), and the tie goes to path 1. A pointer
                // left where the last tie put it would send it to path 3.
                final ReceivedPacket zero = first.stream()
                        .filter(p -> p.data().orElseThrow().header().pathId() == 0)
                        .findFirst()
                        .orElseThrow();
                acknowledge(testbed, zero);
                final int strict = postOnePacket(testbed, 2205, (PATHS + 3) * (long) payload, payload);
                requireNoExpiry(timers);
                assertThat(strict)
                        .as("10.2.2: with its one packet in flight acknowledged, path 0 alone has nothing in flight")
                        .isZero();
                judgeTheTieAfter(testbed, timers, 0, 2206, (PATHS + 4) * (long) payload, payload);
                return true;
            } finally {
                testbed.connection().ackEchoAge(Duration.ZERO);
            }
        }
    }

    /**
     * Posts one packet when the paths with the most free window are tied, the previous new packet having taken
     * {@code chosen} on free window alone, and judges that the tie goes to the path after {@code chosen}: the
     * round-robin order continues after the path chosen, tie or not (clause 10.2.2, Open Draft 0.14). A device that
     * moves its pointer on ties only sends it after the previous tie's path instead. Path {@code chosen} itself may
     * win outright, having had the only ACK since the tie began (a window grown by a packet is "about" one per RTT,
     * clause 10.1.1): that pick cannot be told from a tie, so it is INCONCLUSIVE.
     */
    private static void judgeTheTieAfter(
            final Testbed testbed,
            final TimerWatch timers,
            final int chosen,
            final long wrId,
            final long offset,
            final int payload)
            throws Exception {
        final int path = postOnePacket(testbed, wrId, offset, payload);
        requireNoExpiry(timers);
        if (path == chosen) {
            throw Inconclusive.because("the packet after path " + chosen + "'s pick on free window went to path "
                    + chosen + " again: its window may have grown by a packet from the ACK it alone received, so"
                    + " whether the paths were tied is unknown");
        }
        assertThat(path)
                .as(
                        "10.2.2: the paths with the most free window are tied, and the tie goes to the first of them"
                                + " after path %d, which the previous new packet took (Open Draft 0.14)",
                        chosen)
                .isEqualTo((chosen + 1) % PATHS);
    }

    /** Both windows must leave room for the case's packets: a smaller declared one is not judged. */
    private static void requireRoom(final DutProfile.Congestion declared) {
        // The connection window must never be what ties the paths: a device may count a path's free window as the
        // least of its own room and the connection's.
        if (declared.initialPathWindow() < SMALLEST_JUDGED_WINDOW
                || declared.initialConnectionWindow() < declared.initialPathWindow() + 2 * PATHS) {
            throw Inconclusive.because("the declared initial windows (" + declared.initialPathWindow()
                    + " per path, " + declared.initialConnectionWindow() + " per connection) leave no room to tell"
                    + " the most free path from the others");
        }
    }

    /** Posts a WRITE and returns the first transmissions of its {@code packets} packets. */
    private static List<ReceivedPacket> post(
            final Testbed testbed, final long wrId, final long offset, final long length, final int packets)
            throws Exception {
        final int mark = testbed.peer().mark();
        DutTraffic.postWrite(testbed, wrId, offset, length);
        final List<ReceivedPacket> sent =
                testbed.peer().recorder().awaitCount(mark, DutTraffic.dataFromDut(), packets, Testbed.WAIT);
        return sent.subList(0, packets);
    }

    /** Posts a WRITE of one packet and returns the path it went on. */
    private static int postOnePacket(final Testbed testbed, final long wrId, final long offset, final int payload)
            throws Exception {
        return post(testbed, wrId, offset, payload, 1)
                .get(0)
                .data()
                .orElseThrow()
                .header()
                .pathId();
    }

    private static List<Integer> paths(final List<ReceivedPacket> packets) {
        return packets.stream()
                .map(p -> p.data().orElseThrow().header().pathId())
                .toList();
    }

    /**
     * Acknowledges {@code packet} (with everything the tester recorded before it on its path), echoing a timestamp
     * {@link #ECHO_AGE} old so the path's RTT stays stretched, then makes sure the DUT took that ACK in before the next
     * post: by its own account of the path (path_status, where it offers it: nothing unacknowledged left there), else
     * by its answer to a PROBE sent after the ACK on the same path and a settling pause, since a device may answer a
     * PROBE in its receive pipeline before its sending side has read the ACK.
     */
    private static void acknowledge(final Testbed testbed, final ReceivedPacket packet) throws Exception {
        final int path = packet.data().orElseThrow().header().pathId();
        testbed.connection().onReceived(packet);
        testbed.peer()
                .send(testbed.connection()
                        .ackFor(
                                path,
                                (packet.data().orElseThrow().transmitTimestamp() - ECHO_AGE.toNanos()) & 0xFFFF_FFFFL));
        final int mark = testbed.peer().mark();
        testbed.peer()
                .send(PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .psn(testbed.connection().nextPsn(path))
                        .transmitTimestamp(2203)
                        .ackRequest());
        testbed.peer().await(mark, DutTraffic.ackOf(path).echoedTimestamp(2203), Testbed.WAIT);
        if (testbed.control().pathStatus(Testbed.DUT_CONNECTION).isEmpty()) {
            Thread.sleep(SETTLE.toMillis());
            return;
        }
        final long deadlineNs = System.nanoTime() + Testbed.WAIT.toNanos();
        while (true) {
            final PathState state = testbed.control().pathStatus(Testbed.DUT_CONNECTION).orElseThrow().stream()
                    .filter(p -> p.pathId() == path)
                    .findFirst()
                    .orElseThrow(() -> Inconclusive.because("path_status reports no path " + path));
            if (state.oldestUnackedPsn() == state.nextPsn()) {
                return;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                throw Inconclusive.because("path_status still shows path " + path + " with PSNs unacknowledged "
                        + Testbed.WAIT.toSeconds() + " s after the tester acknowledged them");
            }
            Thread.sleep(2);
        }
    }

    /** A timer that expired meanwhile collapsed a window the tester cannot see (clause 10.1.3): nothing is judged. */
    private static void requireNoExpiry(final TimerWatch timers) throws Exception {
        if (timers.expired()) {
            throw Inconclusive.because("a retransmission timer of the DUT expired while the tester held its ACKs"
                    + " back, so its path windows are not what the tester knows");
        }
    }
}
