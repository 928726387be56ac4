package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;

/**
 * A declared maximum connection window (clause 10.1.2, Table 12-2, freedom F-24): a sender MAY stop the additive
 * increase at a maximum it declares, and then MUST NOT let the window exceed it.
 *
 * <p>The case grows the connection window without CE ({@link WindowGrowth}: rounds in which the tester holds ACKs while
 * the DUT fills its window, then acknowledges them all) until the DUT has had the maximum in flight at once, or far
 * more rounds than additive increase needs to reach it. Every round's count is judged against the window's bound, and
 * that bound never exceeds the declared maximum: a device that grows past its maximum FAILs in the first round that
 * shows it. A device that declares no maximum, or one larger than a growth can reach, is not applicable here.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Declared maximum connection window")
class MaximumConnectionWindowCase {
    private static final long WARM_UP_WR = 36_000;
    private static final long GROWTH_WR = 37_000;

    /**
     * Rounds of ACKs without CE after the window reached its maximum: additive increase would carry it this many
     * packets past, well beyond the counts' slack.
     */
    private static final int ROUNDS_PAST = 8;

    /** The largest maximum a growth can reach: about one packet per round, from the first window. */
    private static final int REACHABLE = WindowGrowth.MAX_ROUNDS;

    @Test
    @DisplayName("the connection window grows by additive increase up to its declared maximum and never past it")
    @Verifies("10.1.2")
    void connectionWindowStaysAtOrBelowItsDeclaredMaximum(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration profile = dut.profile();
        if (!profile.claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DeviceDeclaration.Congestion declared = profile.parameters().congestion();
        final int maximum = declared.maxConnectionWindow();
        if (maximum <= 0) {
            throw NotApplicable.because("the device's configuration: it declares no maximum connection window (clause"
                    + " 10.1.2, Table 12-2), so its additive increase has none");
        }
        if (declared.initialPathWindow() < 1 || declared.initialConnectionWindow() < 1) {
            throw Inconclusive.because("the device declares no first path or connection window (clause 12.1.6), so no"
                    + " count of packets in flight can be judged against its maximum");
        }
        if (maximum - declared.initialConnectionWindow() > REACHABLE) {
            throw NotApplicable.because(String.format(
                    "the device's configuration: its declared maximum connection window of %d packets lies more than"
                            + " %d packets above its first window of %d, more than additive increase reaches in the"
                            + " rounds this case takes (clause 10.1.2: a test needing more than it can reach names the"
                            + " maximum)",
                    maximum, REACHABLE, declared.initialConnectionWindow()));
        }
        // Paths whose first windows together allow twice the maximum, so that the paths never hold the DUT back first.
        final int paths = (int) Math.min(
                profile.conformance().limits().maxPaths(),
                Math.max(2, (2L * maximum + declared.initialPathWindow() - 1) / declared.initialPathWindow()));
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            final long[] echoAgeNs = WindowRounds.warmUpAges(paths);
            final int warmUp = WindowRounds.warmUpSampling(testbed, "10.1.2", WARM_UP_WR, echoAgeNs)
                    .acknowledged();
            final double upper =
                    declared.capped(ConnectionWindowCase.grownBound(declared.initialConnectionWindow(), warmUp) + 1);
            // Every round asserts its count against the bound, which the maximum caps: the check of this case. The
            // window is grown to the maximum, then given rounds enough that a window growing on past it would show.
            final WindowGrowth.Grown reached = WindowGrowth.grow(
                    testbed,
                    upper,
                    declared.initialConnectionWindow(),
                    echoAgeNs,
                    GROWTH_WR,
                    g -> g.lower() >= maximum - 1);
            final WindowGrowth.Grown grown = WindowGrowth.grow(
                    testbed,
                    reached.upper(),
                    reached.lower(),
                    echoAgeNs,
                    GROWTH_WR + 1000,
                    g -> g.rounds() >= ROUNDS_PAST);
            assertThat(grown.upper())
                    .as("10.1.2: the connection window's bound never passes the declared maximum")
                    .isLessThanOrEqualTo(maximum);
            if (grown.lower() < maximum - 2) {
                // A sender may keep fewer packets in flight than its window allows (section 10): its choice, not the
                // tester's blindness, left the maximum unreached.
                throw NotApplicable.because(String.format(
                        "the device's configuration: in %d rounds of ACKs without CE the DUT had at most %d packets in"
                                + " flight at once, short of its declared maximum connection window of %d, so the"
                                + " maximum was not reached (the paths' windows or the DUT's own choice held it back,"
                                + " which section 10 allows); every count was within the window's bound",
                        grown.rounds(), grown.lower(), maximum));
            }
        }
    }
}
