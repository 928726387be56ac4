package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * One path of a connection as the optional {@code path_status} reports it: its entropy, health and send
 * position. Tests of re-pathing (6.6.4) and path health (6.7) read it when the agent offers it.
 */
@API(status = MAINTAINED, since = "0.1")
public record PathState(int pathId, int entropy, boolean healthy, long nextPsn, long oldestUnackedPsn) {}
