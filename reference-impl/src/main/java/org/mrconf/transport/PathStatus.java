package org.mrconf.transport;

/**
 * A read-only snapshot of one path's sender state, for tests, reports and the control agent.
 *
 * @param srttNs the smoothed RTT (clause 6.6.1), or -1 while the path has no RTT sample or when the endpoint withholds
 *     it (the control protocol's {@code srttNs} is optional)
 */
public record PathStatus(
        int pathId,
        int entropy,
        boolean healthy,
        long nextPsn,
        long oldestUnackedPsn,
        int unacknowledged,
        double congestionWindow,
        long srttNs,
        long rtoNs) {}
