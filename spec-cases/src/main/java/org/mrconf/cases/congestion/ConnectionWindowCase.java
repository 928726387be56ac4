package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowRounds.FRESH_DATA;
import static org.mrconf.cases.congestion.WindowRounds.WARM_UP_RTT;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.ReceivedPacket;

/**
 * The connection window of clause 10.1.2, seen from the tester as the packets the DUT has in flight on the whole
 * connection while the tester withholds ACKs.
 *
 * <p>The only window a tester knows exactly is the first one: before any CE report the connection window is the
 * declared initial value (clause 12.1.6), grown by at most 1/W per packet acknowledged. So the case opens a connection
 * with enough paths that their first windows together allow well over the first connection window, and counts the
 * new PSNs the DUT sends before any ACK. Then it acknowledges everything with a CE report on every path. A CE report
 * never grows a window, and the first one must halve it (there was no earlier decrease within an SRTT), so the
 * packets in flight afterwards are bounded by the first window times the declared factor, while the halved path
 * windows together still allow twice that.
 *
 * <p>Every count is a lower bound of what the DUT has in flight: the tester counts only first transmissions it
 * received, and the DUT may not yet have taken in ACKs the tester sent. A count above the bound is therefore a
 * violation whatever the timing; a count that never reaches the window shows nothing and is inconclusive. A timeout
 * does not end a packet's flight (section 10), so a timer firing cannot make a conforming DUT exceed the bound; it
 * can only collapse path windows (clause 10.1.3), which the case reports as inconclusive for the second half.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connection congestion window")
class ConnectionWindowCase {
    /** Work requests of the warm-up, then of the long WRITEs. */
    private static final long WARM_UP_WR = 10_000;

    private static final long LONG_WR = 20_000;

    /**
     * Extra packets a count may show over the exact window: one for "below W" when W is not whole, one for the
     * "about" of the additive increase (10.1.1).
     */
    private static final int SLACK = 2;

    /**
     * How long the DUT may send nothing new before the first count ends short of the window: a link that lost the
     * last packets of some paths never shows the count reaching it (path_status then tells), and waiting longer would
     * let the timers fire.
     */
    static final java.time.Duration SILENT = TesterMessages.STALL.multipliedBy(4);

    @Test
    @DisplayName(
            "the connection never has more packets in flight than its window: the declared first value, and after a"
                    + " CE report on every path that value times the declared factor, whatever the path windows allow")
    @Verifies("10.1.2")
    void connectionWindowBindsWhateverThePathsAllow(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration profile = dut.profile();
        if (!profile.claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DeviceDeclaration.Congestion declared = profile.parameters().congestion();
        if (declared.initialPathWindow() < 1 || declared.initialConnectionWindow() < 1) {
            throw Inconclusive.because("the device declares no first path or connection window (clause 12.1.6,"
                    + " parameters.congestion.initialPathWindow and initialConnectionWindow), so no count of packets"
                    + " in flight can be judged against its connection window");
        }
        final int pathWindow = declared.initialPathWindow();
        final int connectionWindow = declared.initialConnectionWindow();
        // Paths whose first windows together allow twice the connection window, within the device's limit; a small
        // first connection window (section 10: as little as one packet) takes more paths rather than giving up, until
        // the paths' first windows leave room over what the connection window may have grown to in the warm-up (three
        // packets acknowledged per path), and their halved windows over the halved connection window.
        final int maxPaths = profile.conformance().limits().maxPaths();
        final double factor = profile.parameters().decreaseFactor();
        final int halvedPath = (int) Math.floor(Math.max(1, pathWindow * factor));
        int paths = (int) Math.min(maxPaths, Math.max(2, (2L * connectionWindow + pathWindow - 1) / pathWindow));
        while (paths < maxPaths && !leavesRoom(paths, pathWindow, halvedPath, connectionWindow, factor)) {
            paths++;
        }
        if ((long) paths * pathWindow < connectionWindow + connectionWindow / 4 + 2 * SLACK) {
            // The device's declared windows and path limit, not the tester, leave the connection window no room to
            // be what binds.
            throw NotApplicable.because(String.format(
                    "the device's configuration: the first windows of its %d paths (%d packets each, limits.maxPaths)"
                            + " allow at most %d packets, too few over its first connection window of %d for the"
                            + " connection window to be what holds the DUT back; larger first path windows would"
                            + " exercise it",
                    paths, pathWindow, (long) paths * pathWindow, connectionWindow));
        }
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            judge(testbed, connectionWindow, profile.parameters().decreaseFactor());
        } catch (final DutControlException e) {
            if (String.valueOf(e.getMessage()).contains("has failed")) {
                // The case withholds ACKs while it counts; on a slow tester that can outlast the DUT's connection
                // timeout (6.7.3), a timer this case does not control.
                throw Inconclusive.because(
                        "the DUT's connection timed out while the case withheld ACKs: " + e.getMessage());
            }
            throw e;
        }
    }

    /**
     * Whether {@code paths} paths' first windows leave room over the connection window grown by a warm-up of three packets
     * per path, and their halved windows over the halved connection window (with the counts' slack).
     */
    private static boolean leavesRoom(
            final int paths,
            final int pathWindow,
            final int halvedPath,
            final int connectionWindow,
            final double factor) {
        // Two packets per path, and about one more per path where ACKs are held to reach idle paths.
        final double grown = grownBound(connectionWindow, 3 * paths);
        final long first = (long) paths * pathWindow;
        final int halvedBound = (int) Math.floor(Math.max(1, (grown + 1) * factor)) + SLACK;
        return first >= (int) Math.floor(grown) + SLACK + connectionWindow / 4 + SLACK
                && (long) paths * halvedPath > halvedBound + SLACK;
    }

    /**
     * The largest a window of {@code first} packets can be after {@code acknowledged} packets each added about 1/W
     * (10.1.1, 10.1.2, no CE): at most 1/first each, and, allowing up to 1/floor(W) (at most 2/W), since
     * (W + 2/W)^2 is at most W^2 + 5 from W = 2 on (and (1 + 1)^2 = 1 + 3), at most sqrt(first^2 + 5 n).
     */
    static double grownBound(final int first, final int acknowledged) {
        return Math.min(first + (double) acknowledged / first, Math.sqrt((double) first * first + 5.0 * acknowledged));
    }

    private static void judge(final Testbed testbed, final int firstWindow, final double factor) throws Exception {
        final int paths = testbed.connection().spec().paths();
        // Paths the warm-up could not reach stay allowed: while ACKs are held the connection window, the very window
        // this case measures, may be what keeps the DUT to a few paths (a first window of one packet does). Their
        // timers keep the initial RTO; one that fires during a count only collapses its path's window (10.1.3), which
        // the counts below weigh (roomAfterTimers), and never makes a conforming DUT exceed the bound.
        final int warmUpPackets = WindowRounds.warmUpSampling(
                        testbed, "10.1.2", WARM_UP_WR, WindowRounds.warmUpAges(paths))
                .acknowledged();
        // The window before any CE report: the declared value, grown by at most 1/W for each warm-up packet, and never
        // past a declared maximum (10.1.2).
        final double grown = testbed.profile().parameters().congestion().capped(grownBound(firstWindow, warmUpPackets));
        final int firstBound = (int) Math.floor(grown) + SLACK;
        final int halvedBound = (int) Math.floor(Math.max(1, (grown + 1) * factor)) + SLACK;
        if ((long) paths * pathWindow(testbed) <= firstBound) {
            throw Inconclusive.because(String.format(
                    "the warm-up acknowledged %d packets, so the connection window may have grown to %.1f, and the"
                            + " first windows of the %d paths (%d packets in all) no longer leave room over it for"
                            + " the connection window to be what holds the DUT back; more paths (limits.maxPaths)"
                            + " would make it conclusive",
                    warmUpPackets, grown, paths, (long) paths * pathWindow(testbed)));
        }
        final int mark = testbed.peer().mark();
        // Enough data that neither count runs out of it, even for a DUT that ignored both bounds.
        WindowRounds.postLongWrites(testbed, (long) firstBound + 2L * halvedBound + 64, LONG_WR);
        final int first = WindowRounds.countInFlight(testbed, mark, firstWindow, firstBound, SILENT);
        assertThat(first)
                .as(
                        "10.1.2: new PSNs in flight before any ACK, over %d paths whose first windows allow %d: at"
                                + " most the first connection window %d (%.2f after the warm-up, plus %d)",
                        paths, (long) paths * pathWindow(testbed), firstWindow, grown, SLACK)
                .isLessThanOrEqualTo(firstBound);
        if (first < firstWindow) {
            // The link may have lost the last packets of some paths, which no later packet reveals; the DUT's own
            // account of its paths (path_status, optional) then tells whether its window was reached.
            final java.util.Optional<Long> reported = reportedInFlight(testbed);
            if (reported.isEmpty() || reported.get() < firstWindow) {
                throw Inconclusive.because(String.format(
                        "the tester saw only %d new PSNs in flight before any ACK (the DUT reports %s), fewer than its"
                                + " declared first connection window of %d: something else held it back or the link"
                                + " lost them, so the window was not shown to bind",
                        first, reported.map(String::valueOf).orElse("nothing"), firstWindow));
            }
        }
        // A timer that fired meanwhile may have collapsed its path's window to one packet (10.1.3); the halved
        // connection window still binds if the other paths' halved windows allow more than it.
        final int halvedPathWindow = (int) Math.floor(Math.max(1, pathWindow(testbed) * factor));
        final int roomAfterTimers = WindowRounds.roomAfterTimers(testbed, mark, halvedPathWindow);
        if (roomAfterTimers <= halvedBound) {
            throw Inconclusive.because(String.format(
                    "the DUT retransmitted on %d paths while the tester withheld ACKs (timers fired that the case does"
                            + " not control), so their windows may have collapsed (10.1.3) and the paths leave room"
                            + " for only %d packets, too few to show the halved connection window (%d) binding",
                    WindowRounds.retransmittedOn(testbed, mark).size(), roomAfterTimers, halvedBound - SLACK));
        }
        // Every path acknowledged in full, each ACK reporting a CE mark and echoing a timestamp as old as the
        // warm-up's,
        // so that the DUT's smoothed RTT stays far longer than the ACKs take and one decrease is all it may make.
        final int afterAcks = testbed.peer().mark();
        WindowRounds.acknowledgeAll(testbed, mark, ones(paths), false, WARM_UP_RTT.toNanos());
        // One decrease leaves the window at the first one times f; a second would leave it at f squared: a count
        // below the midpoint shows more than one decrease within one smoothed RTT of the connection.
        final int oneDecrease = (int) Math.floor(Math.max(1, firstWindow * factor));
        final int twoDecreases = (int) Math.floor(Math.max(1, firstWindow * factor * factor));
        final int lowest = (oneDecrease + twoDecreases + 1) / 2;
        final int second =
                WindowRounds.countInFlight(testbed, afterAcks, oneDecrease - SLACK, halvedBound, Testbed.QUIET);
        assertThat(second)
                .as(
                        "10.1.2: new PSNs in flight after a CE report on each of the %d paths: at most the first"
                                + " connection window times %.2f (%d, with %d of slack), whatever the halved path"
                                + " windows allow",
                        paths, factor, halvedBound - SLACK, SLACK)
                .isLessThanOrEqualTo(halvedBound);
        if (second == 0) {
            throw Inconclusive.because("the DUT sent no new packet within " + Testbed.QUIET + " after every path was"
                    + " acknowledged, so the halved connection window was not shown to bind");
        }
        if (second < lowest) {
            String doubt = doubtAboutTooFew(testbed, mark, afterAcks, halvedPathWindow, lowest);
            final java.util.Optional<Long> reported = reportedInFlight(testbed);
            if (doubt == null && reported.isEmpty()) {
                doubt = "the link may have lost the last packets of some paths, and the device offers no path_status"
                        + " to tell";
            }
            if (doubt == null && reported.get() >= lowest) {
                doubt = "the DUT reports " + reported.get() + " in flight (path_status): the link lost the last"
                        + " packets of some paths";
            }
            if (doubt != null) {
                throw Inconclusive.because(String.format(
                        "the DUT put only %d new PSNs in flight after the CE reports, fewer than one decrease allows"
                                + " (%d), but %s",
                        second, oneDecrease, doubt));
            }
            assertThat(second)
                    .as(
                            "10.1.2: new PSNs in flight after %d CE reports sent within one smoothed RTT of the"
                                    + " connection: one decrease leaves room for %d, two for %d; it may decrease at"
                                    + " most once per smoothed RTT",
                            paths, oneDecrease, twoDecreases)
                    .isGreaterThanOrEqualTo(lowest);
        }
        testbed.connection().autoAck(true);
        WindowRounds.acknowledgeAll(testbed, afterAcks, new int[paths], false);
    }

    /**
     * The packets in flight on the connection by the DUT's own account (path_status, optional: the sum over its paths
     * of next PSN minus oldest unacknowledged PSN), or empty when it offers none.
     */
    private static java.util.Optional<Long> reportedInFlight(final Testbed testbed) throws DutControlException {
        return testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .map(paths -> paths.stream()
                        .mapToLong(path -> (path.nextPsn() - path.oldestUnackedPsn()) & 0xFFFF_FFFFL)
                        .sum());
    }

    /**
     * Why a low count since {@code afterAcks} may not be the DUT's doing, or null: timers fired since {@code mark} on
     * so many paths that their collapsed windows (clause 10.1.3) leave less room than {@code lowest}, or a PSN is
     * missing inside a path's run of new PSNs (the link lost packets, so the tester counted fewer than were sent).
     */
    private static String doubtAboutTooFew(
            final Testbed testbed, final int mark, final int afterAcks, final int halvedPathWindow, final int lowest) {
        final int room = WindowRounds.roomAfterTimers(testbed, mark, halvedPathWindow);
        if (room < lowest + SLACK) {
            return String.format(
                    "it retransmitted on %d paths (timers fired that the case does not control), whose collapsed"
                            + " windows (10.1.3) leave room for only %d",
                    WindowRounds.retransmittedOn(testbed, mark).size(), room);
        }
        final java.util.Map<Integer, java.util.TreeSet<Long>> perPath = new java.util.HashMap<>();
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(afterAcks, FRESH_DATA)) {
            final var header = packet.data().orElseThrow().header();
            perPath.computeIfAbsent(header.pathId(), p -> new java.util.TreeSet<>())
                    .add(header.psn());
        }
        for (final var entry : perPath.entrySet()) {
            final java.util.TreeSet<Long> psns = entry.getValue();
            if (((psns.last() - psns.first()) & 0xFFFF_FFFFL) + 1 != psns.size()) {
                return "PSNs are missing on path " + entry.getKey() + ", so the link lost some of what it sent";
            }
        }
        return null;
    }

    private static int pathWindow(final Testbed testbed) {
        return testbed.profile().parameters().congestion().initialPathWindow();
    }

    private static int[] ones(final int paths) {
        final int[] ce = new int[paths];
        java.util.Arrays.fill(ce, 1);
        return ce;
    }
}
