package org.mrconf.cases.reliability;

/**
 * The RTO that RFC 6298's recursion (clause 6.6.1: alpha 1/8, beta 1/4; clause 6.6.2: RTO = SRTT + 4 RTTVAR) gives
 * after a run of RTT samples that the tester knows only within bounds: each sample is at least the age of the timestamp
 * the tester's ACK echoed, and at most that plus the time the DUT's own clock shows between the acknowledged packet and
 * the next one it stamped after taking the ACK in.
 *
 * <p>Both SRTT and RTTVAR are carried as intervals. SRTT rises with every sample; RTTVAR rises with its own previous
 * value and with the distance between the old SRTT and the sample, whose extremes over two intervals are at their
 * ends. So each interval holds every value the recursion can take for samples within their bounds, and the RTO
 * interval holds every RTO a device that follows the clause can arm. It is wider than the truth, never narrower:
 * judged against it, a conforming device cannot fail.
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
        double srttLow = lowNs[0];
        double srttHigh = highNs[0];
        double varLow = lowNs[0] / 2.0;
        double varHigh = highNs[0] / 2.0;
        for (int i = 1; i < lowNs.length; i++) {
            final double sampleLow = lowNs[i];
            final double sampleHigh = highNs[i];
            final double nearest = Math.max(0, Math.max(sampleLow - srttHigh, srttLow - sampleHigh));
            final double farthest = Math.max(Math.abs(sampleHigh - srttLow), Math.abs(srttHigh - sampleLow));
            varLow = 0.75 * varLow + 0.25 * nearest;
            varHigh = 0.75 * varHigh + 0.25 * farthest;
            srttLow = 0.875 * srttLow + 0.125 * sampleLow;
            srttHigh = 0.875 * srttHigh + 0.125 * sampleHigh;
        }
        return new RtoBounds(srttLow + 4 * varLow, srttHigh + 4 * varHigh);
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
