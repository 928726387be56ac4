package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * RFC 6298's recursion (clause 6.6.1: alpha 1/8, beta 1/4; clause 6.6.2: RTO = SRTT + 4 RTTVAR) over RTT samples the
 * tester knows only within bounds, as every case that predicts a DUT's smoothed RTT or RTO does. The first sample sets
 * SRTT = R and RTTVAR = R / 2 (RFC 6298 section 2.2); each later one is smoothed in (section 2.3, RTTVAR from the SRTT
 * before it).
 *
 * <p>SRTT and RTTVAR are carried as intervals. SRTT rises with every sample; RTTVAR rises with its own previous value
 * and with the distance between the old SRTT and the sample, whose extremes over two intervals are at their ends. So
 * each interval holds every value the recursion can take for samples within their bounds: it is wider than the truth,
 * never narrower, and judged against it a conforming device cannot fail. Samples known exactly give equal bounds.
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class SmoothedRttBounds {
    private boolean sampled;
    private double srttLowNs;
    private double srttHighNs;
    private double rttvarLowNs;
    private double rttvarHighNs;

    /** Takes in one sample known to lie within {@code [lowNs, highNs]}. */
    public void sample(final double lowNs, final double highNs) {
        if (lowNs > highNs) {
            throw new IllegalArgumentException("a sample's lower bound " + lowNs + " is above its upper " + highNs);
        }
        if (!sampled) {
            sampled = true;
            srttLowNs = lowNs;
            srttHighNs = highNs;
            rttvarLowNs = lowNs / 2;
            rttvarHighNs = highNs / 2;
            return;
        }
        final double nearest = Math.max(0, Math.max(lowNs - srttHighNs, srttLowNs - highNs));
        final double farthest = Math.max(Math.abs(highNs - srttLowNs), Math.abs(srttHighNs - lowNs));
        rttvarLowNs = 0.75 * rttvarLowNs + 0.25 * nearest;
        rttvarHighNs = 0.75 * rttvarHighNs + 0.25 * farthest;
        srttLowNs = 0.875 * srttLowNs + 0.125 * lowNs;
        srttHighNs = 0.875 * srttHighNs + 0.125 * highNs;
    }

    /** Whether any sample was taken in. */
    public boolean sampled() {
        return sampled;
    }

    /** The smallest SRTT the samples allow (0 before any). */
    public double srttLowNs() {
        return srttLowNs;
    }

    /** The largest SRTT the samples allow (0 before any). */
    public double srttHighNs() {
        return srttHighNs;
    }

    /** The smallest RTO the samples allow, before the clamp to the declared bounds (0 before any). */
    public double rtoLowNs() {
        return srttLowNs + 4 * rttvarLowNs;
    }

    /** The largest RTO the samples allow, before the clamp to the declared bounds (0 before any). */
    public double rtoHighNs() {
        return srttHighNs + 4 * rttvarHighNs;
    }
}
