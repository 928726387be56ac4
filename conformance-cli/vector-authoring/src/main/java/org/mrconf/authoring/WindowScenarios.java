package org.mrconf.authoring;

import static org.mrconf.authoring.SenderScenarios.TESTER_ADDRESS;
import static org.mrconf.authoring.SenderScenarios.TESTER_KEY;

import java.util.List;

/**
 * The built-in scenarios that judge the DUT's congestion windows (clauses 10.1.1 and 10.1.2) by the packets it has in
 * flight while the tester holds its ACKs back. Each first acknowledges a warm-up WRITE with echoes 1 s old: the DUT's
 * smoothed RTT is then about 1 s on every path, so no timer of the DUT's expires while the tester counts (its RTO is
 * at least the smaller of that and its maximum RTO) and one CE report can decrease a window only once. Then a long
 * WRITE goes out with ACKs held: its packets in flight must stay within the first window; one ACK per path with a CE
 * count then acknowledges them all, and the packets in flight after it must stay within that window times the
 * declared factor. The bounds are the device's declarations ({@code CongestionWindowCheck}).
 */
final class WindowScenarios {
    /** The age of the warm-up's echoes: far longer than a count takes. */
    private static final long ECHO_AGE_MS = 1000;

    /** 10.1.1's warm-up: 8 packets at the reference's MTU, each of which grows a window by 1/W (not by 1). */
    private static final int PATH_WARM_UP = 32 * 1024;

    /** 10.1.1's long WRITE: more packets than any path window allows, which is at most 256. */
    private static final int PATH_MESSAGE = 2 << 20;

    /**
     * 10.1.2's paths: with the reference's declared first windows (32 per path, 1024 for the connection) the paths
     * allow twice the connection window, before and after the decrease.
     */
    private static final int CONNECTION_PATHS = 64;

    /** 10.1.2's warm-up: about two packets per path, so that every path has an RTT sample. */
    private static final int CONNECTION_WARM_UP = 512 * 1024;

    /** 10.1.2's long WRITE: more than the first connection window and the decreased one together at any MTU. */
    private static final int CONNECTION_MESSAGE = 8 << 20;

    private WindowScenarios() {}

    static List<Scenario> all() {
        return List.of(pathWindow(), connectionWindow());
    }

    private static Scenario pathWindow() {
        final Scenario scenario = new Scenario(
                        "10.1.1/dut-path-window-halves-on-ce",
                        "valid",
                        "Ensure that the DUT, after a 32 KiB WRITE acknowledged with echoes 1 s old, has no more"
                                + " packets of a 2 MiB WRITE in flight on its one path, while the tester holds its ACKs"
                                + " back, than its declared initial path window grown by 1/W per packet acknowledged,"
                                + " and after one ACK with a CE count acknowledging them all no more than that window"
                                + " times its declared decrease factor, and completes both WRITEs",
                        "10.1.1")
                .region("source", PATH_MESSAGE, 0x3c, "LOCAL_WRITE");
        scenario.profiles.add("congestion");
        return warmUpCountDecreaseCount(scenario, 1300, PATH_WARM_UP, PATH_MESSAGE, false);
    }

    private static Scenario connectionWindow() {
        final Scenario scenario = new Scenario(
                        "10.1.2/dut-connection-window-binds",
                        "valid",
                        "Ensure that the DUT, after a 512 KiB WRITE over 64 paths acknowledged with echoes 1 s old,"
                                + " has no more packets of an 8 MiB WRITE in flight on the connection, while the tester"
                                + " holds its ACKs back, than its declared initial connection window grown by 1/W per"
                                + " packet acknowledged, whatever its path windows allow, and after one ACK per path"
                                + " with a CE count acknowledging them all no more than that window times its declared"
                                + " decrease factor, and completes both WRITEs",
                        "10.1.2")
                .region("source", CONNECTION_MESSAGE, 0x3d, "LOCAL_WRITE");
        scenario.profiles.add("congestion");
        scenario.profiles.add("multipath");
        scenario.setup.put("paths", CONNECTION_PATHS);
        return warmUpCountDecreaseCount(scenario, 1310, CONNECTION_WARM_UP, CONNECTION_MESSAGE, true);
    }

    /**
     * Steps: the warm-up WRITE {@code wrId} acknowledged with old echoes; ACKs held, the long WRITE {@code wrId + 1},
     * the window counted; one CE report per path, the window counted again; ACKs released, and both WRITEs complete.
     */
    private static Scenario warmUpCountDecreaseCount(
            final Scenario scenario, final long wrId, final int warmUp, final int message, final boolean connection) {
        scenario.stretchTimer(ECHO_AGE_MS);
        scenario.post("WRITE", 0, wrId, "source", 0, warmUp, TESTER_ADDRESS, TESTER_KEY);
        scenario.checkCompleted(new long[] {wrId});
        scenario.holdAcks(true);
        scenario.post("WRITE", 0, wrId + 1, "source", 0, message, TESTER_ADDRESS, TESTER_KEY);
        check(scenario, connection);
        scenario.reportCe(1);
        check(scenario, connection);
        scenario.holdAcks(false);
        scenario.checkCompleted(new long[] {wrId + 1});
        return scenario.expectCompletion(wrId, "SUCCESS", "WRITE").expectCompletion(wrId + 1, "SUCCESS", "WRITE");
    }

    private static void check(final Scenario scenario, final boolean connection) {
        if (connection) {
            scenario.checkConnectionWindow();
        } else {
            scenario.checkPathWindow();
        }
    }
}
