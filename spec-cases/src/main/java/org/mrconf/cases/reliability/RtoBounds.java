package org.mrconf.cases.reliability;

import org.mrconf.cases.SmoothedRttBounds;

/**
 * The RTO that RFC 6298's recursion ({@link SmoothedRttBounds}) gives after a run of RTT samples that the tester knows
 * only within bounds: each sample is at least the age of the timestamp the tester's ACK echoed, and at most that plus
 * the time the DUT's own clock shows between the acknowledged packet and the next one it stamped after taking the ACK
 * in. The interval holds every RTO a device that follows the clause can arm: judged against it, a conforming device
 * cannot fail.
 *
 * @param lowestNs  the smallest RTO the recursion allows, before the clamp to the declared bounds
 * @param highestNs the largest
 */
record RtoBounds(double lowestNs, double highestNs) {

    /**
     * The bounds after the samples {@code [lowNs[i], highNs[i]]}, oldest first; the first sets SRTT = R and RTTVAR =
     * R / 2 (RFC 6298 section 2.2), each later one is smoothed in (section 2.3, RTTVAR from the SRTT before it).
     */
    static RtoBounds after(final long[] lowNs, final long[] highNs) {
        if (lowNs.length == 0 || lowNs.length != highNs.length) {
            throw new IllegalArgumentException("one or more samples, each with both bounds");
        }
        final SmoothedRttBounds smoothed = new SmoothedRttBounds();
        for (int i = 0; i < lowNs.length; i++) {
            smoothed.sample(lowNs[i], highNs[i]);
        }
        return new RtoBounds(smoothed.rtoLowNs(), smoothed.rtoHighNs());
    }

    /** The RTO for samples known exactly. */
    static double exact(final long... samplesNs) {
        return after(samplesNs, samplesNs).lowestNs();
    }

    /** These bounds clamped to the declared [minimum RTO, maximum RTO], as clause 6.6.2 arms the timer. */
    RtoBounds clamped(final long minRtoNs, final long maxRtoNs) {
        return new RtoBounds(
                Math.max(minRtoNs, Math.min(maxRtoNs, lowestNs)), Math.max(minRtoNs, Math.min(maxRtoNs, highestNs)));
    }
}
