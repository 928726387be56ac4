package org.mrconf.dut;

/**
 * One path of a connection as the optional {@code path_status} reports it: its entropy, health and send
 * position. Tests of re-pathing (6.6.4) and path health (6.7) read it when the agent offers it.
 */
public record PathState(int pathId, int entropy, boolean healthy, long nextPsn, long oldestUnackedPsn) {}
