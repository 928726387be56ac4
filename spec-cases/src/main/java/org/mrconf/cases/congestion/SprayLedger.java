package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowWeightedSprayingCase.ECHO_AGE;
import static org.mrconf.cases.congestion.WindowWeightedSprayingCase.FIRST_WR;
import static org.mrconf.cases.congestion.WindowWeightedSprayingCase.PATHS;

import java.time.Duration;
import java.util.List;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TimerWatch;
import org.mrconf.dut.PathState;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;

/**
 * What the tester knows of each path: the packets in flight (none are lost: an expiry ends the attempt), how many
 * it acknowledged, and which path the previous new packet took. Posts the case's one-packet WRITEs, acknowledges
 * them, and judges the picks.
 */
final class SprayLedger {
    /** A one-packet WRITE the DUT sent: its work request, stream, and the packet's first transmission. */
    record Sent(long wrId, int stream, ReceivedPacket packet) {
        int path() {
            return packet.data().orElseThrow().header().pathId();
        }
    }

    /** How long the DUT is given to read an ACK it answered a later PROBE for, without other evidence. */
    private static final Duration SETTLE = Duration.ofMillis(20);

    private final Testbed testbed;
    private final TimerWatch timers;
    private final int streams;
    private final int payload;
    private final int[] inFlight = new int[PATHS];
    private final int[] acknowledged = new int[PATHS];
    /** Per stream, its WRITEs not yet complete, oldest first: only the oldest completes on its own ACK. */
    private final List<java.util.ArrayDeque<Long>> unfinished = new java.util.ArrayList<>();

    private long nextWr = FIRST_WR;
    private int nextStream;
    /** Whether every ACK so far was shown taken in before the next post (a completion or path_status). */
    private boolean everyAckShown = true;
    /**
     * Whether every tie so far went where each reading of free window puts it. A device follows one reading
     * throughout, so a pick one reading allows and a later pick only the other allows is no conforming device's.
     */
    private boolean floorReadingHolds = true;

    private boolean fractionReadingHolds = true;
    /** Each tie judged so far: where it went and where each reading put it. */
    private final List<String> ties = new java.util.ArrayList<>();

    SprayLedger(final Testbed testbed, final TimerWatch timers, final int streams, final int payload) {
        this.testbed = testbed;
        this.timers = timers;
        this.streams = streams;
        this.payload = payload;
        for (int stream = 0; stream < streams; stream++) {
            unfinished.add(new java.util.ArrayDeque<>());
        }
    }

    /** Counts the stretch's packets per path: each was acknowledged once, growing its path's window. */
    void countStretch(final int mark) {
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, DutTraffic.dataFromDut())) {
            acknowledged[packet.data().orElseThrow().header().pathId()]++;
        }
    }

    /** Posts a one-packet WRITE on the next stream in turn. */
    Sent post() throws Exception {
        final int stream = nextStream;
        nextStream = (nextStream + 1) % streams;
        return post(stream);
    }

    /** Posts a one-packet WRITE on {@code stream} and returns it once its packet arrived. */
    Sent post(final int stream) throws Exception {
        final long wrId = nextWr++;
        final long offset = (wrId - FIRST_WR + 2L * PATHS) * payload;
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(
                                Testbed.DUT_CONNECTION, stream, wrId, testbed.key(), Testbed.BASE + offset, payload),
                        DutTraffic.REMOTE_ADDRESS + offset,
                        DutTraffic.REMOTE_KEY);
        final ReceivedPacket packet = testbed.peer().await(mark, DutTraffic.dataFromDut(), Testbed.WAIT);
        requireNoExpiry(timers);
        unfinished.get(stream).add(wrId);
        final Sent sent = new Sent(wrId, stream, packet);
        inFlight[sent.path()]++;
        return sent;
    }

    /**
     * Acknowledges {@code sent} (with everything the tester recorded before it on its path), echoing a timestamp
     * {@link #ECHO_AGE} old so the path's RTT stays stretched, then makes sure the DUT took that ACK in before the
     * next post: the WRITE's completion, where it is the oldest unfinished one of its stream, and the DUT's own
     * account of the path (path_status, where it offers it: nothing unacknowledged left there). Without either,
     * its answer to a PROBE sent after the ACK on the same path and a settling pause make it likely, not certain.
     */
    void acknowledge(final Sent sent) throws Exception {
        final int path = sent.path();
        final DataPacket data = sent.packet().data().orElseThrow();
        testbed.connection().onReceived(sent.packet());
        testbed.peer()
                .send(testbed.connection()
                        .ackFor(path, (data.transmitTimestamp() - ECHO_AGE.toNanos()) & 0xFFFF_FFFFL));
        inFlight[path]--;
        acknowledged[path]++;
        final boolean completes = unfinished.get(sent.stream()).peekFirst() == sent.wrId();
        unfinished.get(sent.stream()).remove(sent.wrId());
        if (completes) {
            final var status = testbed.awaitCompletion(sent.wrId()).status();
            if (status != org.mrconf.dut.CompletionStatus.SUCCESS) {
                throw Inconclusive.because("a one-packet WRITE the tester acknowledged completed " + status
                        + ", so what the DUT holds in flight is unknown");
            }
        }
        final boolean statusShown = awaitPathStatus(path);
        if (!completes && !statusShown) {
            everyAckShown = false;
            probeAndSettle(path);
        }
    }

    /**
     * Posts a one-packet WRITE on {@code stream} when one path wins outright, under both readings of free window,
     * and judges that it went there.
     */
    Sent postAndJudgeOutright(final int stream, final int expected, final String what) throws Exception {
        final Sent sent = post(stream);
        final int chosen = sent.path();
        if (chosen != expected) {
            requireAckShown(chosen);
        }
        assertThat(chosen)
                .as(
                        "10.2.2: with its one packet in flight acknowledged, path %d alone has the most free"
                                + " window (every other path has a packet in flight), so %s goes there",
                        expected, what)
                .isEqualTo(expected);
        return sent;
    }

    /**
     * Posts a one-packet WRITE on {@code stream} when the paths with the most free window are tied, and judges its
     * pick among them after {@code previous}, the path the previous new packet took on free window alone: the tie goes
     * to the first tied path after it (clause 10.2.2). A device that moves its pointer on ties only
     * sends it after the previous tie's path instead. Under the fractional reading the tie is among the most
     * acknowledged of the tied paths. A device keeps to one reading, so each tie must agree with a reading that every
     * earlier tie agreed with too.
     */
    void postAndJudgeTie(final int stream, final int previous) throws Exception {
        final TieBreak expected = TieBreak.of(inFlight, acknowledged, previous);
        final String inFlightBefore = java.util.Arrays.toString(inFlight);
        final int chosen = post(stream).path();
        floorReadingHolds &= chosen == expected.byFloor();
        fractionReadingHolds &= chosen == expected.byFraction();
        ties.add(String.format(
                "paths %s tied after path %d (in flight %s, acknowledged %s): path %d taken, %d by floor(W), %d by W",
                expected.tied(),
                previous,
                inFlightBefore,
                java.util.Arrays.toString(acknowledged),
                chosen,
                expected.byFloor(),
                expected.byFraction()));
        if (floorReadingHolds || fractionReadingHolds) {
            return;
        }
        requireAckShown(chosen);
        throw new AssertionError("10.2.2: each tie goes to the first tied path after the path the previous new packet"
                + " took, reading free window either as floor(W) less the packets in flight or as"
                + " W less them, the same reading every time; no reading explains these picks: "
                + String.join("; ", ties));
    }

    private void requireAckShown(final int chosen) {
        if (!everyAckShown) {
            throw Inconclusive.because("the new packet took path " + chosen + ", which neither reading of free"
                    + " window allows unless the DUT had not yet taken in an ACK of the tester's; it offers"
                    + " neither a completion nor path_status that shows it had");
        }
    }

    /** True once path_status shows nothing unacknowledged on {@code path}; false if the DUT offers none. */
    private boolean awaitPathStatus(final int path) throws Exception {
        if (testbed.control().pathStatus(Testbed.DUT_CONNECTION).isEmpty()) {
            return false;
        }
        final long deadlineNs = System.nanoTime() + Testbed.WAIT.toNanos();
        while (true) {
            final PathState state = testbed.control().pathStatus(Testbed.DUT_CONNECTION).orElseThrow().stream()
                    .filter(p -> p.pathId() == path)
                    .findFirst()
                    .orElseThrow(() -> Inconclusive.because("path_status reports no path " + path));
            if (state.oldestUnackedPsn() == state.nextPsn()) {
                return true;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                throw Inconclusive.because("path_status still shows path " + path + " with PSNs unacknowledged "
                        + Testbed.WAIT.toSeconds() + " s after the tester acknowledged them");
            }
            Thread.sleep(2);
        }
    }

    private void probeAndSettle(final int path) throws Exception {
        final int mark = testbed.peer().mark();
        testbed.peer()
                .send(PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .psn(testbed.connection().nextPsn(path))
                        .transmitTimestamp(2203)
                        .ackRequest());
        testbed.peer().await(mark, DutTraffic.ackOf(path).echoedTimestamp(2203), Testbed.WAIT);
        Thread.sleep(SETTLE.toMillis());
    }

    /** A timer that expired meanwhile collapsed a window the tester cannot see (clause 10.1.3): nothing is judged. */
    private static void requireNoExpiry(final TimerWatch timers) throws Exception {
        if (timers.expired()) {
            throw Inconclusive.because("a retransmission timer of the DUT expired while the tester held its ACKs"
                    + " back, so its path windows are not what the tester knows");
        }
    }
}
