package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.ReceivedPacket;

/**
 * The windows of a sender without the congestion profile (clause 10.1.6): no more packets in flight on a path than
 * its path window, nor on the connection than its connection window, and neither window grows past its value.
 *
 * <p>The windows are the declared first ones (Table 12-2; optional for such a device): a path window of 256 (the send
 * window of clause 6.1.3) when none is declared, and no connection window but the paths' when none is declared. The
 * case first lets the DUT send and have acknowledged at once, by the tester's receive thread, at least twice its path
 * window on every path, enough acknowledged packets to grow an additive-increase window past its first value by more
 * than a packet. Then it withholds every ACK and counts the new PSNs the DUT sends: per path and in all. Every count is
 * a lower bound of what the DUT has in flight (only first transmissions the tester received are counted, and none of
 * them is acknowledged), so a count above a window is a violation whatever the timing; a timer that fires resends old
 * PSNs and never adds to a count. The clause lets the device keep fewer packets in flight for any reason, so a count
 * below a window is no failure: it is judged as the bound (clause 10.1.6: "judges only the bound").
 */
@ExtendWith(DutExtension.class)
@DisplayName("Windows without the congestion profile")
class WindowsWithoutCongestionCase {
    /** Work requests of the growth round, then of the counted round. */
    private static final long GROWTH_WR = 30_000;

    private static final long COUNTED_WR = 31_000;

    /** The send window of clause 6.1.3: the path window of a device that declares none. */
    private static final int SEND_WINDOW = 256;

    /** Most packets the growth round sends in all, so that a device with large windows is not kept long. */
    private static final int MOST_GROWTH_PACKETS = 2048;

    @Test
    @DisplayName("without the congestion profile, packets in flight stay within the declared first path and connection"
            + " windows after many acknowledged packets: the windows do not grow")
    @Verifies("10.1.6")
    @Kind(Kind.Purpose.VALID)
    void windowsStayAtTheirDeclaredValues(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration profile = dut.profile();
        if (profile.claims(Profile.CONGESTION)) {
            throw NotApplicable.because(Applicability.CLAIMS_MORE
                    + "it claims the congestion profile, so clauses 10.1.1 to 10.1.5 judge its windows instead");
        }
        final DeviceDeclaration.Congestion declared = profile.parameters().congestion();
        final boolean pathDeclared = declared.initialPathWindow() >= 1;
        final boolean connectionDeclared = declared.initialConnectionWindow() >= 1;
        final int pathWindow = pathDeclared ? Math.min(SEND_WINDOW, declared.initialPathWindow()) : SEND_WINDOW;
        final int maxPaths = Math.max(1, profile.conformance().limits().maxPaths());
        // Paths enough that their windows together allow more than the connection window, so that both bounds are
        // put to the test; two otherwise (a path bound held on one path and not another is still seen).
        int paths = Math.min(maxPaths, 2);
        if (connectionDeclared) {
            final long needed = declared.initialConnectionWindow() / pathWindow + 1;
            paths = (int) Math.min(maxPaths, Math.max(paths, needed));
        }
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            judge(
                    testbed,
                    paths,
                    pathWindow,
                    pathDeclared,
                    connectionDeclared ? declared.initialConnectionWindow() : 0);
        } catch (final DutControlException e) {
            if (String.valueOf(e.getMessage()).contains("has failed")) {
                // The counted round withholds ACKs; on a slow tester that can outlast the DUT's connection timeout
                // (6.7.3), a timer this case does not control.
                throw Inconclusive.because(
                        "the DUT's connection timed out while the case withheld ACKs: " + e.getMessage());
            }
            throw e;
        }
    }

    private static void judge(
            final Testbed testbed,
            final int paths,
            final int pathWindow,
            final boolean pathDeclared,
            final int connectionWindow)
            throws Exception {
        // Growth round: every packet acknowledged at once, at least twice the path window per path (an additive
        // increase of about 1/W per packet would pass the first window by more than a packet).
        final long growth = Math.min(MOST_GROWTH_PACKETS, 2L * pathWindow * paths + paths);
        // The ACKs echo old timestamps, so that the DUT's RTO outlasts the counted round and few timers fire in it (a
        // timer only resends old PSNs, which are not counted, but the fewer the clearer the evidence).
        for (int path = 0; path < paths; path++) {
            testbed.connection().ackEchoAge(path, WindowRounds.WARM_UP_RTT);
        }
        testbed.connection().autoAck(true);
        try {
            WindowRounds.awaitCompletions(testbed, "10.1.6", WindowRounds.postLongWrites(testbed, growth, GROWTH_WR));
        } finally {
            testbed.connection().autoAck(false);
            testbed.connection().ackEchoAge(java.time.Duration.ZERO);
        }
        // Counted round: nothing acknowledged, data for more than every window allows.
        final int mark = testbed.peer().mark();
        final long allowed = (long) paths * pathWindow;
        final int bound = (int) Math.min(allowed, connectionWindow > 0 ? connectionWindow : allowed);
        WindowRounds.postLongWrites(testbed, allowed + 64, COUNTED_WR);
        final int total = WindowRounds.countInFlight(testbed, mark, bound, bound, Testbed.QUIET);
        final List<ReceivedPacket> fresh = testbed.peer().recorder().matching(mark, WindowRounds.FRESH_DATA);
        final Map<Integer, Integer> perPath = newPsnsPerPath(fresh);
        final String which = pathDeclared ? "its declared first path window" : "256, the send window (none declared)";
        perPath.forEach((path, count) -> assertThat(count)
                .as(
                        "10.1.6: new PSNs in flight on path %d with every ACK withheld, after %d packets were"
                                + " acknowledged: at most %s, %d (the window does not grow)",
                        path, growth, which, pathWindow)
                .isLessThanOrEqualTo(pathWindow));
        if (connectionWindow > 0) {
            assertThat(total)
                    .as(
                            "10.1.6: new PSNs in flight on the connection (%d paths) with every ACK withheld, after %d"
                                    + " packets were acknowledged: at most its declared first connection window, %d"
                                    + " (the window does not grow)",
                            paths, growth, connectionWindow)
                    .isLessThanOrEqualTo(connectionWindow);
        }
        if (total == 0) {
            throw Inconclusive.because("the DUT sent no new packet within " + Testbed.QUIET + " of the counted round's"
                    + " WRITEs, so no window was seen holding it: post WRITEs the device accepts");
        }
    }

    /** The fewest new PSNs the DUT sent on each path, as {@link WindowRounds#newPsnsAtLeast} counts them. */
    private static Map<Integer, Integer> newPsnsPerPath(final List<ReceivedPacket> packets) {
        final Map<Integer, List<ReceivedPacket>> byPath = new TreeMap<>();
        for (final ReceivedPacket packet : packets) {
            byPath.computeIfAbsent(packet.data().orElseThrow().header().pathId(), p -> new java.util.ArrayList<>())
                    .add(packet);
        }
        final Map<Integer, Integer> counts = new TreeMap<>();
        byPath.forEach((path, onPath) -> counts.put(path, WindowRounds.newPsnsAtLeast(onPath)));
        return counts;
    }
}
