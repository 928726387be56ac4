package org.mrconf.cases.congestion;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.dut.DutControlException;

/**
 * A judgement made on a new connection per attempt, until one decides: timers the case does not control, or a slow
 * tester, can leave an attempt undecided, and each attempt is sound on its own. A connection the DUT failed itself
 * while the case withheld ACKs (its connection timeout) is one more undecided attempt, never a verdict.
 */
final class Attempts {
    private Attempts() {}

    /** A judgement on one testbed. */
    interface Judgement {
        void judge(Testbed testbed) throws Exception;
    }

    /**
     * Judges on a testbed of {@code paths} paths and one stream, up to {@code attempts} times.
     *
     * @throws Inconclusive naming why each attempt could not decide
     */
    static void onNewConnections(
            final DeviceUnderTest dut, final int paths, final int attempts, final Judgement judgement)
            throws Exception {
        final List<String> undecided = new ArrayList<>();
        for (int attempt = 1; attempt <= attempts; attempt++) {
            try (Testbed testbed = Testbed.open(dut, paths, 1)) {
                judgement.judge(testbed);
                return;
            } catch (final Inconclusive e) {
                undecided.add("attempt " + attempt + ": " + e.getMessage());
            } catch (final DutControlException e) {
                if (!String.valueOf(e.getMessage()).contains("has failed")) {
                    throw e;
                }
                undecided.add("attempt " + attempt + ": the DUT's connection timed out while the case withheld"
                        + " ACKs: " + e.getMessage());
            }
        }
        throw Inconclusive.because(String.join("; ", undecided));
    }
}
