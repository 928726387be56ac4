package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * One path of a connection as the optional {@code path_status} reports it: its entropy, health and send
 * position, and its smoothed RTT when the agent reports one. Tests of re-pathing (6.6.4), path health (6.7) and the
 * connection's smoothed RTT (section 10) read it when the agent offers it.
 *
 * @param srttNs the path's smoothed RTT in nanoseconds (spec clause 6.6.1), empty when the agent does not report it or
 *     the path has no RTT sample yet (control protocol, {@code srttNs})
 */
@API(status = MAINTAINED, since = "0.1")
public record PathState(
        int pathId, int entropy, boolean healthy, long nextPsn, long oldestUnackedPsn, OptionalLong srttNs) {

    /** A path whose smoothed RTT is not reported. */
    @Deprecated(since = "0.15")
    public PathState(int pathId, int entropy, boolean healthy, long nextPsn, long oldestUnackedPsn) {
        this(pathId, entropy, healthy, nextPsn, oldestUnackedPsn, OptionalLong.empty());
    }
}
